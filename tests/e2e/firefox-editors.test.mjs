// The widget over the npm editors in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi),
// with the shipped model: ProseMirror, CodeMirror 6, Lexical, Quill, Slate, CKEditor 5, Draft.js
// and Trix, bundled as for editors.test.mjs. In each: the preedit is drawn at the caret inside the
// text, what follows the caret moved aside after it, the candidate window under it, and the commit
// lands at the caret in the editor's own state. (The extension's Firefox variant covers plain
// fields and the code editors: tests/extension/firefox.test.mjs.) Screenshots go to
// tests/e2e/output/firefox-*.png.
//
//   node --test tests/e2e/firefox-editors.test.mjs        (after `make wasm`)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { startServer, ensureOutput, MODEL } from './harness.mjs';
import { bundleEditors, BUNDLE_URL } from './editors/bundle.mjs';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('puppeteer-core').Browser} */
let browser;

before(async () => {
  await bundleEditors();
  server = await startServer();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {number} ms */
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Each editor: the text before, and what its state is after `今日は` is committed 6 characters in
 * (inside the bold run where the editor has marks).
 */
const EDITORS = /** @type {const} */ ([
  ['prosemirror', '前の文、太字の部分とリンク。', '前の文、太字今日はの部分とリンク。'],
  ['codemirror', '前の文、後ろの文。\n二行目', '前の文、後ろ今日はの文。\n二行目'],
  ['lexical', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
  ['quill', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
  ['slate', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
  ['ckeditor', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
  ['draft', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
  ['trix', '前の文、太字の部分と後ろ。', '前の文、太字今日はの部分と後ろ。'],
]);

for (const [name, before, after] of EDITORS) {
  test(`Firefox, ${name}: the preedit at the caret, the text after it moved aside, the candidates under it, the commit in the editor's state`, async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 900, height: 500 });
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}www/test/blank.html`);
    const status = await page.evaluate(
      async (model, bundle, name) => {
        const w = /** @type {any} */ (window);
        const henkan = await import('/pkg/henkan.js');
        const { HenkanIme } = await import('/www/ime.js');
        const { attach } = await import('/www/widget.js');
        const editors = await import(bundle);
        document.body.innerHTML = `<style>.ProseMirror { white-space: pre-wrap; outline: none }</style>
          <div id="host" style='font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 20px; width: 520px; border: 1px solid #888; background: #fffdf5'></div>`;
        w.ime = new HenkanIme();
        await w.ime.load({ module: henkan, modelUrl: `/${model}` });
        w.m = await editors[name](document.getElementById('host'));
        attach(w.m.field, { ime: w.ime });
        return w.ime.status;
      },
      MODEL,
      BUNDLE_URL,
      name,
    );
    assert.equal(status, 'ready');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).m.text()), before);
    // The caret 6 characters in, with the keys, as a user puts it (Slate reads the selection at
    // most every 100 ms: the pauses).
    await page.click('#host');
    await page.keyboard.down('Control');
    await page.keyboard.press('Home');
    await page.keyboard.up('Control');
    await pause(200);
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await pause(200);
    const caret = await page.evaluate(() => {
      const r = /** @type {Selection} */ (getSelection()).getRangeAt(0).getClientRects()[0];
      return r && { left: r.left, top: r.top };
    });
    await page.keyboard.type('kyouha', { delay: 15 });
    const shown = await page.evaluate(() => {
      const runs = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-runs')).getClientRects()[0];
      const tail = document.querySelector('.henkan-preedit-tail');
      return {
        runs: runs && { left: runs.left, top: runs.top, right: runs.right },
        tail: (tail?.textContent ?? '').replace(/\u200b/g, ''),
        tailLeft: tail?.getClientRects()[0]?.left,
        text: /** @type {any} */ (window).m.text(),
      };
    });
    assert.equal(shown.text, before, 'the editor’s state holds nothing of the preedit');
    assert.ok(caret && shown.runs && Math.abs(shown.runs.left - caret.left) <= 3, `the preedit starts at the caret: ${JSON.stringify({ caret, shown })}`);
    assert.equal(shown.tail, before.slice(6).split('\n')[0], 'what follows the caret is drawn after the preedit');
    assert.ok(shown.tailLeft !== undefined && Math.abs(shown.tailLeft - shown.runs.right) <= 3, `right after it: ${JSON.stringify(shown)}`);
    await page.keyboard.press(' ');
    await page.keyboard.press(' ');
    const list = await page.evaluate(() => {
      const el = /** @type {HTMLElement} */ (document.querySelector('.henkan-candidates'));
      const r = el.getBoundingClientRect();
      const runs = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-runs')).getBoundingClientRect();
      return { shown: getComputedStyle(el).display !== 'none', top: r.top, left: r.left, under: runs.bottom, at: runs.left };
    });
    assert.ok(list.shown && list.top >= list.under - 1 && Math.abs(list.left - list.at) <= 30, `the candidate window under the preedit: ${JSON.stringify(list)}`);
    await page.screenshot({ path: path.join(ensureOutput(), `firefox-${name}.png`) });
    // Back to the first candidate, and commit.
    await page.keyboard.down('Shift');
    await page.keyboard.press(' ');
    await page.keyboard.up('Shift');
    await page.keyboard.press('Enter');
    await page.waitForFunction((was) => /** @type {any} */ (window).m.text() !== was, { timeout: 2000 }, before).catch(() => {});
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).m.text()), after);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

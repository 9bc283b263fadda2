#!/usr/bin/env node
// The cost of the moved tail in an editor (docs/browser.md, *Why an overlay in editors*): the
// preedit's render (`PreeditBox.render`, the overlay laid out and measured) per key while typing
// into ProseMirror with nothing after the caret, and with a tail of about 170, 340 and 850
// characters (the last over `TAIL_MAX_CHARS`: covered, not copied). One round types the same keys
// at each place in turn, so that every place sees the same machine load; the differences from no
// tail are paired by round.
//
//   node tests/e2e/measure-editor-tail.mjs [--rounds 10] [--out tests/e2e/output/editor-tail.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan).
import path from 'node:path';
import { runMeasurement, ensureOutput, opt, machine, writeMeasurement, MODEL } from './harness.mjs';
import { bundleEditors, BUNDLE_URL } from './editors/bundle.mjs';

const ROUNDS = Number(opt('rounds', '10'));
const OUT = opt('out', path.join(ensureOutput(), 'editor-tail.json'));
const KEYS = 'kyouhaiitenkidesune';
/** One sentence, 28 characters; the paragraph holds 30 of them after the first line. */
const SENTENCE = '長い段落の続きです。この文は折り返して次の行に続きます。';
/** Where the caret goes: characters before the paragraph's end (0: its end). */
const PLACES = { none: 0, 170: 6 * SENTENCE.length, 340: 12 * SENTENCE.length, 850: 30 * SENTENCE.length };

/** @param {number[]} xs @param {number} p */
function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** @param {number} x */
const r3 = (x) => Math.round(x * 1000) / 1000;

runMeasurement(async (server, browser) => {
  await bundleEditors();
  const page = await browser.context.newPage();
  await page.goto(`${server.url}www/test/blank.html`);
  await page.evaluate(
    async ([model, bundle]) => {
      const w = /** @type {any} */ (window);
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      const { PreeditBox } = await import('/www/widget/preedit.js');
      const render = PreeditBox.prototype.render;
      w.renders = [];
      PreeditBox.prototype.render = function (/** @type {any} */ p) {
        const t = performance.now();
        render.call(this, p);
        w.renders.push(performance.now() - t);
      };
      const { attach } = await import('/www/widget.js');
      const editors = await import(bundle);
      document.body.innerHTML = `<style>.ProseMirror { white-space: pre-wrap; outline: none }</style>
        <div id="host" style='font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 20px; width: 520px'></div>`;
      const ime = new HenkanIme();
      await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      w.m = await editors.prosemirror(document.getElementById('host'));
      attach(w.m.field, { ime });
    },
    /** @type {[string, string]} */ ([MODEL, BUNDLE_URL]),
  );
  await page.click('#host');
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(SENTENCE.repeat(30));
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(Object.keys(PLACES).map((k) => [k, []]));
  /** @type {Record<string, number>} */
  const tails = {};
  /** @type {Record<string, number[]>} each round's median, for the paired differences */
  const medians = Object.fromEntries(Object.keys(PLACES).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, back] of Object.entries(PLACES)) {
      await page.keyboard.press('Control+End');
      for (let i = 0; i < back; i++) await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(100);
      await page.evaluate(() => {
        /** @type {any} */ (window).renders = [];
      });
      for (const k of KEYS) await page.keyboard.press(k);
      const r = await page.evaluate(() => ({
        renders: /** @type {number[]} */ (/** @type {any} */ (window).renders),
        tail: document.querySelector('.henkan-preedit-tail')?.textContent?.length ?? 0,
      }));
      times[name].push(...r.renders);
      medians[name].push(pct(r.renders, 50));
      tails[name] = r.tail;
      await page.keyboard.press('Escape');
    }
  }
  await page.close();
  const result = {
    date: new Date().toISOString().slice(0, 10),
    rounds: ROUNDS,
    keys: KEYS.length,
    renderMs: Object.fromEntries(
      Object.entries(times).map(([k, xs]) => [k, { tailCopied: tails[k], n: xs.length, p50: r3(pct(xs, 50)), p95: r3(pct(xs, 95)) }]),
    ),
    // Each place's round median minus the same round's with nothing after the caret: the mean
    // over the rounds and its standard error.
    pairedP50MsAgainstNone: Object.fromEntries(
      Object.keys(PLACES)
        .filter((k) => k !== 'none')
        .map((k) => {
          const d = medians[k].map((m, i) => m - medians.none[i]);
          const mean = d.reduce((a, b) => a + b, 0) / d.length;
          const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1));
          return [k, { mean: r3(mean), se: r3(sd / Math.sqrt(d.length)) }];
        }),
    ),
    machine: machine(),
  };
  writeMeasurement(OUT, result);
});

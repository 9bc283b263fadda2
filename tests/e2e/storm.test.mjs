// Bad input through the widget in Chromium with the shipped model: seeded key storms into a
// textarea, an <input> and a contenteditable (letters, conversion and editing keys, function keys,
// IME on/off, text that arrives without a key in any script; tests/e2e/storm-keys.mjs), and a
// paste of a quarter of a megabyte while composing. Nothing may throw, the engine must stay up (no
// trap across the wasm boundary, which would leave a plain field), committed text is never lost to
// a key that deletes nothing, the wasm memory stays bounded, and the IME still converts afterwards.
// The editors get their storm in editors.test.mjs. The <input>'s storm of every key is typed in
// kana input.
//
//   node --test tests/e2e/storm.test.mjs        (after `make wasm`; STORM_SEED=N for another storm)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, widgetPage, collectConsoleErrors } from './harness.mjs';
import { rng, step, KEEPING, RESIZE, EDITING } from './storm-keys.mjs';

const env = serverAndBrowser();

const SEED = Number(process.env.STORM_SEED ?? 20261205);
const KEYS_PER_FIELD = Number(process.env.STORM_KEYS ?? 400);
const FIELDS = ['ta', 'line', 'rich'];
const HTML = `<textarea id="ta" style="width: 500px; height: 120px"></textarea>
  <input id="line" style="width: 500px">
  <div id="rich" contenteditable="true" style="width: 500px; min-height: 60px; border: 1px solid"></div>`;

/**
 * A page with the three fields attached to one IME (`window.henkanIme`), the language models in;
 * the page's errors and console errors are collected.
 */
async function stormPage() {
  const { page, errors, status } = await widgetPage(env.browser.context, env.server.url, HTML, FIELDS);
  assert.equal(status, 'ready');
  collectConsoleErrors(page, errors);
  await page.waitForFunction(() => /** @type {any} */ (window).henkanIme.lm !== 'pending', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanIme.lm), 'ready');
  return { page, errors };
}

/**
 * The field's committed text: a text field's value (its preedit is drawn over it), a
 * contenteditable's text without the preedit the widget puts inline, its no-break spaces read as
 * spaces (Chromium writes a space at the end of a line as one and turns it back when text follows).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
const textOf = (page, id) =>
  page.evaluate((id) => {
    const el = /** @type {any} */ (document.getElementById(id));
    if (!el.isContentEditable) return el.value;
    const copy = el.cloneNode(true);
    for (const n of copy.querySelectorAll('.henkan-preedit-runs, .henkan-preedit, .henkan-warm')) n.remove();
    return copy.textContent.replaceAll('\u00a0', ' ');
  }, id);

/**
 * The field's widget state: IME on, the engine's state.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
const widgetState = (page, id) =>
  page.evaluate(async (id) => {
    const { stateOf } = await import('/www/widget.js');
    const s = /** @type {any} */ (stateOf(/** @type {HTMLElement} */ (document.getElementById(id))));
    return { enabled: Boolean(s?.enabled), state: String(s?.last?.state ?? 'precomposition'), kanaInput: Boolean(s?.last?.kanaInput) };
  }, id);

/** Whether `a` is a subsequence of `b` (UTF-16 units). */
function isSubsequence(a, b) {
  let i = 0;
  for (let j = 0; i < a.length && j < b.length; j++) if (a[i] === b[j]) i++;
  return i === a.length;
}

/** Whether `after` is `before` with `piece` inserted at one place. */
function insertedOnce(before, after, piece) {
  if (after.length !== before.length + piece.length) return false;
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let q = 0;
  while (q < before.length - p && before[before.length - 1 - q] === after[after.length - 1 - q]) q++;
  // The insertion point lies between the end of the common suffix and the end of the common prefix.
  for (let k = before.length - q; k <= p; k++) if (after.startsWith(piece, k) && after.startsWith(before.slice(k), k + piece.length)) return true;
  return false;
}

/** The wasm memory's size in bytes. @param {import('playwright-core').Page} page */
const wasmBytes = (page) => page.evaluate(() => /** @type {any} */ (window).henkanIme.memory.buffer.byteLength);

/**
 * The IME still converts in the field: with the IME on and nothing composed, きょうは + Space +
 * Enter puts 今日は at the caret and nothing else changes.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function stillConverts(page, id) {
  await page.focus(`#${id}`);
  for (let i = 0; i < 3 && (await widgetState(page, id)).state !== 'precomposition'; i++) await page.keyboard.press('Escape');
  if (!(await widgetState(page, id)).enabled) await page.keyboard.press('Control+Space');
  const st = await widgetState(page, id);
  assert.ok(st.enabled && st.state === 'precomposition', `${id}: ${JSON.stringify(st)}`);
  const before = await textOf(page, id);
  await page.keyboard.type('kyouha');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  const after = await textOf(page, id);
  assert.ok(insertedOnce(before, after, '今日は'), `${id}: ${JSON.stringify(before.slice(-40))} → ${JSON.stringify(after.slice(-40))}`);
}

test('key storms that delete nothing: no error, the engine stays up, committed text only grows, the IME converts after', async (t) => {
  const { page, errors } = await stormPage();
  const next = rng(SEED);
  const memoryBefore = await wasmBytes(page);
  for (const id of FIELDS) {
    await page.click(`#${id}`);
    let committed = await textOf(page, id);
    /** @type {string[]} */
    const sent = [];
    for (let i = 0; i < KEYS_PER_FIELD; i++) {
      const { state } = await widgetState(page, id);
      const composing = state === 'composing' || state === 'converting';
      sent.push(await step(page, next, composing ? [...KEEPING, ...RESIZE] : KEEPING));
      const now = await textOf(page, id);
      assert.ok(isSubsequence(committed, now), `${id}, key ${i} (${sent.slice(-8).join(' ')}): ${JSON.stringify(committed.slice(-30))} lost in ${JSON.stringify(now.slice(-30))}`);
      committed = now;
      // A key may move the focus (none of these should); the storm stays in its field.
      if (!(await page.evaluate((id) => document.activeElement?.id === id, id))) await page.focus(`#${id}`);
    }
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanIme.status), 'ready', `${id}: the engine stopped`);
    assert.deepEqual(errors, [], `${id}: ${sent.slice(-12).join(' ')}`);
    await stillConverts(page, id);
    assert.ok(committed.length > 0);
  }
  // Bounded memory: the storms' compositions, lattices and histories fit in what the model needs.
  const memoryAfter = await wasmBytes(page);
  t.diagnostic(`wasm memory ${memoryBefore} → ${memoryAfter} bytes over ${3 * KEYS_PER_FIELD} storm keys`);
  assert.ok(memoryAfter - memoryBefore <= 32 << 20, `wasm memory ${memoryBefore} → ${memoryAfter} bytes`);
  // The three fields after their storms, the last one converting again.
  await page.keyboard.type('sutoomu');
  await page.keyboard.press('Space');
  await page.screenshot({ path: path.join(ensureOutput(), 'storm.png'), clip: { x: 0, y: 0, width: 620, height: 340 } });
  assert.deepEqual(errors, []);
  await page.close();
});

test('key storms with every key, editing ones too: no error, the engine stays up, one set of windows, the IME converts after', async () => {
  const { page, errors } = await stormPage();
  const next = rng(SEED + 1);
  const windows = () => page.evaluate(() => document.querySelectorAll('.henkan-candidates, .henkan-suggestions').length);
  const windowsBefore = await windows();
  for (const id of FIELDS) {
    await page.click(`#${id}`);
    // the <input>'s storm in kana input (the page's switch, as Alt+カタカナひらがな leaves it)
    const kanaInput = (/** @type {boolean} */ on) => page.evaluate((on) => (/** @type {any} */ (window).henkanIme.kanaInput = on), on);
    if (id === 'line') await kanaInput(true);
    /** @type {string[]} */
    const sent = [];
    for (let i = 0; i < KEYS_PER_FIELD; i++) {
      sent.push(await step(page, next, [...KEEPING, ...RESIZE, ...EDITING]));
      if (i % 20 === 19 && !(await page.evaluate((id) => document.activeElement?.id === id, id))) await page.focus(`#${id}`);
    }
    if (id === 'line') {
      assert.equal((await widgetState(page, id)).kanaInput, true, 'the storm was typed in kana input');
      await kanaInput(false);
    }
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanIme.status), 'ready', `${id}: the engine stopped`);
    assert.deepEqual(errors, [], `${id}: ${sent.slice(-12).join(' ')}`);
    await stillConverts(page, id);
  }
  // The windows are made once per IME and document, not once per key.
  assert.ok((await windows()) <= Math.max(windowsBefore, 2) + FIELDS.length, `windows: ${await windows()}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a quarter of a megabyte pasted or arriving without a key: all of it goes in, a composition first; the IME goes on', async () => {
  const { page, errors } = await stormPage();
  await env.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Every script and a few odd units, in lines, repeated to 2¹⁸ UTF-16 units. (One paragraph of
  // that size takes Chromium itself seconds a key to lay out, with or without the widget.)
  const piece = '日本語のテキスト、English text, 한국어, العربية, 😀👨‍👩‍👧 e\u0301 𠮷\n';
  const big = piece.repeat(Math.ceil((1 << 18) / piece.length));
  // Text that arrives without a key goes in by `execCommand('insertText')`, whose time in Chromium
  // grows faster than the number of lines (with or without the widget): 2¹⁴ units here.
  const keyless = piece.repeat(Math.ceil((1 << 14) / piece.length));
  /**
   * What the field shows of `text` inserted into it: an <input> drops a final line break and turns
   * the others into spaces (the browser's rule for a single-line field), a contenteditable keeps them as elements (not in
   * its textContent).
   * @param {string} id @param {string} text
   */
  const shown = (id, text) => (id === 'line' ? text.replace(/\n$/, '').replaceAll('\n', ' ') : id === 'rich' ? text.replaceAll('\n', '') : text);
  /** The field's text as `shown` counts it. @param {string} id */
  const now = async (id) => shown(id, await textOf(page, id));
  /** Waits until the field holds `want` (compared without printing a quarter of a megabyte). @param {string} id @param {string} want */
  const holds = async (id, want) => {
    await page.waitForFunction(([id, n]) => {
      const el = /** @type {any} */ (document.getElementById(String(id)));
      return (el.isContentEditable ? el.textContent : el.value).replaceAll('\n', '').length >= Number(n) - 10000;
    }, [id, want.length], { timeout: 60000 });
    const got = await now(id);
    let i = 0;
    while (i < got.length && got[i] === want[i]) i++;
    assert.ok(got === want, `${id}: ${got.length} units against ${want.length}, first difference at ${i}: ${JSON.stringify(got.slice(i, i + 20))} against ${JSON.stringify(want.slice(i, i + 20))}`);
  };
  for (const id of FIELDS) {
    await page.click(`#${id}`);
    // Ctrl+V while composing is held back, as the engine holds every Ctrl/Alt/Meta key there:
    // the composition stays as it was. After the commit it pastes.
    await page.keyboard.type('kyou');
    await page.evaluate((t) => navigator.clipboard.writeText(t), big);
    await page.keyboard.press('Control+v');
    assert.equal(await textOf(page, id), '', `${id}: nothing goes in while composing`);
    assert.equal((await widgetState(page, id)).state, 'composing');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+v');
    await holds(id, shown(id, 'きょう' + big));
    await stillConverts(page, id);
    // Text without a key while composing (a virtual keyboard, dictation, the context menu's
    // paste): the composition is committed first, then the text goes in unconverted.
    const before = await now(id);
    await page.keyboard.type('kyou');
    await page.keyboard.insertText(keyless);
    await holds(id, before + shown(id, 'きょう' + keyless));
    assert.equal((await widgetState(page, id)).state, 'precomposition');
    await stillConverts(page, id);
  }
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanIme.status), 'ready');
  assert.deepEqual(errors, []);
  await page.close();
});

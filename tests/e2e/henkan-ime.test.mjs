// The one-line API (www/henkan-ime.js) in Chromium, in the repository's layout: fields attached
// by a `data-henkan` attribute and inside `<henkan-ime>`, nothing downloaded before the first
// focus, one engine for every field, the model from the Cache API on the next visit, a damaged
// cached copy discarded and downloaded again, and the decoded copy: stored after a checked load,
// used by the next visit, and discarded when damaged without the load failing.
//
//   node --test tests/e2e/henkan-ime.test.mjs        (after `make wasm`; the shipped model)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, MODEL } from './harness.mjs';

const env = serverAndBrowser();
const SHIPPED = MODEL === 'models/henkan.henkan';

/**
 * Opens a page whose body is `html` with www/henkan-ime.js loaded as a plain module script, and
 * records the model's requests.
 * @param {string} html
 */
async function open(html) {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  /** @type {string[]} */
  const modelRequests = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.henkan')) modelRequests.push(r.url());
  });
  await page.goto(`${env.server.url}www/test/blank.html`);
  await page.evaluate(
    async ([html, model, shipped]) => {
      document.body.innerHTML = String(html);
      const api = await import('/www/henkan-ime.js');
      if (!shipped) api.configure({ modelUrl: `/${model}`, modelInfo: null });
      const w = /** @type {any} */ (window);
      w.henkanApi = api;
      w.modelEvents = [];
      api.getIme().addEventListener('model', (/** @type {any} */ e) => w.modelEvents.push(e.detail));
      api.getIme().addEventListener('modelstored', (/** @type {any} */ e) => w.modelEvents.push({ stored: e.detail.stored, decoded: e.detail.decoded }));
      w.statuses = [];
      api.getIme().addEventListener('status', () => w.statuses.push(api.getIme().status));
    },
    [html, MODEL, SHIPPED],
  );
  return { page, errors, modelRequests };
}

/**
 * Waits until the page's IME has the whole model (or failed).
 * @param {import('playwright-core').Page} page
 */
async function ready(page) {
  await page.waitForFunction(() => {
    const ime = /** @type {any} */ (window).henkanApi.getIme();
    return ime.status === 'error' || (ime.status === 'ready' && ime.lm !== 'pending');
  }, null, { timeout: 60000 });
  return page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().status);
}

/**
 * Types romaji into the focused field, converts and commits.
 * @param {import('playwright-core').Page} page
 * @param {string} romaji
 */
async function convert(page, romaji) {
  await page.keyboard.type(romaji);
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
}

test('data-henkan and <henkan-ime> fields convert; nothing loads before the first focus; one engine', async () => {
  const { page, errors, modelRequests } = await open(
    '<textarea id="a" data-henkan></textarea><henkan-ime live-conversion><input id="b"></henkan-ime><input id="pw" type="password" data-henkan>',
  );
  // A field added later is attached too.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<div id="c" contenteditable="true" data-henkan></div>'));
  await page.waitForTimeout(200);
  assert.deepEqual(modelRequests, []);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().status), 'idle');
  await page.click('#a');
  assert.equal(await ready(page), 'ready');
  assert.equal(modelRequests.length, 1);
  await convert(page, 'kyouhaiitenki');
  assert.equal(await page.inputValue('#a'), '今日はいい天気');
  // <henkan-ime live-conversion>: Enter commits the live conversion.
  await page.click('#b');
  await page.keyboard.type('kisyanokisya');
  await page.keyboard.press('Enter');
  assert.match(await page.inputValue('#b'), /^[^a-z]*記者[^a-z]*$/);
  await page.click('#c');
  await convert(page, 'nihongo');
  assert.equal(await page.textContent('#c'), '日本語');
  assert.equal(modelRequests.length, 1);
  // The theme: custom properties on :root.
  await page.evaluate(() => document.documentElement.style.setProperty('--henkan-selected-bg', 'rgb(1, 2, 3)'));
  await page.keyboard.type('kisya');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => {
    const li = document.querySelector('.henkan-candidates li[aria-selected="true"]');
    return li && getComputedStyle(li).backgroundColor === 'rgb(1, 2, 3)';
  });
  await page.keyboard.press('Enter');
  // Removing the attribute detaches the field: keys go in as typed.
  await page.evaluate(() => document.getElementById('a')?.removeAttribute('data-henkan'));
  await page.click('#a');
  await page.keyboard.press('End');
  await page.keyboard.type('abc');
  assert.equal(await page.inputValue('#a'), '今日はいい天気abc');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a form's フリガナ fields start in katakana input, found by their header cell, term, placeholder or name; ふりがな and the other fields keep hiragana", async () => {
  const { page, errors } = await open(`
    <table>
      <tr><th>お名前</th><td><input id="name" data-henkan></td></tr>
      <tr><th>フリガナ</th><td><input id="th" data-henkan></td></tr>
    </table>
    <dl><dt>セイ（全角カナ）</dt><dd><input id="dt" data-henkan></dd></dl>
    <input id="placeholder" data-henkan placeholder="ヤマダ タロウ">
    <input id="named" data-henkan name="last_name_kana">
    <label>ふりがな <input id="hiragana" data-henkan name="name_kana"></label>
    <label>フリガナ <input id="off" data-henkan data-henkan-katakana="off"></label>`);
  const badge = () => page.evaluate(() => [...document.querySelectorAll('.henkan-indicator')].find((b) => /** @type {HTMLElement} */ (b).style.display === 'block')?.textContent ?? null);
  await page.click('#name');
  assert.equal(await ready(page), 'ready');
  await convert(page, 'nihongo');
  assert.equal(await page.inputValue('#name'), '日本語');
  for (const [id, want] of [['th', 'ヤマダ'], ['dt', 'ヤマダ'], ['placeholder', 'ヤマダ'], ['named', 'ヤマダ'], ['hiragana', 'やまだ'], ['off', 'やまだ']]) {
    await page.click(`#${id}`);
    assert.equal(await badge(), want === 'ヤマダ' ? 'カ' : 'あ', id);
    await page.keyboard.type('yamada');
    if (id === 'th') await page.screenshot({ path: path.join(ensureOutput(), 'furigana.png') });
    await page.keyboard.press('Enter');
    assert.equal(await page.inputValue(`#${id}`), want, id);
  }
  // カタカナひらがな turns such a field to hiragana
  const cdp = await page.context().newCDPSession(page);
  await page.click('#th');
  for (const type of ['rawKeyDown', 'keyUp']) await cdp.send('Input.dispatchKeyEvent', { type, key: 'KanaMode', code: 'KanaMode', windowsVirtualKeyCode: 242 });
  assert.equal(await badge(), 'あ');
  await page.keyboard.type('desu');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#th'), 'ヤマダです');
  assert.deepEqual(errors, []);
  await page.close();
});

test('data-henkan-furigana: the reading of each commit of a name goes to its フリガナ field, in katakana or hiragana as that field asks, with input events; typed again from empty it starts anew; a reconversion adds nothing', async () => {
  const { page, errors } = await open(`
    <label>お名前 <input id="name" data-henkan data-henkan-furigana="#kana"></label>
    <label>フリガナ <input id="kana"></label>
    <label>氏名 <textarea id="name2" data-henkan data-henkan-furigana="#hira"></textarea></label>
    <label>ふりがな <input id="hira"></label>`);
  await page.evaluate(() => {
    /** @type {any} */ (window).inputs = 0;
    document.getElementById('kana')?.addEventListener('input', () => /** @type {any} */ (window).inputs++);
  });
  const value = (/** @type {string} */ id) => page.inputValue(`#${id}`);
  await page.click('#name');
  assert.equal(await ready(page), 'ready');
  await convert(page, 'yamada');
  await convert(page, 'tarou');
  assert.notEqual(await value('name'), '');
  assert.equal(await value('kana'), 'ヤマダタロウ');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).inputs), 2);
  // the kana committed as typed
  await page.keyboard.type('desu');
  await page.keyboard.press('Enter');
  assert.equal(await value('kana'), 'ヤマダタロウデス');
  // cleared and typed again: anew
  await page.fill('#name', '');
  await page.click('#name');
  await convert(page, 'suzuki');
  assert.equal(await value('kana'), 'スズキ');
  // Ctrl+Backspace takes the commit back into a conversion; its commit adds nothing
  const name = await value('name');
  await page.keyboard.press('Control+Backspace');
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim()));
  await page.keyboard.press('Enter');
  assert.equal(await value('name'), name);
  assert.equal(await value('kana'), 'スズキ');
  // a hiragana field takes hiragana
  await page.click('#name2');
  await convert(page, 'satou');
  assert.equal(await value('hira'), 'さとう');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a data-henkan-katakana field (フリガナ) types katakana; the カタカナひらがな keys switch any field', async () => {
  const { page, errors } = await open(
    '<label>お名前 <input id="name" data-henkan></label><label>フリガナ <input id="kana" data-henkan data-henkan-katakana></label>',
  );
  const badge = () => page.evaluate(() => [...document.querySelectorAll('.henkan-indicator')].find((b) => /** @type {HTMLElement} */ (b).style.display === 'block')?.textContent ?? null);
  // the keys as a Japanese keyboard sends them (Playwright's keyboard has no カタカナひらがな)
  const cdp = await page.context().newCDPSession(page);
  const kanaKey = async (/** @type {number} */ modifiers) => {
    for (const type of ['rawKeyDown', 'keyUp']) await cdp.send('Input.dispatchKeyEvent', { type, key: 'KanaMode', code: 'KanaMode', windowsVirtualKeyCode: 242, modifiers });
  };
  await page.click('#kana');
  assert.equal(await ready(page), 'ready');
  await page.keyboard.type('yamadatarou');
  assert.equal(await page.locator('.henkan-preedit-runs').first().textContent(), 'ヤマダタロウ');
  assert.equal(await badge(), 'カ');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#kana'), 'ヤマダタロウ');
  // the other field types hiragana and converts
  await page.click('#name');
  assert.equal(await badge(), 'あ');
  await convert(page, 'nihongo');
  assert.equal(await page.inputValue('#name'), '日本語');
  // Shift+カタカナひらがな: katakana input here too; カタカナひらがな alone: hiragana again
  await kanaKey(8);
  assert.equal(await badge(), 'カ');
  await page.keyboard.type('desu');
  await page.keyboard.press('Enter');
  await kanaKey(0);
  assert.equal(await badge(), 'あ');
  await page.keyboard.type('desu');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#name'), '日本語デスです');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a data-henkan-kana-input field types the kana of a JIS keyboard; Alt+カタカナひらがな goes back to romaji, in every field of the page', async () => {
  const { page, errors } = await open('<textarea id="a" data-henkan data-henkan-kana-input></textarea><input id="b" data-henkan>');
  const title = () => page.evaluate(() => [...document.querySelectorAll('.henkan-indicator')].find((b) => /** @type {HTMLElement} */ (b).style.display === 'block')?.getAttribute('title') ?? null);
  await page.click('#a');
  assert.equal(await ready(page), 'ready');
  assert.match(String(await title()), /kana input/);
  // に ほ ん こ ゛ (the keys I, -, Y, B and the `@` key of a JIS keyboard, `[` of a US one): the
  // page sees none of these keys
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.pageKeys = [];
    document.querySelector('#a')?.addEventListener('keydown', (e) => w.pageKeys.push(/** @type {KeyboardEvent} */ (e).key));
  });
  for (const code of ['KeyI', 'Minus', 'KeyY', 'KeyB', 'BracketLeft']) await page.keyboard.press(code);
  assert.equal(await page.locator('.henkan-preedit-runs').first().textContent(), 'にほんご');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#a'), '日本語');
  // Shift+0 を, Shift+, 、 (the field's punctuation), the number pad's digits (sent with Num
  // Lock on: Playwright's number pad has it off)
  await page.keyboard.press('Shift+Digit0');
  await page.keyboard.press('Shift+Comma');
  const cdp = await page.context().newCDPSession(page);
  const altKana = async () => {
    for (const type of ['rawKeyDown', 'keyUp']) await cdp.send('Input.dispatchKeyEvent', { type, key: 'KanaMode', code: 'KanaMode', windowsVirtualKeyCode: 242, modifiers: 1 });
  };
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: '2', code: 'Numpad2', text: '2', windowsVirtualKeyCode: 98, location: 3 });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: '2', code: 'Numpad2', windowsVirtualKeyCode: 98, location: 3 });
  // Shift+0 has no character on a JIS layout (`Unidentified`): its place still types を
  for (const type of ['rawKeyDown', 'keyUp']) await cdp.send('Input.dispatchKeyEvent', { type, key: 'Unidentified', code: 'Digit0', windowsVirtualKeyCode: 48, modifiers: 8 });
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#a'), '日本語を、２を');
  // (Shift alone is the page's, as with a native IME)
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).pageKeys.filter((/** @type {string} */ k) => k !== 'Shift')), []);
  // Alt+カタカナひらがな (sent as a Japanese keyboard sends it: Playwright's keyboard has no such key)
  await altKana();
  assert.doesNotMatch(String(await title()), /kana input/);
  await page.keyboard.type('desu');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#a'), '日本語を、２をです');
  // a switch in one field is the page's, as MS-IME's setting is one for all: the other field
  // follows from its next key
  await page.click('#b');
  await altKana();
  await page.keyboard.press('KeyT');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#b'), 'か');
  await page.click('#a');
  await page.keyboard.press('KeyT');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#a'), '日本語を、２をですか');
  assert.deepEqual(errors, []);
  await page.close();
});

test('data-henkan-space="half": Space outside a composition types a plain space, Shift+Space an ideographic one; Space still converts', async () => {
  const { page, errors } = await open('<input id="a" data-henkan data-henkan-space="half"><input id="b" data-henkan>');
  await page.click('#a');
  assert.equal(await ready(page), 'ready');
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Space');
  await convert(page, 'nihongo');
  await page.keyboard.press('Space');
  assert.equal(await page.inputValue('#a'), ' \u3000日本語 ');
  // the default: the ideographic space, Shift+Space a plain one
  await page.click('#b');
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Space');
  assert.equal(await page.inputValue('#b'), '\u3000 ');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a romaji table of the user\'s own (Mozc\'s format) replaces the built-in one; one that does not parse leaves the built-in one, with a console error', async () => {
  const { page, errors } = await open('<input id="a"><input id="b">');
  /** @type {string[]} */
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.evaluate(() => {
    const api = /** @type {any} */ (window).henkanApi;
    // AZIK-style: kz かん, q ん; no `ka` rule beyond these, `ji` as usual
    api.attach(document.getElementById('a'), { romajiTable: '# a table of my own\nka\tか\nkz\tかん\nji\tじ\nq\tん\nno\tの\nha\tは\n' });
    api.attach(document.getElementById('b'), { romajiTable: 'ka\tか\tx\n' });
  });
  await page.click('#a');
  assert.equal(await ready(page), 'ready');
  await page.keyboard.type('kzji');
  assert.equal(await page.locator('.henkan-preedit-runs').first().textContent(), 'かんじ');
  await page.keyboard.press('F10');
  assert.equal(await page.locator('.henkan-preedit-runs').first().textContent(), 'kzji');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.type('nihonnohaq');
  // `ni` is no rule of this table: its letters stay letters
  assert.equal(await page.locator('.henkan-preedit-runs').first().textContent(), 'nihonのはん');
  await page.keyboard.press('Escape');
  await convert(page, 'kzji');
  assert.notEqual(await page.inputValue('#a'), '');
  assert.doesNotMatch(await page.inputValue('#a'), /[a-z]/);
  // the other field's table does not parse: the built-in one types
  await page.click('#b');
  await convert(page, 'nihongo');
  assert.equal(await page.inputValue('#b'), '日本語');
  assert.equal(consoleErrors.length, 1, consoleErrors.join('\n'));
  assert.match(consoleErrors[0], /romaji table: line 1: pending "x" is not a proper suffix of "ka"; the built-in romaji table stays/);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Waits until the page has stored the decoded copy (a visit whose model matched its SHA-256).
 * @param {import('playwright-core').Page} page
 */
async function decodedStored(page) {
  await page.waitForFunction(() => /** @type {any} */ (window).modelEvents.some((/** @type {any} */ e) => e.stored === true && e.decoded === true), null, { timeout: 30000 });
}

/**
 * Flips one byte of a cached entry, counted from its end.
 * @param {import('playwright-core').Page} page
 * @param {boolean} decoded which copy: the decoded one (`henkan-copy=decoded`) or the compressed one
 * @param {number} fromEnd
 */
async function damage(page, decoded, fromEnd) {
  await page.evaluate(
    async ([decoded, fromEnd]) => {
      const cache = await caches.open('henkan-ime-model');
      const key = (await cache.keys()).find((k) => k.url.includes('henkan-copy=decoded') === decoded);
      if (!key) throw new Error('no such copy in the cache');
      const bytes = new Uint8Array(await (/** @type {Response} */ (await cache.match(key))).arrayBuffer());
      bytes[bytes.length - Number(fromEnd)] ^= 1;
      await cache.put(key, new Response(bytes, { headers: { 'Content-Length': String(bytes.length) } }));
    },
    [decoded, fromEnd],
  );
}

test('a warm visit loads the decoded copy; a damaged one is discarded, the load goes on from the compressed copy', { skip: !SHIPPED && 'another model than the shipped one' }, async () => {
  const html = '<textarea id="a" data-henkan></textarea>';
  // A first visit stores the model and, once idle, its decoded copy (an earlier test may have).
  let v = await open(html);
  await v.page.click('#a');
  assert.equal(await ready(v.page), 'ready');
  const first = await v.page.evaluate(() => /** @type {any} */ (window).modelEvents[0]);
  if (!first.decoded) await decodedStored(v.page);
  await v.page.close();

  v = await open(html);
  await v.page.click('#a');
  assert.equal(await ready(v.page), 'ready');
  assert.deepEqual(v.modelRequests, []);
  const events = () => v.page.evaluate(() => /** @type {any} */ (window).modelEvents.map((/** @type {any} */ e) => [e.source ?? 'stored', e.decoded, e.discarded ?? e.stored]));
  assert.deepEqual(await events(), [['cache', true, false]]);
  assert.equal(await v.page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().lm), 'ready');
  await convert(v.page, 'henkan');
  assert.equal(await v.page.inputValue('#a'), '変換');
  await v.page.close();

  // A byte of the decoded copy's core (the Connection section, near the start), then one of its
  // LM part (near the end): each time the visit converts, the language models load, nothing is
  // downloaded, the page never sees an error, and the decoded copy is made again.
  for (const [where, fromEnd] of /** @type {[string, number][]} */ ([['core', 20_000_000], ['LM part', 100_000]])) {
    v = await open(html);
    await damage(v.page, true, fromEnd);
    await v.page.click('#a');
    assert.equal(await ready(v.page), 'ready', where);
    assert.equal(await v.page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().lm), 'ready', where);
    const statuses = await v.page.evaluate(() => /** @type {any} */ (window).statuses);
    assert.ok(!statuses.includes('error') && statuses.at(-1) === 'ready', `${where}: ${statuses}`);
    assert.deepEqual(v.modelRequests, [], where);
    await convert(v.page, 'henkan');
    assert.equal(await v.page.inputValue('#a'), '変換', where);
    await decodedStored(v.page);
    assert.deepEqual(
      await events(),
      [
        ['cache', true, false],
        ['cache', false, true],
        ['stored', true, true],
      ],
      where,
    );
    assert.deepEqual(v.errors, [], where);
    await v.page.close();
  }
});

test('the next visit reads the model from the cache; a damaged copy is discarded and downloaded again', { skip: !SHIPPED && 'another model than the shipped one' }, async () => {
  const html = '<textarea id="a" data-henkan></textarea>';
  // A first visit stores the model (the test above may have already).
  let v = await open(html);
  await v.page.click('#a');
  assert.equal(await ready(v.page), 'ready');
  await v.page.waitForFunction(() => /** @type {any} */ (window).modelEvents.some((/** @type {any} */ e) => e.source === 'cache' || 'stored' in e));
  // Without its decoded copy, the next visit reads the compressed one, checked by SHA-256.
  await v.page.evaluate(async () => {
    const cache = await caches.open('henkan-ime-model');
    for (const key of await cache.keys()) if (key.url.includes('henkan-copy=decoded')) await cache.delete(key);
  });
  await v.page.close();

  v = await open(html);
  await v.page.click('#a');
  assert.equal(await ready(v.page), 'ready');
  assert.deepEqual(v.modelRequests, []);
  assert.deepEqual(await v.page.evaluate(() => /** @type {any} */ (window).modelEvents.map((/** @type {any} */ e) => [e.source, e.decoded])), [['cache', false]]);
  await convert(v.page, 'henkan');
  assert.equal(await v.page.inputValue('#a'), '変換');
  await decodedStored(v.page);
  // Damage the compressed copy (one byte of the LM part) and drop the decoded one.
  await v.page.evaluate(async () => {
    const cache = await caches.open('henkan-ime-model');
    for (const key of await cache.keys()) if (key.url.includes('henkan-copy=decoded')) await cache.delete(key);
    const key = (await cache.keys())[0];
    const bytes = new Uint8Array(await (/** @type {Response} */ (await cache.match(key))).arrayBuffer());
    bytes[bytes.length - 100_000] ^= 1;
    await cache.put(key, new Response(bytes));
  });
  await v.page.close();

  v = await open(html);
  await v.page.click('#a');
  assert.equal(await ready(v.page), 'ready');
  assert.equal(await v.page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().lm), 'ready');
  assert.equal(v.modelRequests.length, 1);
  await v.page.waitForFunction(() => /** @type {any} */ (window).modelEvents.some((/** @type {any} */ e) => 'stored' in e));
  const events = await v.page.evaluate(() => /** @type {any} */ (window).modelEvents);
  assert.deepEqual(events.slice(0, 2).map((/** @type {any} */ e) => [e.source, e.discarded, e.decoded]), [['network', true, false], [undefined, undefined, false]]);
  assert.deepEqual(v.errors, []);
  await v.page.close();
});

test('a model that is not the expected one fails with a clear error, and is not cached', async () => {
  const { page } = await open('<textarea id="a" data-henkan></textarea>');
  // The right length and a wrong core hash: the core gate refuses it twice.
  await page.evaluate(() => {
    const api = /** @type {any} */ (window).henkanApi;
    const info = { ...api.MODEL_INFO, coreSha256: '0'.repeat(64) };
    api.configure({ modelInfo: info, cache: false });
  });
  await page.click('#a');
  assert.equal(await ready(page), 'error');
  const error = await page.evaluate(() => /** @type {any} */ (window).henkanApi.getIme().error);
  assert.match(error, /failed its integrity check twice/);
  await page.keyboard.type('abc');
  assert.equal(await page.inputValue('#a'), 'abc');
  await page.close();
});

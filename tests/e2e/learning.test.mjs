// Learning and the user dictionary in Chromium on the demo: a choice made in the default engine
// comes first next time and after a reload (IndexedDB), can be forgotten; words added in the demo's
// dictionary editor convert, and the dictionary exports and imports Mozc's and MS-IME's formats.
//
//   node --test tests/e2e/learning.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, demoUrl, waitForIme, MODEL } from './harness.mjs';

const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page */
const last = (page) => page.evaluate(() => /** @type {any} */ (window).henkanDemo.last);

/**
 * Types a reading into the editor and converts it; returns the first conversion shown.
 * @param {import('playwright-core').Page} page
 * @param {string} romaji
 */
async function convert(page, romaji) {
  await page.click('#editor');
  await page.keyboard.type(romaji);
  await page.keyboard.press('Space');
  return (await last(page)).preedit.text;
}

/** A fresh demo page (the same browser profile: IndexedDB is kept between pages). */
async function demo() {
  const page = await env.browser.context.newPage();
  await page.goto(demoUrl(env.server.url));
  assert.equal(await waitForIme(page), 'ready');
  await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.restoring);
  return page;
}

test('a choice made in the default engine comes first next time, after a reload too, until forgotten', async () => {
  let page = await demo();
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.engine), 'hybrid');
  const first = await convert(page, 'kisha');
  assert.notEqual(first, '汽車', 'the engine does not give 汽車 first on its own');
  // Space until 汽車 is selected, then commit.
  for (let i = 0; i < 20 && (await last(page)).preedit.text !== '汽車'; i++) await page.keyboard.press('Space');
  assert.equal((await last(page)).preedit.text, '汽車');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.equal(await convert(page, 'kisha'), '汽車', 'learned');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // Saved to IndexedDB (at most a second after the commit), read back by the next page.
  await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.save());
  await page.close();
  page = await demo();
  assert.equal(await convert(page, 'kisha'), '汽車', 'kept across a reload');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // Forget it (the demo's button).
  await page.click('#dict summary');
  await page.click('#learning-clear');
  assert.equal(await convert(page, 'kisha'), first, 'forgotten');
  await page.close();
  page = await demo();
  assert.equal(await convert(page, 'kisha'), first, 'forgotten in the store too');
  await page.close();
});

test('a suffix picked in its segment is learned with the word before it and comes first in the next sentence, after a reload too', async () => {
  let page = await demo();
  const first = await convert(page, 'kokunaiinsatsugyoukainikyounoikkaku.');
  const at = first.indexOf('2橋の');
  assert.ok(at > 0, `the engine writes 2橋 on its own: ${first}`);
  // → to the segment after 2 (橋の), Space until 強の, commit.
  const target = [...first.slice(0, at + 1)].length;
  for (let i = 0; i < 8; i++) {
    const seg = (await last(page)).preedit.segments.find((/** @type {any} */ s) => s.focused);
    if (seg.start === target) break;
    await page.keyboard.press('ArrowRight');
  }
  for (let i = 0; i < 30 && !(await last(page)).preedit.text.includes('2強の'); i++) await page.keyboard.press('Space');
  assert.equal((await last(page)).preedit.text, '国内印刷業界2強の一角。');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const next = 'kokunaiinsatsugyoukainikyounoikkakude,sekaisaidaikibonosougouinsatsugaishadearu.';
  assert.match(await convert(page, next), /^国内印刷業界2強の一角で/, 'learned');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.save());
  await page.close();
  page = await demo();
  assert.match(await convert(page, next), /^国内印刷業界2強の一角で/, 'kept across a reload');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.click('#dict summary');
  await page.click('#learning-clear');
  await page.close();
});

test('a store shared with other contexts: a text another one saves while the store is read wins, and a save with nothing new writes nothing', async () => {
  // A second IME in the demo page over a store shared with another context (the extension's
  // engines share chrome.storage.local this way, extension/learning-sync.js).
  const page = await demo();
  const out = await page.evaluate(async (model) => {
    const { HenkanIme } = await import('/www/ime.js');
    const henkan = await import('/pkg/henkan.js');
    const empty = 'henkan-user-data\t1\nhistory\t1\nhenkan-history\t1\ndictionary\t0\n';
    const theirs = 'henkan-user-data\t1\nhistory\t2\nhenkan-history\t1\nきしゃ\t貴社\ndictionary\t0\n';
    /** @type {(string | null)[]} */
    const writes = [];
    /** @type {(text: string) => void} */
    let answerRead = () => {};
    const store = {
      persistent: true,
      load: () => new Promise((resolve) => (answerRead = resolve)),
      save: async (/** @type {string} */ text) => void writes.push(text),
      clear: async () => void writes.push(null),
    };
    const ime = new HenkanIme({ store });
    const loaded = ime.load({ module: henkan, modelUrl: `/${model}` });
    await new Promise((resolve) => {
      const ready = () => ime.status === 'ready' && resolve(null);
      ime.addEventListener('status', ready);
      ready();
    });
    // The store is being read (its answer is the older text); another context saves meanwhile.
    const taken = ime.adoptLearning(theirs);
    answerRead(empty);
    await ime.restoring;
    const learned = ime.exportLearning();
    // A save with nothing new (the extension's engine saves when a page's port closes) writes
    // nothing: it would put this IME's older text over the other context's newer one.
    await ime.save();
    const writesIdle = writes.length;
    await ime.clearLearning();
    const afterClear = [...writes];
    await loaded;
    await ime.dispose();
    return { taken, learned, writesIdle, afterClear, writesAtEnd: writes.length };
  }, MODEL);
  assert.equal(out.taken, true);
  assert.match(out.learned, /きしゃ\t貴社/, 'the text saved while the store was read is kept');
  assert.equal(out.writesIdle, 0, 'a save with nothing new writes nothing');
  assert.equal(out.afterClear.length, 1, 'a change is written');
  assert.doesNotMatch(out.afterClear[0] ?? '', /貴社/);
  assert.equal(out.writesAtEnd, 1, 'disposing writes nothing new');
  await page.close();
});

test('the user dictionary: a word added in the editor converts; Mozc and MS-IME files export and import', async () => {
  const page = await demo();
  await page.click('#dict summary');
  await page.fill('#dict-reading', 'へんかんたろう');
  await page.fill('#dict-word', '変換太郎');
  await page.selectOption('#dict-pos', { label: '人名' });
  await page.click('#dict-form button[type="submit"]');
  assert.match(await page.textContent('#dict-list'), /へんかんたろう → 変換太郎 \(人名\)/);
  assert.equal(await convert(page, 'henkantarou'), '変換太郎');
  await page.keyboard.press('Enter');
  const exported = await page.evaluate(() => {
    const d = /** @type {any} */ (window).henkanDemo.ime.userDictionary;
    return { mozc: new TextDecoder().decode(d.export('mozc')), msime: [...d.export('msime').slice(0, 2)] };
  });
  assert.match(exported.mozc, /へんかんたろう\t変換太郎\t人名/);
  assert.deepEqual(exported.msime, [0xff, 0xfe], 'MS-IME: UTF-16LE with its byte-order mark');
  // An MS-IME file (UTF-16LE, BOM, its header) through the editor's file input.
  const msime = '\ufeff!Microsoft IME Dictionary Tool\r\n!Version:\r\n!Format:WORDLIST\r\n\r\nしぶやくや\t渋谷区役\t名詞\r\n';
  const bytes = Buffer.alloc(msime.length * 2);
  for (let i = 0; i < msime.length; i++) bytes.writeUInt16LE(msime.charCodeAt(i), i * 2);
  await page.setInputFiles('#dict-import', { name: 'msime.txt', mimeType: 'text/plain', buffer: bytes });
  await page.waitForFunction(() => /しぶやくや/.test(document.getElementById('dict-list')?.textContent ?? ''));
  assert.match(await page.textContent('#dict-status'), /1/);
  // Remove the first word again.
  await page.click('#dict-list li:first-child button');
  assert.doesNotMatch(await page.textContent('#dict-list'), /変換太郎/);
  await page.close();
});

test('the romaji table panel: a table that does not parse is refused with its line; an imported one types at once and on the next visit; the built-in one again', async () => {
  let page = await demo();
  await page.click('#dict summary');
  assert.equal(await page.textContent('#romaji-summary'), 'ローマ字テーブル: 標準');
  await page.setInputFiles('#romaji-import', { name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('ka\tか\nka\n') });
  await page.waitForFunction(() => /インポートできません/.test(document.getElementById('dict-status')?.textContent ?? ''));
  assert.match(await page.textContent('#dict-status'), /line 2: empty input or output/);
  // typed before the import: the editor's session is open, and takes the table at once
  await page.click('#editor');
  await page.keyboard.type('ka');
  await page.keyboard.press('Enter');
  await page.setInputFiles('#romaji-import', { name: 'azik.txt', mimeType: 'text/plain', buffer: Buffer.from('ka\tか\nkz\tかん\nji\tじ\nq\tん\n') });
  await page.waitForFunction(() => /4 規則/.test(document.getElementById('dict-status')?.textContent ?? ''));
  assert.equal(await page.textContent('#romaji-summary'), 'ローマ字テーブル: インポートしたもの');
  await page.click('#editor');
  await page.keyboard.type('kzjiq');
  assert.equal((await last(page)).preedit.text, 'かんじん');
  await page.keyboard.press('Escape');
  await page.close();
  // the next visit keeps it
  page = await demo();
  await page.click('#editor');
  await page.keyboard.type('kzji');
  assert.equal((await last(page)).preedit.text, 'かんじ');
  await page.keyboard.press('Escape');
  await page.click('#dict summary');
  await page.click('#romaji-reset');
  await page.click('#editor');
  await page.keyboard.type('kanji');
  assert.equal((await last(page)).preedit.text, 'かんじ');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => localStorage.getItem('henkan-playground-romaji-table')), null);
  await page.close();
});

test('a word committed in the field is preferred in its next sentence (recent spellings), and only in that field', async () => {
  const page = await demo();
  const alone = await convert(page, 'kyoukainiokoshinosainiha');
  assert.equal(alone, '協会にお越しの際には', 'alone, the engine writes 協会');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.fill('#editor', '');
  assert.equal(await convert(page, 'kyoukaidekekkonnshikiwoageta.'), '教会で結婚式をあげた。');
  await page.keyboard.press('Enter');
  assert.equal(await convert(page, 'kyoukainiokoshinosainiha'), '教会にお越しの際には', 'after 教会 in the text before');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), '教会で結婚式をあげた。教会にお越しの際には');
  await page.screenshot({ path: 'tests/e2e/output/recent-spellings.png' });
  await page.close();
  // a new page is a new field: nothing carried over, nothing stored
  const next = await demo();
  assert.equal(await convert(next, 'kyoukainiokoshinosainiha'), alone);
  await next.close();
});

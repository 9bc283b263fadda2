// End-to-end tests of the candidate window's contents in the demo with the shipped model: form
// annotations beside the candidates, and no made-up candidates.
//
//   node --test --test-concurrency=1 tests/e2e/candidates.test.mjs     (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, demoUrl, waitForIme, MODEL } from './harness.mjs';

const env = serverAndBrowser();

/** A fresh demo page with the IME ready. */
async function openDemo() {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(demoUrl(env.server.url, MODEL));
  assert.equal(await waitForIme(page), 'ready');
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
const last = (page) => page.evaluate(() => /** @type {any} */ (window).henkanDemo.last);

/**
 * Types `romaji`, converts and opens the candidate window (Space twice); returns its rows as
 * `{text, note}` (the candidate without its number, the annotation beside it).
 * @param {import('playwright-core').Page} page
 * @param {string} romaji
 */
async function openCandidates(page, romaji) {
  await page.click('#editor');
  await page.keyboard.type(romaji);
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  const options = page.locator('.henkan-candidates:visible [role="option"]');
  await options.first().waitFor({ state: 'visible' });
  return options.evaluateAll((lis) =>
    lis.map((li) => ({
      text: [...li.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''),
      note: li.querySelector('.henkan-annotation')?.textContent ?? '',
    })),
  );
}

test('ことし: 今年 and the kana forms with their annotations, none of 子とし 娘とし 個とし', async () => {
  const { page, errors } = await openDemo();
  const rows = await openCandidates(page, 'kotosi');
  const texts = rows.map((r) => r.text);
  assert.equal(texts[0], '今年', texts.join(' / '));
  for (const junk of ['子とし', '娘とし', '個とし']) assert.ok(!texts.includes(junk), texts.join(' / '));
  assert.deepEqual(rows.find((r) => r.text === 'ことし'), { text: 'ことし', note: 'ひらがな' });
  assert.deepEqual(rows.find((r) => r.text === 'コトシ'), { text: 'コトシ', note: '[全]カタカナ' });
  assert.equal(rows[0].note, '', 'a kanji word has no annotation');
  // the whole list fits on one page now (it filled three)
  assert.equal(await page.locator('.henkan-candidates:visible .henkan-page').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('たか: 髙 is marked environment-dependent in the engine output', async () => {
  const { page, errors } = await openDemo();
  await openCandidates(page, 'taka');
  const { candidates } = await last(page);
  assert.equal(candidates.annotations.length, candidates.items.length);
  const i = candidates.items.indexOf('髙');
  assert.ok(i >= 0, candidates.items.join(' / '));
  assert.equal(candidates.annotations[i], '[環境依存]');
  assert.equal(candidates.annotations[candidates.items.indexOf('高')], '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('よにん: the digit form 4人 first and the kanji word 四人 beside it', async () => {
  const { page, errors } = await openDemo();
  const rows = await openCandidates(page, 'yonin');
  const texts = rows.map((r) => r.text);
  // the dictionary has 四人 but no digit for よ: the lattice's digit twin, which the default
  // engine's digit prior puts first (without it: 余人 first in a sentence)
  assert.equal(texts[0], '4人', texts.join(' / '));
  assert.ok(texts.includes('四人'), texts.join(' / '));
  await page.screenshot({ path: 'tests/e2e/output/candidates-digit-twin.png', clip: { x: 0, y: 0, width: 700, height: 420 } });
  assert.deepEqual(errors, []);
  await page.close();
});

// End-to-end tests of the suggestion list (completions while composing, next-word predictions
// after a commit) in the demo with the shipped model, which has an n-gram section.
//
//   node --test --test-concurrency=1 tests/e2e/predictions.test.mjs     (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, demoUrl, waitForIme, ensureOutput, MODEL } from './harness.mjs';

const env = serverAndBrowser();

/** A fresh demo page with the IME ready; `query` is added to the demo URL. */
async function openDemo(query = '') {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(demoUrl(env.server.url, MODEL) + query);
  assert.equal(await waitForIme(page), 'ready');
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
const last = (page) => page.evaluate(() => /** @type {any} */ (window).henkanDemo.last);
/** @param {import('playwright-core').Page} page */
const list = (page) => page.locator('.henkan-suggestions[role="listbox"]:visible');
/** The texts of the visible suggestions, without their numbers. @param {import('playwright-core').Page} page */
const items = async (page) => (await list(page).locator('[role="option"]').allTextContents()).map((t) => t.replace(/^\d/, ''));

test('type yorosiku: the completions list よろしくお願いします; Tab + Enter commits it, then next words', async () => {
  const { page, errors } = await openDemo();
  await page.click('#editor');
  await page.keyboard.type('yorosiku');
  await list(page).waitFor({ state: 'visible' });
  const shown = await items(page);
  const i = shown.findIndex((t) => t.startsWith('よろしく') && t.length > 4);
  assert.ok(i >= 0, `suggestions: ${shown.join(' / ')}`);
  assert.equal(shown[i], 'よろしくお願いします', `suggestions: ${shown.join(' / ')}`);
  assert.match(await list(page).textContent(), /Tab/, 'the heading says how to enter the list');
  assert.equal(await page.locator('.henkan-candidates:visible').count(), 0, 'the conversion window stays closed');
  const dir = ensureOutput();
  await page.screenshot({ path: path.join(dir, 'suggestions.png'), clip: { x: 0, y: 0, width: 1000, height: 520 } });
  // Tab focuses the first item; ↓ moves to the phrase.
  await page.keyboard.press('Tab');
  for (let k = 0; k < i; k++) await page.keyboard.press('ArrowDown');
  let out = await last(page);
  assert.equal(out.state, 'suggesting');
  assert.equal(out.focusedCompletion, i);
  assert.equal(await list(page).locator('[aria-selected="true"]').count(), 1);
  const active = await page.getAttribute('#editor', 'aria-activedescendant');
  assert.ok(active && (await page.locator(`#${active}`).textContent())?.endsWith('よろしくお願いします'));
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), 'よろしくお願いします');
  // Next-word predictions at the caret; ↓ enters them, 1 picks, predictions follow again.
  await list(page).waitFor({ state: 'visible' });
  out = await last(page);
  assert.equal(out.state, 'precomposition');
  assert.ok(out.completions.length > 0);
  const first = out.completions[0];
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('1');
  assert.equal(await page.inputValue('#editor'), `よろしくお願いします${first}`);
  assert.ok((await last(page)).completions.length > 0, 'predictions after a picked prediction');
  // A typed letter dismisses them and composes.
  await page.keyboard.type('k');
  assert.equal((await last(page)).state, 'composing');
  assert.equal(await list(page).count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Shift+Enter while composing commits the first completion, without entering the list (Mozc)', async () => {
  const { page, errors } = await openDemo();
  await page.click('#editor');
  await page.keyboard.type('yorosiku');
  await list(page).waitFor({ state: 'visible' });
  const first = (await last(page)).completions[0];
  assert.ok(first && first !== 'よろしく', String(first));
  await page.keyboard.press('Shift+Enter');
  assert.equal(await page.inputValue('#editor'), first);
  assert.equal((await last(page)).state, 'precomposition');
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a conversion is committed the next words follow it: よろしく → お願いします, おはよう → ございます', async () => {
  const { page, errors } = await openDemo();
  await page.click('#editor');
  for (const [romaji, text, next] of [
    ['yorosiku', 'よろしく', 'お願いします'],
    ['ohayou', 'おはよう', 'ございます'],
  ]) {
    await page.fill('#editor', '');
    await page.click('#editor');
    await page.keyboard.type(romaji);
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    assert.equal(await page.inputValue('#editor'), text);
    await list(page).waitFor({ state: 'visible' });
    const shown = await items(page);
    assert.ok(shown.includes(next), `after ${text}: ${shown.join(' / ')}`);
    if (next === 'お願いします') {
      const dir = ensureOutput();
      await page.screenshot({ path: path.join(dir, 'next-words-after-commit.png'), clip: { x: 0, y: 0, width: 1000, height: 520 } });
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a word committed comes back: 新幹線, typed once, is the first completion of しんk after it; Ctrl+Delete on it forgets it (Mozc)', async () => {
  const { page, errors } = await openDemo();
  await page.click('#editor');
  await page.keyboard.type('sink');
  await list(page).waitFor({ state: 'visible' });
  const before = await items(page);
  assert.notEqual(before[0], '新幹線', `suggestions: ${before.join(' / ')}`);
  await page.keyboard.press('Escape');
  await page.keyboard.type('sinkansen');
  await page.keyboard.press(' ');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), '新幹線');
  // a new line: the word just committed is not offered as the next one
  await page.keyboard.press('Enter');
  await page.keyboard.type('sink');
  await list(page).waitFor({ state: 'visible' });
  const after = await items(page);
  assert.equal(after[0], '新幹線', `suggestions: ${after.join(' / ')}`);
  await page.screenshot({ path: path.join(ensureOutput(), 'suggestions-recent.png'), clip: { x: 0, y: 0, width: 1000, height: 520 } });
  // Focused in the list, Ctrl+Delete deletes it from what the user typed (Mozc's
  // DeleteSelectedCandidate): the list is the model's own again, the focus where it was, and the
  // field's text untouched (the key is the IME's, not a word deleted).
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+Delete');
  assert.deepEqual(await items(page), before);
  const now = await last(page);
  assert.equal(now.state, 'suggesting');
  assert.equal(now.focusedCompletion, 0);
  assert.equal(await page.inputValue('#editor'), '新幹線\n');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.type('sink');
  await list(page).waitFor({ state: 'visible' });
  assert.deepEqual(await items(page), before, 'forgotten for good');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a click on a suggestion commits it; unfocused, Enter and Backspace stay the field’s', async () => {
  const { page } = await openDemo();
  await page.click('#editor');
  await page.keyboard.type('arigatou');
  await list(page).waitFor({ state: 'visible' });
  const option = list(page).locator('[role="option"]').first();
  const text = (await option.textContent())?.replace(/^\d/, '');
  await option.click();
  assert.equal(await page.inputValue('#editor'), text);
  // The predictions are shown, not focused: Enter is a new line, Backspace deletes.
  await list(page).waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), `${text}\n`);
  assert.equal(await list(page).count(), 0, 'the predictions went with the caret');
  await page.keyboard.press('Backspace');
  assert.equal(await page.inputValue('#editor'), text);
  // Digits type as usual while the list is not focused.
  await page.keyboard.type('ka1');
  assert.equal((await last(page)).preedit.text, 'か１');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), `${text}か１`);
  // Text from elsewhere (a virtual keyboard, a paste) goes in and takes the predictions along.
  await list(page).waitFor({ state: 'visible' });
  await page.keyboard.insertText('!');
  assert.equal(await page.inputValue('#editor'), `${text}か１!`);
  assert.equal(await list(page).count(), 0);
  await page.close();
});

test('with predictions off (checkbox, or ?predictions=0) no list appears', async () => {
  const { page } = await openDemo();
  await page.uncheck('#predictions');
  await page.click('#editor');
  await page.keyboard.type('yorosiku');
  assert.deepEqual((await last(page)).completions, []);
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), 'よろしく');
  assert.equal(await list(page).count(), 0);
  // Tab is the page's again (focus moves on).
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'editor');
  await page.close();

  const second = await openDemo('&predictions=0');
  assert.equal(await second.page.isChecked('#predictions'), false);
  await second.page.click('#editor');
  await second.page.keyboard.type('yorosiku');
  assert.deepEqual((await last(second.page)).completions, []);
  assert.equal(await list(second.page).count(), 0);
  await second.page.close();
});

test('attach(el, {predictions: false}) gives a field without suggestions', async () => {
  const { page } = await openDemo();
  await page.evaluate(async () => {
    const { attach } = await import('./www/widget.js');
    const d = /** @type {any} */ (window).henkanDemo;
    const el = document.createElement('textarea');
    el.id = 'plain';
    document.body.prepend(el);
    d.detach.plain = attach(el, { ime: d.ime, predictions: false });
  });
  await page.click('#plain');
  await page.keyboard.type('yorosiku');
  assert.equal(await list(page).count(), 0);
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#plain'), 'よろしく');
  assert.equal(await list(page).count(), 0);
  await page.close();
});

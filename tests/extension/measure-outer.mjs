#!/usr/bin/env node
// What drawing a frame's lists over the page costs (docs/extension.md, "Lists of a field in a frame
// of another origin"): the time from a key's keydown in a chat frame to the candidate window's
// change (its selected option), with the frame of another origin (the list in the extension's
// frame over the page, its rows sent through the background) and with a frame of the page's own
// origin (the list drawn by the widget in the page), rounds alternating, in Chromium with
// dist/extension loaded. Times are the pages' `performance.timeOrigin`-based clocks.
//
//   node tests/extension/measure-outer.mjs [--rounds 10] [--keys 8]
import { servePages, launchWithExtension, focusChat } from './harness.mjs';
import { opt } from '../e2e/harness.mjs';
import { percentile } from '../../www/keymap.js';

const rounds = Number(opt('rounds', '10'));
const keys = Number(opt('keys', '8'));
const server = await servePages();
const ext = await launchWithExtension();
// Every frame notes its keydowns' times, before the content script's listener runs.
await ext.context.addInitScript(() => {
  /** @type {any} */ (window).keyAts = [];
  window.addEventListener('keydown', (e) => /** @type {any} */ (window).keyAts.push(performance.timeOrigin + e.timeStamp), true);
});

/** Runs in the list's document: notes the time of each change of the selected candidate. */
function watchList() {
  const w = /** @type {any} */ (window);
  w.changes = [];
  let last = '';
  new MutationObserver(() => {
    const sel = document.querySelector('.henkan-candidates li[aria-selected="true"]')?.textContent ?? '';
    if (sel && sel !== last) w.changes.push(performance.timeOrigin + performance.now());
    last = sel;
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-selected'] });
}

/**
 * One round: the chat frame, a composition with its candidates open, `keys` Spaces one by one.
 * @param {boolean} cross the chat frame of another origin
 * @returns {Promise<number[]>} ms from each keydown to the list's change
 */
async function round(cross) {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}cross-frame.html${cross ? '' : '?same'}`);
  const chat = await focusChat(page, cross ? `http://localhost:${server.port}` : server.url.slice(0, -1));
  await page.keyboard.type('kisha', { delay: 20 });
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  await page.keyboard.press('Space');
  const where = cross ? page.frameLocator('iframe[src*="/windows.html#"]').locator('.henkan-candidates li[role="option"]') : page.locator('.henkan-candidates li[role="option"]');
  await where.first().waitFor({ state: 'visible' });
  const listFrame = cross ? page.frames().find((f) => f.url().includes('/windows.html#')) : page.mainFrame();
  if (!listFrame) throw new Error('no list frame');
  await listFrame.evaluate(watchList);
  await chat.evaluate(() => (/** @type {any} */ (window).keyAts = []));
  for (let i = 0; i < keys; i++) {
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
  }
  const keyAts = /** @type {number[]} */ (await chat.evaluate(() => /** @type {any} */ (window).keyAts));
  const changes = /** @type {number[]} */ (await listFrame.evaluate(() => /** @type {any} */ (window).changes));
  await page.close();
  if (changes.length !== keyAts.length) throw new Error(`${keyAts.length} keys, ${changes.length} changes`);
  return keyAts.map((k, i) => changes[i] - k);
}

/** @type {{cross: number[], same: number[], diffs: number[]}} */
const out = { cross: [], same: [], diffs: [] };
const median = (/** @type {number[]} */ xs) => percentile(xs, 50);
for (let r = 0; r < rounds; r++) {
  const [a, b] = r % 2 ? [await round(false), await round(true)] : [await round(true), await round(false)];
  const [same, cross] = r % 2 ? [a, b] : [b, a];
  out.cross.push(...cross);
  out.same.push(...same);
  out.diffs.push(median(cross) - median(same));
}
const mean = out.diffs.reduce((s, x) => s + x, 0) / out.diffs.length;
const sd = Math.sqrt(out.diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (out.diffs.length - 1));
const f = (/** @type {number} */ x) => x.toFixed(2);
console.log(`keydown → candidate window changed, ms (${rounds} rounds × ${keys} keys, ${(await ext.context.browser()?.version()) ?? 'Chromium'})`);
console.log(`| frame | p50 | p95 |\n| --- | ---: | ---: |`);
console.log(`| of the page's origin (the widget draws the list in the page) | ${f(percentile(out.same, 50))} | ${f(percentile(out.same, 95))} |`);
console.log(`| of another origin (the extension's frame over the page) | ${f(percentile(out.cross, 50))} | ${f(percentile(out.cross, 95))} |`);
console.log(`paired by round (medians): +${f(mean)} ± ${f(sd / Math.sqrt(out.diffs.length))} ms`);
await ext.close();
await server.stop();

// Accessibility in Chromium: the field is an expanded combobox while a list is focused, a polite
// live region says what the IME shows, the badge is a toggle button reached with Tab, and axe-core
// (npm) finds no WCAG 2.1 A/AA violation with the candidate window, the suggestion list or the
// demo page on screen.
//
//   node --test tests/e2e/accessibility.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, demoUrl, waitForIme, widgetPage, ROOT } from './harness.mjs';

const env = serverAndBrowser();
const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');

/**
 * axe-core's WCAG 2.1 A/AA violations on the page: rule id, impact and the first offending nodes.
 * @param {import('playwright-core').Page} page
 */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
  });
}

/** A page with a labelled textarea and a text input attached to the widget over the shipped model. */
async function fields() {
  const html = `<main><h1>fields</h1>
      <label for="ta">text</label> <textarea id="ta" style="width: 400px; height: 80px"></textarea>
      <p><label for="next">next</label> <input id="next"></p></main>`;
  const { page, errors, status } = await widgetPage(env.browser.context, env.server.url, html, ['ta']);
  assert.equal(status, 'ready');
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
const ariaOf = (page) =>
  page.evaluate(() => {
    const el = /** @type {HTMLElement} */ (document.getElementById('ta'));
    const names = ['role', 'aria-expanded', 'aria-controls', 'aria-activedescendant'];
    return Object.fromEntries(names.map((a) => [a, el.getAttribute(a)]));
  });

/** @param {import('playwright-core').Page} page */
const spoken = (page) => page.textContent('.henkan-sr-only[role="status"]');

test('the field is a combobox while the candidates are open; the live region says the preedit and the candidate', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  await page.keyboard.type('kyouha');
  assert.equal(await spoken(page), 'きょうは');
  assert.deepEqual(await ariaOf(page), { role: null, 'aria-expanded': null, 'aria-controls': null, 'aria-activedescendant': null });
  await page.keyboard.press('Space');
  assert.match(String(await spoken(page)), /^今日は 1\/\d+$/, 'the converted segment and its place');
  await page.keyboard.press('Space');
  const aria = await ariaOf(page);
  assert.equal(aria.role, 'combobox');
  assert.equal(aria['aria-expanded'], 'true');
  assert.match(String(aria['aria-controls']), /-candidates$/);
  const option = page.locator(`#${aria['aria-activedescendant']}`);
  assert.equal(await option.getAttribute('aria-selected'), 'true');
  assert.match(String(await spoken(page)), /^\S+ 2\/\d+$/, 'the second candidate, and its place');
  assert.deepEqual(await violations(page), [], 'axe with the candidate window open');
  await page.keyboard.press('Enter');
  assert.deepEqual(await ariaOf(page), { role: null, 'aria-expanded': null, 'aria-controls': null, 'aria-activedescendant': null });
  assert.equal(await spoken(page), '');
  // The next-word predictions are on screen now.
  await page.locator('.henkan-suggestions:visible').waitFor();
  assert.deepEqual(await violations(page), [], 'axe with the predictions shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('in forced colours (a contrast theme) the selected candidate and the focused segment keep their highlight', async () => {
  const { page, errors } = await fields();
  await page.emulateMedia({ forcedColors: 'active' });
  await page.click('#ta');
  await page.keyboard.type('kyouhaiitenki');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await page.locator('.henkan-candidates li[aria-selected="true"]').waitFor();
  const c = await page.evaluate(() => {
    const colours = (/** @type {Element | null} */ el) => (el ? [getComputedStyle(el).backgroundColor, getComputedStyle(el).color] : null);
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.cssText = 'forced-color-adjust: none; background: Highlight; color: HighlightText';
    const highlight = colours(probe);
    probe.remove();
    return {
      highlight,
      selected: colours(document.querySelector('.henkan-candidates li[aria-selected="true"]')),
      other: colours(document.querySelector('.henkan-candidates li[aria-selected="false"]')),
      focused: colours(document.querySelector('.henkan-preedit-runs .henkan-focused')),
      rest: colours(document.querySelector('.henkan-preedit-runs .henkan-converted:not(.henkan-focused)')),
    };
  });
  await page.screenshot({ path: path.join(ROOT, 'tests/e2e/output/forced-colors-candidates.png') });
  assert.deepEqual(c.selected, c.highlight, JSON.stringify(c));
  assert.deepEqual(c.focused, c.highlight, JSON.stringify(c));
  assert.notEqual(c.other?.[0], c.highlight?.[0], JSON.stringify(c));
  assert.notEqual(c.rest?.[0], c.highlight?.[0], JSON.stringify(c));
  await page.keyboard.press('Enter');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the badge: Tab from the field reaches it, Enter toggles the IME and gives the focus back', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  const badge = page.locator('.henkan-indicator');
  assert.equal(await badge.textContent(), 'あ');
  assert.equal(await badge.getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'henkan-indicator');
  assert.equal(await badge.isVisible(), true, 'shown while it has the focus');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'ta');
  assert.equal(await badge.textContent(), 'A');
  assert.equal(await badge.getAttribute('aria-pressed'), 'false');
  await page.keyboard.type('abc');
  assert.equal(await page.inputValue('#ta'), 'abc', 'off: letters as they are');
  // Tab twice: past the badge to the next field; the badge hides.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'next');
  assert.equal(await badge.isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the demo page passes axe, and again while converting', async () => {
  const page = await env.browser.context.newPage();
  await page.goto(demoUrl(env.server.url));
  assert.equal(await waitForIme(page), 'ready');
  assert.deepEqual(await violations(page), [], 'axe on the demo');
  await page.click('#editor');
  await page.keyboard.type('kisha');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  assert.deepEqual(await violations(page), [], 'axe on the demo while converting');
  await page.close();
});

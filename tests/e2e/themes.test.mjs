// Dark fields in Chromium with the shipped model: light text on a dark ground gets a dark candidate
// window, suggestion list and focused segment; a light field keeps the light ones; the page's
// `--henkan-*` properties win over both; an editor on a page in a dark colour scheme, with no
// background of its own, has the preedit drawn over its text on the page's dark canvas.
//
//   node --test tests/e2e/themes.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, widgetPage, collectConsoleErrors } from './harness.mjs';

const env = serverAndBrowser();

const FIELD = 'display: block; width: 420px; height: 60px; margin: 0 0 200px; padding: 4px; font: 16px/1.5 sans-serif';
const HTML = `<style>:root { color-scheme: dark; }</style>
  <textarea id="light" style="${FIELD}; background: #fff; color: #111"></textarea>
  <textarea id="dark" style="${FIELD}; background: #1e1e1e; color: #ddd; border: 1px solid #444"></textarea>
  <div id="editor" class="ql-editor" contenteditable="true" style="${FIELD}">あいうえお</div>`;

/** Luminance of a computed `rgb()` colour (WCAG), or -1. */
const LUMINANCE = `(c) => {
  const m = /^rgba?\\((\\d+), (\\d+), (\\d+)/.exec(c);
  if (!m) return -1;
  const lin = (v) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
}`;

/**
 * The colours of what is shown now: the candidate window, the suggestion list and the focused
 * segment (background and text luminance each), and the backgrounds of the preedit's runs that
 * are not focused (painted over the editor's text under an overlay).
 * @param {import('playwright-core').Page} page
 */
const colours = (page) =>
  page.evaluate((lum) => {
    const luminance = eval(lum);
    const shown = (/** @type {string} */ sel) => [...document.querySelectorAll(sel)].find((e) => getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0);
    const of = (/** @type {Element | undefined} */ el) => {
      if (!el) return null;
      const cs = getComputedStyle(el);
      return { bg: luminance(cs.backgroundColor), fg: luminance(cs.color), bgColor: cs.backgroundColor };
    };
    return {
      candidates: of(shown('.henkan-candidates')),
      suggestions: of(shown('.henkan-suggestions')),
      focused: of(shown('.henkan-preedit-runs span.henkan-focused')),
      runs: [...document.querySelectorAll('.henkan-preedit-overlay .henkan-preedit-runs span:not(.henkan-focused)')].map((s) => luminance(getComputedStyle(s).backgroundColor)),
    };
  }, LUMINANCE);

/**
 * Types `romaji` into a field and opens its candidate window (Space twice).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {string} romaji
 */
async function openCandidates(page, id, romaji) {
  await page.click(`#${id}`);
  if (id === 'editor') await page.keyboard.press('End');
  await page.keyboard.type(romaji);
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await page.locator('.henkan-candidates [role="option"]').first().waitFor({ state: 'visible' });
}

test('a dark field has dark lists and a dark focused segment; a light one light ones; the page theme wins', async () => {
  const { page, errors, status } = await widgetPage(env.browser.context, env.server.url, HTML, ['light', 'dark', 'editor']);
  assert.equal(status, 'ready');
  collectConsoleErrors(page, errors);
  await page.waitForFunction(() => /** @type {any} */ (window).henkanIme.lm !== 'pending', null, { timeout: 60000 });

  await openCandidates(page, 'light', 'kyou');
  const light = await colours(page);
  assert.ok(light.candidates && light.candidates.bg > 0.8 && light.candidates.fg < 0.1, JSON.stringify(light));
  assert.ok(light.focused && light.focused.bg > 0.6 && light.focused.fg < 0.1, JSON.stringify(light));
  await page.keyboard.press('Enter');

  await openCandidates(page, 'dark', 'kyou');
  const dark = await colours(page);
  ensureOutput();
  await page.screenshot({ path: path.join('tests/e2e/output', 'theme-dark-candidates.png') });
  assert.ok(dark.candidates && dark.candidates.bg < 0.05 && dark.candidates.fg > 0.7, JSON.stringify(dark));
  assert.ok(dark.focused && dark.focused.bg < 0.1 && dark.focused.fg > 0.7, JSON.stringify(dark));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // completions while composing: the suggestion list, dark too
  await page.keyboard.type('yorosi');
  await page.locator('.henkan-suggestions [role="option"]').first().waitFor({ state: 'visible' });
  const typing = await colours(page);
  await page.screenshot({ path: path.join('tests/e2e/output', 'theme-dark-suggestions.png') });
  assert.ok(typing.suggestions && typing.suggestions.bg < 0.05 && typing.suggestions.fg > 0.7, JSON.stringify(typing));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  // the page's theme on :root wins over the dark defaults
  await page.evaluate(() => document.documentElement.style.setProperty('--henkan-bg', 'rgb(250, 240, 200)'));
  await page.keyboard.type('kyou');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await page.locator('.henkan-candidates [role="option"]').first().waitFor({ state: 'visible' });
  const themed = await colours(page);
  assert.equal(themed.candidates?.bgColor, 'rgb(250, 240, 200)');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.documentElement.style.removeProperty('--henkan-bg'));

  // an editor without a background on a page in a dark colour scheme: its text is light (the
  // canvas's text colour), and the overlay's runs are painted on the dark canvas, not on white
  await openCandidates(page, 'editor', 'kyouhaiitenki');
  const editor = await colours(page);
  await page.screenshot({ path: path.join('tests/e2e/output', 'theme-dark-editor.png') });
  assert.ok(editor.candidates && editor.candidates.bg < 0.05, JSON.stringify(editor));
  assert.ok(editor.runs.length > 0 && editor.runs.every((l) => l >= 0 && l < 0.05), JSON.stringify(editor));
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#editor').innerText(), /^あいうえお.+天気$/);
  assert.deepEqual(errors, []);
  await page.close();
});

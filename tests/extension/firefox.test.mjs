// The Firefox variant of the extension (dist/extension-firefox, `make extension`) in Debian's
// Firefox ESR, driven by puppeteer-core over WebDriver BiDi (the extension installed as a
// temporary add-on): the engine runs in the background page, and a page's keys reach it over the
// runtime port, on a page with a strict CSP too. `make test-extension`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { ROOT } from '../e2e/harness.mjs';
import { servePages, focusChat, addEditableFrames, editableFramesIn, EDITABLE_FRAMES, CODE_EDITOR_PAGES, editorValue, enterCommitsIntoEditor } from './harness.mjs';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const EXTENSION = path.join(ROOT, 'dist/extension-firefox');

/** @type {Awaited<ReturnType<typeof servePages>>} */
let server;
/** @type {import('puppeteer-core').Browser} */
let browser;

before(async () => {
  server = await servePages();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  await browser.installExtension(EXTENSION);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A page of the test server, its errors collected.
 * @param {string} name
 */
async function open(name) {
  const page = await browser.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${name}`);
  return { page, errors };
}

/**
 * Focuses a field and waits until the widget on it says the engine's dictionary is in.
 * @param {import('puppeteer-core').Page} page
 * @param {string} selector
 */
async function focusReady(page, selector) {
  await page.focus(selector);
  await page.waitForSelector(`${selector} + .henkan-indicator[data-status="ready"]`, { timeout: 60000 });
}

/**
 * Types romaji, converts with Space, commits with Enter; returns the field's text.
 * @param {import('puppeteer-core').Page} page
 * @param {string} selector
 * @param {string} romaji
 * @param {import('puppeteer-core').Page | import('puppeteer-core').Frame} [where] the frame of the field (the page's by default)
 */
async function convertAndCommit(page, selector, romaji, where = page) {
  await page.keyboard.type(romaji, { delay: 15 });
  await where.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim()));
  await page.keyboard.press(' ');
  await where.waitForSelector('.henkan-preedit-runs .henkan-converted', { timeout: 10000 });
  await page.keyboard.press('Enter');
  await where.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].every((p) => !(p.textContent ?? '').trim()));
  return where.$eval(selector, (el) => (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value : el.textContent));
}

test('Firefox: types and converts in a textarea, an input and a contenteditable', async () => {
  const { page, errors } = await open('plain.html');
  for (const selector of ['#ta', '#in', '#ce']) {
    await focusReady(page, selector);
    assert.equal(await convertAndCommit(page, selector, 'nihongo'), '日本語', selector);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('Firefox: types on a page whose CSP forbids wasm and inline script', async () => {
  const { page, errors } = await open('csp.html');
  await focusReady(page, '#ta');
  assert.equal(await convertAndCommit(page, '#ta', 'kyouhaiitenkidesune'), '今日はいい天気ですね');
  assert.deepEqual(errors, []);
  await page.close();
});

// Code editors that take their keys through a hidden textarea (Firefox has no EditContext: Monaco
// uses its textarea there).
for (const { name, page: pageName, lines, root } of CODE_EDITOR_PAGES) {
  test(`Firefox: types into ${name}: the preedit over its text, the commit typed into its document`, async () => {
    const { page, errors } = await open(pageName);
    await page.waitForFunction(() => /** @type {any} */ (window).ed);
    await page.click(lines);
    await page.waitForSelector(`${root} + .henkan-indicator[data-status="ready"]`, { timeout: 60000 });
    await page.keyboard.press('End');
    await page.keyboard.type('nihongo', { delay: 15 });
    await page.waitForSelector('.henkan-preedit-overlay', { visible: true });
    assert.equal(await editorValue(page), 'hello', 'the preedit is not in the editor’s document');
    await page.keyboard.press(' ');
    await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { timeout: 10000 });
    await enterCommitsIntoEditor(page);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('Firefox: types in the frames a page makes: about:blank and srcdoc, a contenteditable <body> each', async () => {
  const { page, errors } = await open('plain.html');
  await page.evaluate(addEditableFrames);
  await page.waitForFunction(editableFramesIn);
  for (const [url, text] of EDITABLE_FRAMES) {
    const frame = page.frames().find((f) => f.url() === url);
    assert.ok(frame, url);
    await frame.click('body');
    await frame.waitForSelector('body + .henkan-indicator[data-status="ready"]', { timeout: 60000 });
    await page.keyboard.press('End');
    assert.equal(await convertAndCommit(page, 'body', 'nihongo', frame), `${text}日本語`, url);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: a field in a frame of another site has its lists over the page, in the extension's frame; a click picks", async () => {
  const { page, errors } = await open('cross-frame.html');
  const chat = await focusChat(page, `http://localhost:${server.port}`);
  await page.keyboard.type('kisha', { delay: 15 });
  await page.keyboard.press(' ');
  await chat.waitForSelector('.henkan-preedit-runs .henkan-converted', { timeout: 10000 });
  await page.keyboard.press(' ');
  // The extension's frame is shown past the chat frame's bottom edge, and the chat frame draws no list.
  await page.waitForFunction(() => {
    const f = /** @type {HTMLIFrameElement | null} */ (document.querySelector('iframe[src*="/windows.html#"]'));
    const chat = /** @type {HTMLElement} */ (document.getElementById('chat'));
    return !!f && getComputedStyle(f).visibility === 'visible' && f.getBoundingClientRect().bottom > chat.getBoundingClientRect().bottom + 40;
  });
  assert.equal(await chat.evaluate(() => [...document.querySelectorAll('.henkan-candidates')].filter((l) => l.querySelector('li') && getComputedStyle(l).display !== 'none').length), 0);
  const box = await page.evaluate(() => {
    const r = /** @type {HTMLElement} */ (document.querySelector('iframe[src*="/windows.html#"]')).getBoundingClientRect();
    return { x: r.x, y: r.y };
  });
  const before = await chat.evaluate(() => document.querySelector('.henkan-preedit-runs .henkan-focused')?.textContent);
  // The first option: inside the frame's margin (12 px) and the list's border and padding, half a row down.
  await page.mouse.click(box.x + 40, box.y + 12 + 3 + 12);
  await chat.waitForFunction((b) => document.querySelector('.henkan-preedit-runs .henkan-focused')?.textContent !== b, {}, before);
  const picked = await chat.evaluate(() => document.querySelector('.henkan-preedit-runs .henkan-focused')?.textContent);
  assert.equal(await chat.evaluate(() => document.activeElement?.id), 'msg');
  await page.keyboard.press('Enter');
  await chat.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value !== '');
  assert.equal(await chat.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value), picked);
  const posted = /** @type {string[]} */ (await page.evaluate(() => /** @type {any} */ (window).posted));
  for (const m of posted) assert.doesNotMatch(m, /[\u3040-\u30ff\u4e00-\u9fff]|kisha/, m);
  assert.deepEqual(errors, []);
  await page.close();
});

// The extension's keyboard shortcut (`commands`: Alt+Shift+J turns the IME off and on for the
// site), pressed for real. A shortcut of `commands` is the browser's own: it never reaches a page,
// and keys sent over the DevTools protocol go to the page. So this test runs Chromium with a window
// on a virtual X display (Xvfb) and presses the keys there with xdotool, as a person's keyboard
// would (both from Debian, installed by scripts/setup-web.sh). `make test-extension`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../e2e/harness.mjs';
import { EXTENSION, servePages, focusReady } from './harness.mjs';

/** @type {import('node:child_process').ChildProcess} */
let xvfb;
/** @type {string} the virtual display (`:N`) */
let display = '';
/** @type {Awaited<ReturnType<typeof servePages>>} */
let server;

before(async () => {
  // -displayfd: Xvfb picks a free display and writes its number when it is ready.
  xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  display = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 10000);
    xvfb.on('error', reject);
    xvfb.stdout?.once('data', (d) => {
      clearTimeout(timer);
      resolve(`:${String(d).trim()}`);
    });
  });
  server = await servePages();
});

after(async () => {
  await server?.stop();
  xvfb?.kill();
});

/**
 * Presses keys in the focused window of the virtual display, as a keyboard would.
 * @param {string} keys xdotool's names (`alt+shift+j`)
 */
function press(keys) {
  const env = { ...process.env, DISPLAY: display };
  const windows = execFileSync('xdotool', ['search', '--onlyvisible', '--class', 'chromium'], { env }).toString().trim().split('\n');
  execFileSync('xdotool', ['windowfocus', '--sync', windows[windows.length - 1]], { env });
  execFileSync('xdotool', ['key', '--clearmodifiers', keys], { env });
}

test('Alt+Shift+J, pressed on the keyboard, turns henkan off for the site and on again', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'henkan-shortcut-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: false,
    env: { ...process.env, DISPLAY: display },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync', `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`],
    viewport: { width: 1000, height: 700 },
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20000 }));
    const badge = () =>
      worker.evaluate(async () => {
        const [tab] = await chrome.tabs.query({ active: true });
        return chrome.action.getBadgeText({ tabId: tab.id });
      });
    /**
     * The badge once it says `text` (the command is handled asynchronously), or what it says
     * after 5 s.
     * @param {string} text
     */
    const badgeBecomes = async (text) => {
      for (let i = 0; i < 50 && (await badge()) !== text; i++) await new Promise((r) => setTimeout(r, 100));
      return badge();
    };
    const page = await context.newPage();
    await page.goto(`${server.url}plain.html`);
    await focusReady(page, '#ta');
    await page.keyboard.type('ka');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#ta').inputValue(), 'か', 'on: romaji compose');

    press('alt+shift+j');
    assert.equal(await badgeBecomes('A'), 'A', 'the shortcut turned the site off');
    await page.focus('#ta');
    await page.keyboard.type('ka');
    assert.equal(await page.locator('#ta').inputValue(), 'かka', 'off: the keys are the page’s');

    press('alt+shift+j');
    assert.equal(await badgeBecomes('あ'), 'あ', 'the shortcut turned the site on again');
    await focusReady(page, '#ta');
    await page.keyboard.type('ka');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#ta').inputValue(), 'かkaか', 'on again: romaji compose');
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

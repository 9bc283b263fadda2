// Shared by the e2e tests and measure.mjs: the demo server and Debian's Chromium driven by
// playwright-core (never `npx playwright install`: no browser download here).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OUTPUT = path.join(ROOT, 'tests/e2e/output');
/** The model the demo loads, relative to the repository root. */
export const MODEL = process.env.HENKAN_E2E_MODEL || 'models/henkan.henkan';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Starts scripts/serve-web.mjs on a free port (with the test routes).
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve-web.mjs'), '--port', '0', '--test-routes'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buf = '';
    const timer = setTimeout(() => reject(new Error('server did not start')), 10000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /serving (http:\/\/[^ ]+\/)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stop: () =>
            new Promise((r) => {
              child.once('exit', () => r());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}`));
    });
  });
}

/**
 * Chromium with a fresh user-data-dir.
 * @returns {Promise<{context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 */
export async function launch() {
  const dir = mkdtempSync(path.join(tmpdir(), 'henkan-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    // Scroll bars as a desktop browser has them, taking room from a field's text (headless
    // Chromium hides them by default).
    ignoreDefaultArgs: ['--hide-scrollbars'],
    viewport: { width: 1100, height: 800 },
    locale: 'ja-JP',
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The value of the command-line option `--NAME VALUE`, else `def`.
 * @param {string} name
 * @param {string} def
 */
export function opt(name, def) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
}

/**
 * The server and Chromium, started before a test file's tests and stopped after them:
 * `const env = serverAndBrowser();` then `env.server.url`, `env.browser.context` in the tests.
 * @returns {{server: Awaited<ReturnType<typeof startServer>>, browser: Awaited<ReturnType<typeof launch>>}}
 */
export function serverAndBrowser() {
  const env = /** @type {any} */ ({});
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * The demo URL for a model.
 * @param {string} base
 * @param {string} [model]
 */
export function demoUrl(base, model = MODEL) {
  return `${base}index.html?model=${encodeURIComponent(model)}`;
}

/**
 * Waits until the demo's IME is ready (or failed) and the whole model is in: the classic engine
 * comes first, the language models (neural/hybrid engines, the n-gram LM of the suggestions) when
 * the rest of the model has arrived (or failed). Returns the status.
 * @param {import('playwright-core').Page} page
 * @param {number} [timeout] ms
 */
export async function waitForIme(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const d = /** @type {any} */ (window).henkanDemo;
    return d && (d.ime.status === 'error' || (d.ime.status === 'ready' && d.ime.lm !== 'pending'));
  }, null, { timeout });
  return page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.status);
}

export function ensureOutput() {
  mkdirSync(OUTPUT, { recursive: true });
  return OUTPUT;
}

/** The machine a measurement ran on: its CPUs and their load average (the measure scripts). */
export function machine() {
  return { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100) };
}

/**
 * Runs a measure script's `body` with a test server and a browser, closes both, and exits with 1
 * on an error.
 * @param {(server: Awaited<ReturnType<typeof startServer>>, browser: Awaited<ReturnType<typeof launch>>) => Promise<void>} body
 */
export function runMeasurement(body) {
  (async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      await body(server, browser);
    } finally {
      await browser.close();
      await server.stop();
    }
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

/**
 * Writes a measurement's result to `out` as JSON and prints it (the measure scripts).
 * @param {string} out
 * @param {object} result
 */
export function writeMeasurement(out, result) {
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${out}`);
}

/**
 * Adds the page's console errors to `errors`, but for the browser's own request for /favicon.ico
 * (the test pages have none).
 * @param {import('playwright-core').Page} page
 * @param {string[]} errors
 */
export function collectConsoleErrors(page, errors) {
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
  });
}

/**
 * Drops `text` at a point of the page as a drag from another window does (the browser's own drag
 * events, by the DevTools protocol): the drag enters, moves for `pause` ms (as a person's does)
 * and is let go.
 * @param {import('playwright-core').Page} page
 * @param {{x: number, y: number}} at
 * @param {string} text
 * @param {number} [pause]
 */
export async function dropText(page, at, text, pause = 100) {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [{ mimeType: 'text/plain', data: text }], dragOperationsMask: 1 };
  await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', ...at, data });
  await page.waitForTimeout(pause);
  for (const type of /** @type {const} */ (['dragOver', 'drop'])) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
}

/**
 * A blank page (www/test/blank.html) whose body is `html`, with the widget attached to the
 * elements `ids` over one engine loading `MODEL` (`window.henkanIme`); page errors are collected
 * in `errors`.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} base the server's URL
 * @param {string} html
 * @param {string[]} ids
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[], status: string}>}
 */
export async function widgetPage(context, base, html, ids) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}www/test/blank.html`);
  const status = await page.evaluate(
    async ([model, html, ids]) => {
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      const { attach } = await import('/www/widget.js');
      document.body.innerHTML = String(html);
      const ime = new HenkanIme();
      /** @type {any} */ (window).henkanIme = ime;
      await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      for (const id of /** @type {string[]} */ (ids)) attach(/** @type {HTMLElement} */ (document.getElementById(id)), { ime });
      return ime.status;
    },
    /** @type {[string, string, string[]]} */ ([MODEL, html, ids]),
  );
  return { page, errors, status };
}

/**
 * A blank page that loads a third-party editor from its own build (`scripts`, `styles`: URLs, e.g.
 * under /node_modules), puts `html` in its body and runs `setup` (an async function body, as text;
 * `TEXT` is `text` there), then loads one `HenkanIme` on the shipped model: `window.ime`, and the
 * widget's `attach` as `window.attach`. Nothing is attached yet.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} base the server's URL
 * @param {{scripts?: string[], styles?: string[], html: string, setup: string, text?: string}} page
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[], status: string}>}
 */
export async function editorImePage(context, base, { scripts = [], styles = [], html, setup, text = '' }) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}www/test/blank.html`);
  for (const url of styles) await page.addStyleTag({ url });
  for (const url of scripts) await page.addScriptTag({ url });
  const status = await page.evaluate(
    async ([model, html, setup, text]) => {
      const w = /** @type {any} */ (window);
      document.body.innerHTML = html;
      await new Function('TEXT', `return (async () => { ${setup} })()`)(text);
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      w.attach = (await import('/www/widget.js')).attach;
      w.ime = new HenkanIme();
      await w.ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      return w.ime.status;
    },
    /** @type {[string, string, string, string]} */ ([MODEL, html, setup, text]),
  );
  return { page, errors, status };
}

/**
 * The colours (RGBA) of a screenshot at these points (CSS pixels of a page at scale 1), decoded in
 * a canvas of the page.
 * @param {import('playwright-core').Page} page
 * @param {Buffer} shot a PNG screenshot of the page
 * @param {number[][]} points [x, y] pairs
 * @returns {Promise<number[][]>}
 */
export function screenColours(page, shot, points) {
  return page.evaluate(
    async ([png, points]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
      ctx.drawImage(img, 0, 0);
      return points.map(([x, y]) => [...ctx.getImageData(x, y, 1, 1).data]);
    },
    /** @type {[string, number[][]]} */ ([shot.toString('base64'), points]),
  );
}

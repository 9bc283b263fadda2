// Shared by the extension's tests and its measurements: the test pages, served by a small server
// of the test's own (one page sends a strict CSP), and Debian's Chromium with the built extension
// (dist/extension, `make extension`) loaded in a persistent context. The ProseMirror page imports
// the editors' bundle of the widget's own editor tests (tests/e2e/editors/, `bundleEditors`).
import http from 'node:http';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, CHROMIUM } from '../e2e/harness.mjs';
import { BUNDLE_URL } from '../e2e/editors/bundle.mjs';

export const EXTENSION = path.join(ROOT, 'dist/extension');

/** The page script of the plain page: a log of the keys its own handlers see, a shadow root, a field added later. */
const PAGE_JS = `
window.seen = [];
document.addEventListener('keydown', (e) => window.seen.push(e.key));
// Listeners in the capture phase on the window and the document, as shortcut libraries add them.
window.captured = [];
window.addEventListener('keydown', (e) => window.captured.push('window:' + e.key), true);
document.addEventListener('keydown', (e) => window.captured.push('document:' + e.key), true);
const host = document.getElementById('host');
host.attachShadow({ mode: 'open' }).innerHTML = '<input id="shadow-input">';
// The edits of the shadow root's field: a commit by execCommand (one undo step) comes as a
// trusted input event, one set by script as an untrusted one.
window.shadowEdits = [];
host.shadowRoot.getElementById('shadow-input').addEventListener('input', (e) => window.shadowEdits.push(e.isTrusted + ':' + e.inputType + ':' + e.data));
setTimeout(() => {
  const late = document.createElement('textarea');
  late.id = 'late';
  document.body.append(late);
}, 200);
`;

const FIELDS = `
<textarea id="ta"></textarea>
<input id="in">
<div id="ce" contenteditable="true" style="min-height:2em;border:1px solid #999"></div>
<div id="host"></div>
<input id="pw" type="password">
<input id="otp" autocomplete="one-time-code">
<input id="cc" autocomplete="cc-number">
`;

/** @type {Record<string, {type: string, body: string, headers?: Record<string, string>}>} */
const PAGES = {
  '/plain.html': { type: 'text/html', body: `<!doctype html><meta charset="utf-8"><body>${FIELDS}<script src="/page.js"></script></body>` },
  '/page.js': { type: 'text/javascript', body: PAGE_JS },
  '/csp.html': {
    type: 'text/html',
    body: '<!doctype html><meta charset="utf-8"><body><textarea id="ta"></textarea><script src="/page-csp.js"></script></body>',
    headers: { 'Content-Security-Policy': "default-src 'self'; script-src 'self'" },
  },
  '/page-csp.js': {
    type: 'text/javascript',
    body: `window.seen = []; document.addEventListener("keydown", (e) => window.seen.push(e.key));
window.captured = [];
window.addEventListener('keydown', (e) => window.captured.push('window:' + e.key), true);
document.addEventListener('keydown', (e) => window.captured.push('document:' + e.key), true);`,
  },
  // A ProseMirror editor (the bundle's `prosemirror`: bold text, a link, history, key bindings);
  // `window.m` is what it returns (its state, its undo, the bindings that fired).
  '/prosemirror.html': {
    type: 'text/html',
    body: '<!doctype html><meta charset="utf-8"><style>.ProseMirror { white-space: pre-wrap }</style><body><div id="pm" style="width:500px;border:1px solid #999"></div><script type="module" src="/prosemirror.js"></script></body>',
  },
  '/prosemirror.js': {
    type: 'text/javascript',
    body: "import { prosemirror } from '/editors.js'; window.m = prosemirror(document.getElementById('pm'));",
  },
  // A Slate editor (the bundle's `slate`: a bold run, React 18) on a page whose CSP forbids wasm:
  // the extension's engine types there, through `RemoteKeyHandler`.
  '/slate-csp.html': {
    type: 'text/html',
    body: '<!doctype html><meta charset="utf-8"><body><div id="host" style="width:500px;border:1px solid #999"></div><script type="module" src="/slate.js"></script></body>',
    headers: { 'Content-Security-Policy': "script-src 'self'" },
  },
  '/slate.js': {
    type: 'text/javascript',
    body: "import { slate } from '/editors.js'; window.m = slate(document.getElementById('host'));",
  },
};

// A chat box in a frame of another site (`localhost`; the page is on 127.0.0.1), too small for a
// candidate window under its field (`?same`: of the page's own origin; `?dialog`: in a modal
// <dialog>, the rest of the page inert under it). The page keeps every
// message it is posted (`window.posted`).
PAGES['/cross-frame.html'] = {
  type: 'text/html',
  body: '<!doctype html><meta charset="utf-8"><body style="margin:0"><p style="height:200px;margin:0">page</p><iframe id="chat" style="width:360px;height:90px;border:1px solid #999"></iframe><script src="/cross-frame.js"></script></body>',
};
PAGES['/cross-frame.js'] = {
  type: 'text/javascript',
  body: `window.posted = [];
window.addEventListener('message', (e) => window.posted.push(JSON.stringify(e.data)));
const chat = document.getElementById('chat');
chat.src = (location.search === '?same' ? location.origin : 'http://localhost:' + location.port) + '/chat.html';
if (location.search === '?dialog') {
  const dialog = document.createElement('dialog');
  dialog.append(chat);
  document.body.append(dialog);
  dialog.showModal();
}`,
};
PAGES['/chat.html'] = {
  type: 'text/html',
  body: '<!doctype html><meta charset="utf-8"><body style="margin:0"><p style="margin:4px;font:13px sans-serif">chat</p><textarea id="msg" style="position:absolute;bottom:4px;left:4px;width:340px;height:40px"></textarea></body>',
};

/**
 * The chat frame of `cross-frame.html` once it is in, with its field focused and the IME on it
 * ready (Playwright's or puppeteer's page alike).
 * @template {{url(): string, waitForSelector(s: string, o?: object): Promise<unknown>, click(s: string): Promise<unknown>}} F
 * @param {{frames(): F[]}} page
 * @param {string} origin the chat frame's origin
 * @returns {Promise<F>}
 */
export async function focusChat(page, origin) {
  /** @type {F | undefined} */
  let chat;
  while (!(chat = page.frames().find((f) => f.url() === `${origin}/chat.html`))) await new Promise((r) => setTimeout(r, 20));
  await chat.waitForSelector('#msg');
  await chat.click('#msg');
  // `state` for Playwright (the badge in the DOM is enough); puppeteer waits for that by default
  await chat.waitForSelector('#msg + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
  return chat;
}

/** Files of the repository served as they are (built before the tests). */
const FILES = /** @type {Record<string, string>} */ ({
  '/editors.js': path.join(ROOT, BUNDLE_URL.slice(1)),
  '/codemirror5.js': path.join(ROOT, 'node_modules/codemirror/lib/codemirror.js'),
});
// A CodeMirror 5 editor (npm `codemirror` 5, its UMD build): it takes its keys through a hidden
// textarea and draws its text itself.
PAGES['/codemirror5.html'] = {
  type: 'text/html',
  body: `<!doctype html><meta charset="utf-8"><style>${readFileSync(path.join(ROOT, 'node_modules/codemirror/lib/codemirror.css'), 'utf8')}</style><body><div id="cm" style="width:500px;border:1px solid #999"></div><script src="/codemirror5.js"></script><script src="/codemirror5-page.js"></script></body>`,
};
// Monaco (npm `monaco-editor`, its AMD build) with its default input: an EditContext where the
// browser has one, as Chromium does.
PAGES['/monaco.html'] = {
  type: 'text/html',
  body: '<!doctype html><meta charset="utf-8"><body><div id="mo" style="width:500px;height:160px;border:1px solid #999"></div><script src="/node_modules/monaco-editor/min/vs/loader.js"></script><script src="/monaco-page.js"></script></body>',
};
PAGES['/monaco-page.js'] = {
  type: 'text/javascript',
  body: `require.config({ paths: { vs: '/node_modules/monaco-editor/min/vs' } });
require(['vs/editor/editor.main'], () => { window.ed = monaco.editor.create(document.getElementById('mo'), { value: 'hello', minimap: { enabled: false } }); });`,
};
// TinyMCE 6 (npm `tinymce`, its own build): its editable <body> is in an iframe.
PAGES['/tinymce.html'] = {
  type: 'text/html',
  body: '<!doctype html><meta charset="utf-8"><body><textarea id="tm">&lt;p&gt;hello&lt;/p&gt;</textarea><script src="/node_modules/tinymce/tinymce.min.js"></script><script src="/tinymce-page.js"></script></body>',
};
PAGES['/tinymce-page.js'] = {
  type: 'text/javascript',
  body: `tinymce.init({ selector: '#tm', base_url: '/node_modules/tinymce', suffix: '.min', menubar: false, promotion: false, branding: false, width: 500, height: 200 })
  .then(([ed]) => { window.ed = ed; });`,
};
PAGES['/codemirror5-page.js'] = {
  type: 'text/javascript',
  body: "window.ed = CodeMirror(document.getElementById('cm'), { value: 'hello' });",
};

/**
 * The web widget's page (the measurements' baseline, no extension involved): the widget of www/
 * with its own engine, as a page that embeds it; the repository's www/, pkg/ and model are served
 * under their paths.
 */
PAGES['/widget.html'] = {
  type: 'text/html',
  body: '<!doctype html><meta charset="utf-8"><body><textarea id="ta"></textarea><script type="module" src="/widget-page.js"></script></body>',
};
PAGES['/widget-page.js'] = {
  type: 'text/javascript',
  body: `import * as henkan from '/pkg/henkan.js';
import { HenkanIme } from '/www/ime.js';
import { attach } from '/www/widget.js';
const ime = new HenkanIme({ persistLearning: false });
ime.load({ module: henkan, wasmUrl: '/pkg/henkan_bg.wasm', modelUrl: '/models/henkan.henkan' });
// ?lmEachKey: the language model runs in every key (the measurements compare it with the default)
attach(document.getElementById('ta'), { ime, lmEachKey: new URLSearchParams(location.search).has('lmEachKey') });`,
};
/** @type {Record<string, string>} */
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.ttf': 'font/ttf' };

/**
 * A file of the repository under www/, pkg/ or models/ (the web widget's page) or of Monaco's
 * and TinyMCE's builds (node_modules/monaco-editor/min, node_modules/tinymce), or null.
 * @param {string} pathname
 */
function repoFile(pathname) {
  if (!/^\/(www|pkg|models|node_modules\/monaco-editor\/min|node_modules\/tinymce)\/[\w./-]+$/.test(pathname) || pathname.includes('..')) return null;
  const file = path.join(ROOT, pathname.slice(1));
  return existsSync(file) ? { type: TYPES[path.extname(file)] ?? 'application/octet-stream', body: readFileSync(file) } : null;
}

/**
 * Serves the test pages on a free port of 127.0.0.1 (`localhost` also reaches it: a second site).
 * @returns {Promise<{url: string, port: number, stop: () => Promise<void>}>}
 */
export function servePages() {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const file = FILES[pathname];
    const page = file && existsSync(file) ? { type: 'text/javascript', body: readFileSync(file, 'utf8') } : (PAGES[pathname] ?? repoFile(pathname));
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    const binary = typeof page.body !== 'string';
    res.writeHead(200, { 'Content-Type': binary ? page.type : `${page.type}; charset=utf-8`, ...('headers' in page ? page.headers : {}) }).end(page.body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
      resolve({ url: `http://127.0.0.1:${port}/`, port, stop: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}

/**
 * Chromium with the extension loaded (new headless: the old one has no extensions).
 * @returns {Promise<{context: import('playwright-core').BrowserContext, id: string, worker: import('playwright-core').Worker, close: () => Promise<void>}>}
 */
export async function launchWithExtension() {
  if (!existsSync(path.join(EXTENSION, 'manifest.json'))) throw new Error('dist/extension is missing: run `make extension`');
  const dir = mkdtempSync(path.join(tmpdir(), 'henkan-ext-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: false,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      `--disable-extensions-except=${EXTENSION}`,
      `--load-extension=${EXTENSION}`,
    ],
    viewport: { width: 1000, height: 700 },
    locale: 'ja-JP',
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20000 }));
  const id = new URL(worker.url()).host;
  return {
    context,
    id,
    worker,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Focuses a field (a selector, or a function that finds it) and waits until the extension's
 * widget on it is ready: its badge (the field's next sibling) says the engine's dictionary is in.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
export async function focusReady(page, selector) {
  await page.focus(selector);
  await page.waitForSelector(`${selector} + .henkan-indicator[data-status="ready"]`, { state: 'attached', timeout: 60000 });
}

/**
 * Runs in a page (`page.evaluate`): adds the frames a page makes itself, a srcdoc one and an
 * about:blank one, each with a contenteditable <body> holding `srcdoc` or `blank`.
 */
export function addEditableFrames() {
  const a = document.createElement('iframe');
  a.srcdoc = '<body contenteditable="true">srcdoc</body>';
  document.body.append(a);
  const b = document.createElement('iframe');
  document.body.append(b);
  const body = /** @type {Document} */ (b.contentDocument).body;
  body.contentEditable = 'true';
  body.textContent = 'blank';
}

/** Runs in a page (`page.waitForFunction`): whether the frames of `addEditableFrames` are in. */
export function editableFramesIn() {
  return [...document.querySelectorAll('iframe')].every((f) => f.contentDocument?.body?.textContent);
}

/** The frames of `addEditableFrames`, by URL, and the text each starts with. */
export const EDITABLE_FRAMES = [
  ['about:srcdoc', 'srcdoc'],
  ['about:blank', 'blank'],
];

/**
 * The code editors' pages (`codemirror5.html`, `monaco.html`; each mounts `window.ed` holding
 * `hello`): a name, the page, where to click into its lines, and its outer box (the badge follows
 * it). Monaco takes its keys through an EditContext in Chromium, through its textarea in Firefox.
 */
export const CODE_EDITOR_PAGES = [
  { name: 'CodeMirror 5', page: 'codemirror5.html', lines: '#cm .CodeMirror-lines', root: '#cm .CodeMirror' },
  { name: 'Monaco', page: 'monaco.html', lines: '#mo .view-lines', root: '#mo .monaco-editor' },
];

/**
 * The document of a code editor's page (`CODE_EDITOR_PAGES`: `window.ed`).
 * @param {any} page a Playwright or a Puppeteer page
 * @returns {Promise<string>}
 */
export function editorValue(page) {
  return page.evaluate(() => /** @type {any} */ (window).ed.getValue());
}

/**
 * Enter commits the conversion of `nihongo` shown in a code editor's page (`CODE_EDITOR_PAGES`),
 * after `hello`: the document is `hello日本語`, with no newline from Enter.
 * @param {any} page a Playwright or a Puppeteer page
 */
export async function enterCommitsIntoEditor(page) {
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {any} */ (window).ed.getValue() !== 'hello');
  assert.equal(await editorValue(page), 'hello日本語', 'the commit, and no newline from Enter');
}

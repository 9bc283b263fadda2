// The browser extension in real Chromium (Debian's, through playwright-core) with
// dist/extension loaded: typing into the fields of local test pages (a ProseMirror editor and a
// field in a shadow root among them), the fields it must leave alone, the in-page toggle, the
// per-site switch of the toolbar button, the key channel. `make test-extension`.
//
// The toolbar button is pressed through its code path (the options page asks the background to
// toggle the tab's site, as a click does); the `toggle-site` shortcut, a browser accelerator that
// keys sent over the DevTools protocol never reach, is pressed for real in shortcut.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { servePages, launchWithExtension, focusReady, focusChat, addEditableFrames, editableFramesIn, EDITABLE_FRAMES, CODE_EDITOR_PAGES, editorValue, enterCommitsIntoEditor } from './harness.mjs';
import { bundleEditors } from '../e2e/editors/bundle.mjs';
import { dropText } from '../e2e/harness.mjs';

/** @type {Awaited<ReturnType<typeof servePages>>} */
let server;
/** @type {Awaited<ReturnType<typeof launchWithExtension>>} */
let ext;

before(async () => {
  await bundleEditors();
  server = await servePages();
  ext = await launchWithExtension();
});
after(async () => {
  await ext?.close();
  await server?.stop();
});

/**
 * A page of the test server, its errors collected.
 * @param {string} name
 */
async function open(name) {
  const page = await ext.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${name}`);
  return { page, errors };
}

/**
 * Types romaji, converts with Space and commits with Enter.
 * @param {import('playwright-core').Page} page
 * @param {string} romaji
 * @param {import('playwright-core').Page | import('playwright-core').Frame} [where] the frame of the field (the page's by default)
 */
async function convertAndCommit(page, romaji, where = page) {
  await page.keyboard.type(romaji, { delay: 15 });
  await where.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim()));
  await page.keyboard.press('Space');
  await where.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Enter');
  await where.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].every((p) => !(p.textContent ?? '').trim()));
}

/**
 * The value of a field, a contenteditable's text, a field in the host's shadow root.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
function valueOf(page, selector) {
  return page.locator(selector).evaluate((el) => (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value : el.textContent));
}

/**
 * Toggles the site of a page as the toolbar button does; returns the tab's badge text.
 * @param {import('playwright-core').Page} page
 */
async function toggleSite(page) {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  await page.bringToFront();
  const badge = await options.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    await chrome.runtime.sendMessage({ type: 'toggle-site', tabId: tab.id });
    return chrome.action.getBadgeText({ tabId: tab.id });
  });
  await options.close();
  return badge;
}

/**
 * Asks the extension's engine from the options page (its port, as the options page's own code
 * does), once it is started and its model in.
 * @param {string} op
 */
async function askEngine(op) {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  const out = await options.evaluate(async (op) => {
    for (;;) {
      await chrome.runtime.sendMessage({ type: 'engine' }); // started, as a page's first focus does
      const port = chrome.runtime.connect({ name: 'henkan-engine' });
      const answer = await new Promise((resolve) => {
        let id = 0;
        const ask = () => port.postMessage({ op, id: ++id });
        port.onMessage.addListener((/** @type {any} */ m) => {
          if (m.id !== id) return;
          if (m.error) setTimeout(ask, 100); // not ready yet
          else resolve({ out: m.out });
        });
        // a port opened before the engine's document listened closes at once: try again
        port.onDisconnect.addListener(() => resolve(null));
        ask();
      });
      port.disconnect();
      if (answer) return /** @type {any} */ (answer).out;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, op);
  await options.close();
  return out;
}

/** The engine's count of requests served over runtime ports and over key channels. */
async function served() {
  return /** @type {{port: number, channel: number}} */ ((await askEngine('info')).served);
}

test('types and converts in a textarea, an input and a contenteditable', async () => {
  const { page, errors } = await open('plain.html');
  for (const selector of ['#ta', '#in', '#ce']) {
    await focusReady(page, selector);
    await convertAndCommit(page, 'nihongo');
    assert.equal(await valueOf(page, selector), '日本語', selector);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('types in a field inside an open shadow root and in a field added after load', async () => {
  const { page } = await open('plain.html');
  await focusReady(page, '#host >> #shadow-input');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#host >> #shadow-input'), '日本語');
  // The commit went in as an edit of the field's own (one undo step), and the badge beside the
  // field has the widget's stylesheet (adopted by the shadow root).
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).shadowEdits), ['true:insertText:日本語']);
  assert.equal(await page.locator('#host >> .henkan-indicator').evaluate((el) => getComputedStyle(el).position), 'fixed');
  await page.waitForSelector('#late');
  await focusReady(page, '#late');
  await convertAndCommit(page, 'toukyou');
  assert.equal(await valueOf(page, '#late'), '東京');
  await page.close();
});

test('in a ProseMirror editor: preedit over the text, the commit one edit of its own, its Enter binding untouched', async () => {
  const { page, errors } = await open('prosemirror.html');
  await page.waitForFunction(() => /** @type {any} */ (window).m);
  await focusReady(page, '#pm .ProseMirror');
  await page.keyboard.press('Control+End');
  const before = await page.evaluate(() => /** @type {any} */ (window).m.text());
  await page.keyboard.type('nihongo', { delay: 15 });
  await page.waitForSelector('.henkan-preedit-overlay', { state: 'visible' });
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).m.text()), before, 'the preedit is not in the editor’s document');
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => /** @type {any} */ (window).m.text() !== b, before);
  const r = await page.evaluate(() => ({ text: /** @type {any} */ (window).m.text(), fired: [.../** @type {any} */ (window).m.fired] }));
  assert.equal(r.text, `${before}日本語`);
  assert.deepEqual(r.fired, [], 'Enter committed; the editor did not see it');
  await page.evaluate(() => /** @type {any} */ (window).m.undo());
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).m.text()), before, 'one undo takes the commit back');
  assert.deepEqual(errors, []);
  await page.close();
});

// Code editors that take their keys through a hidden input: CodeMirror 5's textarea, Monaco's
// EditContext (its default in Chromium).
for (const { name, page: pageName, lines, root } of CODE_EDITOR_PAGES) {
  test(`in ${name} (a hidden input): the preedit over its text, the commit typed into its document`, async () => {
    const { page, errors } = await open(pageName);
    await page.waitForFunction(() => /** @type {any} */ (window).ed);
    await page.click(lines);
    await page.waitForSelector(`${root} + .henkan-indicator[data-status="ready"]`, { state: 'attached', timeout: 60000 });
    await page.keyboard.press('End');
    await page.keyboard.type('nihongo', { delay: 15 });
    await page.waitForSelector('.henkan-preedit-overlay', { state: 'visible' });
    assert.equal(await editorValue(page), 'hello', 'the preedit is not in the editor’s document');
    await page.keyboard.press('Space');
    await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
    await enterCommitsIntoEditor(page);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('types in the frames a page makes: about:blank and srcdoc, a contenteditable <body> each', async () => {
  const { page, errors } = await open('plain.html');
  await page.evaluate(addEditableFrames);
  await page.waitForFunction(editableFramesIn);
  for (const [url, text] of EDITABLE_FRAMES) {
    const frame = page.frames().find((f) => f.url() === url);
    assert.ok(frame, url);
    await frame.click('body');
    await frame.waitForSelector('body + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
    await page.keyboard.press('End');
    await convertAndCommit(page, 'nihongo', frame);
    assert.equal(await frame.evaluate(() => document.body.textContent), `${text}日本語`, url);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("in TinyMCE (its editable <body> in an iframe): the commit in its content, the windows out of it, one step of its undo", async () => {
  const { page, errors } = await open('tinymce.html');
  await page.waitForFunction(() => /** @type {any} */ (window).ed);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  await frame.click('body');
  await frame.waitForSelector('body + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
  await page.keyboard.press('End');
  await page.keyboard.type('nihongo', { delay: 15 });
  await frame.waitForSelector('.henkan-preedit-overlay', { state: 'visible' });
  await page.keyboard.press('Space');
  await frame.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), '<p>hello</p>', 'nothing of the IME in its content');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {any} */ (window).ed.getContent() !== '<p>hello</p>');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), '<p>hello日本語</p>');
  await page.evaluate(() => /** @type {any} */ (window).ed.undoManager.undo());
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), '<p>hello</p>');
  // The candidate window is drawn in the page around the frame (not clipped at its edge).
  await page.keyboard.type('kisha', { delay: 15 });
  await page.keyboard.press('Space');
  await frame.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-candidates li[role="option"]', { state: 'visible' });
  assert.equal(await frame.evaluate(() => document.querySelectorAll('.henkan-candidates li').length), 0);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), '<p>hello</p>');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a field in a frame of another site: its lists drawn over the page in the extension\'s frame, unclipped and unread by the page', async () => {
  const { page, errors } = await open('cross-frame.html');
  const chat = await focusChat(page, `http://localhost:${server.port}`);
  // The page around adds the extension's frame for the field; it is ready once placed.
  const windows = page.locator('iframe[src*="/windows.html#"]');
  await windows.waitFor({ state: 'attached' });
  await page.keyboard.type('kisha', { delay: 15 });
  await chat.waitForSelector('.henkan-preedit-runs', { state: 'visible' });
  await page.keyboard.press('Space');
  await chat.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Space');
  await windows.waitFor({ state: 'visible' });
  const wf = page.frames().find((f) => f.url().includes('/windows.html#'));
  assert.ok(wf);
  await wf.waitForSelector('.henkan-candidates li[role="option"]', { state: 'visible' });
  const options = await wf.$$eval('.henkan-candidates li[role="option"]', (lis) => lis.map((li) => li.childNodes[1]?.textContent ?? ''));
  assert.ok(options.length >= 5, options.join(' '));
  // a light field, a light list
  assert.equal(await wf.$eval('.henkan-candidates', (l) => getComputedStyle(l).backgroundColor), 'rgb(255, 255, 255)');
  // Nothing of the list in the field's frame.
  assert.equal(await chat.evaluate(() => [...document.querySelectorAll('.henkan-candidates')].filter((l) => l.querySelector('li') && getComputedStyle(l).display !== 'none').length), 0);
  // Under the preedit's focused segment, and past the frame's bottom edge (the frame would clip it).
  const frameBox = /** @type {{x: number, y: number, width: number, height: number}} */ (await page.locator('#chat').boundingBox());
  const seg = /** @type {{x: number, y: number, width: number, height: number}} */ (await chat.locator('.henkan-preedit-runs .henkan-focused').boundingBox());
  const list = /** @type {{x: number, y: number, width: number, height: number}} */ (await wf.locator('.henkan-candidates').boundingBox());
  assert.ok(Math.abs(list.x - seg.x) <= 3, `list at x ${list.x}, segment at ${seg.x}`);
  assert.ok(list.y >= seg.y + seg.height && list.y <= seg.y + seg.height + 6, `list at y ${list.y}, segment bottom ${seg.y + seg.height}`);
  assert.ok(list.y + list.height > frameBox.y + frameBox.height + 40, 'the list reaches past the frame');
  await page.screenshot({ path: 'tests/e2e/output/extension-cross-frame.png' });
  // A click on the third option picks it; the field keeps the focus.
  const third = /** @type {{x: number, y: number, width: number, height: number}} */ (await wf.locator('.henkan-candidates li[role="option"]').nth(2).boundingBox());
  await page.mouse.click(third.x + third.width / 2, third.y + third.height / 2);
  await chat.waitForFunction((t) => document.querySelector('.henkan-preedit-runs .henkan-focused')?.textContent === t, options[2]);
  assert.equal(await chat.evaluate(() => document.activeElement?.id), 'msg');
  await page.keyboard.press('Enter');
  await chat.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value !== '');
  assert.equal(await chat.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value), options[2]);
  // The completions while composing are drawn there too.
  await page.keyboard.type('arigato', { delay: 15 });
  await wf.waitForSelector('.henkan-suggestions li[role="option"]', { state: 'visible' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await wf.waitForSelector('.henkan-suggestions', { state: 'hidden' });
  // The page got ids and boxes, nothing typed; it cannot read the extension's frame.
  const posted = /** @type {string[]} */ (await page.evaluate(() => /** @type {any} */ (window).posted));
  assert.ok(posted.some((m) => m.includes('henkan-outer-box')), posted.join('\n'));
  for (const m of posted) assert.doesNotMatch(m, /[\u3040-\u30ff\u4e00-\u9fff]|kisha|arigat/, m);
  assert.equal(await page.evaluate(() => /** @type {HTMLIFrameElement} */ (document.querySelector('iframe[src*="/windows.html#"]')).contentDocument), null);
  // The frame goes, and the extension's frame with it.
  await page.evaluate(() => document.getElementById('chat')?.remove());
  await page.waitForFunction(() => !document.querySelector('iframe[src*="/windows.html#"]'));
  assert.deepEqual(errors, []);
  await page.close();
});

test("a field in a frame of another site inside a modal dialog: its lists drawn in the dialog, above the inert page, clickable, and dark for a dark field", async () => {
  const { page, errors } = await open('cross-frame.html?dialog');
  const chat = await focusChat(page, `http://localhost:${server.port}`);
  // a dark field: its list is drawn dark in the extension's frame too
  await chat.evaluate(() => {
    const msg = /** @type {HTMLElement} */ (document.getElementById('msg'));
    msg.style.background = '#1e1e1e';
    msg.style.color = '#ddd';
  });
  await page.waitForSelector('dialog iframe[src*="/windows.html#"]', { state: 'attached' });
  await page.keyboard.type('kisha', { delay: 15 });
  await page.keyboard.press('Space');
  await chat.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Space');
  await page.waitForSelector('dialog iframe[src*="/windows.html#"]', { state: 'visible' });
  const wf = page.frames().find((f) => f.url().includes('/windows.html#'));
  assert.ok(wf);
  await wf.waitForSelector('.henkan-candidates li[role="option"]', { state: 'visible' });
  const options = await wf.$$eval('.henkan-candidates li[role="option"]', (lis) => lis.map((li) => li.childNodes[1]?.textContent ?? ''));
  assert.equal(await wf.$eval('.henkan-candidates', (l) => getComputedStyle(l).backgroundColor), 'rgb(43, 44, 48)');
  // What is drawn at the third option is the extension's frame (the page under the dialog is inert).
  const third = /** @type {{x: number, y: number, width: number, height: number}} */ (await wf.locator('.henkan-candidates li[role="option"]').nth(2).boundingBox());
  const at = { x: third.x + third.width / 2, y: third.y + third.height / 2 };
  assert.equal(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('src')?.includes('/windows.html#') ?? false, at), true);
  await page.screenshot({ path: 'tests/e2e/output/extension-cross-frame-dialog.png' });
  await page.mouse.click(at.x, at.y);
  await chat.waitForFunction((t) => document.querySelector('.henkan-preedit-runs .henkan-focused')?.textContent === t, options[2]);
  await page.keyboard.press('Enter');
  await chat.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value !== '');
  assert.equal(await chat.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('msg')).value), options[2]);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Opens the plain page, types and commits にほんご in its textarea; returns the page and how many
 * requests the extension's engine served over runtime ports meanwhile.
 */
async function typedRequests() {
  const { page, errors } = await open('plain.html');
  await focusReady(page, '#ta');
  const before = (await served()).port;
  await page.bringToFront();
  await page.focus('#ta');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語');
  return { page, errors, requests: (await served()).port - before };
}

/** What the extension's engine learned (its `learning.export`). */
async function engineLearning() {
  return /** @type {string} */ (await askEngine('learning.export'));
}

test("where the page's CSP lets wasm run, the engine is the page's own: no key goes to the extension, and what it learns reaches the extension's engine", async () => {
  // what opening the options page and asking costs, without typing
  const idle = -(await served()).port + (await served()).port;
  const { page, errors, requests } = await typedRequests();
  // 7 letters, Space and Enter would be 9 requests over the port
  assert.ok(requests < idle + 9, 'the keys stayed in the page');
  // a correction: the second candidate of きしゃ, learned in the page, saved to the extension's
  // storage and taken by its engine (which converts for pages that cannot run one)
  await page.keyboard.type('kisha', { delay: 15 });
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  const first = await page.locator('.henkan-preedit-runs').first().innerText();
  await page.keyboard.press('Space');
  await page.waitForFunction((f) => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim() && (p.textContent ?? '').trim() !== f), first.trim());
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].every((p) => !(p.textContent ?? '').trim()));
  const picked = (await valueOf(page, '#ta'))?.slice('日本語'.length) ?? '';
  assert.ok(picked && picked !== first.trim(), `picked ${picked}, first ${first}`);
  let learned = '';
  for (let i = 0; i < 20 && !learned.includes(picked); i++) {
    await new Promise((r) => setTimeout(r, 250));
    learned = await engineLearning();
  }
  assert.ok(learned.includes(picked), `the extension's engine learned ${picked}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Types into the textarea of a page whose engine is its own (plain.html) and of one whose CSP
 * sends its keys to the extension's engine (csp.html): `type` types, the preedit comes to hold
 * `shown`, Enter commits, and the field then holds `committed`.
 * @param {(page: import('playwright-core').Page) => Promise<unknown>} type
 * @param {string} shown
 * @param {string} committed
 */
async function typeInBothEngines(type, shown, committed) {
  for (const name of ['plain.html', 'csp.html']) {
    const { page, errors } = await open(name);
    await focusReady(page, '#ta');
    await type(page);
    await page.waitForFunction((shown) => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').includes(shown)), shown);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value !== '');
    assert.equal(await valueOf(page, '#ta'), committed, name);
    assert.deepEqual(errors, []);
    await page.close();
  }
}

test("the options page's punctuation: , and . type ，．, in the page's own engine and in the extension's", async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  assert.equal(await options.inputValue('#punctuation'), '、。');
  await options.selectOption('#punctuation', '，．');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.punctuation === '，．');
  await typeInBothEngines((page) => page.keyboard.type('hai,sou.', { delay: 15 }), '．', 'はい，そう．');
  await options.bringToFront();
  await options.selectOption('#punctuation', '、。');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.punctuation === '、。');
  await options.close();
});

test("the options page's kana input: the keys type the kana of a JIS keyboard, in the page's own engine and in the extension's", async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  assert.equal(await options.inputValue('#kanaInput'), 'romaji');
  await options.selectOption('#kanaInput', 'kana');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.kanaInput === true);
  // に ほ ん こ ゛ (I, -, Y, B and the `@` key of a JIS keyboard), Shift+0 を
  const keys = ['KeyI', 'Minus', 'KeyY', 'KeyB', 'BracketLeft', 'Shift+Digit0'];
  await typeInBothEngines(async (page) => {
    for (const code of keys) await page.keyboard.press(code, { delay: 15 });
  }, 'にほんごを', 'にほんごを');
  await options.bringToFront();
  await options.selectOption('#kanaInput', 'romaji');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.kanaInput === false);
  await options.close();
});

test("a form's フリガナ field types katakana, in the page's own engine and in the extension's", async () => {
  for (const name of ['plain.html', 'csp.html']) {
    const { page, errors } = await open(name);
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<label>フリガナ <input id="furigana"></label>'));
    await focusReady(page, '#furigana');
    await page.keyboard.type('yamada', { delay: 15 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.getElementById('furigana')).value !== '');
    assert.equal(await valueOf(page, '#furigana'), 'ヤマダ', name);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

/**
 * Alt+カタカナひらがな (KanaMode with Alt) in the focused field of a page.
 * @param {import('playwright-core').Page} page
 */
async function altKanaMode(page) {
  const cdp = await page.context().newCDPSession(page);
  for (const type of ['rawKeyDown', 'keyUp']) await cdp.send('Input.dispatchKeyEvent', { type, key: 'KanaMode', code: 'KanaMode', windowsVirtualKeyCode: 242, modifiers: 1 });
  await cdp.detach();
}

/**
 * Presses the T key (か in kana input, t in romaji) and Enter in the focused field, and gives the
 * field's value once it changed.
 * @param {import('playwright-core').Page} page
 * @param {string} selector the focused field
 */
async function typeKeyT(page, selector) {
  const before = await valueOf(page, selector);
  await page.keyboard.press('KeyT', { delay: 15 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(([selector, before]) => /** @type {HTMLInputElement} */ (document.querySelector(selector)).value !== before, [selector, before]);
  return valueOf(page, selector);
}

test("Alt+カタカナひらがな in one field: its page's other fields follow from their next key, and the setting is saved: the fields of another page (the page's own engine) and the options page follow; switched back there, the same", async () => {
  const { page, errors } = await open('csp.html');
  const other = await open('plain.html');
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  /** @param {boolean} on */
  const saved = (on) => options.waitForFunction(async (on) => (await chrome.storage.local.get('settings')).settings?.kanaInput === on, on);
  try {
    // the other page's field, in romaji input first
    await other.page.bringToFront();
    await focusReady(other.page, '#ta');
    await other.page.keyboard.type('ka', { delay: 15 });
    await other.page.keyboard.press('Enter');
    await other.page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value === 'か');

    await page.bringToFront();
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<input id="b">'));
    await focusReady(page, '#ta');
    await page.keyboard.type('ka', { delay: 15 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value === 'か');
    await focusReady(page, '#b');
    await altKanaMode(page);
    assert.equal(await typeKeyT(page, '#b'), 'か', 'kana input here');
    await page.click('#ta');
    assert.equal(await typeKeyT(page, '#ta'), 'かか', 'and in the other field');
    await saved(true);
    assert.equal(await options.inputValue('#kanaInput'), 'kana', 'the options page shows it');

    await other.page.bringToFront();
    await other.page.click('#ta');
    assert.equal(await typeKeyT(other.page, '#ta'), 'かか', "the other page's field follows");
    // switched back in the page's own engine: saved, and the first page follows
    await altKanaMode(other.page);
    assert.equal(await typeKeyT(other.page, '#ta'), 'かかt', 'romaji input again');
    await saved(false);
    assert.equal(await options.inputValue('#kanaInput'), 'romaji');
    await page.bringToFront();
    await page.click('#b');
    assert.equal(await typeKeyT(page, '#b'), 'かt', 'the first page follows');
    assert.deepEqual(errors, []);
    assert.deepEqual(other.errors, []);
  } finally {
    // the tests after this one type in romaji input, whatever happened here
    await options.evaluate(async () => {
      const { settings = {} } = await chrome.storage.local.get('settings');
      await chrome.storage.local.set({ settings: { ...settings, kanaInput: false } });
    });
    for (const p of [page, other.page, options]) await p.close();
  }
});

test("the options page's romaji table: a table that does not parse is refused with its line; Mozc's format imported types in the page's own engine and in the extension's; export; the built-in one again", async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  try {
    await romajiTableRoundTrip(options);
  } finally {
    // the tests after this one type with the built-in table, whatever happened here
    await options.evaluate(async () => {
      const { settings = {} } = await chrome.storage.local.get('settings');
      delete settings.romajiTable;
      await chrome.storage.local.set({ settings });
    });
    await options.close();
  }
});

/**
 * The options page's romaji table, imported (a bad one first), typed with, exported and reset.
 * @param {import('playwright-core').Page} options the options page
 */
async function romajiTableRoundTrip(options) {
  await options.waitForFunction(() => document.getElementById('romajiSummary')?.textContent === 'The built-in table.');
  const importTable = (/** @type {string} */ text) => options.setInputFiles('#romajiImport', { name: 'romaji.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await importTable('ka\tか\tx\n');
  await options.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('Not imported'));
  assert.match(await options.textContent('#status') ?? '', /line 1: pending "x" is not a proper suffix of "ka"/);
  assert.equal((await options.evaluate(async () => (await chrome.storage.local.get('settings')).settings))?.romajiTable, undefined);
  await importTable('ka\tか\nkz\tかん\nji\tじ\nq\tん\n');
  await options.waitForFunction(async () => typeof (await chrome.storage.local.get('settings')).settings?.romajiTable === 'string');
  await options.waitForFunction(() => document.getElementById('romajiSummary')?.textContent === 'Your table: 4 rules.');
  await typeInBothEngines((page) => page.keyboard.type('kzjiq', { delay: 15 }), 'かんじん', 'かんじん');
  await options.bringToFront();
  const download = options.waitForEvent('download');
  await options.click('#romajiExport');
  const exported = await (await download).createReadStream();
  let text = '';
  for await (const chunk of exported) text += chunk;
  assert.equal(text, 'ka\tか\nkz\tかん\nji\tじ\nq\tん\n');
  await options.click('#romajiReset');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.romajiTable === undefined);
  assert.equal(await options.textContent('#romajiSummary'), 'The built-in table.');
}

test("the options page's \"convert inside the page\" turned off: a page's keys go to the extension's engine", async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  assert.equal(await options.isChecked('#engineInPage'), true);
  await options.click('#engineInPage');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.engineIn === 'extension');
  const { page, errors, requests } = await typedRequests();
  // 7 letters, Space and Enter over the port
  assert.ok(requests >= 9);
  assert.deepEqual(errors, []);
  await page.close();
  await options.bringToFront();
  await options.click('#engineInPage');
  await options.waitForFunction(async () => (await chrome.storage.local.get('settings')).settings?.engineIn === 'page');
  await options.close();
});

test("a resize over the port: the dictionary's rest at once, the LM's after the catch-up", async () => {
  // the extension's engine with its LM in (the hybrid converts the rest after a resize)
  while ((await askEngine('info')).lm !== 'ready') await new Promise((r) => setTimeout(r, 200));
  const { page, errors } = await open('csp.html');
  await focusReady(page, '#ta');
  await page.keyboard.type('ashitahaamegafurudeshou', { delay: 15 });
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim()));
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Shift+ArrowLeft');
  // 明日|は雨が|フルでしょう from the key, then the LM's 明日|は|雨が|降るでしょう
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].map((p) => p.textContent).join('') === '明日は雨が降るでしょう');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('#ta')).value === '明日は雨が降るでしょう');
  assert.deepEqual(errors, []);
  await page.close();
});

test('types on a page whose CSP forbids wasm and inline script; Ctrl+Backspace takes a commit back', async () => {
  const { page, errors } = await open('csp.html');
  await focusReady(page, '#ta');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語');
  // Right after the commit, Ctrl+Backspace makes it a conversion again (the extension's engine
  // answers); Esc goes back to the kana, Enter commits them in its place.
  await page.keyboard.press('Control+Backspace');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.henkan-preedit-runs .henkan-converted'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value !== '日本語');
  assert.equal(await valueOf(page, '#ta'), 'にほんご');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a page whose CSP forbids wasm, text dropped while composing lands where the pointer is, after the composition went in', async () => {
  const { page, errors } = await open('csp.html');
  await focusReady(page, '#ta');
  await convertAndCommit(page, 'nihongo');
  await page.keyboard.type('kyouha', { delay: 15 });
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim() === 'きょうは'));
  // Text dragged from another window onto the left half of the field's first character (日).
  const target = await page.locator('#ta').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const line = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
    return { x: box.left + el.clientLeft + parseFloat(cs.paddingLeft) + 2, y: box.top + el.clientTop + parseFloat(cs.paddingTop) + line / 2 };
  });
  // The commit comes back from the extension's engine while the drag moves.
  await dropText(page, target, 'Ω');
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value.includes('Ω'));
  assert.equal(await valueOf(page, '#ta'), 'Ω日本語きょうは');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a Slate editor on a page whose CSP forbids wasm: a selection typed over and text arriving without a key while composing reach its state", async () => {
  const { page, errors } = await open('slate-csp.html');
  await page.waitForFunction(() => /** @type {any} */ (window).m);
  await focusReady(page, '#host [data-slate-editor]');
  const text = () => page.evaluate(() => /** @type {string} */ (/** @type {any} */ (window).m.text()));
  const shown = () => page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#host [data-slate-editor]')).innerText.replace(/[\n\ufeff]/g, ''));
  assert.equal(await text(), '前の文、太字の部分と後ろ。');
  // Slate takes the browser's selection in from `selectionchange`: pauses, as a person makes.
  await page.keyboard.press('Control+Home');
  await page.waitForTimeout(200);
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  // (one key at a time, as a person types: Slate draws the selection it took in from the last
  // `selectionchange` again, and may undo a key that came in between)
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForTimeout(150);
  }
  // `文、太字`, across the start of the bold run
  await page.waitForFunction(() => getSelection()?.toString() === '文、太字', null, { timeout: 2000 }).catch(() => {});
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => getSelection()?.toString()), '文、太字');
  await convertAndCommit(page, 'kyouha');
  await page.waitForFunction(() => /** @type {any} */ (window).m.text() !== '前の文、太字の部分と後ろ。');
  assert.equal(await text(), '前の今日はの部分と後ろ。');
  assert.equal(await shown(), await text());
  await page.keyboard.type('sore', { delay: 15 });
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].some((p) => (p.textContent ?? '').trim() === 'それ'));
  // A virtual keyboard's text: the composition goes in as it stands, then the text.
  await page.keyboard.insertText('Ω');
  await page.waitForFunction(() => /** @type {any} */ (window).m.text() !== '前の今日はの部分と後ろ。');
  assert.equal(await text(), '前の今日はそれΩの部分と後ろ。');
  assert.equal(await shown(), await text());
  assert.deepEqual(errors, []);
  await page.close();
});

test('the key channel (settings `channel: message`): keys go over a MessagePort, also under a strict CSP', async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  await options.evaluate(() => chrome.storage.local.set({ settings: { channel: 'message' } }));
  const { page, errors } = await open('csp.html');
  await focusReady(page, '#ta');
  await page.waitForFunction(() => document.querySelectorAll('iframe').length === 0); // the handshake is over
  const { channel } = await served();
  await page.bringToFront();
  await page.focus('#ta');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語');
  // 7 letters, Space, Enter.
  assert.ok((await served()).channel >= channel + 9);
  assert.deepEqual(errors, []);
  await options.evaluate(() => chrome.storage.local.set({ settings: {} }));
  await options.close();
  await page.close();
});

test("a page's keydown listeners in the capture phase on the window and the document see no key the IME takes, and every other key", async () => {
  // the page's engine (a textarea, a contenteditable), and the extension's over a port
  for (const [name, selector] of [['plain.html', '#ta'], ['plain.html', '#ce'], ['csp.html', '#ta']]) {
    const { page, errors } = await open(name);
    await focusReady(page, selector);
    await convertAndCommit(page, 'nihongo');
    assert.equal(await valueOf(page, selector), '日本語');
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).captured), [], selector);
    // Outside a composition the page's keys are the page's.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+a');
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).captured), ['window:ArrowLeft', 'document:ArrowLeft', 'window:Control', 'document:Control', 'window:a', 'document:a'], selector);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('leaves password, one-time-code and card fields alone', async () => {
  const { page } = await open('plain.html');
  await focusReady(page, '#ta'); // the engine runs: a field it took would compose
  for (const selector of ['#pw', '#otp', '#cc']) {
    await page.focus(selector);
    await page.keyboard.type('nihongo ', { delay: 10 });
    assert.equal(await valueOf(page, selector), 'nihongo ', selector);
    assert.equal(await page.locator(`${selector} + .henkan-indicator`).count(), 0, selector);
  }
  await page.close();
});

test('with the IME off in the field (Ctrl+Space) keys go to the page and its handlers', async () => {
  const { page } = await open('plain.html');
  await focusReady(page, '#ta');
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.henkan-indicator[data-mode="direct"]', { state: 'attached' });
  await page.evaluate(() => {
    /** @type {any} */ (window).seen = [];
  });
  await page.keyboard.type('abc d', { delay: 15 });
  assert.equal(await valueOf(page, '#ta'), 'abc d');
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).seen), ['a', 'b', 'c', ' ', 'd']);
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.henkan-indicator[data-mode="hiragana"]', { state: 'attached' });
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), 'abc d日本語');
  await page.close();
});

test('a page that embeds the widget keeps its fields: one badge, one IME that Ctrl+Space turns off and on, no second engine', async () => {
  // widget.html attaches the web widget with its own engine at load; the extension, at the focus,
  // finds the field taken (the widget's claim) and leaves it.
  const { page, errors } = await open('widget.html');
  await page.bringToFront();
  await focusReady(page, '#ta');
  assert.equal(await page.locator('.henkan-indicator').count(), 1, 'one badge');
  assert.equal(await page.locator('.henkan-layer').count(), 1, 'one layer of windows');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語');
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.henkan-indicator[data-mode="direct"]', { state: 'attached' });
  await page.keyboard.type('abc', { delay: 15 });
  assert.equal(await valueOf(page, '#ta'), '日本語abc');
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.henkan-indicator[data-mode="hiragana"]', { state: 'attached' });
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語abc日本語');
  // The content script started no engine of its own for the page.
  const info = await ext.worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return chrome.tabs.sendMessage(/** @type {number} */ (tab.id), { type: 'engine-info' });
  });
  assert.deepEqual(info, { where: 'extension' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the toolbar button turns a site off and on, remembered across a reload', async () => {
  const { page } = await open('plain.html');
  await focusReady(page, '#ta');
  assert.equal(await toggleSite(page), 'A');
  await page.waitForSelector('.henkan-indicator', { state: 'detached' });
  await page.keyboard.type('abc', { delay: 15 });
  assert.equal(await valueOf(page, '#ta'), 'abc');
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).seen), ['a', 'b', 'c']);

  await page.reload();
  await page.focus('#ta');
  await page.waitForTimeout(300); // time enough for the content script to attach, if it would
  await page.keyboard.type('abc', { delay: 15 });
  assert.equal(await valueOf(page, '#ta'), 'abc');
  assert.equal(await page.locator('.henkan-indicator').count(), 0);

  // Another site (localhost is not 127.0.0.1) is still on.
  const other = await ext.context.newPage();
  await other.goto(`http://localhost:${server.port}/plain.html`);
  await focusReady(other, '#ta');
  await convertAndCommit(other, 'nihongo');
  assert.equal(await valueOf(other, '#ta'), '日本語');
  await other.close();

  assert.equal(await toggleSite(page), 'あ');
  await page.reload();
  await focusReady(page, '#ta');
  await convertAndCommit(page, 'nihongo');
  assert.equal(await valueOf(page, '#ta'), '日本語');
  await page.close();
});

test('the options page reaches the engine: a user dictionary word converts in a page', async () => {
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/options.html`);
  await options.waitForSelector('#pos option', { state: 'attached' });
  await options.fill('#reading', 'へんかんてすと');
  await options.fill('#word', '変換試験語');
  await options.click('#dictAdd button');
  await options.waitForSelector('#dict td:text("変換試験語")');
  const { page } = await open('plain.html');
  await focusReady(page, '#ta');
  await page.keyboard.type('henkantesuto', { delay: 15 });
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.henkan-preedit-runs')].every((p) => !(p.textContent ?? '').trim()));
  assert.equal(await valueOf(page, '#ta'), '変換試験語');
  await page.close();
  await options.close();
});

// Typing Japanese through the widget into the code editors that take their keys through a hidden
// element and draw their text themselves: CodeMirror 5, Ace and Monaco through a textarea, and
// Monaco through a <div> with an EditContext (its default where the browser has EditContext, as
// Chromium does), installed from npm and loaded from their own builds (UMD, Ace's noconflict
// build, Monaco's AMD loader), in Chromium with the shipped model. In each: the preedit is drawn
// over the editor's text at its cursor in the font of its lines, the candidate window opens under
// it, the badge sits at the editor's corner, the editor's document does not change while
// composing (Enter, Backspace and the arrows are the IME's), the commit lands at the caret as
// typed text, the editor's own undo takes it back, and the next words open at the editor's caret;
// inside a line, what follows the cursor is drawn after the preedit, on the colour the editor
// draws under the line. Screenshots go to tests/e2e/output/code-*.png.
//
//   node --test tests/e2e/code-editors.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, collectConsoleErrors, editorImePage, screenColours } from './harness.mjs';
import { rng, step, KEEPING, RESIZE, EDITING } from './storm-keys.mjs';
import { HIDDEN_INPUT_EDITORS } from '../../www/keymap.js';

const env = serverAndBrowser();

const TEXT = 'hello world\nsecond line';

/**
 * Monaco from its AMD build, typing through a textarea or (`editContext`) an EditContext.
 * @param {boolean} editContext
 */
function monaco(editContext) {
  return {
    scripts: ['/node_modules/monaco-editor/min/vs/loader.js'],
    styles: [],
    mount: `await new Promise((ok) => {
      require.config({ paths: { vs: '/node_modules/monaco-editor/min/vs' } });
      require(['vs/editor/editor.main'], () => {
        host.style.height = '200px';
        window.ed = monaco.editor.create(host, { value: TEXT, minimap: { enabled: false }, editContext: ${editContext}, fontSize: 18 });
        ok();
      });
    });`,
    value: 'ed.getValue()',
    undo: "ed.trigger('test', 'undo', null)",
    cursor: '.cursor',
    selectWorld: 'ed.setSelection(new monaco.Selection(1, 7, 1, 12))',
    selectMiddle: 'ed.setSelection(new monaco.Selection(1, 5, 1, 8))',
  };
}

/**
 * Each editor: how to load it (scripts and style sheets from node_modules), mount it into `#host`
 * with TEXT, read and undo its document from its own API, and select `world` in it, and `o w`.
 * @type {Record<string, {scripts: string[], styles: string[], mount: string, value: string, undo: string, cursor: string, selectWorld: string, selectMiddle: string}>}
 */
const EDITORS = {
  codemirror5: {
    scripts: ['/node_modules/codemirror/lib/codemirror.js'],
    styles: ['/node_modules/codemirror/lib/codemirror.css'],
    mount: `window.ed = CodeMirror(host, { value: TEXT, lineNumbers: true }); window.ed.setSize(null, 200);`,
    value: 'ed.getValue()',
    undo: 'ed.undo()',
    cursor: '.CodeMirror-cursor',
    selectWorld: 'ed.setSelection({ line: 0, ch: 6 }, { line: 0, ch: 11 })',
    selectMiddle: 'ed.setSelection({ line: 0, ch: 4 }, { line: 0, ch: 7 })',
  },
  ace: {
    scripts: ['/node_modules/ace-builds/src-noconflict/ace.js'],
    styles: [],
    mount: `window.ed = ace.edit(host, { value: TEXT, fontSize: '18px' }); host.style.height = '200px'; window.ed.resize();`,
    value: 'ed.getValue()',
    undo: 'ed.undo()',
    cursor: '.ace_cursor',
    selectWorld: "ed.selection.setRange(new (ace.require('ace/range').Range)(0, 6, 0, 11))",
    selectMiddle: "ed.selection.setRange(new (ace.require('ace/range').Range)(0, 4, 0, 7))",
  },
  monaco: monaco(false),
  'monaco-editcontext': monaco(true),
};

/**
 * A page with one editor mounted in `#host` and, with `attach`, the widget attached to its hidden
 * textarea (one `HenkanIme` on the shipped model).
 * @param {keyof typeof EDITORS} name
 * @param {number} [zoom] a CSS zoom around the editor
 * @param {(typeof EDITORS)[keyof typeof EDITORS]} [e] the editor's setup, when not its own
 */
async function editorPage(name, zoom = 1, e = EDITORS[name]) {
  const host = '<div id="host" style="width: 560px; margin: 30px 20px; border: 1px solid #888"></div>';
  const { page, errors, status } = await editorImePage(env.browser.context, env.server.url, {
    scripts: e.scripts,
    styles: e.styles,
    html: zoom === 1 ? host : `<div style="zoom: ${zoom}">${host}</div>`,
    setup: `const host = document.getElementById('host'); ${e.mount}`,
    text: TEXT,
  });
  assert.equal(status, 'ready');
  return { page, errors };
}

/**
 * Clicks into the editor's first line and puts the caret at its end, then attaches the widget to
 * the element that has the focus (the hidden textarea or EditContext host; as the browser extension does on `focusin`).
 * Returns the number of badges drawn.
 * @param {import('playwright-core').Page} page
 */
async function focusFirstLineEnd(page) {
  const box = await page.locator('#host').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + 200, box.y + 12);
  await page.keyboard.press('End');
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.attach(document.activeElement, { ime: w.ime });
    w.composed = [];
    for (const type of ['compositionstart', 'compositionupdate', 'compositionend']) document.activeElement?.addEventListener(type, () => w.composed.push(type));
    return document.querySelectorAll('.henkan-indicator').length;
  });
}

/**
 * The editor's document, the overlay's text, where the overlay's first line and the editor's
 * cursor are, and the candidate window's box.
 * @param {import('playwright-core').Page} page
 * @param {string} value
 * @param {string} cursor
 */
function look(page, value, cursor) {
  return page.evaluate(
    ([value, cursor]) => {
      const overlay = /** @type {HTMLElement | null} */ (document.querySelector('.henkan-preedit-overlay'));
      const runs = overlay?.querySelector('.henkan-preedit-runs')?.getClientRects()[0] ?? null;
      const caret = [...document.querySelectorAll(cursor)].map((c) => c.getBoundingClientRect()).find((r) => r.height > 0) ?? null;
      const list = /** @type {HTMLElement | null} */ (document.querySelector('.henkan-candidates'));
      const listBox = list && getComputedStyle(list).display !== 'none' ? list.getBoundingClientRect() : null;
      const host = /** @type {HTMLElement} */ (document.getElementById('host')).getBoundingClientRect();
      const badge = /** @type {HTMLElement} */ (document.querySelector('.henkan-indicator')).getBoundingClientRect();
      return {
        value: /** @type {string} */ (new Function(`return ${value}`)()),
        overlay: overlay && overlay.style.display === 'block' ? overlay.textContent : null,
        runs: runs && { left: runs.left, top: runs.top, bottom: runs.bottom },
        caret: caret && { left: caret.left, top: caret.top, bottom: caret.bottom },
        font: overlay ? getComputedStyle(overlay).fontFamily : '',
        lineFont: getComputedStyle(/** @type {HTMLElement} */ (document.querySelector('.CodeMirror-line, .ace_line, .view-line'))).fontFamily,
        list: listBox && { left: listBox.left, top: listBox.top },
        host: { left: host.left, top: host.top, right: host.right, bottom: host.bottom },
        badge: { left: badge.left, top: badge.top, right: badge.right, bottom: badge.bottom },
        composed: /** @type {string[]} */ (/** @type {any} */ (window).composed),
      };
    },
    [value, cursor],
  );
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: the preedit over the editor at its caret, the commit typed into its document, its undo`, async () => {
    const e = EDITORS[name];
    const { page, errors } = await editorPage(name);
    assert.equal(await focusFirstLineEnd(page), 1, 'the widget attached to the hidden element');
    const at = await look(page, e.value, e.cursor);
    assert.ok(at.caret, 'the editor shows its cursor');
    // (Out of the editor, just above its corner, where something is drawn under the corner: Monaco's
    // overview ruler.)
    assert.ok(at.badge.right <= at.host.right && at.badge.left >= at.host.right - 40 && at.badge.top >= at.host.top - 30 && at.badge.bottom <= at.host.top + 30, `the badge at the editor's corner: ${JSON.stringify(at)}`);

    await page.keyboard.type('kyouha');
    let now = await look(page, e.value, e.cursor);
    assert.equal(now.value, TEXT, 'the document does not change while composing');
    assert.equal(now.overlay, 'きょうは');
    assert.ok(now.runs && at.caret, 'the preedit is drawn');
    assert.ok(Math.abs(now.runs.left - at.caret.left) <= 3 && Math.abs(now.runs.top - at.caret.top) <= 6, `the preedit starts at the cursor: ${JSON.stringify({ runs: now.runs, caret: at.caret })}`);
    assert.equal(now.font, now.lineFont, 'in the font of the editor’s lines');
    // The IME's keys stay the IME's: Backspace deletes a kana, ← moves inside the kana, Enter commits.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    now = await look(page, e.value, e.cursor);
    assert.equal(now.value, TEXT);
    assert.equal(now.overlay, 'きょう');
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    now = await look(page, e.value, e.cursor);
    assert.ok(now.list && now.runs && now.list.top >= now.runs.bottom - 1, `the candidate window under the preedit: ${JSON.stringify(now)}`);
    await page.screenshot({ path: path.join(ensureOutput(), `code-${name}-candidates.png`) });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForFunction((value) => new Function(`return ${value}`)() !== 'hello world\nsecond line', e.value, { timeout: 2000 }).catch(() => {});
    now = await look(page, e.value, e.cursor);
    assert.equal(now.value, 'hello world今日\nsecond line', 'the commit at the caret, once, and no newline from Enter');
    assert.equal(now.overlay, null);
    assert.deepEqual(now.composed, [], 'no composition events for the editor');
    // The editor's caret follows the commit; the next words open under it.
    await page.waitForFunction(() => getComputedStyle(/** @type {HTMLElement} */ (document.querySelector('.henkan-suggestions'))).display !== 'none', null, { timeout: 2000 }).catch(() => {});
    const next = await page.evaluate((cursor) => {
      const list = /** @type {HTMLElement} */ (document.querySelector('.henkan-suggestions'));
      const caret = [...document.querySelectorAll(cursor)].map((c) => c.getBoundingClientRect()).find((r) => r.height > 0);
      return { shown: getComputedStyle(list).display !== 'none', list: list.getBoundingClientRect().toJSON(), caret: caret?.toJSON() };
    }, e.cursor);
    assert.ok(next.shown && next.caret, 'the next words are shown');
    assert.ok(Math.abs(next.list.left - next.caret.left) <= 24 && next.list.top >= next.caret.bottom - 1 && next.list.top <= next.caret.bottom + 24, `the next words under the editor's caret: ${JSON.stringify(next)}`);
    await page.screenshot({ path: path.join(ensureOutput(), `code-${name}-commit.png`) });

    // The editor's undo takes the commit back, as one step of its own history; typing goes on at
    // the caret.
    await page.keyboard.press('Escape');
    await page.evaluate((undo) => new Function(undo)(), e.undo);
    assert.equal((await look(page, e.value, e.cursor)).value, TEXT);
    await page.keyboard.type('desu');
    await page.keyboard.press('Enter');
    await page.waitForFunction((value) => String(new Function(`return ${value}`)()).includes('です'), e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'hello worldです\nsecond line');
    // The IME off (Ctrl+Space): keys are the editor's.
    await page.keyboard.press('Control+Space');
    await page.keyboard.type('ab');
    await page.waitForFunction((value) => String(new Function(`return ${value}`)()).includes('ab'), e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'hello worldですab\nsecond line');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** CodeMirror 5 with its active-line add-on, which highlights the cursor's line in a layer under the text. */
const CM5_ACTIVE_LINE = {
  ...EDITORS.codemirror5,
  scripts: [...EDITORS.codemirror5.scripts, '/node_modules/codemirror/addon/selection/active-line.js'],
  mount: `window.ed = CodeMirror(host, { value: TEXT, lineNumbers: true, styleActiveLine: true }); window.ed.setSize(null, 200);`,
};

/** @type {{name: keyof typeof EDITORS, zoom: number, setup?: typeof CM5_ACTIVE_LINE, label?: string}[]} */
const INSIDE_A_LINE = [
  ...Object.keys(EDITORS).map((name) => ({ name: /** @type {keyof typeof EDITORS} */ (name), zoom: 1 })),
  { name: 'codemirror5', zoom: 1, setup: CM5_ACTIVE_LINE, label: 'codemirror5 with its active line' },
  { name: 'monaco', zoom: 1.5, label: 'monaco under a CSS zoom of 1.5' },
];

for (const { name, zoom, setup, label } of INSIDE_A_LINE) {
  test(`${label ?? name}: what follows the cursor on its line moves aside for the preedit`, async () => {
    const e = setup ?? EDITORS[name];
    const { page, errors } = await editorPage(name, zoom, e);
    await focusFirstLineEnd(page);
    await page.keyboard.press('Home');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    // A person's pause: Monaco draws its cursor where it moved in the next frame.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.keyboard.type('kyouha');
    const r = await page.evaluate(() => {
      const overlay = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-overlay'));
      const runs = overlay.querySelector('.henkan-preedit-runs')?.getClientRects();
      const tail = overlay.querySelector('.henkan-preedit-tail');
      const first = tail?.getClientRects()[0];
      const cover = overlay.querySelector('.henkan-preedit-cover')?.getBoundingClientRect();
      const start = runs?.[0];
      const end = runs?.[runs.length - 1];
      return {
        runs: overlay.querySelector('.henkan-preedit-runs')?.textContent,
        tail: tail?.textContent?.replace(/\u00a0/g, ' '),
        moved: !!(end && first && Math.abs(first.left - end.right) < 1 && Math.abs(first.top - end.top) < 2),
        // (The editor's cursor, where the preedit starts, is 2 px wide across the character boundary.)
        painted: !!(start && cover && cover.left <= start.left + 2 && cover.right > start.left + 10 && cover.top <= start.top + 4 && cover.bottom >= start.bottom - 4),
        // The overlay spans the editor's text to its right edge (less a scroll bar), in screen pixels.
        wide: (() => {
          const box = overlay.getBoundingClientRect();
          const root = /** @type {HTMLElement} */ (document.querySelector('#host')).getBoundingClientRect();
          return box.right <= root.right && box.right >= root.right - 0.1 * root.width;
        })(),
      };
    });
    assert.deepEqual(r, { runs: 'きょうは', tail: ' world', moved: true, painted: true, wide: true });
    // The moved text is painted on what the editor draws under its line (Ace and CodeMirror 5's
    // add-on highlight the cursor's line): the screen inside the space before `world` is the
    // colour beside the line's end.
    const points = await page.evaluate(() => {
      const tail = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-tail'));
      const text = /** @type {Text} */ (document.createTreeWalker(tail, NodeFilter.SHOW_TEXT).nextNode());
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 1);
      const space = range.getBoundingClientRect();
      const end = tail.getBoundingClientRect();
      const y = Math.round(space.top + space.height / 2);
      return [
        [Math.round(space.left + space.width / 2), y],
        [Math.round(end.right + 30), y],
      ];
    });
    const shot = await page.screenshot({ path: path.join(ensureOutput(), `code-${(label ?? name).replace(/\W+/g, '-')}-tail.png`) });
    const [inside, beside] = await screenColours(page, shot, points);
    assert.deepEqual(inside, beside, `the colour under the moved text at ${JSON.stringify(points)}`);
    // The border the editor draws above its current line (Monaco's) stays drawn across the
    // preedit and the moved text: on it, the screen is its colour beside the line's end. (Right of
    // the editor's own cursor; the one below is under the suggestion list's shadow.)
    const activeLine = /** @type {import('../../www/keymap.js').HiddenInputEditor} */ (HIDDEN_INPUT_EDITORS.find((h) => h.name === name.replace(/-editcontext$/, ''))).activeLine;
    const borders = await page.evaluate((activeLine) => {
      const tail = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-tail')).getBoundingClientRect();
      const runs = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-runs')).getBoundingClientRect();
      const y = tail.top + tail.height / 2;
      for (const el of document.querySelectorAll(activeLine)) {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        if (r.height === 0 || y < r.top || y >= r.bottom || parseFloat(cs.borderTopWidth) < 2) continue;
        /** @type {number[][]} */
        const row = [];
        for (let x = Math.ceil(runs.left) + 4; x < tail.right; x += 3) row.push([x, Math.floor(r.top) + 1]);
        row.push([Math.round(tail.right + 30), Math.floor(r.top) + 1]);
        return row;
      }
      return null;
    }, activeLine);
    if (name.startsWith('monaco')) assert.ok(borders, 'Monaco draws a border above its current line');
    if (borders) {
      const colours = await screenColours(page, shot, borders);
      const beside = colours[colours.length - 1];
      assert.deepEqual(colours.filter((c) => c.join() !== beside.join()), [], `the line's border across the preedit and the moved text (${beside} beside them)`);
    }
    await page.keyboard.press('Enter');
    await page.waitForFunction((value) => new Function(`return ${value}`)() !== 'hello world\nsecond line', e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'helloきょうは world\nsecond line');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: a composition over a selection replaces it with the commit`, async () => {
    const e = EDITORS[name];
    const { page, errors } = await editorPage(name);
    assert.equal(await focusFirstLineEnd(page), 1);
    await page.evaluate((select) => new Function(select)(), e.selectWorld);
    await page.keyboard.type('kyou');
    assert.equal((await look(page, e.value, e.cursor)).value, TEXT, 'the selection stays until the commit');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForFunction((value) => new Function(`return ${value}`)() !== 'hello world\nsecond line', e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'hello 今日\nsecond line');
    await page.evaluate((undo) => new Function(undo)(), e.undo);
    assert.equal((await look(page, e.value, e.cursor)).value, TEXT, 'one undo brings the selected text back');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: Ctrl+Backspace right after a commit takes it back into a conversion drawn in its place; another candidate replaces it, Esc leaves it; 変換 at the caret`, async () => {
    const e = EDITORS[name];
    const { page, errors } = await editorPage(name);
    assert.equal(await focusFirstLineEnd(page), 1);
    const before = await look(page, e.value, e.cursor);
    const committed = async (/** @type {string} */ was) => {
      await page.waitForFunction(([value, was]) => new Function(`return ${value}`)() !== was, [e.value, was], { timeout: 2000 }).catch(() => {});
      return look(page, e.value, e.cursor);
    };
    await page.keyboard.type('kyou');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    assert.equal((await committed(TEXT)).value, 'hello world今日\nsecond line');
    // Mozc's and MS-IME's undo of the commit: the editor's own Ctrl+Backspace (delete a word) is
    // not run, and the preedit stands where the commit is (not after it).
    await page.keyboard.press('Control+Backspace');
    let now = await look(page, e.value, e.cursor);
    assert.equal(now.value, 'hello world今日\nsecond line', 'the document keeps the commit while it is converted again');
    assert.equal(now.overlay, '今日');
    assert.ok(now.runs && before.caret && Math.abs(now.runs.left - before.caret.left) <= 3, `the preedit where the commit starts: ${JSON.stringify({ runs: now.runs, caret: before.caret })}`);
    await page.screenshot({ path: path.join(ensureOutput(), `code-${name}-undo-commit.png`) });
    await page.keyboard.press('Space');
    const chosen = (await look(page, e.value, e.cursor)).overlay;
    assert.ok(chosen && chosen !== '今日', 'Space took the next candidate');
    await page.keyboard.press('Enter');
    now = await committed('hello world今日\nsecond line');
    assert.equal(now.value, `hello world${chosen}\nsecond line`, 'the candidate replaced the commit');
    // Again, and Esc twice: the commit stays, and what is typed next goes after it.
    await page.keyboard.press('Control+Backspace');
    assert.ok((await look(page, e.value, e.cursor)).overlay, 'converted again (from its reading: 今日 first)');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    now = await look(page, e.value, e.cursor);
    assert.equal(now.overlay, null);
    assert.equal(now.value, `hello world${chosen}\nsecond line`);
    await page.keyboard.type('a');
    await page.keyboard.press('Enter');
    assert.equal((await committed(now.value)).value, `hello world${chosen}あ\nsecond line`);
    // 変換 at the caret (a keyboard's Convert key: the event the browser sends for it) takes the
    // clause before it, where the hidden input holds it
    await page.evaluate(() => document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Convert', code: 'Convert', bubbles: true, cancelable: true })));
    now = await look(page, e.value, e.cursor);
    assert.equal(now.overlay, '今日あ', 'きょうあ converted again');
    assert.ok(now.runs && before.caret && Math.abs(now.runs.left - before.caret.left) <= 3, `drawn where the clause starts: ${JSON.stringify({ runs: now.runs, caret: before.caret })}`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal((await look(page, e.value, e.cursor)).value, `hello world${chosen}あ\nsecond line`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: a composition over a selection inside a line starts where the selection does and hides it, the text after it moved aside`, async () => {
    const e = EDITORS[name];
    const hidden = HIDDEN_INPUT_EDITORS.find((h) => h.name === name.replace(/-editcontext$/, ''));
    assert.ok(hidden);
    const { page, errors } = await editorPage(name);
    assert.equal(await focusFirstLineEnd(page), 1);
    await page.evaluate((select) => new Function(select)(), e.selectMiddle);
    await page.waitForTimeout(100);
    // Where `o w` starts in the first line, and the box of its highlight.
    const before = await page.evaluate((hidden) => {
      const line = [...document.querySelectorAll(hidden.line)].find((l) => l.textContent?.replace(/\u00a0/g, ' ').startsWith('hello world'));
      /** @type {[Text, number][]} */
      const chars = [];
      const walker = document.createTreeWalker(/** @type {Node} */ (line), NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) for (let i = 0; i < /** @type {Text} */ (n).length; i++) chars.push([/** @type {Text} */ (n), i]);
      const range = document.createRange();
      range.setStart(...chars[4]);
      range.setEnd(chars[4][0], chars[4][1] + 1);
      const boxes = [...document.querySelectorAll(hidden.selected)].map((s) => s.getBoundingClientRect()).filter((r) => r.width > 0);
      return { start: range.getBoundingClientRect().left, selected: boxes[0]?.toJSON() };
    }, hidden);
    assert.ok(before.selected, 'the editor draws the selection');
    const sel = before.selected;
    /** Points across the selection's box, off its glyphs' middle row. */
    const across = [];
    for (let x = Math.ceil(sel.left) + 1; x < sel.right - 1; x += 2) for (const y of [sel.top + 2, sel.bottom - 2]) across.push([x, Math.round(y)]);
    // The highlight's colour, as drawn: the commonest colour across its box.
    const counts = new Map();
    for (const c of await screenColours(page, await page.screenshot(), across)) counts.set(c.slice(0, 3).join(), (counts.get(c.slice(0, 3).join()) ?? 0) + 1);
    const highlight = [...counts].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
    await page.keyboard.type('kyou');
    const now = await look(page, e.value, e.cursor);
    assert.equal(now.value, TEXT, 'the document does not change while composing');
    assert.ok(now.runs && Math.abs(now.runs.left - before.start) <= 2, `the preedit starts where the selection does: ${JSON.stringify({ runs: now.runs, before })}`);
    const tail = await page.evaluate(() => document.querySelector('.henkan-preedit-tail')?.textContent?.replace(/\u00a0/g, ' '));
    assert.equal(tail, 'orld', 'the text after the selection is drawn after the preedit');
    const shot = await page.screenshot({ path: path.join(ensureOutput(), `code-${name}-selection.png`) });
    const shown = (await screenColours(page, shot, across)).filter((c) => Math.abs(c[0] - highlight[0]) + Math.abs(c[1] - highlight[1]) + Math.abs(c[2] - highlight[2]) < 12);
    assert.deepEqual(shown, [], `no highlight (${highlight}) left on the screen where the selection was`);
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForFunction((value) => new Function(`return ${value}`)() !== 'hello world\nsecond line', e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'hell今日orld\nsecond line');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: a click away commits the composition into the editor's document`, async () => {
    const e = EDITORS[name];
    const { page, errors } = await editorPage(name);
    assert.equal(await focusFirstLineEnd(page), 1);
    await page.keyboard.type('kyou');
    await page.mouse.click(700, 500);
    await page.waitForFunction((value) => new Function(`return ${value}`)() !== 'hello world\nsecond line', e.value, { timeout: 2000 }).catch(() => {});
    assert.equal((await look(page, e.value, e.cursor)).value, 'hello worldきょう\nsecond line');
    assert.equal((await look(page, e.value, e.cursor)).overlay, null);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const name of /** @type {(keyof typeof EDITORS)[]} */ (Object.keys(EDITORS))) {
  test(`${name}: a key storm (every key, text without a key) throws nothing, and it converts after`, async () => {
    const e = EDITORS[name];
    const { page, errors } = await editorPage(name);
    collectConsoleErrors(page, errors);
    assert.equal(await focusFirstLineEnd(page), 1);
    /** Tab and Escape may move the focus on: the storm stays in the editor. */
    const refocus = async () => {
      if (!(await page.evaluate(() => !!document.activeElement?.closest('#host')))) await page.click('#host');
    };
    const next = rng(Number(process.env.STORM_SEED ?? 20261206));
    /** @type {string[]} */
    const sent = [];
    for (let i = 0; i < Number(process.env.STORM_KEYS ?? 200); i++) {
      sent.push(await step(page, next, [...KEEPING, ...RESIZE, ...EDITING]));
      if (i % 10 === 9) await refocus();
    }
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
    await refocus();
    const seen = await look(page, e.value, e.cursor);
    assert.equal(seen.overlay, null, sent.slice(-12).join(' '));
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).ime.status), 'ready');
    // With the IME on and nothing composed, きょうは + Space + Enter adds 今日は to the document.
    const on = await page.evaluate(async () => (await import('/www/widget.js')).stateOf(/** @type {HTMLElement} */ (document.activeElement))?.enabled);
    if (!on) await page.keyboard.press('Control+Space');
    await page.keyboard.type('kyouha');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForFunction(([value, was]) => new Function(`return ${value}`)() !== was, [e.value, seen.value], { timeout: 2000 }).catch(() => {});
    const after = (await look(page, e.value, e.cursor)).value;
    assert.equal(after.length, seen.value.length + 3, `${JSON.stringify(seen.value.slice(-30))} → ${JSON.stringify(after.slice(-30))}; ${sent.slice(-12).join(' ')}`);
    assert.ok(after.includes('今日は'));
    // Monaco logs its own cancelled requests as errors (`Canceled: Canceled`, microsoft/monaco-editor
    // #4389): not the IME's.
    assert.deepEqual(errors.filter((m) => m !== 'Canceled: Canceled'), [], sent.slice(-12).join(' '));
    await page.close();
  });
}

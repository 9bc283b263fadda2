// The widget's modules (www/widget/) one by one in Chromium: each is imported into a blank page
// (www/test/blank.html) and what it renders is checked. The last test drives the key handler
// with the real wasm engine and model (pkg/, after `make wasm`).
//
//   node --test tests/e2e/widget-modules.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, MODEL } from './harness.mjs';

const env = serverAndBrowser();

/** A blank page served from the repository (its modules import from /www/). */
async function blank() {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.server.url}www/test/blank.html`);
  return { page, errors };
}

/**
 * A preedit as the engine sends it: 今日 (converted, focused), は (converted), てんき (not converted).
 * @type {import('../../www/types.js').Preedit}
 */
const PREEDIT = {
  text: '今日はてんき',
  segments: [
    { start: 0, end: 2, focused: true, converted: true },
    { start: 2, end: 3, focused: false, converted: true },
  ],
  cursor: 6,
};

test('style: one stylesheet per document, the layer and windows fixed', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { ensureStyle, STYLE_ID } = await import('/www/widget/style.js');
    ensureStyle(document);
    ensureStyle(document);
    const ul = document.body.appendChild(document.createElement('ul'));
    ul.className = 'henkan-candidates';
    return {
      adopted: document.adoptedStyleSheets.length,
      styleElements: document.querySelectorAll(`style#${STYLE_ID}`).length,
      position: getComputedStyle(ul).position,
      display: getComputedStyle(ul).display,
    };
  });
  assert.deepEqual(r, { adopted: 1, styleElements: 0, position: 'fixed', display: 'none' }, 'one constructed stylesheet, no <style> element');
  assert.deepEqual(errors, []);
  await page.close();
});

test('theme: a field is dark by its background, or by its light text where nothing behind it has one', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { isDarkField, backgroundOf } = await import('/www/widget/theme.js');
    document.body.innerHTML = `
      <textarea id="white" style="background: #fff; color: #111"></textarea>
      <textarea id="black" style="background: #1e1e1e; color: #ddd"></textarea>
      <textarea id="grey" style="background: #888; color: #000"></textarea>
      <div style="background: #202124"><div id="inDark" contenteditable style="background: rgba(255, 255, 255, 0.1); color: #e8eaed">x</div></div>
      <div style="background: #fafafa"><div id="inLight" contenteditable style="color: #333">x</div></div>
      <div id="bare" contenteditable style="color: #eee">x</div>
      <div id="bareDarkText" contenteditable style="color: #222">x</div>
      <div id="host"></div>`;
    const host = /** @type {HTMLElement} */ (document.getElementById('host'));
    host.style.background = '#101010';
    host.attachShadow({ mode: 'open' }).innerHTML = '<div id="inShadow" contenteditable style="color: #ccc">x</div>';
    /** @param {Element} el */
    const dark = (el) => isDarkField(el, getComputedStyle(el));
    const byId = (/** @type {string} */ id) => /** @type {Element} */ (document.getElementById(id));
    return {
      white: dark(byId('white')),
      black: dark(byId('black')),
      grey: dark(byId('grey')),
      inDark: dark(byId('inDark')),
      inLight: dark(byId('inLight')),
      bare: dark(byId('bare')),
      bareDarkText: dark(byId('bareDarkText')),
      inShadow: dark(/** @type {Element} */ (host.shadowRoot?.getElementById('inShadow'))),
      bareBackground: backgroundOf(byId('bare')),
      blackBackground: backgroundOf(byId('black')),
    };
  });
  assert.deepEqual(r, {
    white: false,
    black: true,
    grey: false,
    inDark: true,
    inLight: false,
    bare: true,
    bareDarkText: false,
    inShadow: true,
    // nothing behind it: the page's canvas, resolved where it is drawn (dark in a dark colour scheme)
    bareBackground: 'Canvas',
    blackBackground: 'rgb(30, 30, 30)',
  });
  assert.deepEqual(errors, []);
  await page.close();
});

test('aria: points the field at an option, puts the page’s values back', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { AriaLink } = await import('/www/widget/aria.js');
    const el = document.body.appendChild(document.createElement('textarea'));
    el.setAttribute('aria-controls', 'page-list');
    const aria = new AriaLink(el);
    const attrs = () => [el.getAttribute('aria-controls'), el.getAttribute('aria-activedescendant')];
    const list = (/** @type {Document} */ doc, /** @type {string} */ id) => Object.assign(doc.createElement('ul'), { id });
    // a list in another document (a frame's field, its windows in the page): its ids would point at nothing
    aria.point(list(document.implementation.createHTMLDocument(''), 'X'), 'X-0');
    const elsewhere = attrs();
    aria.point(list(document, 'L'), 'L-3');
    const pointed = attrs();
    aria.release('other');
    const afterOther = attrs();
    aria.release('L');
    const released = attrs();
    aria.point(list(document, 'M'), 'M-0');
    aria.restore();
    return { elsewhere, pointed, afterOther, released, restored: attrs() };
  });
  assert.deepEqual(r.elsewhere, ['page-list', null]);
  assert.deepEqual(r.pointed, ['L', 'L-3']);
  assert.deepEqual(r.afterOther, ['L', 'L-3'], 'another list does not release this one');
  assert.deepEqual(r.released, ['page-list', null]);
  assert.deepEqual(r.restored, ['page-list', null]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('commit: execCommand in a focused field (one undo step), setRangeText when not focused', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { Committer } = await import('/www/widget/commit.js');
    const el = document.body.appendChild(document.createElement('textarea'));
    el.value = 'abcd';
    el.focus();
    el.setSelectionRange(2, 2);
    let moved = 0;
    const commit = new Committer(el, 'textarea', () => moved++);
    /** @type {{type: string, data: string | null, inserting: boolean}[]} */
    const events = [];
    for (const type of ['beforeinput', 'input']) {
      el.addEventListener(type, (e) => events.push({ type, data: /** @type {InputEvent} */ (e).data, inserting: commit.inserting }));
    }
    commit.insert('今日', false);
    const focused = { value: el.value, caret: el.selectionStart, events: events.splice(0), moved };
    document.execCommand('undo');
    const undone = el.value;
    events.length = 0; // the undo's own input event
    el.blur();
    el.value = 'ab';
    el.setSelectionRange(1, 2);
    commit.insert('X', true);
    const unfocused = { value: el.value, caret: el.selectionStart, events: events.splice(0), inserting: commit.inserting, moved };
    return { focused, undone, unfocused };
  });
  assert.equal(r.focused.value, 'ab今日cd');
  assert.equal(r.focused.caret, 4);
  // (Chromium sends no beforeinput for execCommand, as the Input Events spec says.)
  assert.deepEqual(r.focused.events, [{ type: 'input', data: '今日', inserting: true }]);
  assert.equal(r.undone, 'abcd', 'the commit is one undo step');
  assert.equal(r.unfocused.value, 'aX', 'the selection is replaced');
  assert.equal(r.unfocused.caret, 2);
  assert.deepEqual(r.unfocused.events, [{ type: 'input', data: 'X', inserting: true }]);
  assert.equal(r.unfocused.inserting, false);
  assert.equal(r.unfocused.moved, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('commit: a contenteditable gets the text at its saved selection after blur', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { Committer } = await import('/www/widget/commit.js');
    const el = document.body.appendChild(document.createElement('div'));
    el.contentEditable = 'true';
    el.textContent = 'hello';
    const other = document.body.appendChild(document.createElement('input'));
    el.focus();
    const sel = /** @type {Selection} */ (getSelection());
    sel.collapse(/** @type {Text} */ (el.firstChild), 2);
    const commit = new Committer(el, 'contenteditable');
    commit.saveRange();
    other.focus();
    sel.removeAllRanges();
    commit.insert('XY', true);
    const first = el.textContent;
    commit.insert('Z', true);
    return { first, second: el.textContent };
  });
  assert.equal(r.first, 'heXYllo');
  assert.equal(r.second, 'heXYZllo', 'the next commit follows the last one');
  assert.deepEqual(errors, []);
  await page.close();
});

test('preedit: in the text flow of a textarea (the rest moves right, a selection is replaced), a caret in the kana, gone again', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async (preeditData) => {
    const { ensureStyle } = await import('/www/widget/style.js');
    const { PreeditBox } = await import('/www/widget/preedit.js');
    ensureStyle(document);
    const el = document.body.appendChild(document.createElement('textarea'));
    el.style.cssText = 'margin: 40px; font: 20px monospace; width: 400px; height: 100px';
    el.value = 'abcd';
    el.focus();
    el.setSelectionRange(2, 2);
    const box = new PreeditBox(el, 'textarea');
    const layer = document.body.appendChild(document.createElement('div'));
    layer.className = 'henkan-layer';
    layer.append(box.el);
    /** @param {Node} node */
    const rectOf = (node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getClientRects()[0];
    };
    box.render(preeditData);
    const field = el.getBoundingClientRect();
    const mirror = box.el.getBoundingClientRect();
    const runs = box.runs.getBoundingClientRect();
    const shown = {
      spans: [...box.runs.children].map((s) => [s.textContent, s.className]),
      text: box.el.textContent,
      anchor: box.anchor().textContent,
      composing: el.classList.contains('henkan-composing'),
      hiddenText: getComputedStyle(el).color,
      over: Math.abs(mirror.left - field.left) < 1 && Math.abs(mirror.top - field.top) < 1 && Math.abs(mirror.width - field.width) < 1,
      afterMoved: rectOf(box.after).left >= runs.right - 1,
      beforeKept: rectOf(box.before).left > field.left,
      fontSize: box.el.style.fontSize,
      isShown: box.shown,
      rect: box.rect !== null && Math.abs(/** @type {any} */ (box.rect).left - runs.left) < 1,
    };
    box.render(null);
    // A selection is replaced by the preedit; the caret is drawn inside unconverted kana.
    el.setSelectionRange(1, 3);
    box.render({ text: 'かな', segments: [{ start: 0, end: 2, focused: false, converted: false }], cursor: 1 });
    const selection = {
      text: box.el.textContent,
      spans: [...box.runs.children].map((s) => [s.textContent, s.className]),
    };
    box.render(null);
    return {
      shown,
      selection,
      hidden: { display: box.el.style.display, children: box.el.childElementCount, composing: el.classList.contains('henkan-composing'), isShown: box.shown, color: getComputedStyle(el).color },
    };
  }, PREEDIT);
  assert.deepEqual(r.shown.spans, [
    ['今日', 'henkan-converted henkan-focused'],
    ['は', 'henkan-converted'],
    ['てんき', ''],
  ]);
  assert.equal(r.shown.text, 'ab今日はてんきcd ');
  assert.equal(r.shown.anchor, '今日');
  assert.equal(r.shown.composing, true);
  assert.equal(r.shown.hiddenText, 'rgba(0, 0, 0, 0)', "the field's own text is hidden under the mirror");
  assert.ok(r.shown.over, 'the mirror covers the field');
  assert.ok(r.shown.afterMoved, 'the text after the caret moved right of the preedit');
  assert.ok(r.shown.beforeKept, 'the text before stays');
  assert.equal(r.shown.fontSize, '20px');
  assert.equal(r.shown.isShown, true);
  assert.ok(r.shown.rect, 'the preedit was measured');
  assert.equal(r.selection.text, 'aかなd ');
  assert.deepEqual(r.selection.spans, [
    ['か', ''],
    ['', 'henkan-caret'],
    ['な', ''],
  ]);
  assert.deepEqual(r.hidden, { display: 'none', children: 0, composing: false, isShown: false, color: 'rgb(0, 0, 0)' });
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Sets up a field with a preedit box drawn and the given window module; returns handles on `window.t`.
 * @param {import('playwright-core').Page} page
 * @param {import('../../www/types.js').Preedit} preeditData
 */
async function withPreedit(page, preeditData) {
  await page.evaluate(async (p) => {
    const { ensureStyle } = await import('/www/widget/style.js');
    const { PreeditBox } = await import('/www/widget/preedit.js');
    const { AriaLink } = await import('/www/widget/aria.js');
    ensureStyle(document);
    const el = document.body.appendChild(document.createElement('textarea'));
    el.style.cssText = 'margin: 50px; font: 18px sans-serif; width: 500px; height: 80px';
    el.setAttribute('aria-controls', 'page-list');
    el.focus();
    const preedit = new PreeditBox(el, 'textarea');
    const aria = new AriaLink(el);
    const layer = document.body.appendChild(document.createElement('div'));
    layer.className = 'henkan-layer';
    layer.append(preedit.el);
    preedit.render(p);
    /** @type {any} */ (window).t = { el, preedit, aria, layer };
  }, preeditData);
}

test('preedit caret: after a commit in a long textarea, the caret from the last cut is where the whole text puts it', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { ensureStyle } = await import('/www/widget/style.js');
    const { PreeditBox } = await import('/www/widget/preedit.js');
    const { textFieldCaret } = await import('/www/caret.js');
    ensureStyle(document);
    const el = document.body.appendChild(document.createElement('textarea'));
    el.style.cssText = 'margin: 20px; font: 18px/1.5 sans-serif; width: 400px; height: 90px';
    el.value = `${'一行目\n'.repeat(50)}${'今日は晴れです。明日は雨らしい。'.repeat(30)}`;
    el.focus();
    const preedit = new PreeditBox(el, 'textarea');
    document.body.append(preedit.el);
    const out = [];
    /**
     * A composition at the end, committed as `text`, the page's `change` after it; the caret
     * measured both ways.
     * @param {string} text
     * @param {() => void} [change]
     */
    const commit = (text, change) => {
      el.setSelectionRange(el.value.length, el.value.length);
      el.scrollTop = el.scrollHeight;
      preedit.render({ text, segments: [], cursor: text.length });
      preedit.render(null);
      el.setRangeText(text, el.value.length, el.value.length, 'end');
      change?.();
      el.scrollTop = el.scrollHeight;
      const got = preedit.caret();
      const want = textFieldCaret(el);
      out.push({ got: [got.left, got.top], want: [want.left, want.top], cut: preedit.cut?.at ?? 0 });
    };
    commit('かきくけこ');
    commit('さしすせそたちつてと');
    // The rows move after the composition: the cut no longer holds.
    commit('なにぬねの', () => {
      el.style.width = '333px';
    });
    commit('はひふへほ', () => {
      el.value = `${el.value.slice(0, -100)}\n${el.value.slice(-100)}`;
      el.setSelectionRange(el.value.length, el.value.length);
    });
    return out;
  });
  for (const [i, x] of r.entries()) {
    assert.ok(x.cut > 0, `${i}: the mirror was cut (${JSON.stringify(x)})`);
    assert.ok(Math.abs(x.got[0] - x.want[0]) < 0.5 && Math.abs(x.got[1] - x.want[1]) < 0.5, `${i}: ${JSON.stringify(x)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('text field caret: at the end of a full row it stays on that row, where the field puts it', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { textFieldCaret } = await import('/www/caret.js');
    const el = document.body.appendChild(document.createElement('textarea'));
    // Four full rows of 20 characters 20 px wide, the last one ending with 。 (which may not
    // begin a row).
    el.style.cssText = 'margin: 20px; font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; width: 405px; height: 200px; padding: 0; border: 0';
    el.value = '今日は晴れです。明日は雨らしい。'.repeat(5);
    el.focus();
    const n = el.value.length;
    const end = textFieldCaret(el, n);
    const last = textFieldCaret(el, n - 1);
    // The field's own caret positions at those points (hit tests on its layout).
    const hit = document.caretPositionFromPoint(end.left - 1, end.top + end.height / 2);
    return { end, last, hit: hit?.offset, n };
  });
  assert.ok(Math.abs(r.end.top - r.last.top) < 0.5, `the same row as the last character: ${JSON.stringify(r)}`);
  assert.ok(r.end.left > r.last.left, `after it: ${JSON.stringify(r)}`);
  assert.equal(r.hit, r.n, `where the field puts the end: ${JSON.stringify(r)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('text field caret in right-to-left text: where the browser puts the caret, at the end of a line after a left-to-right run too', async () => {
  const { page, errors } = await blank();
  const rows = await page.evaluate(async () => {
    const { textFieldCaret } = await import('/www/caret.js');
    // A contenteditable of the same box as the textarea: the browser's caret there (a collapsed
    // selection's rect) is where the textarea puts it.
    const style = 'width: 420px; height: 200px; font: 20px/1.5 "IPAGothic", sans-serif; padding: 2px; border: 1px solid #888; box-sizing: content-box; white-space: pre-wrap; overflow-wrap: break-word; margin: 0';
    document.body.innerHTML = `<div id="ce" dir="rtl" contenteditable style='${style}'></div><textarea id="ta" dir="rtl" style='${style}; resize: none; overflow: hidden'></textarea>`;
    const ce = /** @type {HTMLElement} */ (document.getElementById('ce'));
    const ta = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    /** @type {[string, number][]} */
    const cases = [['שלום עולם今日は', -1], ['今日は', -1], ['שלום\n今日は', -1], ['שלום 今日は abc', -1], ['שלום עולם', -1], ['abc שלום', -1], ['שלום今日はעולם', 7], ['今日はשלום', 3]];
    return cases.map(([text, p]) => {
      const pos = p < 0 ? text.length : p;
      ce.textContent = text;
      ta.value = text;
      ce.focus();
      const sel = /** @type {Selection} */ (getSelection());
      sel.collapse(ce.firstChild, pos);
      const want = sel.getRangeAt(0).getClientRects()[0];
      const got = textFieldCaret(ta, pos);
      const cb = ce.getBoundingClientRect();
      const tb = ta.getBoundingClientRect();
      return { text, pos, want: [want.left - cb.left, want.top - cb.top], got: [got.left - tb.left, got.top - tb.top] };
    });
  });
  for (const r of rows) assert.ok(Math.abs(r.got[0] - r.want[0]) < 1 && Math.abs(r.got[1] - r.want[1]) < 1, JSON.stringify(r));
  assert.deepEqual(errors, []);
  await page.close();
});

test('contenteditable caret: on an empty line, its own line, not the end of the text before it', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { editableCaret } = await import('/www/caret.js');
    const el = document.body.appendChild(document.createElement('div'));
    el.contentEditable = 'true';
    el.innerHTML = '<p>前の<b>太字</b></p><p><br></p><p>一行目<br><br>三行目</p><p>末尾<b>太字</b>後</p>';
    el.focus();
    const [, empty, lines, last] = el.querySelectorAll('p');
    const sel = /** @type {Selection} */ (getSelection());
    /** @param {Node} node @param {number} offset */
    const at = (node, offset) => {
      sel.collapse(node, offset);
      const c = editableCaret(el);
      return { left: Math.round(c.left), top: Math.round(c.top) };
    };
    const top = (/** @type {Element} */ e) => Math.round(e.getBoundingClientRect().top);
    const range = document.createRange();
    range.selectNodeContents(last.querySelector('b') ?? last);
    const bold = range.getBoundingClientRect();
    return {
      empty: at(empty, 0),
      emptyTop: top(empty),
      left: Math.round(empty.getBoundingClientRect().left),
      // the line between two <br>s of one paragraph: a line below the first
      between: at(lines, 2).top - top(lines),
      // between a bold run and the text after it (no rect of its own): at the bold run's end
      afterBold: at(last, 2),
      bold: { left: Math.round(bold.right), top: Math.round(bold.top) },
    };
  });
  // (the line's top: within the paragraph's leading)
  assert.equal(r.empty.left, r.left);
  assert.ok(r.empty.top >= r.emptyTop && r.empty.top <= r.emptyTop + 4, JSON.stringify(r));
  assert.ok(r.between > 10, `${r.between}`);
  assert.deepEqual(r.afterBold, r.bold);
  assert.deepEqual(errors, []);
  await page.close();
});

test('column caret: in vertical text, where a collapsed range at an element edge has no rect, the end of the text before it', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { columnAt } = await import('/www/widget/preedit.js');
    document.body.innerHTML = `<div id="v" style='writing-mode: vertical-rl; font: 20px/1.5 "IPAGothic"; height: 200px'>前の文、<b>太字</b><i>の部分</i></div><div id="e" style="writing-mode: vertical-rl; height: 100px"></div>`;
    const v = /** @type {HTMLElement} */ (document.getElementById('v'));
    const e = /** @type {HTMLElement} */ (document.getElementById('e'));
    const b = /** @type {HTMLElement} */ (v.childNodes[1]);
    const range = document.createRange();
    /** The caret box at a position, and whether the browser gives the collapsed range one. @param {Node} node @param {number} offset */
    const at = (node, offset) => {
      range.setStart(node, offset);
      range.collapse(true);
      const c = columnAt(range, node === e ? e : v);
      return { native: range.getClientRects().length > 0, box: c && { left: c.left, top: c.top, width: c.width, height: c.height } };
    };
    /** Where character `i` of the block's text ends, down its column. @param {number} i */
    const glyph = (i) => {
      const t = /** @type {Text} */ (i < 4 ? v.firstChild : i < 6 ? b.firstChild : /** @type {HTMLElement} */ (v.childNodes[2]).firstChild);
      const k = i < 4 ? i : i < 6 ? i - 4 : i - 6;
      range.setStart(t, k);
      range.setEnd(t, k + 1);
      const g = range.getBoundingClientRect();
      return { left: g.left, top: g.top, bottom: g.bottom };
    };
    return { before: at(v, 1), bold: at(b, 0), after: at(v, 2), inText: at(/** @type {Text} */ (b.firstChild), 2), start: at(v, 0), empty: at(e, 0), g3: glyph(3), g5: glyph(5), g0: glyph(0) };
  });
  // Element edges: no rect of their own; the end of the character before (、 and 字), down its column.
  for (const [k, g] of /** @type {const} */ ([['before', r.g3], ['bold', r.g3], ['after', r.g5]])) {
    assert.equal(r[k].native, false, `${k}: the browser gives no rect there`);
    assert.ok(r[k].box && Math.abs(r[k].box.top - g.bottom) <= 1 && Math.abs(r[k].box.left - g.left) <= 1 && r[k].box.height === 0, `${k}: ${JSON.stringify({ r: r[k], g })}`);
  }
  // Inside a text node, the browser's own rect; at the block's start, the first character's top.
  assert.ok(r.inText.native && r.inText.box && Math.abs(r.inText.box.top - r.g5.bottom) <= 1, JSON.stringify(r.inText));
  assert.ok(r.start.box && Math.abs(r.start.box.top - r.g0.top) <= 1, JSON.stringify({ start: r.start, g0: r.g0 }));
  assert.equal(r.empty.box, null, 'a block without text has no column caret');
  assert.deepEqual(errors, []);
  await page.close();
});

test('candidate window: the selected page under the focused segment, aria-selected, click index', async () => {
  const { page, errors } = await blank();
  await withPreedit(page, PREEDIT);
  const r = await page.evaluate(async () => {
    const { CandidateWindow } = await import('/www/widget/candidates.js');
    const { optionIndex } = await import('/www/widget/listbox.js');
    const t = /** @type {any} */ (window).t;
    const win = new CandidateWindow({ doc: document, frames: [] }, 'w1', t.preedit, t.aria);
    t.layer.append(win.el);
    const items = Array.from({ length: 12 }, (_, i) => `候補${i}`);
    win.render({ items, selected: 10, pageSize: 9, open: true, segment: 0 });
    const list = win.el;
    const lb = list.getBoundingClientRect();
    const pb = t.preedit.runs.getBoundingClientRect();
    const focused = t.preedit.anchor().getBoundingClientRect();
    const shown = {
      role: list.getAttribute('role'),
      visible: getComputedStyle(list).display,
      options: [...list.querySelectorAll('[role="option"]')].map((li) => [li.id, li.textContent, li.getAttribute('aria-selected')]),
      page: list.querySelector('.henkan-page')?.textContent,
      controls: t.el.getAttribute('aria-controls'),
      active: t.el.getAttribute('aria-activedescendant'),
      below: lb.top >= pb.bottom,
      atSegment: Math.abs(lb.left - focused.left) < 1,
      clicked: optionIndex(/** @type {HTMLElement} */ (list.querySelector('#w1-cand-11 .henkan-num'))),
      notOption: optionIndex(list.querySelector('.henkan-page')),
    };
    win.render(null);
    return {
      shown,
      hidden: { display: list.style.display, children: list.childElementCount, controls: t.el.getAttribute('aria-controls'), active: t.el.getAttribute('aria-activedescendant') },
    };
  });
  assert.equal(r.shown.role, 'listbox');
  assert.equal(r.shown.visible, 'block');
  assert.deepEqual(r.shown.options, [
    ['w1-cand-9', '1候補9', 'false'],
    ['w1-cand-10', '2候補10', 'true'],
    ['w1-cand-11', '3候補11', 'false'],
  ]);
  assert.equal(r.shown.page, '2/2');
  assert.equal(r.shown.controls, 'w1-candidates');
  assert.equal(r.shown.active, 'w1-cand-10');
  assert.ok(r.shown.below, 'under the preedit');
  assert.ok(r.shown.atSegment, 'at the focused segment');
  assert.equal(r.shown.clicked, 11);
  assert.equal(r.shown.notOption, null);
  assert.deepEqual(r.hidden, { display: 'none', children: 0, controls: 'page-list', active: null });
  assert.deepEqual(errors, []);
  await page.close();
});

test('suggestion list: heading and options under the preedit; after a commit, under the caret in the next frame', async () => {
  const { page, errors } = await blank();
  await withPreedit(page, { text: 'よろしく', segments: [], cursor: 4 });
  const r = await page.evaluate(async () => {
    const { SuggestionList } = await import('/www/widget/suggestions.js');
    const t = /** @type {any} */ (window).t;
    /** @type {{items: string[], focused: number} | null} */
    let view = { items: ['よろしく', 'よろしくお願いします', 'よろしくね'], focused: -1, afterCommit: false };
    const list = new SuggestionList(t.el, 'textarea', 'w2', t.preedit, t.aria, () => view, { doc: document, frames: [] });
    t.layer.append(list.el);
    const rows = () => [...list.el.children].map((li) => [li.getAttribute('role'), li.textContent, li.getAttribute('aria-selected')]);
    list.render(false);
    const pb = t.preedit.runs.getBoundingClientRect();
    const composing = {
      rows: rows(),
      display: list.el.style.display,
      below: list.el.getBoundingClientRect().top >= pb.bottom,
      controls: t.el.getAttribute('aria-controls'),
    };
    const first = list.el.children[1];
    list.render(false);
    const kept = list.el.children[1] === first;
    view = { ...view, focused: 1 };
    list.render(false);
    const focused = { rows: rows(), controls: t.el.getAttribute('aria-controls'), active: t.el.getAttribute('aria-activedescendant') };
    // The composition is committed: the box goes, the list waits for a frame to measure the caret.
    t.el.value = 'よろしく';
    t.el.setSelectionRange(4, 4);
    t.preedit.render(null);
    view = { items: ['お願いします'], focused: -1, afterCommit: true };
    list.render(false);
    const waiting = { display: list.el.style.display, frame: list.frame };
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const caretShown = { display: list.el.style.display, rows: rows(), frame: list.frame, controls: t.el.getAttribute('aria-controls') };
    view = null;
    list.render(false);
    return { composing, kept, focused, waiting, caretShown, hidden: { display: list.el.style.display, children: list.el.childElementCount } };
  });
  assert.deepEqual(r.composing.rows, [
    ['presentation', '予測  Tab ⇥', null],
    ['option', '1よろしく', 'false'],
    ['option', '2よろしくお願いします', 'false'],
    ['option', '3よろしくね', 'false'],
  ]);
  assert.equal(r.composing.display, 'block');
  assert.ok(r.composing.below, 'under the preedit');
  assert.equal(r.composing.controls, 'page-list', 'unfocused, the field does not point at it');
  assert.equal(r.kept, true, 'the same view is not rebuilt');
  assert.equal(r.focused.rows[0][1], '予測  Enter / 1–9');
  assert.deepEqual(r.focused.rows.slice(1).map((x) => x[2]), ['false', 'true', 'false']);
  assert.equal(r.focused.controls, 'w2-suggestions');
  assert.equal(r.focused.active, 'w2-sugg-1');
  assert.deepEqual(r.waiting, { display: 'none', frame: true });
  assert.equal(r.caretShown.display, 'block');
  assert.deepEqual(r.caretShown.rows.slice(1), [['option', '1お願いします', 'false']]);
  assert.equal(r.caretShown.frame, false);
  assert.equal(r.caretShown.controls, 'page-list', 'released when nothing is focused');
  assert.deepEqual(r.hidden, { display: 'none', children: 0 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('indicator: あ / A / × at the field’s corner, redrawn only when that changes', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async () => {
    const { ensureStyle } = await import('/www/widget/style.js');
    const { Indicator } = await import('/www/widget/indicator.js');
    ensureStyle(document);
    const el = document.body.appendChild(document.createElement('textarea'));
    el.style.cssText = 'margin: 30px; width: 300px; height: 60px';
    const ind = new Indicator(document);
    document.body.append(ind.el);
    const ready = { status: /** @type {const} */ ('ready'), composes: true, error: '' };
    const look = () => ({ display: ind.el.style.display, text: ind.el.textContent, mode: ind.el.dataset.mode, status: ind.el.dataset.status, title: ind.el.title });
    ind.render(el, true, ready, true);
    const on = look();
    const f = el.getBoundingClientRect();
    const b = ind.el.getBoundingClientRect();
    const corner = Math.abs(b.right - (f.right - 4)) < 1 && Math.abs(b.top - (f.top + 4)) < 1;
    ind.el.textContent = 'tampered';
    ind.render(el, true, ready, true);
    const skipped = ind.el.textContent;
    ind.invalidate();
    ind.render(el, true, ready, true);
    const redrawn = ind.el.textContent;
    ind.render(el, true, ready, false);
    const off = look();
    ind.render(el, true, { status: 'error', composes: false, error: 'the input method stopped: x' }, true);
    const failed = look();
    ind.render(el, false, ready, true);
    return { on, corner, skipped, redrawn, off, failed, hidden: ind.el.style.display };
  });
  assert.deepEqual(r.on, { display: 'block', text: 'あ', mode: 'hiragana', status: 'ready', title: 'IME on (Ctrl+Space)' });
  assert.ok(r.corner, 'at the top right corner of the field');
  assert.equal(r.skipped, 'tampered', 'nothing changed: not redrawn');
  assert.equal(r.redrawn, 'あ');
  assert.deepEqual(r.off, { display: 'block', text: 'A', mode: 'direct', status: 'ready', title: 'IME off (Ctrl+Space)' });
  assert.deepEqual(r.failed, { display: 'block', text: '×', mode: 'direct', status: 'error', title: 'the input method stopped: x' });
  assert.equal(r.hidden, 'none');
  assert.deepEqual(errors, []);
  await page.close();
});

test('key handler with the real engine: compose, commit, OS composition, drop, rescue', async () => {
  const { page, errors } = await blank();
  const status = await page.evaluate(async (model) => {
    const henkan = await import('/pkg/henkan.js');
    const { HenkanIme } = await import('/www/ime.js');
    const { Committer } = await import('/www/widget/commit.js');
    const { KeyHandler } = await import('/www/widget/keys.js');
    const ime = new HenkanIme();
    await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
    const el = document.body.appendChild(document.createElement('textarea'));
    const commit = new Committer(el, 'textarea');
    const t = { ime, el, keys: /** @type {any} */ (null), renders: 0, outputs: /** @type {string[]} */ ([]) };
    t.keys = new KeyHandler(el, { ime, predictions: false, onOutput: (out) => t.outputs.push(out.state) }, commit, () => t.renders++);
    el.addEventListener('keydown', (e) => t.keys.keyDown(e), true);
    el.addEventListener('beforeinput', (e) => t.keys.beforeInput(/** @type {InputEvent} */ (e)), true);
    el.addEventListener('compositionstart', () => t.keys.compositionStart(), true);
    el.addEventListener('compositionend', () => t.keys.compositionEnd(), true);
    /** @type {any} */ (window).t = t;
    el.focus();
    return ime.status;
  }, MODEL);
  assert.equal(status, 'ready');
  const state = () =>
    page.evaluate(() => {
      const t = /** @type {any} */ (window).t;
      return { value: t.el.value, preedit: t.keys.last?.preedit.text ?? null, renders: t.renders, status: t.ime.status };
    });

  await page.keyboard.type('aiu');
  let s = await state();
  assert.deepEqual([s.value, s.preedit], ['', 'あいう'], 'composing: nothing in the field yet');
  assert.ok(s.renders >= 3, `rendered after each key (${s.renders})`);
  await page.keyboard.press('Enter');
  s = await state();
  assert.deepEqual([s.value, s.preedit], ['あいう', ''], 'Enter commits');

  // An OS IME composition starts: ours goes in first.
  await page.keyboard.type('ka');
  await page.evaluate(() => /** @type {any} */ (window).t.el.dispatchEvent(new CompositionEvent('compositionstart')));
  s = await state();
  assert.equal(s.value, 'あいうか');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).t.keys.osComposing), true);
  await page.evaluate(() => /** @type {any} */ (window).t.el.dispatchEvent(new CompositionEvent('compositionend')));

  // The field turns read-only: the composition is dropped, nothing is committed.
  await page.keyboard.type('sa');
  assert.equal((await state()).preedit, 'さ');
  await page.evaluate(() => {
    /** @type {any} */ (window).t.el.readOnly = true;
  });
  await page.keyboard.press('a');
  s = await state();
  assert.deepEqual([s.value, s.preedit], ['あいうか', null]);
  await page.evaluate(() => {
    /** @type {any} */ (window).t.el.readOnly = false;
  });

  // A wasm call fails (its session is gone): the preedit goes in as text, the key natively.
  await page.keyboard.type('ta');
  await page.evaluate(() => {
    const t = /** @type {any} */ (window).t;
    t.ime.handle.closeSession(t.keys.session);
  });
  await page.keyboard.press('n');
  s = await state();
  assert.deepEqual([s.value, s.preedit, s.status], ['あいうかたn', null, 'error']);
  const outputs = await page.evaluate(() => /** @type {any} */ (window).t.outputs);
  assert.ok(outputs.includes('composing'), String(outputs));
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * A blank page with a textarea attached to the real engine (`attach`), focused.
 * @param {boolean} meter the page adds a line above the field on every key
 */
async function attached(meter) {
  const { page, errors } = await blank();
  const status = await page.evaluate(
    async ([model, meter]) => {
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      const { attach } = await import('/www/widget.js');
      const ime = new HenkanIme({ persistLearning: false });
      await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      const el = document.body.appendChild(document.createElement('textarea'));
      const onOutput = () => el.before(Object.assign(document.createElement('div'), { textContent: 'meter' }));
      attach(el, meter ? { ime, onOutput } : { ime });
      el.focus();
      return ime.status;
    },
    /** @type {[string, boolean]} */ ([MODEL, meter]),
  );
  assert.equal(status, 'ready');
  return { page, errors };
}

test('attach: a scroll of the widget’s own boxes draws nothing again; a scroll of the page does', async () => {
  const { page, errors } = await attached(false);
  await page.keyboard.type('kyouha');
  /** Frames to let the key's own redraws pass. */
  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20)))));
  await settle();
  /**
   * How many times the preedit's runs are drawn again after a scroll event on `selector`.
   * @param {string} selector
   */
  const redrawsAfterScroll = (selector) =>
    page.evaluate(async (sel) => {
      const runs = /** @type {Element} */ (document.querySelector('.henkan-preedit-runs'));
      let n = 0;
      const mo = new MutationObserver((records) => (n += records.length));
      mo.observe(runs, { childList: true });
      const target = sel === 'document' ? document : /** @type {Element} */ (document.querySelector(sel));
      target.dispatchEvent(new Event('scroll'));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20))));
      mo.disconnect();
      return n;
    }, selector);
  assert.equal(await redrawsAfterScroll('.henkan-preedit'), 0, 'the mirror scrolled: nothing drawn again');
  assert.ok((await redrawsAfterScroll('document')) > 0, 'the page scrolled: the preedit is placed again');
  assert.deepEqual(errors, []);
});

test('attach: the page moves the field in reaction to a key; the preedit follows it in the same frame', async () => {
  // A page that grows a line above the field on every key (as a meter that wraps would).
  const { page, errors } = await attached(true);
  /** The mirror's and the field's top, in the frame after a key (before the next one is drawn). */
  const tops = () =>
    page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              const mirror = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit'));
              const field = /** @type {HTMLElement} */ (document.querySelector('textarea'));
              resolve([mirror.getBoundingClientRect().top, field.getBoundingClientRect().top]);
            }, 0),
          ),
        ),
    );
  for (const key of ['k', 'y', 'o', 'u']) {
    await page.keyboard.type(key);
    const [mirror, field] = /** @type {number[]} */ (await tops());
    assert.ok(Math.abs(mirror - field) < 1, `after ${key}: mirror at ${mirror}, field at ${field}`);
  }
  assert.deepEqual(errors, []);
});

test('attach: while typing pauses, the conversion Space will show is laid out unseen beside the mirror', async () => {
  const { page, errors } = await attached(false);
  for (const c of 'kyouhaiitenki') {
    await page.keyboard.type(c);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
  const warm = await page.evaluate(() => {
    const w = /** @type {HTMLElement | null} */ (document.querySelector('.henkan-layer .henkan-warm'));
    return w && { text: w.textContent, visibility: getComputedStyle(w).visibility, width: w.getBoundingClientRect().width };
  });
  assert.ok(warm, 'a hidden span beside the mirror');
  assert.deepEqual([warm.visibility, warm.width], ['hidden', 1], 'unseen, and it takes no room');
  await page.keyboard.press('Space');
  const shown = await page.evaluate(() => document.querySelector('.henkan-preedit-runs')?.textContent);
  assert.equal(warm.text, shown, 'what Space shows');
  assert.equal(shown, '今日はいい天気');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.querySelector('.henkan-layer .henkan-warm')), null, 'gone with the composition');
  assert.deepEqual(errors, []);
});

test('attach: a second copy of the widget (another bundle, or the extension on a page that embeds it) leaves a field the first has', async () => {
  const { page, errors } = await blank();
  const r = await page.evaluate(async (model) => {
    const henkan = await import('/pkg/henkan.js');
    const { HenkanIme } = await import('/www/ime.js');
    const first = await import('/www/widget.js');
    // Another module instance, as a second bundle has: its own map of attached fields.
    const second = await import(`/www/widget.js?copy`);
    const ime = new HenkanIme({ persistLearning: false });
    await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
    const el = document.body.appendChild(document.createElement('textarea'));
    const before = second.claimed(el);
    const detachFirst = first.attach(el, { ime });
    const taken = second.claimed(el);
    const detachSecond = second.attach(el, { ime });
    el.focus();
    const badges = document.querySelectorAll('.henkan-indicator').length;
    const layers = document.querySelectorAll('.henkan-layer').length;
    detachSecond(); // a no-op: the first keeps the field
    const kept = document.querySelectorAll('.henkan-layer').length;
    /** @type {any} */ (window).swap = () => {
      detachFirst();
      second.attach(el, { ime });
      el.focus();
      return document.querySelectorAll('.henkan-layer').length;
    };
    return { before, taken, badges, layers, kept };
  }, MODEL);
  assert.deepEqual(r, { before: false, taken: true, badges: 1, layers: 1, kept: 1 });
  await page.keyboard.type('kyouha');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('textarea', (el) => /** @type {HTMLTextAreaElement} */ (el).value), 'きょうは');
  // Once the first lets go, the second may take the field.
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).swap()), 1);
  await page.keyboard.type('kyouha');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('textarea', (el) => /** @type {HTMLTextAreaElement} */ (el).value), 'きょうはきょうは');
  assert.deepEqual(errors, []);
});

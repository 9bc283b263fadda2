// Fields laid out otherwise than plain horizontal text at their CSS size, in Chromium with the
// shipped model.
//
// - Drawn at another scale: a textarea in a box with CSS `zoom`, one in a box with
//   `transform: scale()`, an <input> at the bottom right of a page whose <body> is zoomed, and an
//   editor (drawn over by the overlay) in a zoomed box.
// - Vertical text: a textarea in `writing-mode: vertical-rl`, short and long.
// - Text styles the field inherits from its box (`line-break: anywhere`, `text-autospace`), which
//   the mirror at the end of <body> does not inherit.
//
// The preedit must be drawn where the field draws its text and as large: each textarea has a twin
// <div> with its styles at its place, whose glyphs are where the field's are. The candidate window
// opens under (or over) the preedit, beside its column in vertical text, inside the viewport; the
// on/off badge sits in the field's corner; the next-word list opens at the caret.
//
//   node --test tests/e2e/layouts.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, ensureOutput, widgetPage, collectConsoleErrors } from './harness.mjs';

const env = serverAndBrowser();

const TEXT = 'あいうえおかきくけこ';
const FIELD = 'position: absolute; left: 10px; top: 10px; width: 260px; height: 70px; margin: 0; padding: 4px 6px; border: 1px solid #888; box-sizing: border-box; font: 16px/1.5 sans-serif; white-space: pre-wrap; overflow-wrap: break-word';
/** A box with a field and its twin at the same place (the twin hidden: its glyphs are measured). */
const boxed = (id, style, tag = 'textarea') =>
  `<div style="position: relative; width: 300px; height: 100px; margin: 0 0 80px; ${style}">` +
  (tag === 'textarea'
    ? `<textarea id="${id}" style="${FIELD}"></textarea>`
    : `<div id="${id}" class="ql-editor" contenteditable="true" style="${FIELD}">${TEXT}</div>`) +
  `<div id="${id}-twin" aria-hidden="true" style="${FIELD}; visibility: hidden; overflow: auto">${TEXT}</div></div>`;
const HTML = `${boxed('zoomed', 'zoom: 1.5')}${boxed('scaled', 'transform: scale(1.25); transform-origin: 0 0')}${boxed('editor', 'zoom: 1.4', 'div')}
  <input id="corner" style="position: fixed; right: 4px; bottom: 4px; width: 200px; font: 16px sans-serif">`;
const SCALED = ['zoomed', 'scaled', 'editor', 'corner'];

/**
 * A page of `html`, the fields `ids` attached to one IME with the language models in; its
 * `window.shown(selector)` is the one element of the selector that is displayed (the widget's
 * boxes of the field in use: each field has its own, hidden when idle).
 * @param {string} html
 * @param {string[]} ids
 * @param {string} [bodyZoom] CSS zoom of the <body>
 */
async function layoutPage(html, ids, bodyZoom = '') {
  const { page, errors, status } = await widgetPage(env.browser.context, env.server.url, html, ids);
  assert.equal(status, 'ready');
  collectConsoleErrors(page, errors);
  await page.waitForFunction(() => /** @type {any} */ (window).henkanIme.lm !== 'pending', null, { timeout: 60000 });
  await page.evaluate((z) => {
    document.body.style.zoom = z;
    /** @type {any} */ (window).shown = (/** @type {string} */ sel) => [...document.querySelectorAll(sel)].find((m) => /** @type {HTMLElement} */ (m).style.display === 'block');
  }, bodyZoom);
  return { page, errors };
}

/**
 * Screen rectangles: of character `i` of the twin's text, of the same character as the widget draws
 * it (the mirror's text before the preedit, or the editor's own text before the overlay), of the
 * preedit's first run, of the candidate window, of the badge and of the field.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {number} i
 */
const geometry = (page, id, i) =>
  page.evaluate(
    ([id, i]) => {
      const box = (/** @type {{left: number, top: number, right: number, bottom: number, height: number}} */ r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height });
      const glyph = (/** @type {Node} */ node, /** @type {number} */ at) => {
        const r = document.createRange();
        r.setStart(node, at);
        r.setEnd(node, at + 1);
        return box(r.getClientRects()[0]);
      };
      const field = /** @type {HTMLElement} */ (document.getElementById(String(id)));
      const twinBox = document.getElementById(`${id}-twin`);
      // The twin shows what the field shows: its text, scrolled as far.
      if (twinBox && !field.isContentEditable) {
        twinBox.textContent = /** @type {HTMLTextAreaElement} */ (field).value;
        twinBox.scrollLeft = field.scrollLeft;
        twinBox.scrollTop = field.scrollTop;
      }
      const twin = /** @type {Node} */ (twinBox?.firstChild);
      const { shown } = /** @type {any} */ (window);
      const mirror = shown('.henkan-preedit');
      const drawn = field.isContentEditable
        ? /** @type {Node} */ (field.firstChild)
        : /** @type {Node} */ ([...(mirror?.childNodes ?? [])].find((n) => n.nodeType === Node.TEXT_NODE && /** @type {Text} */ (n).length > 0));
      const run = mirror?.querySelector('.henkan-preedit-runs span:not(.henkan-caret)');
      const list = shown('.henkan-candidates');
      const badge = shown('.henkan-indicator');
      return {
        twin: twin ? glyph(twin, Number(i)) : null,
        drawn: drawn && Number(i) < (/** @type {Text} */ (drawn).length ?? 0) ? glyph(drawn, Number(i)) : null,
        run: run ? box(run.getBoundingClientRect()) : null,
        list: list ? box(list.getBoundingClientRect()) : null,
        badge: badge ? box(badge.getBoundingClientRect()) : null,
        field: box(field.getBoundingClientRect()),
        mirror: mirror ? box(mirror.getBoundingClientRect()) : null,
        view: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
      };
    },
    /** @type {[string, number]} */ ([id, i]),
  );

/**
 * The next-word list's screen rectangle, once it has opened (in the frame after a commit).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{left: number, top: number, right: number, bottom: number}>}
 */
async function nextWords(page) {
  await page.waitForFunction(() => /** @type {any} */ (window).shown('.henkan-suggestions') !== undefined, null, { timeout: 5000 });
  return page.evaluate(() => /** @type {any} */ (window).shown('.henkan-suggestions').getBoundingClientRect().toJSON());
}

/**
 * @param {{left: number, top: number, height: number} | null} got
 * @param {{left: number, top: number, height: number}} want
 * @param {string} label
 */
function sameGlyph(got, want, label) {
  assert.ok(got, `${label}: the widget draws the text`);
  const detail = `${label}: ${JSON.stringify({ got, want })}`;
  assert.ok(Math.abs(got.left - want.left) < 1.5, `same column, ${detail}`);
  assert.ok(Math.abs(got.top - want.top) < 1.5, `same line, ${detail}`);
  assert.ok(Math.abs(got.height - want.height) < 1, `same size, ${detail}`);
}

/**
 * The candidate window is under or over the preedit's run, and inside the viewport.
 * @param {Awaited<ReturnType<typeof geometry>>} g
 * @param {string} label
 */
function listBeside(g, label) {
  const { list, run, view } = g;
  assert.ok(list && run, `${label}: a candidate window and a preedit`);
  const detail = `${label}: ${JSON.stringify(g)}`;
  assert.ok(Math.abs(list.top - run.bottom - 2) < 2 || Math.abs(run.top - list.bottom - 2) < 2, `under or over the preedit, ${detail}`);
  assert.ok(list.left >= 0 && list.right <= view.width + 1 && list.top >= 0 && list.bottom <= view.height + 1, `in the viewport, ${detail}`);
}

/**
 * The mirror covers the field's box.
 * @param {Awaited<ReturnType<typeof geometry>>} g
 * @param {string} label
 */
function mirrorOverField(g, label) {
  const { mirror, field } = g;
  assert.ok(mirror, `${label}: a mirror`);
  for (const side of /** @type {const} */ (['left', 'top', 'right', 'bottom'])) {
    assert.ok(Math.abs(mirror[side] - field[side]) < 1, `${label}, the mirror over the field (${side}): ${JSON.stringify(g)}`);
  }
}

/**
 * The badge is in the field's top right corner.
 * @param {Awaited<ReturnType<typeof geometry>>} g
 * @param {string} label
 */
function badgeInCorner(g, label) {
  const { badge, field } = g;
  assert.ok(badge, `${label}: the badge is shown`);
  const detail = `${label}: ${JSON.stringify({ badge, field })}`;
  assert.ok(badge.right <= field.right && badge.right > field.right - 20, `at the right edge, ${detail}`);
  assert.ok(badge.top >= field.top && badge.top < field.top + 20, `at the top, ${detail}`);
}

test('a textarea under a CSS zoom or a scaling transform: the preedit is drawn over its text as large, the windows beside it', async () => {
  const { page, errors } = await layoutPage(HTML, SCALED);
  for (const id of ['zoomed', 'scaled']) {
    await page.click(`#${id}`);
    await page.evaluate(([id, text]) => {
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById(String(id)));
      el.value = String(text);
      el.setSelectionRange(el.value.length, el.value.length);
    }, [id, TEXT]);
    await page.keyboard.type('kyouha');
    let g = await geometry(page, id, 3);
    assert.ok(g.twin);
    sameGlyph(g.drawn, g.twin, `${id}, composing`);
    // The preedit's first character comes right after the text.
    const end = await geometry(page, id, TEXT.length - 1);
    assert.ok(g.run && Math.abs(g.run.left - /** @type {any} */ (end.twin).right) < 1.5, `${id}: the preedit after the text, ${JSON.stringify({ run: g.run, last: end.twin })}`);
    assert.ok(g.run && Math.abs(g.run.height - /** @type {any} */ (end.twin).height) < 1, `${id}: the preedit as large as the text, ${JSON.stringify({ run: g.run, last: end.twin })}`);
    badgeInCorner(g, id);
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    g = await geometry(page, id, 3);
    sameGlyph(g.drawn, /** @type {any} */ (g.twin), `${id}, converting`);
    listBeside(g, id);
    ensureOutput();
    await page.screenshot({ path: `tests/e2e/output/layouts-${id}.png`, clip: { x: 0, y: 0, width: 600, height: 420 } });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal(await page.$eval(`#${id}`, (el) => /** @type {HTMLTextAreaElement} */ (el).value), TEXT);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('an editor under a CSS zoom: the overlay starts at the caret, as large as the text', async () => {
  const { page, errors } = await layoutPage(HTML, SCALED);
  await page.click('#editor');
  await page.keyboard.press('End');
  await page.keyboard.type('kyouha');
  const g = await geometry(page, 'editor', TEXT.length - 1);
  assert.ok(g.run && g.drawn, 'an overlay');
  const detail = JSON.stringify({ run: g.run, last: g.drawn });
  assert.ok(Math.abs(g.run.left - g.drawn.right) < 1.5, `after the text, ${detail}`);
  assert.ok(Math.abs(g.run.height - g.drawn.height) < 1, `as large as the text, ${detail}`);
  assert.ok(Math.abs(g.run.top - g.drawn.top) < 1.5, `on its line, ${detail}`);
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  listBeside(await geometry(page, 'editor', 0), 'editor');
  await page.keyboard.press('Enter');
  assert.match(await page.$eval('#editor', (el) => el.textContent ?? ''), new RegExp(`^${TEXT}(今日|きょう)は$`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an <input> at the bottom right of a zoomed page: the preedit over its text, the candidate window above it, the next words at the caret', async () => {
  const { page, errors } = await layoutPage(HTML, SCALED, '1.3');
  await page.click('#corner');
  await page.keyboard.type('kyouhaharedesu');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  const g = await geometry(page, 'corner', 0);
  assert.ok(g.run && g.list, 'a preedit and a candidate window');
  mirrorOverField(g, 'corner');
  const detail = JSON.stringify(g);
  assert.ok(g.run.top >= g.field.top && g.run.bottom <= g.field.bottom + 1, `the preedit inside the field: ${detail}`);
  // 16px text in a body zoomed 1.3: its runs are 1.3 × (ascent + descent) ≈ 1.3 × 1.15 × 16 tall.
  assert.ok(g.run.height > 1.3 * 16, `the preedit as large as the field's text: ${detail}`);
  listBeside(g, 'corner');
  assert.ok(g.list.bottom <= g.field.top, `the candidate window above the field: ${detail}`);
  badgeInCorner(g, 'corner');
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/layouts-corner.png' });
  // After the commit, the next words open at the caret (above: no room below).
  await page.keyboard.press('Enter');
  const value = await page.$eval('#corner', (el) => /** @type {HTMLInputElement} */ (el).value);
  assert.ok(value.endsWith('晴れです'), value);
  const next = { list: await nextWords(page), field: g.field };
  assert.ok(next.list.bottom <= next.field.top + 2 && next.list.bottom > next.field.top - 12, `the next words just above the field: ${JSON.stringify(next)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

const VERTICAL = 'position: absolute; left: 0; top: 0; width: 240px; height: 200px; margin: 0; padding: 4px 6px; border: 1px solid #888; box-sizing: border-box; font: 18px/1.5 sans-serif; white-space: pre-wrap; overflow-wrap: break-word; writing-mode: vertical-rl; overflow: auto';
const VERTICAL_HTML = `<div style="position: relative; margin: 20px 0 0 500px; width: 240px; height: 200px"><textarea id="tate" style="${VERTICAL}"></textarea><div id="tate-twin" aria-hidden="true" style="${VERTICAL}; visibility: hidden; overflow: auto"></div></div>`;

test('vertical text (writing-mode: vertical-rl): the preedit goes down its column, the windows open to its left, the badge clear of the first column', async () => {
  const { page, errors } = await layoutPage(VERTICAL_HTML, ['tate']);
  const short = `${TEXT}\nさしすせそ`;
  // Its last column with room for the preedit: one that wraps into a new column scrolls the mirror
  // on (as typing would the field), away from the twin, which is scrolled as the field is.
  const long = `${Array(30).fill('縦書きの文章です。'.repeat(8)).join('\n')}\n短い文`;
  for (const [label, text] of [['short', short], ['long', long]]) {
    await page.click('#tate');
    await page.evaluate((text) => {
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('tate'));
      el.value = String(text);
      el.setSelectionRange(el.value.length, el.value.length);
      el.scrollLeft = -el.scrollWidth; // the caret's end: the leftmost column
    }, text);
    await page.keyboard.type('kyouha');
    let g = await geometry(page, 'tate', text.length - 3);
    assert.ok(g.twin && g.run);
    sameGlyph(g.drawn, g.twin, `${label}, composing`);
    // The badge in the top left corner, clear of the first column.
    assert.ok(g.badge && g.badge.left >= g.field.left && g.badge.left < g.field.left + 20 && g.badge.top < g.field.top + 20, `${label}, the badge: ${JSON.stringify(g)}`);
    // The preedit continues the last column downwards.
    const last = /** @type {NonNullable<typeof g.twin>} */ ((await geometry(page, 'tate', text.length - 1)).twin);
    if (label === 'short') {
      const detail = `${label}: ${JSON.stringify({ run: g.run, last })}`;
      assert.ok(Math.abs(g.run.top - last.bottom) < 1.5, `below the text, ${detail}`);
      assert.ok(Math.abs(g.run.left - last.left) < 3, `in its column, ${detail}`);
    }
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    g = await geometry(page, 'tate', text.length - 3);
    const { list, run } = g;
    assert.ok(list && run, `${label}: a candidate window`);
    const detail = `${label}: ${JSON.stringify({ list, run })}`;
    assert.ok(list.right <= run.left && list.right > run.left - 4, `left of the column, ${detail}`);
    assert.ok(Math.abs(list.top - run.top) < 1.5, `level with the segment, ${detail}`);
    ensureOutput();
    await page.screenshot({ path: `tests/e2e/output/layouts-vertical-${label}.png`, clip: { x: 250, y: 0, width: 520, height: 300 } });
    await page.keyboard.press('Enter');
    const value = await page.$eval('#tate', (el) => /** @type {HTMLTextAreaElement} */ (el).value);
    assert.match(value.slice(text.length), /^(今日|きょう)は$/);
    // The next words open left of the caret's column.
    const next = await nextWords(page);
    const end = /** @type {NonNullable<typeof g.twin>} */ ((await geometry(page, 'tate', value.length - 1)).twin);
    assert.ok(next.right <= end.left && next.right > end.left - 20, `${label}, the next words left of the caret: ${JSON.stringify({ next, end })}`);
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('text styles inherited from the field\'s box (line-break, text-autospace): the mirror wraps and spaces as the field does', async () => {
  const style = 'line-break: anywhere; text-autospace: normal';
  const html = `<div style="position: relative; width: 300px; height: 200px; ${style}"><textarea id="inherits" style="${FIELD}; width: 203px; height: 190px"></textarea><div id="inherits-twin" aria-hidden="true" style="${FIELD}; width: 203px; height: 190px; visibility: hidden; overflow: auto"></div></div>`;
  const { page, errors } = await layoutPage(html, ['inherits']);
  // Punctuation and small kana where lines break, Latin beside kanji: what the two styles move.
  const text = '「あいう」、「えっお」。ぁぃぅ、Ａｂｃ中国語とEnglish混在、ーっ。'.repeat(2);
  await page.click('#inherits');
  await page.evaluate((text) => {
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('inherits'));
    el.value = String(text);
    el.setSelectionRange(el.value.length, el.value.length);
  }, text);
  await page.keyboard.type('ka');
  for (let i = 5; i < text.length; i += 9) {
    const g = await geometry(page, 'inherits', i);
    assert.ok(g.twin);
    sameGlyph(g.drawn, g.twin, `character ${i}`);
  }
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('#inherits', (el) => /** @type {HTMLTextAreaElement} */ (el).value), `${text}か`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('textareas with a scroll bar, right to left (the bar on the left) and sized by their border box: the mirror draws their text where they do, the next words open at the caret', async () => {
  const lines = 'مرحبا بالعالم هذا نص طويل جدا\n'.repeat(8);
  const kana = `${'今日は晴れです。明日は雨らしい。'.repeat(3)}${'\n一行目'.repeat(6)}`;
  const twin = (/** @type {string} */ id, /** @type {string} */ attrs, /** @type {string} */ style) =>
    `<div style="position: relative; width: 300px; height: 110px"><textarea id="${id}" ${attrs} style="${FIELD}; ${style}"></textarea><div id="${id}-twin" ${attrs} aria-hidden="true" style="${FIELD}; ${style}; visibility: hidden; overflow: auto"></div></div>`;
  const html = twin('rtl', 'dir="rtl"', 'height: 90px; box-sizing: content-box; width: 240px') + twin('bordered', '', 'height: 90px');
  const { page, errors } = await layoutPage(html, ['rtl', 'bordered']);
  for (const [id, text, at] of /** @type {const} */ ([['rtl', lines, 40], ['bordered', kana, 30]])) {
    await page.click(`#${id}`);
    await page.evaluate(([id, text, at]) => {
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById(String(id)));
      el.value = String(text);
      el.setSelectionRange(Number(at), Number(at));
      el.scrollTop = 0;
    }, /** @type {[string, string, number]} */ ([id, text, at]));
    const bar = await page.$eval(`#${id}`, (el) => /** @type {HTMLElement} */ (el).offsetWidth - /** @type {HTMLElement} */ (el).clientWidth);
    assert.ok(bar > 2, `${id}: a scroll bar (${bar})`);
    await page.keyboard.type('ka');
    for (const i of [0, 5, at - 4]) {
      const g = await geometry(page, id, i);
      assert.ok(g.twin);
      sameGlyph(g.drawn, g.twin, `${id}, character ${i}`);
    }
    await page.keyboard.press('Enter');
    // The caret as the field has it: the next words open at its line, beside it (right to
    // left: where the rest of the line starts, left of the committed か).
    const caret = await page.evaluate((id) => {
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById(String(id)));
      const twin = /** @type {HTMLElement} */ (document.getElementById(`${id}-twin`));
      twin.textContent = el.value;
      twin.scrollTop = el.scrollTop;
      const r = document.createRange();
      r.setStart(/** @type {Text} */ (twin.firstChild), Number(el.selectionStart) - 1);
      r.setEnd(/** @type {Text} */ (twin.firstChild), Number(el.selectionStart));
      return r.getClientRects()[0].toJSON();
    }, id);
    const next = await nextWords(page);
    assert.ok(Math.abs(next.top - caret.bottom) < 12, `${id}, the next words under the caret's line: ${JSON.stringify({ next, caret })}`);
    const x = id === 'rtl' ? caret.left : caret.right;
    assert.ok(Math.abs(next.left - x) < 4, `${id}, the next words at the caret: ${JSON.stringify({ next, caret })}`);
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a textarea that does not wrap (wrap="off"): the mirror keeps its one long line', async () => {
  const html = `<div style="position: relative; width: 300px; height: 140px"><textarea id="nowrap" wrap="off" style="${FIELD}; white-space: pre; width: 203px; height: 120px"></textarea><div id="nowrap-twin" aria-hidden="true" style="${FIELD}; white-space: pre; width: 203px; height: 120px; visibility: hidden; overflow: auto"></div></div>`;
  const { page, errors } = await layoutPage(html, ['nowrap']);
  const text = 'とても長い一行のテキストで折り返しがないので横に流れます。\n二行目';
  await page.click('#nowrap');
  await page.evaluate((text) => {
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('nowrap'));
    el.value = String(text);
    el.setSelectionRange(10, 10);
    el.scrollLeft = 0;
  }, text);
  await page.keyboard.type('ka');
  const g = await geometry(page, 'nowrap', 5);
  assert.ok(g.twin && g.run);
  sameGlyph(g.drawn, g.twin, 'before the caret');
  // Character 12 (two after the caret) is on the first line, one glyph (the preedit's) further right.
  const after = await page.evaluate(() => {
    const mirror = /** @type {HTMLElement} */ (/** @type {any} */ (window).shown('.henkan-preedit'));
    const texts = [...mirror.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
    const r = document.createRange();
    r.setStart(texts[1], 2);
    r.setEnd(texts[1], 3);
    return r.getClientRects()[0].toJSON();
  });
  const twin12 = /** @type {NonNullable<typeof g.twin>} */ ((await geometry(page, 'nowrap', 12)).twin);
  const detail = JSON.stringify({ after, twin12, run: g.run });
  assert.ok(Math.abs(after.top - twin12.top) < 1.5, `on the first line: ${detail}`);
  assert.ok(Math.abs(after.left - (twin12.left + g.run.right - g.run.left)) < 1.5, `after the preedit: ${detail}`);
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('#nowrap', (el) => /** @type {HTMLTextAreaElement} */ (el).value), `${text.slice(0, 10)}か${text.slice(10)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a textarea whose text is transparent over a highlighted copy that the page draws (a code editor): the preedit shows, the text stays the page\'s', async () => {
  const box = `${FIELD}; font-family: monospace; height: 80px`;
  const html = `<div style="position: relative; width: 300px; height: 100px"><pre id="copy" aria-hidden="true" style="${box}; color: #0a5">既存のテキスト</pre>` +
    `<textarea id="code" style="${box}; background: transparent; color: transparent; -webkit-text-fill-color: transparent; caret-color: #123">既存のテキスト</textarea>` +
    `<textarea id="fill" style="${box}; top: 100px; background: transparent; color: #345; -webkit-text-fill-color: transparent">既存</textarea></div>`;
  const { page, errors } = await layoutPage(html, ['code', 'fill']);
  await page.evaluate(() => {
    const code = /** @type {HTMLTextAreaElement} */ (document.getElementById('code'));
    code.addEventListener('input', () => {
      /** @type {HTMLElement} */ (document.getElementById('copy')).textContent = code.value;
    });
  });
  /** The colours the mirror draws its text and the preedit's runs in. */
  const colours = () =>
    page.evaluate(() => {
      const mirror = /** @type {HTMLElement} */ (/** @type {any} */ (window).shown('.henkan-preedit'));
      const runs = [...mirror.querySelectorAll('.henkan-preedit-runs span:not(.henkan-caret)')].map((s) => getComputedStyle(s).color);
      return { text: getComputedStyle(mirror).color, runs };
    });
  /** The backgrounds of the preedit's runs but the focused segment's. */
  const backgrounds = () =>
    page.evaluate(() => {
      const mirror = /** @type {HTMLElement} */ (/** @type {any} */ (window).shown('.henkan-preedit'));
      return [...mirror.querySelectorAll('.henkan-preedit-runs span:not(.henkan-caret):not(.henkan-focused)')].map((s) => getComputedStyle(s).backgroundColor);
    });
  await page.click('#code');
  await page.keyboard.press('End');
  await page.keyboard.type('kyouhaiitenki');
  assert.deepEqual(await colours(), { text: 'rgba(0, 0, 0, 0)', runs: ['rgb(17, 34, 51)'] }, 'the preedit in the caret colour, the text left to the page');
  await page.keyboard.press('Space');
  const converting = await colours();
  assert.equal(converting.text, 'rgba(0, 0, 0, 0)');
  // The focused segment in the widget's colour, the others in the caret's.
  assert.ok(converting.runs.length >= 2 && converting.runs.slice(1).every((c) => c === 'rgb(17, 34, 51)'), JSON.stringify(converting));
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/layouts-transparent.png', clip: { x: 0, y: 0, width: 340, height: 220 } });
  await page.keyboard.press('Enter');
  assert.match(await page.$eval('#copy', (el) => el.textContent ?? ''), /^既存のテキスト(今日|きょう)は/);
  // In the middle of the text the page's copy does not move aside: the preedit covers what
  // follows the caret with the page's background, as over an editor.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('kana');
  assert.deepEqual(await backgrounds(), ['rgb(255, 255, 255)']);
  await page.screenshot({ path: 'tests/e2e/output/layouts-transparent-middle.png', clip: { x: 0, y: 0, width: 340, height: 120 } });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // Only the fill transparent: the preedit in the field's colour.
  await page.click('#fill');
  await page.keyboard.press('End');
  await page.keyboard.type('ka');
  assert.deepEqual(await colours(), { text: 'rgba(0, 0, 0, 0)', runs: ['rgb(51, 68, 85)'] });
  assert.deepEqual(await backgrounds(), ['rgb(255, 255, 255)']);
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Resolves once the page has drawn a frame (the badge follows the field's text in the frame after
 * an edit).
 * @param {import('playwright-core').Page} page
 */
const nextFrame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * The geometry of field `id` once the page has drawn a frame.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
const settled = async (page, id) => {
  await nextFrame(page);
  return geometry(page, id, 0);
};

/**
 * The badge is just above the field, at its right edge.
 * @param {Awaited<ReturnType<typeof geometry>>} g
 * @param {string} label
 */
function badgeAbove(g, label) {
  const detail = `${label}: ${JSON.stringify({ badge: g.badge, field: g.field })}`;
  assert.ok(g.badge && g.badge.bottom <= g.field.top && g.badge.right <= g.field.right + 1 && g.badge.right > g.field.right - 20, `above the field: ${detail}`);
}

test('the badge moves above the field while it would cover text (the field\'s own: a full input, a full first line, typed with the IME off; the preedit) or a search field\'s clear button (above the field, beside it in a dense form), and sits left of a scroll bar', async () => {
  const long = '入力欄の幅を超える長いテキスト。'.repeat(3);
  const html = `<div style="padding: 60px 20px"><input id="full" style="width: 300px; font: 16px sans-serif" value="${long}">
    <p><input id="short" style="width: 300px; font: 16px sans-serif" value="短い"></p>
    <p><textarea id="para" style="width: 300px; height: 80px; font: 16px sans-serif">${long}</textarea></p>
    <p><textarea id="line" style="width: 300px; height: 80px; font: 16px sans-serif">一行目\n${long}</textarea></p>
    <p><input id="search" type="search" style="width: 300px; font: 16px sans-serif" value="検索"></p>
    <style>p { margin: 28px 0 }</style>
    <p><input id="upper" style="display: block; margin: 0 0 3px; width: 300px; font: 16px sans-serif" value="${long}"><input id="lower" style="display: block; margin: 0; width: 300px; font: 16px sans-serif" value="${long}"></p>
    <p><textarea id="bars" style="width: 300px; height: 80px; font: 16px sans-serif">一行目\n${'二\n'.repeat(20)}</textarea></p></div>
`;
  const { page, errors } = await layoutPage(html, ['full', 'short', 'para', 'line', 'search', 'bars', 'upper', 'lower']);
  await page.click('#full');
  await page.keyboard.press('End');
  await nextFrame(page);
  // The end of the text (and the caret) would be under the badge in the corner.
  badgeAbove(await geometry(page, 'full', 0), 'a full input, not composing');
  await page.keyboard.type('kyouha');
  const g = await geometry(page, 'full', 0);
  const runs = await page.evaluate(() => {
    const mirror = /** @type {HTMLElement} */ (/** @type {any} */ (window).shown('.henkan-preedit'));
    return [...mirror.querySelectorAll('.henkan-preedit-runs span')].map((s) => s.getBoundingClientRect().toJSON());
  });
  badgeAbove(g, 'composing at its end');
  const b = /** @type {NonNullable<typeof g.badge>} */ (g.badge);
  assert.ok(runs.every((r) => r.right <= b.left || r.left >= b.right || r.bottom <= b.top || r.top >= b.bottom), `clear of the preedit: ${JSON.stringify({ b, runs })}`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  badgeAbove(await settled(page, 'full'), 'after the composition');
  // Emptied, the field has its corner free again.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  badgeInCorner(await settled(page, 'full'), 'an empty input');
  // Short text leaves the corner free; text typed with the IME off that runs under it moves it.
  await page.click('#short');
  await page.keyboard.press('End');
  badgeInCorner(await settled(page, 'short'), 'a short input');
  await page.keyboard.press('Control+Space');
  await page.keyboard.type('the quick brown fox jumps over');
  badgeAbove(await settled(page, 'short'), 'typed with the IME off up to its edge');
  await page.keyboard.press('Control+Space');
  // A textarea: a first line that runs to the right edge, and one that ends short of it.
  await page.click('#para');
  badgeAbove(await settled(page, 'para'), 'a textarea whose first line is full');
  await page.click('#line');
  badgeInCorner(await settled(page, 'line'), 'a textarea whose first line is short');
  // A search field's clear button (×, while it has text) stays uncovered.
  await page.click('#search');
  badgeAbove(await settled(page, 'search'), 'a search field with text');
  // In a dense form, above the field is the field before it: the badge goes beside the field.
  await page.click('#lower');
  await page.keyboard.press('End');
  await nextFrame(page);
  const lower = await geometry(page, 'lower', 0);
  const upper = await page.$eval('#upper', (e) => e.getBoundingClientRect().toJSON());
  const lb = /** @type {NonNullable<typeof lower.badge>} */ (lower.badge);
  assert.ok(lb.left >= lower.field.right && lb.top >= lower.field.top - 1 && lb.bottom <= lower.field.bottom + 1, `beside the field: ${JSON.stringify({ lb, lower: lower.field })}`);
  assert.ok(lb.top >= upper.bottom || lb.left >= upper.right, `clear of the field above: ${JSON.stringify({ lb, upper })}`);
  // A scroll bar: the badge sits left of it, not over its arrow.
  await page.click('#bars');
  await nextFrame(page);
  const bars = await geometry(page, 'bars', 0);
  badgeInCorner(bars, 'a textarea with a scroll bar');
  const inner = await page.evaluate(() => {
    const t = /** @type {HTMLElement} */ (document.getElementById('bars'));
    return t.getBoundingClientRect().left + t.clientLeft + t.clientWidth;
  });
  assert.ok(bars.badge && bars.badge.right <= inner && inner < bars.field.right - 10, `left of the scroll bar: ${JSON.stringify({ inner, bars })}`);
  await page.screenshot({ path: `${ensureOutput()}/layouts-badge.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the caret kept in view: after a commit a full input and a textarea scroll to it, the page to a field that grew past the viewport; typing into a field scrolled out of view brings it back', async () => {
  const html = `<div style="padding: 20px"><input id="one" style="width: 200px; font: 16px sans-serif">
    <p><textarea id="fixed" style="width: 200px; height: 60px; font: 16px/1.25 sans-serif"></textarea></p>
    <div style="height: 600px"></div><textarea id="grows" style="width: 200px; font: 16px/1.25 sans-serif; field-sizing: content"></textarea>
    <div style="height: 1500px"></div></div>`;
  const { page, errors } = await layoutPage(html, ['one', 'fixed', 'grows']);
  /** Where the caret is against the field's box and the viewport. */
  const seen = (/** @type {string} */ id) =>
    page.evaluate(async (id) => {
      const { textFieldCaret } = await import('/www/caret.js');
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById(id));
      const c = textFieldCaret(el, el.selectionStart);
      const r = el.getBoundingClientRect();
      return { caret: { left: c.left, top: c.top, bottom: c.top + c.height }, field: r.toJSON(), end: el.selectionStart === el.value.length, scroll: [el.scrollLeft, el.scrollTop], view: innerHeight };
    }, id);
  const commit = async (/** @type {string} */ romaji) => {
    await page.keyboard.type(romaji);
    await page.keyboard.press('Enter');
    // The field scrolls in the frame after the commit.
    await nextFrame(page);
  };
  await page.click('#one');
  await commit('toukyoutotiyodakumarunoutiittyoume');
  let s = await seen('one');
  assert.ok(s.end && s.scroll[0] > 0, `the input scrolled: ${JSON.stringify(s)}`);
  assert.ok(s.caret.left >= s.field.left && s.caret.left <= s.field.right, `the caret in the input: ${JSON.stringify(s)}`);
  // The next words open at the caret, not where the text would end unscrolled.
  const words = await nextWords(page);
  assert.ok(Math.abs(words.left - s.caret.left) < 4, `the next words at the caret: ${JSON.stringify({ words, s })}`);
  await page.keyboard.press('Escape');

  await page.click('#fixed');
  for (let i = 0; i < 4; i++) await commit('toukyoutotiyodakumarunouti');
  s = await seen('fixed');
  assert.ok(s.end && s.scroll[1] > 0, `the textarea scrolled: ${JSON.stringify(s)}`);
  assert.ok(s.caret.top >= s.field.top && s.caret.bottom <= s.field.bottom, `the caret's line in the textarea: ${JSON.stringify(s)}`);

  await page.click('#grows');
  for (let i = 0; i < 6; i++) await commit('toukyoutotiyodakumarunouti');
  s = await seen('grows');
  assert.ok(s.field.bottom > s.view || s.field.top < 0 || (await page.evaluate(() => scrollY)) > 0, `the field grew past the viewport: ${JSON.stringify(s)}`);
  assert.ok(s.caret.top >= 0 && s.caret.bottom <= s.view, `the page scrolled to the caret's line: ${JSON.stringify(s)}`);
  // Scrolled away from the focused field, typing brings its preedit back into view, as a typed
  // character does.
  await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
  assert.ok(await page.evaluate(() => /** @type {HTMLElement} */ (document.getElementById('grows')).getBoundingClientRect().bottom < 0), 'scrolled away');
  await page.keyboard.type('kyouha');
  const g = await geometry(page, 'grows', 0);
  assert.ok(g.run && g.run.top >= 0 && g.run.bottom <= g.view.height, `the preedit in view: ${JSON.stringify(g)}`);
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  listBeside(await geometry(page, 'grows', 0), 'the candidate window of a field scrolled back to');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: `${ensureOutput()}/layouts-reveal.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a page whose <body> has a transform (translateZ(0), which makes it the box fixed elements are placed in), scrolled: the windows still at the field', async () => {
  const html = `<div style="height: 900px"></div><textarea id="deep" style="width: 300px; height: 60px; font: 16px sans-serif"></textarea><div style="height: 1500px"></div>`;
  const { page, errors } = await layoutPage(html, ['deep']);
  await page.evaluate(() => {
    document.body.style.transform = 'translateZ(0)';
  });
  await page.click('#deep');
  assert.ok((await page.evaluate(() => scrollY)) > 300, 'the page scrolled to the field');
  await page.keyboard.type('kyouhaiitenki');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  const g = await geometry(page, 'deep', 0);
  mirrorOverField(g, 'transformed body');
  listBeside(g, 'transformed body');
  badgeInCorner(g, 'transformed body');
  await page.keyboard.press('Enter');
  const next = { list: await nextWords(page), field: g.field };
  assert.ok(next.list.top > next.field.top && next.list.top < next.field.bottom + 4, `the next words under the caret's line: ${JSON.stringify(next)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a field in a modal <dialog> or a popover (the top layer, above <body>, the rest inert): the preedit and the windows are drawn in it, a candidate takes a click', async () => {
  const html = `<p>page</p><dialog id="dlg"><textarea id="indialog" style="width: 300px; height: 60px; font: 16px sans-serif"></textarea></dialog>` +
    `<div id="pop" popover style="top: 20px; left: 20px; margin: 0"><input id="inpopover" style="width: 260px; font: 16px sans-serif"></div>`;
  const { page, errors } = await layoutPage(html, ['indialog', 'inpopover']);
  for (const [id, open] of /** @type {const} */ ([['indialog', 'dlg'], ['inpopover', 'pop']])) {
    await page.evaluate((open) => {
      const box = /** @type {any} */ (document.getElementById(open));
      if (box.tagName === 'DIALOG') box.showModal();
      else box.showPopover();
    }, open);
    await page.click(`#${id}`);
    await page.keyboard.type('kyouha');
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    const seen = await page.evaluate(([id, open]) => {
      const { shown } = /** @type {any} */ (window);
      const box = /** @type {HTMLElement} */ (document.getElementById(String(open)));
      const list = shown('.henkan-candidates');
      const option = /** @type {HTMLElement} */ (list.querySelector('li[data-index="0"]'));
      const r = option.getBoundingClientRect();
      return {
        mirrorInside: box.contains(shown('.henkan-preedit')),
        listInside: box.contains(list),
        topmost: option.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)),
        text: option.textContent?.replace(/^1/, '') ?? '',
        at: { x: r.left + r.width / 2, y: r.top + r.height / 2 },
      };
    }, [id, open]);
    assert.ok(seen.mirrorInside && seen.listInside, `${id}: drawn in the top layer's element: ${JSON.stringify(seen)}`);
    assert.ok(seen.topmost, `${id}: the candidate window on top: ${JSON.stringify(seen)}`);
    ensureOutput();
    await page.screenshot({ path: `tests/e2e/output/layouts-${id}.png`, clip: { x: 0, y: 0, width: 700, height: 500 } });
    // A click on the first candidate picks it (the rest of the page is inert, the windows are not).
    await page.mouse.click(seen.at.x, seen.at.y);
    await page.keyboard.press('Enter');
    assert.equal(await page.$eval(`#${id}`, (el) => /** @type {HTMLInputElement} */ (el).value), seen.text);
    await page.evaluate((open) => {
      const box = /** @type {any} */ (document.getElementById(open));
      if (box.tagName === 'DIALOG') box.close();
      else box.hidePopover();
    }, open);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { popupPlace, popupBeside, popupAt, flowOf, caretInside, candidatePage, suggestionRows, suggestionHeight, indicatorView, SUGGESTION_WIDTH } from '../widget/layout.js';

const view = { width: 1000, height: 800 };

test('a window goes below the line, left-aligned with it', () => {
  assert.deepEqual(popupPlace({ left: 120, top: 100, bottom: 124 }, { width: 200, height: 150 }, view), { left: 120, top: 126 });
});

test('a window with no room below goes above, if there is room there', () => {
  assert.deepEqual(popupPlace({ left: 120, top: 700, bottom: 724 }, { width: 200, height: 150 }, view), { left: 120, top: 548 });
  // No room above either: below it stays (the viewport scrolls no window out of the top).
  assert.deepEqual(popupPlace({ left: 120, top: 100, bottom: 124 }, { width: 200, height: 700 }, view), { left: 120, top: 126 });
});

test('a window is kept inside the viewport on the right and the left', () => {
  assert.equal(popupPlace({ left: 950, top: 0, bottom: 20 }, { width: 200, height: 100 }, view).left, 798);
  assert.equal(popupPlace({ left: -30, top: 0, bottom: 20 }, { width: 200, height: 100 }, view).left, 0);
  // The suggestion list keeps its estimated width free.
  assert.equal(popupPlace({ left: 990, top: 0, bottom: 20 }, { width: SUGGESTION_WIDTH, height: 100 }, view).left, 740);
});

test('beside a column of vertical text: on the side the columns go, level with the text, by its right edge on the left', () => {
  const at = { left: 500, right: 527, top: 100, bottom: 172 };
  assert.deepEqual(popupBeside(at, { width: 200, height: 150 }, view, 'left'), { left: 298, top: 100, right: 498 });
  assert.deepEqual(popupBeside(at, { width: 200, height: 150 }, view, 'right'), { left: 529, top: 100 });
  // No room on that side: the other one.
  assert.deepEqual(popupBeside({ ...at, left: 100, right: 127 }, { width: 200, height: 150 }, view, 'left'), { left: 129, top: 100 });
  assert.deepEqual(popupBeside({ ...at, left: 900, right: 927 }, { width: 200, height: 150 }, view, 'right'), { left: 698, top: 100, right: 898 });
  // No room on either side: kept inside the viewport; low in the viewport: moved up to fit.
  assert.equal(popupBeside({ ...at, left: 100, right: 900 }, { width: 200, height: 150 }, view, 'left').left, 0);
  assert.equal(popupBeside({ ...at, top: 750 }, { width: 200, height: 150 }, view, 'left').top, 648);
});

test('the flow of a writing mode picks where a window goes', () => {
  assert.equal(flowOf('horizontal-tb'), 'down');
  assert.equal(flowOf('vertical-rl'), 'left');
  assert.equal(flowOf('sideways-rl'), 'left');
  assert.equal(flowOf('vertical-lr'), 'right');
  assert.equal(flowOf(''), 'down');
  const at = { left: 500, right: 527, top: 100, bottom: 124 };
  assert.deepEqual(popupAt(at, { width: 200, height: 150 }, view, 'down'), popupPlace(at, { width: 200, height: 150 }, view));
  assert.deepEqual(popupAt(at, { width: 200, height: 150 }, view, 'left'), popupBeside(at, { width: 200, height: 150 }, view, 'left'));
});

/** @param {number} n @param {number} selected */
const cands = (n, selected) => ({
  items: Array.from({ length: n }, (_, i) => `候補${i}`),
  selected,
  pageSize: 9,
  open: true,
  segment: 0,
});

test('the candidate page: numbered from 1, the selected one marked, no label for one page', () => {
  const { options, page } = candidatePage(cands(3, 1));
  assert.equal(page, null);
  assert.deepEqual(options.map((o) => [o.index, o.number, o.text, o.selected]), [
    [0, '1', '候補0', false],
    [1, '2', '候補1', true],
    [2, '3', '候補2', false],
  ]);
});

test('the candidate page of a later selection, with its label', () => {
  const { options, page } = candidatePage(cands(20, 10));
  assert.equal(page, '2/3');
  assert.deepEqual(options.map((o) => o.index), [9, 10, 11, 12, 13, 14, 15, 16, 17]);
  assert.deepEqual(options.map((o) => o.number), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  assert.deepEqual(options.filter((o) => o.selected).map((o) => o.index), [10]);
  assert.equal(candidatePage(cands(20, 19)).options.length, 2);
});

test('the suggestion rows: the heading tells the keys, the focused one is selected', () => {
  const unfocused = suggestionRows({ items: ['よろしく', 'よろしくお願いします'], focused: -1 });
  assert.equal(unfocused.heading, '予測  Tab ⇥');
  assert.equal(suggestionRows({ items: ['は'], focused: -1, afterCommit: true }).heading, '予測  ↓');
  assert.deepEqual(unfocused.options.map((o) => o.selected), [false, false]);
  const focused = suggestionRows({ items: ['よろしく', 'よろしくお願いします'], focused: 1 });
  assert.equal(focused.heading, '予測  Enter / 1–9');
  assert.deepEqual(focused.options.map((o) => [o.index, o.number, o.text, o.selected]), [
    [0, '1', 'よろしく', false],
    [1, '2', 'よろしくお願いします', true],
  ]);
  assert.equal(suggestionHeight(0), 24);
  assert.equal(suggestionHeight(3), 102);
});

test('the indicator: on, off, loading, failed, katakana, kana input', () => {
  assert.deepEqual(indicatorView('ready', true, true, ''), { text: 'あ', title: 'IME on (Ctrl+Space)', mode: 'hiragana' });
  assert.deepEqual(indicatorView('ready', true, false, ''), { text: 'A', title: 'IME off (Ctrl+Space)', mode: 'direct' });
  assert.deepEqual(indicatorView('loading', false, true, ''), { text: '…', title: 'loading the input method…', mode: 'direct' });
  assert.deepEqual(indicatorView('loading', true, true, ''), { text: 'あ…', title: 'IME on: kana only until the dictionary has loaded (Ctrl+Space)', mode: 'hiragana' });
  assert.equal(indicatorView('loading', true, false, '').text, 'A');
  assert.deepEqual(indicatorView('error', false, true, 'the input method stopped: x'), { text: '×', title: 'the input method stopped: x', mode: 'direct' });
  assert.equal(indicatorView('idle', false, true, '').text, 'あ');
  // katakana input
  assert.deepEqual(indicatorView('ready', true, true, '', { katakana: true }), { text: 'カ', title: 'IME on, katakana input (カタカナひらがな: hiragana; Ctrl+Space)', mode: 'katakana' });
  assert.equal(indicatorView('ready', true, false, '', { katakana: true }).text, 'A');
  // kana input: the title says it
  assert.deepEqual(indicatorView('ready', true, true, '', { kanaInput: true }), { text: 'あ', title: 'IME on, kana input (Alt+カタカナひらがな: romaji) (Ctrl+Space)', mode: 'hiragana' });
  assert.equal(indicatorView('ready', true, true, '', { katakana: true, kanaInput: true }).title, 'IME on, katakana input, kana input (Alt+カタカナひらがな: romaji) (カタカナひらがな: hiragana; Ctrl+Space)');
});

test('a caret strictly inside a box: a line of text ends (or runs on) under it', () => {
  const box = { left: 100, right: 120, top: 10, bottom: 28 };
  const across = (/** @type {number} */ x, /** @type {number} */ top) => ({ left: x, right: x, top, bottom: top + 19, width: 0, height: 19 });
  assert.equal(caretInside(across(110, 8), box), true);
  assert.equal(caretInside(across(100.5, 8), box), false, 'at its edge: the glyph before ends there');
  assert.equal(caretInside(across(96, 8), box), false, 'a line that ends before it');
  assert.equal(caretInside(across(110, 40), box), false, 'on a line below it');
  // In vertical text the caret lies across the column.
  const down = (/** @type {number} */ y) => ({ left: 104, right: 119, top: y, bottom: y, width: 15, height: 0 });
  assert.equal(caretInside(down(20), box), true);
  assert.equal(caretInside(down(40), box), false);
  assert.equal(caretInside({ left: 0, right: 0, top: 0, bottom: 0, width: 0, height: 0 }, box), false, 'no caret rect');
});

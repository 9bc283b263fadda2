// Pure logic of the widget's windows, no DOM: what the candidate window, the suggestion list
// and the indicator show, and where a window goes. Tested with `node --test www/test/`.

import { pageOf } from '../keymap.js';

/** @typedef {import('../types.js').CandidateList} CandidateList */

/**
 * @typedef {object} OptionRow one option of a list
 * @property {number} index what `selectCandidate` takes (the candidate's or suggestion's index)
 * @property {string} number the digit shown before it (the key that picks it)
 * @property {string} text
 * @property {boolean} selected
 */

/**
 * Where a window goes under (or over) a line of text: below it, left-aligned with `at.left` but
 * kept inside the viewport; above it when there is no room below and there is room above.
 * @param {{left: number, top: number, bottom: number}} at the line (viewport coordinates)
 * @param {{width: number, height: number}} size the window
 * @param {{width: number, height: number}} view the viewport
 * @returns {{left: number, top: number}}
 */
export function popupPlace(at, size, view) {
  const below = at.bottom + 2;
  const above = at.top - size.height - 2;
  return {
    left: Math.max(0, Math.min(at.left, view.width - size.width - 2)),
    top: below + size.height > view.height && above > 0 ? above : below,
  };
}

/**
 * Where a window goes beside a column of vertical text: on the side where the next columns go
 * (`left` in `vertical-rl`, as Japanese is written; `right` in `vertical-lr`), top-aligned with the
 * column's piece `at` but kept inside the viewport; on the other side when there is no room on
 * that one and there is room on the other. Left of the text, `right` is where the window's right
 * edge goes (2 px off the text): a window whose width is an estimate is placed by that edge.
 * @param {{left: number, right: number, top: number}} at the text (viewport coordinates)
 * @param {{width: number, height: number}} size the window
 * @param {{width: number, height: number}} view the viewport
 * @param {'left' | 'right'} side
 * @returns {{left: number, top: number, right?: number}}
 */
export function popupBeside(at, size, view, side) {
  const left = at.left - size.width - 2;
  const right = at.right + 2;
  const roomLeft = left >= 0;
  const roomRight = right + size.width <= view.width;
  const onLeft = side === 'left' ? roomLeft || !roomRight : !(roomRight || !roomLeft);
  const place = {
    left: Math.max(0, Math.min(onLeft ? left : right, view.width - size.width - 2)),
    top: Math.max(0, Math.min(at.top, view.height - size.height - 2)),
  };
  return onLeft && roomLeft ? { ...place, right: at.left - 2 } : place;
}

/**
 * Whether a caret (a line of zero width, or of zero height in vertical text, as
 * `CaretPosition.getClientRect()` gives it) lies strictly inside a box, more than 1 px from its
 * edges: then a glyph it borders is drawn under the box (a line of text that ends there, or runs
 * on across it).
 * @param {{left: number, right: number, top: number, bottom: number, width: number, height: number}} caret
 * @param {{left: number, right: number, top: number, bottom: number}} box
 */
export function caretInside(caret, box) {
  if (caret.width === 0 && caret.height === 0) return false;
  const across = caret.width === 0;
  const at = across ? caret.left : caret.top;
  const [lo, hi] = across ? [box.left, box.right] : [box.top, box.bottom];
  const [from, to] = across ? [caret.top, caret.bottom] : [caret.left, caret.right];
  const [boxFrom, boxTo] = across ? [box.top, box.bottom] : [box.left, box.right];
  return at > lo + 1 && at < hi - 1 && from < boxTo && to > boxFrom;
}

/**
 * Where a field's lines follow one another, from its computed `writing-mode`: `down` (horizontal
 * text), `left` (vertical, columns right to left) or `right` (columns left to right).
 * @param {string} writingMode
 * @returns {'down' | 'left' | 'right'}
 */
export function flowOf(writingMode) {
  if (writingMode === 'vertical-rl' || writingMode === 'sideways-rl') return 'left';
  if (writingMode === 'vertical-lr' || writingMode === 'sideways-lr') return 'right';
  return 'down';
}

/**
 * Where a window goes at a piece of text: under (or over) its line, or beside its column in
 * vertical text, on the side the text flows to (`flowOf`).
 * @param {{left: number, right: number, top: number, bottom: number}} at
 * @param {{width: number, height: number}} size
 * @param {{width: number, height: number}} view
 * @param {'down' | 'left' | 'right'} flow
 * @returns {{left: number, top: number, right?: number}}
 */
export function popupAt(at, size, view, flow) {
  return flow === 'down' ? popupPlace(at, size, view) : popupBeside(at, size, view, flow);
}

/**
 * The page of the candidate window: the options of the selected candidate's page, numbered from
 * 1, and the page label (`2/3`) when there are several pages.
 * @param {CandidateList} cands
 * @returns {{options: OptionRow[], page: string | null}}
 */
export function candidatePage(cands) {
  const { start, end, page, pages } = pageOf(cands.items.length, cands.selected, cands.pageSize);
  /** @type {OptionRow[]} */
  const options = [];
  for (let i = start; i < end; i++) {
    options.push({ index: i, number: String(i - start + 1), text: cands.items[i], selected: i === cands.selected });
  }
  return { options, page: pages > 1 ? `${page + 1}/${pages}` : null };
}

/**
 * The rows of the suggestion list: the heading says which keys apply (Tab to enter the list while
 * composing, ↓ after a commit; in it, Enter or a digit), then the suggestions.
 * @param {{items: string[], focused: number, afterCommit?: boolean}} view from `suggestionsOf` (keymap.js)
 * @returns {{heading: string, options: OptionRow[]}}
 */
export function suggestionRows(view) {
  return {
    heading: view.focused >= 0 ? '予測  Enter / 1–9' : view.afterCommit ? '予測  ↓' : '予測  Tab ⇥',
    options: view.items.map((text, i) => ({ index: i, number: String(i + 1), text, selected: i === view.focused })),
  };
}

/**
 * The suggestion list's height, estimated (px: the heading, then one row per item), so that no
 * key waits for a layout to place it.
 * @param {number} items
 */
export function suggestionHeight(items) {
  return 24 + 26 * items;
}

/**
 * The suggestion list's width kept free at the right edge of the viewport (estimated likewise).
 */
export const SUGGESTION_WIDTH = 258;

/**
 * What the on/off indicator shows. While the dictionary loads, keys are composed already (kana
 * only): the badge says so with `あ…`.
 * @param {'idle' | 'loading' | 'ready' | 'error'} status the IME's status
 * @param {boolean} composes whether keys can be composed (the wasm module is running)
 * @param {boolean} enabled whether the field's IME is on
 * @param {string} error the message when `status` is `error`
 * @param {{katakana?: boolean, kanaInput?: boolean}} [input] katakana input (`カ`); kana input
 *   (かな入力: said in the title, as MS-IME's language bar says it beside its `あ`)
 * @returns {{text: string, title: string, mode: 'hiragana' | 'katakana' | 'direct'}}
 */
export function indicatorView(status, composes, enabled, error, { katakana = false, kanaInput = false } = {}) {
  if (status === 'error') return { text: '×', title: error, mode: 'direct' };
  if (status === 'loading' && !composes) return { text: '…', title: 'loading the input method…', mode: 'direct' };
  if (!enabled) return { text: 'A', title: 'IME off (Ctrl+Space)', mode: 'direct' };
  if (status === 'loading') return { text: 'あ…', title: 'IME on: kana only until the dictionary has loaded (Ctrl+Space)', mode: 'hiragana' };
  const kana = kanaInput ? ', kana input (Alt+カタカナひらがな: romaji)' : '';
  if (katakana && composes) return { text: 'カ', title: `IME on, katakana input${kana} (カタカナひらがな: hiragana; Ctrl+Space)`, mode: 'katakana' };
  return { text: 'あ', title: `IME on${kana} (Ctrl+Space)`, mode: composes ? 'hiragana' : 'direct' };
}

/**
 * What the live region says for an output: the focused candidate and its place (`今日 2/12`)
 * while converting, the focused suggestion, the preedit while composing, nothing otherwise.
 * @param {{state: string, preedit: {text: string}, candidates?: CandidateList | null, completions?: string[], focusedCompletion?: number | null}} out
 * @returns {string}
 */
export function announcement(out) {
  if (out.state === 'converting' && out.candidates) {
    const c = out.candidates;
    return `${c.items[c.selected] ?? ''} ${c.selected + 1}/${c.items.length}`;
  }
  if (out.state === 'suggesting' && typeof out.focusedCompletion === 'number') {
    const items = out.completions ?? [];
    return `${items[out.focusedCompletion] ?? ''} ${out.focusedCompletion + 1}/${items.length}`;
  }
  return out.state === 'composing' ? out.preedit.text : '';
}

// Caret geometry: where the caret of a <textarea>/<input> or a contenteditable is on screen.
//
// For <textarea>/<input> the mirror-div technique (as in component/textarea-caret-position): a
// hidden <div> copies the field's box and font, holds the text up to the caret and a marker
// <span>, and the marker's offset is the caret's position inside the field. For contenteditable
// the collapsed selection range has client rects.

import { selectionOf } from './widget/root.js';
import { scaleOf, scrollBars } from './widget/scale.js';

/**
 * The properties that decide where text wraps and how tall lines are. The inherited ones count
 * too: the mirror sits in the widget's layer (at the end of <body>, or in the dialog that holds the
 * field) and inherits from there, not from the field's ancestors (a page's `line-break: anywhere` or `text-autospace` on a box moves the field's glyphs
 * and not the mirror's otherwise). A property the browser lacks reads as '' and is not set.
 */
export const MIRRORED = [
  'direction', 'boxSizing', 'width', 'height', 'overflowX', 'overflowY',
  'borderTopWidth', 'borderRightWidth', 'borderBottomWidth', 'borderLeftWidth', 'borderStyle',
  'paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft',
  'fontStyle', 'fontVariant', 'fontWeight', 'fontStretch', 'fontSize', 'fontSizeAdjust', 'lineHeight', 'fontFamily',
  'fontFeatureSettings', 'fontKerning', 'fontVariationSettings', 'fontOpticalSizing', 'fontSynthesis',
  'fontVariantEastAsian', 'fontVariantLigatures', 'fontVariantNumeric',
  'textAlign', 'textTransform', 'textIndent', 'textDecoration', 'letterSpacing', 'wordSpacing',
  'tabSize', 'whiteSpace', 'wordBreak', 'overflowWrap', 'lineBreak', 'hyphens', 'hangingPunctuation',
  'textAutospace', 'textSpacingTrim', 'textRendering',
  'writingMode', 'textOrientation', 'textCombineUpright',
];

/**
 * How a mirror of a field lays out its text: an input's one line and a textarea that does not
 * wrap (`wrap="off"`, `white-space: pre` or `nowrap`) as `pre`, else as a textarea wraps: `pre-wrap`
 * and `overflow-wrap: break-word` (Chromium's inner editor of a wrapping textarea breaks long words
 * whatever the page says).
 * @param {CSSStyleDeclaration} cs the field's computed style
 * @param {boolean} isInput
 * @returns {{whiteSpace: string, overflowWrap: string | null}} `overflowWrap` null: the field's own
 */
export function mirrorWrap(cs, isInput) {
  const wraps = !isInput && !(cs.textWrapMode === 'nowrap' || cs.whiteSpace === 'pre' || cs.whiteSpace === 'nowrap');
  return wraps ? { whiteSpace: 'pre-wrap', overflowWrap: 'break-word' } : { whiteSpace: 'pre', overflowWrap: null };
}

/**
 * @typedef {object} CaretRect viewport coordinates (for `position: fixed`)
 * @property {number} left
 * @property {number} top
 * @property {number} height line height at the caret
 * @property {number} right right edge of the field's content box (where a line wraps)
 */

/**
 * The caret (at `offset`, default the selection start) of a textarea or text input.
 * `from` (a textarea): a character that starts a row, before the caret, and the row's top below
 * the first row's; the text from there is laid out, not all the text before the caret.
 * @param {HTMLTextAreaElement | HTMLInputElement} el
 * @param {number} [offset]
 * @param {{at: number, top: number} | null} [from]
 * @returns {CaretRect}
 */
export function textFieldCaret(el, offset, from = null) {
  const doc = el.ownerDocument;
  const cs = getComputedStyle(el);
  const isInput = el.tagName === 'INPUT';
  const pos = offset ?? el.selectionStart ?? el.value.length;
  const mirror = doc.createElement('div');
  const style = mirror.style;
  for (const p of MIRRORED) style.setProperty(toKebab(p), cs.getPropertyValue(toKebab(p)));
  style.position = 'absolute';
  style.visibility = 'hidden';
  style.top = '0';
  style.left = '-9999px';
  style.overflow = 'hidden';
  // The field's scroll bars take room from its text; the mirror has none (it hides its
  // overflow): pad it instead, on the side each is (a content box's computed width leaves them
  // out already, a border box's has them).
  const bars = scrollBars(el, cs);
  style.paddingLeft = `${(parseFloat(cs.paddingLeft) || 0) + bars.left}px`;
  style.paddingRight = `${(parseFloat(cs.paddingRight) || 0) + bars.right}px`;
  const wrap = mirrorWrap(cs, isInput);
  style.whiteSpace = wrap.whiteSpace;
  if (wrap.overflowWrap) style.overflowWrap = wrap.overflowWrap;
  if (isInput) {
    style.height = 'auto';
    style.lineHeight = cs.height; // inputs centre their one line vertically
  }
  const start = from && !isInput && from.at <= pos ? from : null;
  if (start) {
    const rows = doc.createElement('div');
    rows.style.height = `${start.top}px`;
    mirror.appendChild(rows);
  }
  const before = doc.createTextNode(el.value.slice(start?.at ?? 0, pos));
  mirror.appendChild(before);
  const marker = doc.createElement('span');
  // The rest of the caret's line keeps its row wrapping as in the field (where the marker starts
  // depends on the word it begins, not on the lines after; at most 1,000 characters of it); a
  // zero-width space when empty, so that the span has a box and takes no room: a character with
  // width would wrap at the end of a full row, and a '.' would take the row's last characters
  // with it (it may not begin a line).
  const rest = el.value.slice(pos, pos + 1000);
  const lineEnd = rest.indexOf('\n');
  const restOfLine = lineEnd >= 0 ? rest.slice(0, lineEnd) : rest;
  marker.textContent = restOfLine || '\u200b';
  mirror.appendChild(marker);
  doc.body.appendChild(mirror);
  const border = { top: parseFloat(cs.borderTopWidth) || 0, left: parseFloat(cs.borderLeftWidth) || 0 };
  const top = marker.offsetTop + border.top;
  // The caret is where the rest of its line starts: the marker's left, or in right-to-left text
  // where the browser lays the caret out, a collapsed range at the marker's start (the rest runs
  // leftwards from it; where two runs of opposite directions meet the range has a rect on each
  // side, and the first is the browser's caret). At the end of a line, after the text before it:
  // the browser puts the caret at the end of the last run, after a left-to-right word (its right
  // end, `今日は|` before Hebrew text), where the zero-width space would be the line's left end.
  // Client rects are on screen, in a zoomed page larger than the mirror's CSS pixels: `k`. (A
  // range lives on in the document until it is collected, and each DOM change updates it: none is
  // made for left-to-right text.)
  let left = marker.offsetLeft + border.left;
  if (cs.direction === 'rtl' && marker.firstChild) {
    const at = doc.createRange();
    const lineText = before.data.slice(before.data.lastIndexOf('\n') + 1);
    if (!restOfLine && lineText) at.setStart(before, before.data.length);
    else at.setStart(marker.firstChild, 0);
    const first = at.getClientRects()[0];
    const frame = mirror.getBoundingClientRect();
    const k = mirror.offsetWidth > 0 ? frame.width / mirror.offsetWidth : 1;
    if (first && k > 0) left = (first.left - frame.left) / k - mirror.clientLeft + border.left;
  }
  const lineHeight = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
  doc.body.removeChild(mirror);
  const box = el.getBoundingClientRect();
  // The mirror's offsets are the field's CSS pixels; under a zoom or a scaling transform its CSS
  // pixels are larger or smaller on screen.
  const s = scaleOf(el, cs, box);
  const padRight = parseFloat(cs.paddingRight) || 0;
  const borderRight = parseFloat(cs.borderRightWidth) || 0;
  return {
    left: box.left + s.x * (left - el.scrollLeft),
    top: box.top + (isInput ? (box.height - s.y * lineHeight) / 2 : s.y * (top - el.scrollTop)),
    height: s.y * lineHeight,
    right: box.right - s.x * (padRight + borderRight + bars.right),
  };
}

/**
 * The caret of a contenteditable (the collapsed start of the selection).
 * @param {HTMLElement} el
 * @returns {CaretRect}
 */
export function editableCaret(el) {
  const doc = el.ownerDocument;
  const cs = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const lineHeight = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
  const right = box.right - (parseFloat(cs.paddingRight) || 0);
  const sel = selectionOf(el);
  if (sel && sel.rangeCount > 0 && el.contains(sel.anchorNode)) {
    const range = sel.getRangeAt(0).cloneRange();
    range.collapse(true);
    const rect = range.getClientRects()[0] ?? besideCaret(doc, range);
    if (rect) return { left: rect.left, top: rect.top, height: rect.height || lineHeight, right };
    // A caret on an empty line has no rect: use its container's box (no DOM changes here,
    // they would disturb the editor's undo history).
    const node = range.startContainer;
    const host = node.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (node) : node.parentElement;
    if (host) {
      const r = host.getBoundingClientRect();
      const hcs = getComputedStyle(host);
      return {
        left: r.left + (parseFloat(hcs.paddingLeft) || 0) + (parseFloat(hcs.borderLeftWidth) || 0),
        top: r.top + (parseFloat(hcs.paddingTop) || 0) + (parseFloat(hcs.borderTopWidth) || 0),
        height: lineHeight,
        right,
      };
    }
  }
  return {
    left: box.left + (parseFloat(cs.paddingLeft) || 0),
    top: box.top + (parseFloat(cs.paddingTop) || 0),
    height: lineHeight,
    right,
  };
}

/**
 * Where a collapsed range is when it has no rect of its own (Chromium gives none at the edge of an
 * element, as between a bold run and the text after it): the right edge of the character before
 * it on its line, else the box of a `<br>` right after it, else the left edge of the character
 * after it. Only text of the caret's own line counts: not across a `<br>` or into another block
 * (a caret in an empty paragraph is not at the end of the paragraph before it); null when its
 * line has none.
 * @param {Document} doc
 * @param {Range} range collapsed
 * @returns {{left: number, top: number, height: number} | null}
 */
function besideCaret(doc, range) {
  const root = range.commonAncestorContainer.getRootNode();
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  const { startContainer: node, startOffset: offset } = range;
  const home = blockOf(node);
  /**
   * The first non-empty text node from `from` on (`from` itself included when `self`), going
   * back or forth, on the caret's line: null at a `<br>`, at a block's edge, or out of the block.
   * @param {Node} from
   * @param {boolean} back
   * @param {boolean} self
   * @returns {Text | null}
   */
  const neighbour = (from, back, self) => {
    walker.currentNode = from;
    for (let n = self ? from : back ? walker.previousNode() : walker.nextNode(); n; n = back ? walker.previousNode() : walker.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const text = /** @type {Text} */ (n);
        if (text.length === 0) continue;
        return blockOf(text) === home ? text : null;
      }
      const el = /** @type {Element} */ (n);
      if (el.tagName === 'BR' || el === home || !getComputedStyle(el).display.startsWith('inline')) return null;
    }
    return null;
  };
  /** @type {Text | null} */
  let before = null;
  /** @type {Text | null} */
  let after = null;
  /** The node right after the caret in an element (none in a text node). */
  const child = node.nodeType === Node.TEXT_NODE ? null : (node.childNodes[offset] ?? null);
  if (node.nodeType === Node.TEXT_NODE) {
    const text = /** @type {Text} */ (node);
    if (offset > 0) before = text;
    else after = text;
  } else if (child) {
    before = neighbour(child, true, false);
    after = neighbour(child, false, true);
  } else {
    let last = node;
    while (last.lastChild) last = last.lastChild;
    before = neighbour(last, true, true);
  }
  const probe = doc.createRange();
  if (before && before.length > 0) {
    const end = before === node ? offset : before.length;
    probe.setStart(before, end - 1);
    probe.setEnd(before, end);
    const r = probe.getClientRects()[0];
    if (r) return { left: r.right, top: r.top, height: r.height };
  }
  // Before a <br> (an empty line, or the end of one): the <br>'s box is on the caret's line.
  if (child?.nodeName === 'BR') {
    const r = /** @type {Element} */ (child).getBoundingClientRect();
    if (r.height > 0) return { left: r.left, top: r.top, height: r.height };
  }
  if (after && after.length > 0) {
    probe.setStart(after, 0);
    probe.setEnd(after, 1);
    const r = probe.getClientRects()[0];
    if (r) return { left: r.left, top: r.top, height: r.height };
  }
  return null;
}

/**
 * The block a node is laid out in: its nearest element that is not inline (itself, for such an
 * element).
 * @param {Node} node
 * @returns {Element | null}
 */
function blockOf(node) {
  let el = node.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (node) : node.parentElement;
  while (el && el.parentElement && getComputedStyle(el).display.startsWith('inline')) el = el.parentElement;
  return el;
}

/** @param {string} s a camelCase CSS property name */
export function toKebab(s) {
  return s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

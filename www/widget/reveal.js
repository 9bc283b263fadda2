// The caret kept in view. Typing scrolls a field, and the boxes and the page around it, to its
// caret. The widget's keys type nothing into the field until a commit, and Chromium's
// `execCommand('insertText')`, the way commits go in (commit.js), scrolls none of them: a commit
// at the end of a full one-line input would leave the caret and the text just committed out of
// sight, and lines committed past a textarea's height would go on below its bottom edge. After a
// commit into a text field the field is scrolled, then each box that scrolls it, then the page,
// each as little as brings the caret's line in (to the nearest edge, as the browser reveals a
// typed character). While composing, the preedit's line is brought into view the same way when a
// composition starts, and whenever it is out of the viewport (typed into a field the page was
// scrolled away from, it would be drawn off screen). A contenteditable needs none of this: the command
// reveals its caret, and its inline preedit is scrolled into view.

import { px, scaleOf } from './scale.js';

/** @typedef {import('../caret.js').CaretRect} CaretRect */

/**
 * How far to scroll so that the span `[from, to]` lies within `[lo, hi]`: to the nearest edge,
 * 0 when it already does (and a span longer than the room shows its start).
 * @param {number} from
 * @param {number} to
 * @param {number} lo
 * @param {number} hi
 */
export function nearestScroll(from, to, lo, hi) {
  if (from < lo) return from - lo;
  if (to > hi) return Math.min(to - hi, from - lo);
  return 0;
}

/**
 * The element whose box scrolls `el`, across a shadow root's host; null at the document's.
 * @param {Element} el
 * @returns {HTMLElement | null}
 */
function scrollParent(el) {
  /** @type {Element | null} */
  let at = el;
  for (;;) {
    const root = /** @type {Node & {host?: Element}} */ (at.getRootNode());
    at = at.parentElement ?? (root.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? root.host ?? null : null);
    if (!at || at === el.ownerDocument.body || at === el.ownerDocument.documentElement) return null;
    const cs = getComputedStyle(at);
    const scrolls = (/** @type {string} */ o) => o === 'auto' || o === 'scroll';
    if ((scrolls(cs.overflowY) && at.scrollHeight > at.clientHeight) || (scrolls(cs.overflowX) && at.scrollWidth > at.clientWidth)) {
      return /** @type {HTMLElement} */ (at);
    }
  }
}

/**
 * Scrolls a text field, then what scrolls it, so that its caret is in view. The caret is measured
 * (`caret`, the mirror's work) only when something could hide it: text past the field's edges,
 * or the field not wholly in the viewport. Horizontal text only.
 * @param {HTMLTextAreaElement | HTMLInputElement} field focused
 * @param {() => CaretRect} caret where its caret is, in viewport coordinates
 */
export function revealCaret(field, caret) {
  const cs = getComputedStyle(field);
  if (cs.writingMode !== 'horizontal-tb') return;
  const view = field.ownerDocument.defaultView;
  if (!view) return;
  const box = field.getBoundingClientRect();
  const overflows = field.scrollHeight > field.clientHeight || field.scrollWidth > field.clientWidth;
  const inView = box.top >= 0 && box.left >= 0 && box.bottom <= view.innerHeight && box.right <= view.innerWidth;
  if (!overflows && inView) return;
  const c = caret();
  let x = c.left;
  let top = c.top;
  const bottom = () => top + c.height;
  // The field: its client area, within its padding (a scrolled textarea shows its padding at the
  // ends). Its scroll offsets are its own CSS pixels, `box` is on screen.
  const { x: sx, y: sy } = scaleOf(field, cs, box);
  const left = box.left + sx * (field.clientLeft + px(cs.paddingLeft));
  const right = box.left + sx * (field.clientLeft + field.clientWidth - px(cs.paddingRight));
  const dx = nearestScroll(x, x, left, right);
  if (dx !== 0) {
    const was = field.scrollLeft;
    field.scrollLeft += dx / sx;
    x -= sx * (field.scrollLeft - was);
  }
  if (field.tagName === 'TEXTAREA') {
    const upper = box.top + sy * field.clientTop;
    const dy = nearestScroll(top, bottom(), upper, upper + sy * field.clientHeight);
    if (dy !== 0) {
      const was = field.scrollTop;
      field.scrollTop += dy / sy + (dy > 0 ? px(cs.paddingBottom) : -px(cs.paddingTop));
      top -= sy * (field.scrollTop - was);
    }
  }
  revealRect(field, { left: x, right: x, top, bottom: bottom() });
}

/**
 * Scrolls the boxes that scroll a field, then the page, as little as brings a piece of it in view
 * (a line: its caret, or the preedit drawn over it).
 * @param {HTMLElement} field
 * @param {{left: number, right: number, top: number, bottom: number}} rect in viewport coordinates
 */
export function revealRect(field, rect) {
  const view = field.ownerDocument.defaultView;
  if (!view) return;
  let { left: x, right, top, bottom } = rect;
  for (let at = scrollParent(field); at; at = scrollParent(at)) {
    const r = at.getBoundingClientRect();
    const upper = r.top + at.clientTop;
    const dy = nearestScroll(top, bottom, upper, upper + at.clientHeight);
    const inner = r.left + at.clientLeft;
    const dx = nearestScroll(x, right, inner, inner + at.clientWidth);
    if (dy === 0 && dx === 0) continue;
    const was = { x: at.scrollLeft, y: at.scrollTop };
    at.scrollBy(dx, dy);
    x -= at.scrollLeft - was.x;
    right -= at.scrollLeft - was.x;
    top -= at.scrollTop - was.y;
    bottom -= at.scrollTop - was.y;
  }
  const dy = nearestScroll(top, bottom, 0, view.innerHeight);
  const dx = nearestScroll(x, right, 0, view.innerWidth);
  if (dy !== 0 || dx !== 0) view.scrollBy(dx, dy);
}

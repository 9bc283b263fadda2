// The on/off indicator: a badge at the field's top right corner while it (or the badge) is
// focused (あ: on, あ…: on, the dictionary still loading, A: off, …: loading, ×: failed); top left
// in vertical text written right to left; inside the borders, clear of a scroll bar. Out of the
// field (above it, else beside it) while it would cover text, the field's own (the end of a full
// one-line input, a paragraph's first line, right-aligned text) or the preedit's, or a search
// field's clear button. A click toggles the IME; it is a toggle button in the tab order right
// after the field (Enter or Space toggles it and gives the focus back to the field).

import { indicatorView, flowOf, caretInside } from './layout.js';
import { placeFixed, scaleOf } from './scale.js';
import { rootOf } from './root.js';

/**
 * Whether the field draws text under `box` (the badge's place in its corner). Hit tests just
 * outside the box's two ends, across its top and bottom rows (down its two columns in vertical
 * text), where the badge itself is not hit: a row whose two ends give two caret positions has text
 * across it, and one whose caret lies inside the box has a line that ends under it
 * (`caretInside`). A point that hits anything but the field (something the page or the widget
 * draws over it) tells nothing; so does a browser without `caretPositionFromPoint`.
 * @param {HTMLElement} field
 * @param {DOMRect} box
 * @param {boolean} vertical
 */
export function textUnder(field, box, vertical) {
  const doc = field.ownerDocument;
  if (typeof doc.caretPositionFromPoint !== 'function') return false;
  const root = rootOf(field);
  const options = root === doc ? undefined : { shadowRoots: [/** @type {ShadowRoot} */ (root)] };
  const rows = vertical
    ? [box.left + 2, box.right - 2].map((x) => [[x, box.top - 1], [x, box.bottom + 1]])
    : [box.top + 2, box.bottom - 2].map((y) => [[box.left - 1, y], [box.right + 1, y]]);
  for (const row of rows) {
    const [a, z] = row.map(([x, y]) => doc.caretPositionFromPoint(x, y, options));
    if (!a || !z || !field.contains(a.offsetNode) || !field.contains(z.offsetNode)) continue;
    if (a.offsetNode !== z.offsetNode || a.offset !== z.offset) return true;
    const caret = a.getClientRect();
    if (caret && caretInside(caret, box)) return true;
  }
  return false;
}

/**
 * Whether a search field shows its clear button (×, at its right end while it has text), which the
 * badge in the corner would cover.
 * @param {HTMLElement} field
 */
function clearButton(field) {
  return field.tagName === 'INPUT' && /** @type {HTMLInputElement} */ (field).type === 'search' && /** @type {HTMLInputElement} */ (field).value !== '';
}

/**
 * Whether the page draws nothing of its own over `rect` but the background of the field's
 * containers: the element hit at its corners and centre (the widget's own boxes passed over) is
 * none, or one that holds the field. Across a shadow root to its host.
 * @param {HTMLElement} field
 * @param {HTMLElement} badge
 * @param {{left: number, top: number, right: number, bottom: number}} rect
 */
function clearOfPage(field, badge, rect) {
  const doc = field.ownerDocument;
  /** The elements that hold the field, its own document's and its shadow hosts'. */
  const holders = new Set();
  for (let n = /** @type {Node | null} */ (field); n; ) {
    holders.add(n);
    n = n.parentNode ?? /** @type {ShadowRoot} */ (n).host ?? null;
  }
  const { left, top, right, bottom } = rect;
  const points = [[left + 1, top + 1], [right - 1, top + 1], [left + 1, bottom - 1], [right - 1, bottom - 1], [(left + right) / 2, (top + bottom) / 2]];
  return points.every(([x, y]) => {
    const hit = doc.elementsFromPoint(x, y).find((e) => e !== badge && !e.closest('.henkan-layer'));
    return !hit || holders.has(hit);
  });
}

export class Indicator {
  /** @param {Document} doc */
  constructor(doc) {
    this.el = doc.createElement('div');
    this.el.className = 'henkan-indicator';
    this.el.setAttribute('role', 'button');
    this.el.setAttribute('tabindex', '0');
    this.el.setAttribute('aria-keyshortcuts', 'Control+Space');
    /** What it shows now (skip layout when unchanged). */
    this.key = '';
    /** @type {DOMRect | null} where it is in the field's corner, measured when placed there */
    this.corner = null;
    /** The field's own text was under the corner when last tested. */
    this.covers = false;
  }

  /** Place it again at the next render (the field moved, or got the focus). */
  invalidate() {
    this.key = '';
  }

  /**
   * Shows the indicator at the field's corner, or hides it.
   * @param {HTMLElement} field
   * @param {boolean} show
   * @param {{status: 'idle' | 'loading' | 'ready' | 'error', composes: boolean, error: string}} ime
   * @param {boolean} enabled whether the field's IME is on
   * @param {({left: number, right: number, top: number, bottom: number} | null)[]} [avoid] the
   *   preedit's lines (its first and its last) that the badge must not cover: it moves out of the
   *   field while one meets its corner
   * @param {boolean} [hitTest] test now whether the field's own text is under the corner
   *   (`textUnder`, a layout and hit tests); else it is as last tested
   * @param {{katakana?: boolean, kanaInput?: boolean}} [input] katakana input (`カ`), kana input
   */
  render(field, show, ime, enabled, avoid = [], hitTest = false, input = {}) {
    // Read when needed only: a key's render with nothing to place would otherwise force the
    // style of the preedit it just changed.
    const flow = () => flowOf(getComputedStyle(field).writingMode);
    const aside = () => {
      const corner = this.corner;
      if (!show || corner === null) return false;
      if (hitTest) this.covers = textUnder(field, corner, flow() !== 'down');
      return this.covers || clearButton(field) || avoid.some((r) => r !== null && r.left < corner.right && r.right > corner.left && r.top < corner.bottom && r.bottom > corner.top);
    };
    const state = `${show}|${ime.status}|${ime.composes}|${enabled}|${!!input.katakana}|${!!input.kanaInput}`;
    if (`${state}|${aside()}` === this.key) return;
    const el = this.el;
    if (show) {
      const box = field.getBoundingClientRect();
      const view = indicatorView(ime.status, ime.composes, enabled, ime.error, input);
      el.style.display = 'block';
      el.dataset.status = ime.status;
      el.dataset.mode = view.mode;
      el.textContent = view.text;
      el.title = view.title;
      el.setAttribute('aria-label', `日本語入力 (IME): ${view.title}`);
      el.setAttribute('aria-pressed', String(view.mode !== 'direct'));
      // Beside the field, so inside whatever zooms or transforms it: placed on screen. In the
      // corner where the first line ends (top left in vertical text written right to left, whose
      // first column is at the right).
      const left = flow() === 'left';
      // Inside the field's borders, clear of a vertical scroll bar (its arrow at the top).
      const { x: sx } = scaleOf(field, getComputedStyle(field), box);
      const right = Math.min(box.right - 4, box.left + sx * (field.clientLeft + field.clientWidth) - 3);
      if (left) placeFixed(el, box.left + 4, box.top + 4);
      else placeFixed(el, right, box.top + 4, true);
      this.corner = el.getBoundingClientRect();
      // Tested again where the corner now is (the field may have moved).
      const out = aside();
      this.key = `${state}|${out}`;
      if (out) {
        // Out of the field: just above it at the same side, else beside it, else below it; the
        // first of those in the viewport where the page draws nothing of its own (a field above
        // in a dense form), else the first in the viewport.
        const { width: w, height: h } = this.corner;
        const x = left ? box.left + 4 : right - w;
        const spots = [
          { left: x, top: box.top - h - 2 },
          { left: left ? box.left - w - 2 : box.right + 2, top: box.top + 4 },
          { left: x, top: box.bottom + 2 },
        ];
        const doc = field.ownerDocument;
        const vw = doc.documentElement.clientWidth;
        const vh = doc.documentElement.clientHeight;
        const inView = spots.filter((p) => p.left >= 0 && p.top >= 0 && p.left + w <= vw && p.top + h <= vh);
        const spot = inView.find((p) => clearOfPage(field, el, { ...p, right: p.left + w, bottom: p.top + h })) ?? inView[0] ?? spots[2];
        placeFixed(el, spot.left, spot.top);
      }
    } else {
      this.key = `${state}|false`;
      el.style.display = 'none';
      this.corner = null;
      this.covers = false;
    }
  }
}

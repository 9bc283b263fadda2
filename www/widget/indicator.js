// The on/off indicator: a badge at the field's top right corner while it (or the badge) is
// focused (あ: on, あ…: on, the dictionary still loading, A: off, …: loading, ×: failed); top left
// in vertical text written right to left, and just above the field while the preedit would be
// under it (the end of a full one-line input). A click toggles the IME; it is a toggle button in
// the tab order right after the field (Enter or Space toggles it and gives the focus back to the
// field).

import { indicatorView, flowOf } from './layout.js';
import { placeFixed } from './scale.js';

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
   */
  render(field, show, ime, enabled, avoid = []) {
    const corner = this.corner;
    const aside = show && corner !== null && avoid.some((r) => r !== null && r.left < corner.right && r.right > corner.left && r.top < corner.bottom && r.bottom > corner.top);
    const key = `${show}|${ime.status}|${ime.composes}|${enabled}|${aside}`;
    if (key === this.key) return;
    this.key = key;
    const el = this.el;
    if (show) {
      const box = field.getBoundingClientRect();
      const view = indicatorView(ime.status, ime.composes, enabled, ime.error);
      el.style.display = 'block';
      el.dataset.status = ime.status;
      el.dataset.mode = view.mode;
      el.textContent = view.text;
      el.title = view.title;
      el.setAttribute('aria-label', `日本語入力 (IME): ${view.title}`);
      el.setAttribute('aria-pressed', String(view.mode === 'hiragana'));
      // Beside the field, so inside whatever zooms or transforms it: placed on screen. In the
      // corner where the first line ends (top left in vertical text written right to left, whose
      // first column is at the right).
      const left = flowOf(getComputedStyle(field).writingMode) === 'left';
      if (left) placeFixed(el, box.left + 4, box.top + 4);
      else placeFixed(el, box.right - 4, box.top + 4, true);
      this.corner = el.getBoundingClientRect();
      if (aside) {
        // Just above the field (below it at the top of the viewport), at the same side.
        const h = this.corner.height;
        const top = box.top - h - 2 >= 0 ? box.top - h - 2 : box.bottom + 2;
        if (left) placeFixed(el, box.left + 4, top);
        else placeFixed(el, box.right - 4, top, true);
      }
    } else {
      el.style.display = 'none';
      this.corner = null;
    }
  }
}

// The on/off indicator: a badge at the field's top right corner while it is focused (あ: on,
// A: off, …: loading the dictionary, ×: failed); a click toggles the IME.

import { indicatorView } from './layout.js';

export class Indicator {
  /** @param {Document} doc */
  constructor(doc) {
    this.el = doc.createElement('div');
    this.el.className = 'henkan-indicator';
    this.el.setAttribute('role', 'button');
    this.el.setAttribute('aria-label', 'IME on/off');
    /** What it shows now (skip layout when unchanged). */
    this.key = '';
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
   */
  render(field, show, ime, enabled) {
    const key = `${show}|${ime.status}|${ime.composes}|${enabled}`;
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
      el.style.left = `${box.right - el.offsetWidth - 4}px`;
      el.style.top = `${box.top + 4}px`;
    } else {
      el.style.display = 'none';
    }
  }
}

// A polite live region that tells a screen reader what the IME shows: the preedit while
// composing, the focused candidate (with its place in the list) while converting, the focused
// suggestion. Visually hidden; one per field, next to its windows.

import { announcement } from './layout.js';

/** @typedef {import('../types.js').ImeOutput} ImeOutput */

export class Announcer {
  /** @param {Document} doc */
  constructor(doc) {
    this.el = doc.createElement('div');
    this.el.className = 'henkan-sr-only';
    this.el.setAttribute('role', 'status');
    this.el.setAttribute('aria-live', 'polite');
    /** What was said last (said again only when it changes). */
    this.said = '';
  }

  /**
   * Says what the output shows, if that changed.
   * @param {ImeOutput | null} out
   */
  render(out) {
    const text = out ? announcement(out) : '';
    if (text === this.said) return;
    this.said = text;
    this.el.textContent = text;
  }

  /**
   * Says a one-off message (said again the next time too).
   * @param {string} text
   */
  say(text) {
    this.said = text;
    this.el.textContent = '';
    this.el.textContent = text;
  }
}

// The preedit box: the composition drawn in an overlay at the caret, one span per run (plain
// text, converted segment, focused segment), in the field's font and over its background.
//
// Why an overlay and not the preedit in the field's value (as a native IME does)? Every
// programmatic change of a textarea's value either resets Chromium's undo stack (assigning
// `value`) or becomes an undo step of its own (`execCommand`), so Ctrl+Z could no longer undo
// exactly one commit, and pages would see `input` events for text that is not there yet. The
// cost: the text after the caret does not move aside, the preedit covers it on its line.

import { preeditRuns } from '../keymap.js';
import { textFieldCaret, editableCaret } from '../caret.js';

/** @typedef {import('../types.js').Preedit} Preedit */
/** @typedef {import('../caret.js').CaretRect} CaretRect */

export class PreeditBox {
  /**
   * @param {HTMLElement} field
   * @param {'textarea' | 'input' | 'contenteditable'} kind
   */
  constructor(field, kind) {
    this.field = field;
    this.kind = kind;
    const doc = field.ownerDocument;
    this.el = doc.createElement('div');
    this.el.className = 'henkan-preedit';
    this.el.setAttribute('aria-hidden', 'true');
    /** Where the field was when the box was placed ('' = not placed): the value and caret do not
     * change during a composition, so the caret geometry is measured again only when the field
     * moved (the page's layout shifted, it scrolled). */
    this.placed = '';
  }

  /** Measure the caret again at the next render (the caret or the field moved). */
  invalidate() {
    this.placed = '';
  }

  /** Whether the box shows a preedit now. */
  get shown() {
    return this.el.style.display === 'block' && !!this.el.firstChild;
  }

  /**
   * Draws a preedit at the caret, or hides the box (null).
   * @param {Preedit | null} preedit
   */
  render(preedit) {
    const { field, el: box } = this;
    const show = preedit !== null;
    // A native IME hides the placeholder while composing; the overlay would sit on top of it.
    if (field.classList.contains('henkan-composing') !== show) field.classList.toggle('henkan-composing', show);
    if (preedit) {
      const r = field.getBoundingClientRect();
      const where = `${r.left},${r.top},${r.width},${r.height},${field.scrollLeft},${field.scrollTop}`;
      if (this.placed !== where) {
        const caret = caretOf(field, this.kind);
        const cs = getComputedStyle(field);
        const ps = box.style;
        ps.display = 'block';
        ps.left = `${caret.left}px`;
        ps.top = `${caret.top}px`;
        ps.maxWidth = `${Math.max(64, caret.right - caret.left)}px`;
        ps.fontFamily = cs.fontFamily;
        ps.fontSize = cs.fontSize;
        ps.fontWeight = cs.fontWeight;
        ps.fontStyle = cs.fontStyle;
        ps.letterSpacing = cs.letterSpacing;
        ps.lineHeight = `${caret.height}px`;
        ps.color = cs.color;
        ps.background = opaqueBackground(field);
        this.placed = where;
      }
      const doc = field.ownerDocument;
      box.replaceChildren(
        ...preeditRuns(preedit.text, preedit.segments).map((r) => {
          const span = doc.createElement('span');
          span.textContent = r.text;
          if (r.converted) span.classList.add('henkan-converted');
          if (r.focused) span.classList.add('henkan-focused');
          return span;
        }),
      );
    } else if (this.placed || box.firstChild) {
      box.style.display = 'none';
      box.replaceChildren();
      this.placed = '';
    }
  }

  /** The focused segment's span (or the first, or the box): where the candidate window goes. */
  anchor() {
    return this.el.querySelector('.henkan-focused') ?? this.el.firstElementChild ?? this.el;
  }
}

/**
 * The caret of a field, in viewport coordinates.
 * @param {HTMLElement} field
 * @param {'textarea' | 'input' | 'contenteditable'} kind
 * @returns {CaretRect}
 */
export function caretOf(field, kind) {
  return kind === 'contenteditable'
    ? editableCaret(field)
    : textFieldCaret(/** @type {HTMLTextAreaElement | HTMLInputElement} */ (field));
}

/**
 * The first non-transparent background behind an element (the preedit must hide the text under it).
 * @param {HTMLElement} el
 */
export function opaqueBackground(el) {
  /** @type {Element | null} */
  let node = el;
  while (node) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
    node = node.parentElement;
  }
  return '#fff';
}

// The suggestion list (completions while composing, next-word predictions after a commit): a
// window of its own (the candidate window's look, dashed, with a heading), so that a page or a
// test that asks for the conversion candidates does not get suggestions.

import { popupAt, suggestionRows, suggestionHeight, SUGGESTION_WIDTH } from './layout.js';
import { layerFrame } from './scale.js';
import { toHost } from './host.js';
import { listbox, fillList } from './listbox.js';

/** @typedef {import('./preedit.js').PreeditBox} PreeditBox */
/** @typedef {import('./aria.js').AriaLink} AriaLink */
/** @typedef {import('./host.js').WindowHost} WindowHost */
/** @typedef {import('./host.js').OuterWindows} OuterWindows */
/** @typedef {import('./listbox.js').ListView} ListView */
/** @typedef {{items: string[], focused: number, afterCommit: boolean}} SuggestionView */

export class SuggestionList {
  /**
   * @param {HTMLElement} field
   * @param {'textarea' | 'input' | 'contenteditable'} kind
   * @param {string} id the field's widget id (the list's and options' ids start with it)
   * @param {PreeditBox} preedit the box it opens under while composing
   * @param {AriaLink} aria
   * @param {() => SuggestionView | null} view what to show now (null: hidden); asked again in the
   *   frame when the list waits for one
   * @param {WindowHost} host the document it is drawn in (`windowHost`)
   */
  constructor(field, kind, id, preedit, aria, view, host) {
    this.field = field;
    this.kind = kind;
    this.id = id;
    this.preedit = preedit;
    this.aria = aria;
    this.view = view;
    this.host = host;
    this.el = listbox(host.doc, 'henkan-suggestions', `${id}-suggestions`, '予測候補');
    /** What the list shows now and where ('' = hidden): the list is rebuilt and placed only when
     * that changes (a pending romaji letter changes nothing). */
    this.key = '';
    /** A frame is requested to place the predictions after a commit. */
    this.frame = false;
    /** @type {{width: number, height: number} | null} the viewport size, measured once per resize
     * (reading it right after a DOM change would force a layout on the key path) */
    this.viewport = null;
    /** @type {OuterWindows | null} draws it outside the frames, when it is ready */
    this.outer = null;
  }

  /** The viewport was resized or scrolled: measure it again, and place the list again. */
  invalidate() {
    this.viewport = null;
    this.key = '';
  }

  /**
   * The list under the preedit, or under the caret after a commit (placed in the next animation
   * frame: measuring the caret right after the commit went in would force a layout of its own on
   * the key path).
   * @param {boolean} inFrame called from the requested frame
   */
  render(inFrame) {
    const { preedit, el: list } = this;
    const doc = list.ownerDocument;
    const view = this.view();
    const outer = this.outer?.ready ? this.outer : null;
    if (!view) {
      this.key = '';
      this.outer?.hide('suggestions');
      this.hideHere();
      return;
    }
    // Below the preedit (measured when it was drawn: no layout read here), or below the caret
    // after a commit; above when there is no room below (estimated height, so
    // that no key waits for a layout); beside them in vertical text.
    const rect = preedit.shown ? preedit.rect : null;
    const composing = rect !== null;
    const key = `${outer ? 'outer' : 'here'}|${view.items.join('\n')}|${view.focused}|${rect ? `${rect.left},${rect.top}` : 'caret'}`;
    if (key === this.key) return;
    const win = doc.defaultView;
    if (!composing && !inFrame && win) {
      list.style.display = 'none';
      this.outer?.hide('suggestions');
      this.key = '';
      if (!this.frame) {
        this.frame = true;
        win.requestAnimationFrame(() => {
          this.frame = false;
          if (list.isConnected) this.render(true);
        });
      }
      return;
    }
    this.key = key;
    const rows = suggestionRows(view);
    let at = rect;
    if (!at) {
      // The caret's line (its column in vertical text, as wide as a line is high).
      const caret = preedit.caret();
      const vertical = preedit.flow !== 'down';
      at = { left: caret.left, top: caret.top, right: caret.left + (vertical ? caret.height : 0), bottom: caret.top + (vertical ? 0 : caret.height) };
    }
    // In the host's viewport, where the field is in a frame.
    at = toHost(this.host, at);
    /** @type {ListView} */
    const lv = {
      kind: 'suggestions',
      rows: rows.options,
      label: rows.heading,
      // Next-word predictions nobody has entered are only offered: clicks go through to the text
      // under them (moving the caret there dismisses the list), as for any autocomplete hint.
      passive: view.afterCommit && view.focused < 0,
      at,
      flow: preedit.flow,
      dark: preedit.dark,
    };
    if (outer) {
      this.hideHere();
      outer.show(lv);
      return;
    }
    this.outer?.hide('suggestions');
    // The layer's frame and zoom (a zoomed <body> draws the list larger, a transformed one moves
    // it), read before the list changes.
    const frame = layerFrame(list);
    const z = frame.z;
    fillList(list, lv, (i) => this.optionId(i));
    list.style.display = 'block';
    const vp = (this.viewport ??= { width: doc.documentElement.clientWidth, height: doc.documentElement.clientHeight });
    const place = popupAt(at, { width: z * SUGGESTION_WIDTH, height: z * suggestionHeight(view.items.length) }, vp, preedit.flow);
    // Left of a column of vertical text, by its right edge: the width is an estimate.
    list.style.left = place.right === undefined ? `${(place.left - frame.x) / z}px` : 'auto';
    list.style.right = place.right === undefined ? 'auto' : `${(frame.right - place.right) / z}px`;
    list.style.top = `${(place.top - frame.y) / z}px`;
    if (view.focused >= 0) this.aria.point(list, this.optionId(view.focused));
    else this.aria.release(list.id);
  }

  /** Hides the list drawn in the host's document. */
  hideHere() {
    const list = this.el;
    if (!list.firstChild) return;
    list.style.display = 'none';
    list.replaceChildren();
    this.aria.release(list.id);
  }

  /**
   * The id of the option of suggestion `index`.
   * @param {number} index
   */
  optionId(index) {
    return `${this.id}-sugg-${index}`;
  }
}

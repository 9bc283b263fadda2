// Committing text into the field. Commits go in through `execCommand('insertText')`, which fires
// `input` (no `beforeinput`: Chromium fires none for a command) and adds one undo step; when the
// field is not focused (a commit on blur) or the command is refused, `setRangeText` (or a Range in
// a contenteditable) plus an `input` event. An editor that keeps a model of its document
// (keymap.js `MODEL_EDITORS`) reads the change from its DOM as typing, one step of its own
// history; one that takes typing only from a `beforeinput` of its own (`OFFER_INSERT`) is offered
// the commit first.

import { isFocused, selectionOf } from './root.js';
import { editorWays } from '../keymap.js';

/** The `beforeinput` events the widget dispatches itself: its own listener lets them pass. */
const offered = new WeakSet();

/** Whether `e` is a `beforeinput` the widget dispatched (`Committer.deleteSelection`). @param {Event} e */
export function isOffered(e) {
  return offered.has(e);
}

export class Committer {
  /**
   * @param {HTMLElement} el the field
   * @param {'textarea' | 'input' | 'contenteditable'} kind
   * @param {() => void} [onMove] called before each insertion (the caret moves)
   * @param {() => void} [onInserted] called after an insertion into the focused field (the caret
   *   is to be kept in view)
   */
  constructor(el, kind, onMove, onInserted) {
    this.el = el;
    this.kind = kind;
    this.onMove = onMove;
    this.onInserted = onInserted;
    /** @type {Range | null} the last selection in a contenteditable (where a commit goes when the
     * field has lost it, as on blur) */
    this.range = null;
    /** Our own commit is going in: its `beforeinput` is ours. */
    this.inserting = false;
    const ways = editorWays(el);
    /** A commit is offered to the field's editor first (keymap.js `OFFER_INSERT`). */
    this.offersInsert = ways.offerInsert;
    /** A `Process` key goes to the field's editor around a commit (keymap.js `PROCESS_KEY_AROUND_COMMIT`). */
    this.processKey = ways.processKey;
  }

  /**
   * A non-collapsed selection in a contenteditable is deleted when a composition starts, as native
   * IMEs do. The deletion is offered to the page first as a cancelable `beforeinput`
   * (`deleteContentBackward`, as the Delete a user types): an editor that keeps its document in a
   * model and draws it itself (Slate, Lexical) deletes in its model and cancels it, since
   * `execCommand` fires none, and Slate's React tree breaks on a DOM it did not change. Otherwise
   * `execCommand('delete')` deletes it (one undo step; an editor that observes its DOM, as
   * ProseMirror and Quill do, reads the change).
   */
  deleteSelection() {
    const { el } = this;
    if (this.kind !== 'contenteditable' || !isFocused(el)) return;
    const sel = selectionOf(el);
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed || !el.contains(sel.anchorNode)) return;
    // (The ranges it deletes go with it: an editor that reads its own selection from the
    // document's only after a `selectionchange`, as CKEditor 5 and Trix do, has not seen one the
    // widget has just made, and would delete one character before the caret.)
    const ranges = [new StaticRange(sel.getRangeAt(0))];
    if (!this.offer('deleteContentBackward', null, ranges)) el.ownerDocument.execCommand('delete');
  }

  /**
   * Offers an edit to the field's editor as a cancelable `beforeinput`; whether it took it
   * (cancelled the event).
   * @param {string} inputType
   * @param {string | null} data
   * @param {StaticRange[]} [targetRanges] what the edit replaces (`getTargetRanges()`)
   */
  offer(inputType, data, targetRanges = []) {
    const e = new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType, data, targetRanges });
    offered.add(e);
    return !this.el.dispatchEvent(e);
  }

  /**
   * A native IME's key event (`Process`, keyCode 229) on the field, for an editor that records
   * typing from the keys it sees (keymap.js `PROCESS_KEY_AROUND_COMMIT`).
   * @param {'keydown' | 'keyup'} type
   */
  processKeyEvent(type) {
    const init = /** @type {KeyboardEventInit} */ ({ key: 'Process', code: '', keyCode: 229, which: 229, bubbles: true, cancelable: true, composed: true });
    this.el.dispatchEvent(new KeyboardEvent(type, init));
  }

  /** Remembers the selection of a contenteditable (before a key is handled). */
  saveRange() {
    if (this.kind !== 'contenteditable') return;
    const sel = selectionOf(this.el);
    if (sel && sel.rangeCount > 0 && this.el.contains(sel.anchorNode)) this.range = sel.getRangeAt(0).cloneRange();
  }

  /**
   * Inserts committed text at the caret as one undoable edit.
   * @param {string} text
   * @param {boolean} fallback insert without execCommand (not focused, or inside another edit)
   */
  insert(text, fallback) {
    const { el } = this;
    const doc = el.ownerDocument;
    this.onMove?.();
    this.inserting = true;
    try {
      const context = /** @type {any} */ (el).editContext;
      if (context) {
        // An editor that takes its text from an EditContext (Monaco, keymap.js
        // `HIDDEN_INPUT_EDITORS`) reads it from `textupdate`, as typed text, and updates the
        // context's text and selection itself.
        const start = Math.min(context.selectionStart, context.selectionEnd);
        const end = Math.max(context.selectionStart, context.selectionEnd);
        const at = start + text.length;
        const init = { text, updateRangeStart: start, updateRangeEnd: end, selectionStart: at, selectionEnd: at };
        context.dispatchEvent(new (/** @type {any} */ (doc.defaultView ?? globalThis).TextUpdateEvent)('textupdate', init));
        if (isFocused(el)) this.onInserted?.();
        return;
      }
      if (!fallback && isFocused(el)) {
        if (this.processKey) this.processKeyEvent('keydown');
        const inserted = (this.offersInsert && this.offer('insertText', text)) || doc.execCommand('insertText', false, text);
        if (this.processKey) this.processKeyEvent('keyup');
        if (inserted) {
          this.onInserted?.();
          return;
        }
      }
      if (this.kind === 'contenteditable') {
        const sel = selectionOf(el);
        let range = sel && sel.rangeCount > 0 && el.contains(sel.anchorNode) ? sel.getRangeAt(0) : this.range;
        if (!range) {
          range = doc.createRange();
          range.selectNodeContents(el);
          range.collapse(false);
        }
        range.deleteContents();
        const node = doc.createTextNode(text);
        range.insertNode(node);
        range.setStartAfter(node);
        range.collapse(true);
        this.range = range.cloneRange();
        if (sel && isFocused(el)) {
          sel.removeAllRanges();
          sel.addRange(range);
        }
      } else {
        const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (el);
        const start = field.selectionStart ?? field.value.length;
        const end = field.selectionEnd ?? start;
        field.setRangeText(text, start, end, 'end');
      }
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
      if (isFocused(el)) this.onInserted?.();
    } finally {
      this.inserting = false;
    }
  }
}

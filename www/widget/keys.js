// Key handling: the field's keys, text input and OS compositions go to the wasm session, and
// its outputs (commits, the preedit, the lists) come back to the field. Holds the composition
// state of one field; drawing is the caller's (`render`).

import { keyUnits, modsOf, shouldSend, fieldKind, suggestionsOf, startsDirect, editorWays, useRomajiTable, clauseBefore, keyOfPlace, DEFAULT_PUNCTUATION } from '../keymap.js';
import { isFocused, isTextField, selectionOf } from './root.js';
import { isOffered } from './commit.js';
import { asksForKatakana, describeField, furiganaField, addFurigana, isEmptyField } from './furigana.js';

/** @typedef {import('../types.js').ImeOutput} ImeOutput */
/** @typedef {import('../types.js').HenkanHandle} HenkanHandle */
/** @typedef {import('../widget.js').AttachOptions} AttachOptions */
/** @typedef {import('./commit.js').Committer} Committer */

/**
 * The reconversion keys: 変換 (Convert) alone, or Ctrl+Shift+Space.
 * @param {KeyboardEvent} e
 */
function isReconvertKey(e) {
  if (e.altKey || e.metaKey) return false;
  return (e.key === 'Convert' && !e.ctrlKey && !e.shiftKey) || (e.key === ' ' && e.ctrlKey && e.shiftKey);
}

/**
 * The key that takes back the last commit right after it (Mozc's and MS-IME's Undo): Ctrl+Backspace.
 * @param {KeyboardEvent} e
 */
function isUndoCommitKey(e) {
  return e.key === 'Backspace' && e.ctrlKey && !e.shiftKey && !e.altKey && !e.metaKey;
}

/**
 * The EditContext a code editor takes its text from (Monaco's, keymap.js `HIDDEN_INPUT_EDITORS`):
 * its `text` is the editor's text around the caret and its selection the editor's, which a commit
 * replaces (commit.js); null for any other field.
 * @param {HTMLElement} el
 * @returns {{text: string, selectionStart: number, selectionEnd: number, updateSelection(start: number, end: number): void} | null}
 */
function editContextOf(el) {
  return /** @type {any} */ (el).editContext ?? null;
}

/**
 * Selects `text` where it ends at the field's caret (a collapsed selection; in a contenteditable,
 * within the caret's text node; in an EditContext, its selection, which the editor does not draw).
 * Returns a function that puts the caret back, or null when the text before the caret is not
 * `text`.
 * @param {HTMLElement} el
 * @param {string} text
 * @returns {(() => void) | null}
 */
function selectBeforeCaret(el, text) {
  const n = text.length;
  const context = editContextOf(el);
  if (context) {
    const at = context.selectionStart;
    if (at < n || context.selectionEnd !== at || context.text.slice(at - n, at) !== text) return null;
    context.updateSelection(at - n, at);
    return () => context.updateSelection(at, at);
  }
  if (isTextField(el)) {
    const at = el.selectionStart ?? -1;
    if (at < n || el.selectionEnd !== at || el.value.slice(at - n, at) !== text) return null;
    el.setSelectionRange(at - n, at);
    return () => el.setSelectionRange(at, at);
  }
  const sel = selectionOf(el);
  const node = sel?.anchorNode;
  if (!sel || !sel.isCollapsed || !node || node.nodeType !== 3 || !el.contains(node)) return null;
  const at = sel.anchorOffset;
  const data = /** @type {Text} */ (node).data;
  if (at < n || data.slice(at - n, at) !== text) return null;
  sel.setBaseAndExtent(node, at - n, node, at);
  return () => sel.collapse(node, at);
}

/**
 * The text before the field's caret, at most 64 UTF-16 units of it ('' unless the selection is
 * collapsed; in a contenteditable, within the caret's text node).
 * @param {HTMLElement} el
 */
function textBeforeCaret(el) {
  const context = editContextOf(el);
  if (context) {
    const at = context.selectionStart;
    return context.selectionEnd === at ? context.text.slice(Math.max(0, at - 64), at) : '';
  }
  if (isTextField(el)) {
    const at = el.selectionStart ?? -1;
    return at >= 0 && el.selectionEnd === at ? el.value.slice(Math.max(0, at - 64), at) : '';
  }
  const sel = selectionOf(el);
  const node = sel?.anchorNode;
  if (!sel || !sel.isCollapsed || !node || node.nodeType !== 3 || !el.contains(node)) return '';
  return /** @type {Text} */ (node).data.slice(Math.max(0, sel.anchorOffset - 64), sel.anchorOffset);
}

/**
 * The text selected in a field ('' when the selection is collapsed or elsewhere).
 * @param {HTMLElement} el
 */
export function selectedText(el) {
  const context = editContextOf(el);
  if (context) {
    const start = Math.min(context.selectionStart, context.selectionEnd);
    return context.text.slice(start, Math.max(context.selectionStart, context.selectionEnd));
  }
  if (isTextField(el)) {
    const start = el.selectionStart ?? 0;
    const end = el.selectionEnd ?? start;
    return el.value.slice(start, end);
  }
  const sel = selectionOf(el);
  return sel && sel.rangeCount > 0 && el.contains(sel.anchorNode) && el.contains(sel.focusNode) ? sel.toString() : '';
}

export class KeyHandler {
  /**
   * @param {HTMLElement} el the field
   * @param {AttachOptions} options read when used (a page may change them later)
   * @param {Committer} commit inserts commits into the field
   * @param {(ifMoved?: boolean) => void} render draws the preedit, the lists and the indicator
   *   from `last` (`ifMoved`: only when the field moved since they were drawn)
   */
  constructor(el, options, commit, render) {
    this.el = el;
    this.options = options;
    this.ime = options.ime;
    this.commit = commit;
    this.render = render;
    /** @type {number | null} the wasm session, opened with the first key */
    this.session = null;
    // On, except in fields for codes and numbers (the page's option wins).
    this.enabled = options.enabled ?? !startsDirect(el);
    /** Katakana input (the page's `katakana` option, else whether the field asks for katakana,
     * furigana.js; then the outputs' `mode`). */
    this.katakana = options.katakana ?? asksForKatakana(describeField(el));
    /** Kana input (the page's `kanaInput` option, then the outputs'). */
    this.kanaInput = options.kanaInput ?? false;
    /** An OS IME composition is under way. */
    this.osComposing = false;
    /** @type {ImeOutput | null} the last output */
    this.last = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.previewTimer = null;
    /** A catch-up of the engine is scheduled (`scheduleCatchUp`). */
    this.catchUpPending = false;
    /** @type {((text: string) => void) | null} gets the best conversion after each catch-up */
    this.onBestText = null;
    /** @type {string | null} the text a reconversion under way replaced: put back in a
     * contenteditable when it is cancelled; its commit brings no new reading (`furigana`) */
    this.reconverted = null;
    /** @type {(() => void) | null} where the reconversion under way is of text before the caret
     * that the widget selected (the undo of a commit, 変換 at the caret), which a code editor does
     * not draw as selected (the preedit is drawn over it, preedit.js `replaced`): puts the caret
     * back where it was */
    this.caretBack = null;
    /** @type {string | null} the text last committed into the field, while nothing has happened
     * in it since: Ctrl+Backspace takes it back into a conversion (`reconvertBeforeCaret`) */
    this.undoable = null;
    /** Our own composition events are being dispatched (not an OS IME's). */
    this.dispatching = false;
    const ways = editorWays(el);
    /** The field's editor reads a commit only before `compositionend` (keymap.js `COMMIT_BEFORE_END`). */
    this.commitBeforeEnd = ways.commitBeforeEnd;
    /** A selection typed over is deleted after `compositionstart` (keymap.js `DELETE_IN_COMPOSITION`). */
    this.deleteInComposition = ways.deleteInComposition;
    /** The composition is not announced to the field's code editor (keymap.js `HIDDEN_INPUT_EDITORS`). */
    this.silent = ways.silent;
  }

  /** Opens the session lazily: the model may still be loading at attach time. */
  open() {
    const { ime, options } = this;
    if (this.session === null && ime.handle) {
      this.session = ime.handle.openSession();
      ime.handle.setLive(this.session, options.live ?? false);
      if (options.liveConversion) ime.handle.setLiveConversion(this.session, true);
      if (options.digits === 'full') ime.handle.setDigitWidth(this.session, 'full');
      if (options.punctuation && options.punctuation !== DEFAULT_PUNCTUATION) ime.handle.setPunctuation(this.session, options.punctuation);
      if (options.predictions === false) ime.handle.setPredictions(this.session, false);
      if (this.katakana) ime.handle.setKatakana(this.session, true);
      if (options.kanaInput) ime.handle.setKanaInput(this.session, true);
      if (options.space === 'half') ime.handle.setSpaceWidth(this.session, 'half');
      if (options.romajiTable) useRomajiTable(ime.handle, this.session, options.romajiTable);
      if (options.learning === false) ime.handle.setLearning(this.session, false);
      if (options.lmEachKey) ime.handle.setLmDeferred?.(this.session, false);
      if (!this.enabled) ime.handle.setEnabled(this.session, false);
    }
    return this.session;
  }

  /**
   * A wasm call; null when it threw (a panic: the IME is marked broken).
   * @template {ImeOutput | null} T
   * @param {(handle: HenkanHandle) => T} call
   * @returns {T | null}
   */
  run(call) {
    try {
      return call(/** @type {HenkanHandle} */ (this.ime.handle));
    } catch (e) {
      this.ime.fail(e);
      return null;
    }
  }

  /** Whether a preedit is shown. */
  hasComposition() {
    return !!this.last && this.last.preedit.text.length > 0;
  }

  /** Whether suggestions are offered. */
  hasSuggestions() {
    return !!this.last && (this.last.completions?.length ?? 0) > 0;
  }

  /**
   * What the suggestion list shows: while the field is focused, with no OS composition and no
   * candidate window.
   */
  suggestionView() {
    const visible = isFocused(this.el) && this.ime.ready && !this.osComposing && !this.last?.candidates?.open;
    return visible && this.last ? suggestionsOf(this.last) : null;
  }

  /** @param {KeyboardEvent} e */
  keyDown(e) {
    const s = this.keySession(e);
    if (s === null) return;
    const undoable = this.undoable;
    this.undoable = null;
    if (undoable !== null && isUndoCommitKey(e) && this.mayReconvert() && this.reconvertBeforeCaret(e, s, undoable)) return;
    if (isReconvertKey(e) && this.mayReconvert()) {
      if (this.reconvert(e, s)) return;
      // 変換 with nothing selected: the clause before the caret (Ctrl+Shift+Space types a space)
      if (e.key === 'Convert' && this.reconvertBeforeCaret(e, s, clauseBefore(textBeforeCaret(this.el)))) return;
    }
    this.commit.saveRange();
    this.sendKey(e, s);
  }

  /**
   * The session a keydown goes to, or null when the key is not the IME's. Keys compose as soon
   * as the wasm module runs; they convert once the dictionary is in. A key the page has handled
   * already is the page's.
   * @param {KeyboardEvent} e
   */
  keySession(e) {
    if (!this.ime.composes || e.defaultPrevented) return null;
    if (fieldKind(this.el) === null) {
      // The field became a password field (or read-only): drop any composition, store nothing.
      this.drop();
      return null;
    }
    if (!shouldSend({ key: this.keyOf(e), isComposing: e.isComposing, keyCode: e.keyCode }, { ready: true, osComposing: this.osComposing })) return null;
    return this.open();
  }

  /**
   * The key value a keydown is sent as: `e.key`; in kana input a key that types nothing on the
   * page's layout names its place (`keyOfPlace`).
   * @param {KeyboardEvent} e
   */
  keyOf(e) {
    const shared = this.ime.kanaInput;
    return (typeof shared === 'boolean' ? shared : this.kanaInput) ? keyOfPlace(e) : e.key;
  }

  /**
   * Whether kana input switched in another field of the page since this one's last key: then it
   * takes that (`kanaInput`), and its session must be told before the key.
   */
  followsKanaInput() {
    const shared = this.ime.kanaInput;
    if (typeof shared !== 'boolean' || shared === this.kanaInput) return false;
    this.kanaInput = shared;
    return true;
  }

  /** Whether a reconversion key reconverts now: nothing composed, the dictionary in. */
  mayReconvert() {
    return !this.hasComposition() && this.ime.ready;
  }

  /**
   * A key to the wasm session; its output applied (`keyOutput`).
   * @param {KeyboardEvent} e
   * @param {number} s the session
   */
  sendKey(e, s) {
    const t0 = performance.now();
    const key = this.keyOf(e);
    const out = this.run((handle) => {
      if (this.followsKanaInput()) handle.setKanaInput(s, this.kanaInput);
      const units = keyUnits(key);
      // the key's place on the keyboard, which says its kana in kana input
      if (units.length === 1) return handle.key(s, key, modsOf(e), e.code || undefined);
      // Several characters in one key: one call each, their commits joined.
      let committed = '';
      let committedReading = '';
      let last = null;
      for (const unit of units) {
        last = handle.key(s, unit, modsOf(e));
        committed += last.committed;
        committedReading += last.committedReading ?? '';
      }
      return { ...(/** @type {ImeOutput} */ (last)), committed, committedReading };
    });
    const t1 = performance.now();
    if (!out) {
      // The wasm call failed (a panic): keep what the user typed as plain text; the key itself
      // then goes in natively.
      this.rescue();
      return;
    }
    if (out.consumed) {
      // Nothing else hears a key the IME took, the field's own listeners included (an editor's
      // keymap is on the field: Enter that commits must not also split its paragraph).
      e.preventDefault();
      e.stopImmediatePropagation();
    }
    this.keyOutput(out, key, t0, t1);
  }

  /**
   * A key's output: applied to the field, reported (`onOutput`), the preview scheduled.
   * @param {ImeOutput} out
   * @param {string} key the DOM key
   * @param {number} t0 when the key went to the engine
   * @param {number} t1 when its output came back
   */
  keyOutput(out, key, t0, t1) {
    const { options } = this;
    this.apply(out, false);
    options.onOutput?.(out, { key, wasmMs: t1 - t0, totalMs: performance.now() - t0 });
    // The page may shift its layout in reaction to the key (as the demo's meters do): check the
    // preedit's place once more before the frame is drawn.
    if (this.hasComposition()) this.el.ownerDocument.defaultView?.requestAnimationFrame(() => this.render(true));
    if (out.state === 'composing' || out.state === 'converting') this.scheduleCatchUp();
    if (options.onPreview && out.state === 'composing') this.schedulePreview();
  }

  /**
   * Once the key's preedit is painted (a task after the next frame), the engine runs the LM work
   * the key left (`catchUp`), so that a key costs what the composer and the dictionary cost. Keys
   * that come first leave theirs for the same call; Space catches up by itself. A resize
   * (Shift+←/→) shows the rest as the dictionary converts it, and the LM's conversion of it then.
   */
  scheduleCatchUp() {
    if (this.catchUpPending || this.options.lmEachKey) return;
    const view = this.el.ownerDocument.defaultView;
    if (!view) return;
    this.catchUpPending = true;
    view.requestAnimationFrame(() =>
      view.setTimeout(() => {
        this.catchUpPending = false;
        const state = this.last?.state;
        if (this.session !== null && (state === 'composing' || state === 'converting')) this.catchUp(this.session);
      }, 0),
    );
  }

  /**
   * The engine's catch-up (`scheduleCatchUp`): a suggestion that turns out to be what Space gives
   * is taken out of the list, and the conversion Space will show is laid out unseen meanwhile
   * (its new glyphs are most of its drawing, `onBestText`).
   * @param {number} s the session
   */
  catchUp(s) {
    const handle = this.ime.handle;
    if (!this.ime.ready || typeof handle?.catchUp !== 'function') return;
    const t0 = performance.now();
    const out = this.run((h) => h.catchUp(s));
    this.options.onCatchUp?.(performance.now() - t0);
    if (out) this.apply(out, false);
    if (out?.state === 'converting') this.options.onPreview?.(out);
    if (!this.onBestText || this.last?.state !== 'composing') return;
    try {
      this.onBestText(handle.bestText(s));
    } catch (e) {
      this.ime.fail(e);
    }
  }

  /**
   * Reconversion of `text` where it ends at the caret: the undo of the last commit
   * (Ctrl+Backspace right after it, as in Mozc and MS-IME: the engine keeps the readings of
   * recent commits, so it is converted again from the reading it was typed as), and 変換 with
   * nothing selected (the clause before the caret, `clauseBefore`). `text` is selected and
   * converted again, so that another candidate can take its place. Returns whether it was
   * taken; the caret stays where it was otherwise (and the key is the field's).
   * @param {KeyboardEvent} e
   * @param {number} s the session
   * @param {string} text what ends at the caret ('': nothing to take)
   */
  reconvertBeforeCaret(e, s, text) {
    if (!text) return false;
    const back = selectBeforeCaret(this.el, text);
    if (!back) return false;
    this.caretBack = back;
    if (this.reconvert(e, s, back)) return true;
    this.caretBack = null;
    back();
    return false;
  }

  /**
   * Reconversion (変換 or Ctrl+Shift+Space with text selected): the selection is converted again;
   * the commit replaces it. Returns whether it was taken.
   * @param {KeyboardEvent} e
   * @param {number} s the session
   * @param {() => void} [_refused] called when an answer that comes later refuses it (the
   *   extension's engine; here the answer is the return value)
   */
  reconvert(e, s, _refused) {
    const text = selectedText(this.el);
    if (!text || text.length > 100) return false;
    const t0 = performance.now();
    const out = this.run((handle) => handle.reconvert(s, text));
    const t1 = performance.now();
    if (!out || !out.consumed) return false;
    e.preventDefault();
    e.stopImmediatePropagation();
    this.reconverted = text;
    // applied and reported as any key's output (`onOutput`: the page's panels show it)
    this.keyOutput(out, e.key, t0, t1);
    return true;
  }

  /** When typing pauses: the live conversion for `onPreview`, computed off the key path. */
  schedulePreview() {
    const { ime, options } = this;
    if (this.previewTimer !== null) clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      this.previewTimer = null;
      const s = this.session;
      // Stale when the composition ended or changed state meanwhile.
      if (s === null || !ime.ready || this.last?.state !== 'composing') return;
      const out = this.run((handle) => handle.preview(s));
      if (out && out.state === 'composing') options.onPreview?.(out);
    }, options.previewDelay ?? 40);
  }

  /** Stops a pending preview. */
  cancelPreview() {
    if (this.previewTimer !== null) clearTimeout(this.previewTimer);
  }

  /** @param {InputEvent} e */
  beforeInput(e) {
    if (this.commit.inserting || e.isComposing || this.osComposing || isOffered(e)) return;
    this.undoable = null;
    if (!this.hasComposition()) {
      // Text from elsewhere after a commit: the predictions were for the old context.
      if (this.hasSuggestions()) this.flush(true);
      return;
    }
    // Text arriving without a key we handled (virtual keyboard, dictation, paste from the context
    // menu, drop): commit our composition first, then let the text in unconverted.
    const text = e.data ?? e.dataTransfer?.getData('text/plain') ?? null;
    if (e.inputType.startsWith('insert') && text) {
      const s = this.session;
      if (s === null || !this.ime.handle) return;
      const out = this.run((handle) => handle.flush(s));
      if (!out) return;
      // The text goes in with the commit, as its end, where the composition's end puts a commit
      // (`ending`): the editors that model their text (Slate, CKEditor 5) take a commit from the
      // composition only, since `execCommand` fires no `beforeinput`; inserted after the
      // composition had ended, the commit was lost there. The event goes no further: an editor
      // that inserts an event's text itself (Lexical) put it in twice.
      e.preventDefault();
      e.stopImmediatePropagation();
      this.apply({ ...out, committed: out.committed + text }, false);
      this.undoable = null;
      return;
    }
    this.flush(true);
  }

  /** An OS IME composition starts: ours is committed first, and stays out of its way. */
  compositionStart() {
    if (this.dispatching) return; // our own event, for the page
    this.osComposing = true;
    this.undoable = null;
    if (this.hasComposition() || this.hasSuggestions()) this.flush(true);
    this.render();
  }

  compositionEnd() {
    if (this.dispatching) return;
    this.osComposing = false;
  }

  /**
   * Ends the composition `before` (none: '') around `insert`, which puts its commit in:
   * `compositionend` first, or after the insertion in the editors of `COMMIT_BEFORE_END`.
   * @param {string} before the preedit that ends
   * @param {string} committed the committed text
   * @param {() => void} insert
   */
  ending(before, committed, insert) {
    if (!this.commitBeforeEnd) this.announce(before, '', committed);
    insert();
    if (this.commitBeforeEnd) this.announce(before, '', committed);
  }

  /**
   * Tells the page about the composition as a native IME does, with `compositionstart`,
   * `compositionupdate` (the preedit) and `compositionend` (the committed text) on the field, so
   * that editors and shortcut handlers (Enter that sends a message) can tell one is under way;
   * not to the code editors that take their keys through a hidden input (`silent`).
   * @param {string} before the preedit before
   * @param {string} after the preedit now
   * @param {string} committed text committed in between
   */
  announce(before, after, committed) {
    if ((!before && !after) || this.silent) return;
    const fire = (/** @type {string} */ type, /** @type {string} */ data) =>
      this.el.dispatchEvent(new CompositionEvent(type, { bubbles: true, data }));
    this.dispatching = true;
    try {
      if (before && (!after || committed)) fire('compositionend', committed);
      if (after && (!before || committed)) fire('compositionstart', '');
      if (after && (after !== before || committed)) fire('compositionupdate', after);
    } finally {
      this.dispatching = false;
    }
  }

  /** @param {MouseEvent} e a mousedown on the field */
  pointerDown(e) {
    this.undoable = null;
    // A click moves the caret: commit first, where the caret was (as native IMEs do); the
    // predictions for the old place go.
    if (e.target === this.el && (this.hasComposition() || this.hasSuggestions())) this.flush(false);
  }

  /**
   * A drag enters the field: what is composed goes in first, where the caret is (as a click
   * puts it), so that the drop lands where the pointer is. Committed at the drop instead, the
   * commit would go in after the browser had placed the drop in the text as it was.
   */
  dragEnter() {
    this.undoable = null;
    if (this.hasComposition() || this.hasSuggestions()) this.flush(false);
  }

  /** The field lost the focus: the composition goes in. */
  blur() {
    this.undoable = null;
    if (this.hasComposition() || this.hasSuggestions()) this.flush(true);
    this.render();
  }

  /**
   * A click on a candidate or a suggestion.
   * @param {number} index
   */
  select(index) {
    const s = this.session;
    if (s === null || !this.ime.composes) return;
    const out = this.run((handle) => handle.selectCandidate(s, index));
    if (out) this.apply(out, false);
  }

  /** A click on the indicator: IME on/off. */
  toggle() {
    const s = this.open();
    if (s === null || !this.ime.composes) return;
    const out = this.run((handle) => handle.setEnabled(s, !this.enabled));
    if (out) this.apply(out, false);
  }

  /**
   * Commits whatever is composed.
   * @param {boolean} fallback insert without execCommand (not focused, or inside another edit)
   */
  flush(fallback) {
    const { ime } = this;
    const s = this.session;
    if (s === null || !ime.handle) return;
    let out = null;
    try {
      out = ime.handle.flush(s);
    } catch (e) {
      // The instance is broken: keep the user's text anyway.
      ime.fail(e);
      this.rescue();
      return;
    }
    this.apply(out, fallback);
  }

  /** After a failure inside wasm: the preedit as shown goes into the field as plain text. */
  rescue() {
    const text = this.last?.preedit.text ?? '';
    this.last = null;
    this.ending(text, text, () => {
      if (text) this.commit.insert(text, true);
    });
    this.render();
  }

  /** Drops the composition without committing (the field became a password field). */
  drop() {
    const { ime } = this;
    if (this.session !== null && ime.handle) {
      try {
        ime.handle.cancel(this.session);
      } catch {
        // nothing to drop
      }
    }
    const before = this.last?.preedit.text ?? '';
    this.last = null;
    this.announce(before, '', '');
    this.render();
  }

  /**
   * @param {ImeOutput} out
   * @param {boolean} fallback
   */
  apply(out, fallback) {
    const before = this.last?.preedit.text ?? '';
    this.last = out;
    this.enabled = out.mode !== 'direct';
    if (this.enabled) this.katakana = out.mode === 'katakana';
    if (!!out.kanaInput !== this.kanaInput) {
      // switched here (Alt+カタカナひらがな): the page's other fields follow from their next key,
      // and the page hears of it (`kanainput`: the playground's box, the extension's settings)
      this.kanaInput = !!out.kanaInput;
      if (this.ime.kanaInput !== this.kanaInput) {
        this.ime.kanaInput = this.kanaInput;
        this.ime.dispatchEvent(new CustomEvent('kanainput', { detail: { kanaInput: this.kanaInput } }));
      }
    }
    // The composition ends before its text goes in, so that an editor takes the commit as typed
    // text, an edit (and an undo step) of its own: CodeMirror joins the changes it sees while a
    // composition is under way to the previous undo step. The editors of `COMMIT_BEFORE_END`
    // (Quill, Slate, CKEditor 5, Draft.js) take it only from inside the composition: there it
    // goes in first (`commitBeforeEnd`).
    const ends = before !== '' && (!out.preedit.text || out.committed !== '');
    // A reconversion cancelled in a contenteditable puts back the text it replaced (below): the
    // composition ends with that text, as with a commit, for the editors that take their text
    // from `compositionend` (Slate and CKEditor 5 kept it in their DOM and lost it from their model).
    const restored = !out.committed && !out.preedit.text && this.reconverted !== null && this.el.isContentEditable ? this.reconverted : '';
    this.ending(ends ? before : '', out.committed || restored, () => {
      if (out.committed) {
        const reading = this.reconverted !== null ? '' : (out.committedReading ?? '');
        const furigana = reading ? furiganaField(this.el, this.options.furigana) : null;
        const anew = furigana !== null && isEmptyField(this.el);
        this.commit.insert(out.committed, fallback);
        this.ime.learned();
        if (furigana) addFurigana(furigana, reading, anew);
      }
      // What the next Ctrl+Backspace may take back: a commit into the focused field that nothing
      // composed follows.
      if (out.committed || out.preedit.text) this.undoable = out.committed && !out.preedit.text && !fallback && isFocused(this.el) ? out.committed : null;
      if (this.reconverted !== null && !out.preedit.text) {
        // The reconversion ended. Cancelled in a contenteditable, which loses the selection when
        // the preedit goes in, the text it replaced goes back.
        if (restored) this.commit.insert(restored, fallback);
        // Cancelled, the selection the widget made for it (the undo of a commit, 変換 at the
        // caret) goes back to the caret: a code editor never showed it, and the next commit
        // would replace it.
        else if (!out.committed && this.caretBack) this.caretBack();
        this.reconverted = null;
        this.caretBack = null;
      }
    });
    // A composition starting over a selection deletes it, before the page hears of the
    // composition or, in the editors of `DELETE_IN_COMPOSITION`, inside it.
    const starts = !!out.preedit.text && (ends || !before);
    if (starts && !this.deleteInComposition) this.commit.deleteSelection();
    this.announce(ends ? '' : before, out.preedit.text, '');
    if (starts && this.deleteInComposition) this.commit.deleteSelection();
    this.render();
  }

  /** Closes the session (on detach). */
  close() {
    const { ime } = this;
    if (this.session !== null && ime.handle) {
      try {
        ime.handle.closeSession(this.session);
      } catch {
        // A broken instance has nothing left to close.
      }
    }
  }
}

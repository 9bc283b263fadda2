// The IME widget: attach(element, options) → detach() for <textarea>, <input type=text|search>
// and contenteditable elements.
//
// The preedit is shown in the text flow (a mirror over a textarea or input, an inline span in a
// contenteditable, an overlay over an editor that draws its DOM from a model); the field's value
// is not touched until a commit (widget/preedit.js says why). The field may be in a same-origin
// iframe or an open shadow root. The parts, one module each under widget/:
//   keys.js         keys, text input, OS compositions → the wasm session; flush, rescue, drop
//   commit.js       committed text into the field (execCommand, or setRangeText / a Range)
//   reveal.js       the caret kept in view: after a commit, and the preedit while composing
//   preedit.js      the preedit in the text, with its caret
//   candidates.js   the candidate window          suggestions.js  the suggestion list
//   listbox.js      what the two lists share       indicator.js    the on/off badge
//   aria.js         the field's combobox ARIA while a list is focused, saved and restored
//   announce.js     a polite live region: the preedit, the focused candidate
//   layout.js       pure logic of the windows (rows, placement, the badge's text)
//   scale.js        fields drawn zoomed or scaled: their scale, placing fixed elements on screen
//   style.js        the stylesheet
//   root.js         the field's document or shadow root (focus, selection), across iframes
//   host.js         where a frame's field has its windows: the page around the frame
// attach() creates them and wires the field's events to them.

import { fieldKind, editorOf } from './keymap.js';
import { ensureStyle } from './widget/style.js';
import { AriaLink } from './widget/aria.js';
import { Committer } from './widget/commit.js';
import { PreeditBox, SURVEY_MIN_CHARS } from './widget/preedit.js';
import { CandidateWindow } from './widget/candidates.js';
import { SuggestionList } from './widget/suggestions.js';
import { optionIndex } from './widget/listbox.js';
import { Indicator } from './widget/indicator.js';
import { revealCaret, revealRect } from './widget/reveal.js';
import { Announcer } from './widget/announce.js';
import { KeyHandler } from './widget/keys.js';
import { rootOf, activeIn } from './widget/root.js';
import { windowHost, crossOriginAbove, topLayerOf } from './widget/host.js';

/** @typedef {import('./types.js').ImeOutput} ImeOutput */
/** @typedef {import('./ime.js').HenkanIme} HenkanIme */

/**
 * @typedef {object} KeyTiming
 * @property {string} key the DOM key
 * @property {number} wasmMs the wasm call (composer, lattice, conversion)
 * @property {number} totalMs the whole keydown handler (wasm + commit + drawing)
 */

/**
 * @typedef {object} AttachOptions
 * @property {HenkanIme} ime the shared engine (may still be loading)
 * @property {boolean} [enabled] IME on when the field is attached (default: on, except in fields
 *   for one-time codes, card numbers, phone numbers, e-mail addresses and URLs, by their
 *   `autocomplete` or `inputmode`)
 * @property {boolean} [indicator] show the on/off indicator while focused (default true)
 * @property {boolean} [katakana] katakana input from the start (MS-IME's 全角カタカナ mode), for a
 *   field that asks for katakana (フリガナ): the composition is shown and committed in katakana,
 *   nothing of it is learned; Space still converts (default: whether the field asks for katakana
 *   by its label, header cell, placeholder, pattern or name, `www/widget/furigana.js`;
 *   Shift+カタカナひらがな turns it on, カタカナひらがな off)
 * @property {HTMLElement | string} [furigana] the form's フリガナ field for a name typed here (an
 *   `<input>` or `<textarea>`, or a selector of one): the reading of each commit is added to it,
 *   in katakana where that field asks for katakana, else in hiragana, as a form's own script
 *   fills it from an OS IME's composition (which the widget keeps out of the field's value); a
 *   commit into an empty field starts it anew, a reconversion adds nothing
 * @property {boolean} [kanaInput] kana input (かな入力) from the start: each key types the kana of
 *   its place on a JIS keyboard (`KeyboardEvent.code`: `T` is か, `@` is ゛), as Mozc's and MS-IME's
 *   kana input (default false: romaji; Alt+カタカナひらがな switches)
 * @property {boolean} [live] convert on every key while composing, so outputs carry the n-best
 *   list and segments (default false: a page that only needs the preedit saves that work)
 * @property {'half' | 'full'} [digits] how the digits of conversion results are written: `2025年`
 *   (default, as Google Japanese Input) or `２０２５年`; dates follow (`2026/11/26`)
 * @property {string} [romajiTable] a romaji table of the user's own, in the format Mozc and Google
 *   Japanese Input export theirs (`input<TAB>output[<TAB>pending]` lines: AZIK, a table without
 *   `nn`, …), in place of the built-in one; a table that does not parse is reported on the console
 *   and the built-in one stays (the handle's `checkRomajiTable` checks one first)
 * @property {'full' | 'half'} [space] what Space types outside a composition (Mozc's and MS-IME's
 *   スペースの入力): `'full'`, an ideographic space, with Shift the field's plain one (default), or
 *   `'half'`, the plain space, with Shift the ideographic one
 * @property {import('./types.js').Punctuation} [punctuation] what `,` and `.` type: `'、。'`
 *   (default), `'，．'` (as scientific and legal text writes them), `'、．'` or `'，。'`
 * @property {boolean} [liveConversion] live conversion, as macOS and Windows 11 IMEs have it: the
 *   preedit shows the best conversion as you type, Enter commits it, Space opens the candidates
 *   (default false)
 * @property {(out: ImeOutput, timing: KeyTiming) => void} [onOutput] after every handled key (a
 *   reconversion's included)
 * @property {boolean} [lmEachKey] run the language model's forward pass in every key (default
 *   false: it runs once the key's preedit is painted, and Space or live conversion catch up
 *   themselves; for comparing the two)
 * @property {(wasmMs: number) => void} [onCatchUp] after the LM work that keys left ran (off the
 *   key path): its wasm time
 * @property {(out: ImeOutput) => void} [onPreview] when typing pauses during a composition: the
 *   output with the live conversion (n-best, segments), computed off the key path; and after a
 *   resize (Shift+←/→), once the LM has converted the rest that the key showed as the dictionary
 *   converts it: the new conversion
 * @property {number} [previewDelay] ms of pause before `onPreview` (default 40)
 * @property {boolean} [predictions] suggestions: completions while composing and next-word
 *   predictions after a commit, in a list at the caret (Tab enters it); default true (offered
 *   when the model has an n-gram)
 * @property {typeof KeyHandler} [KeyHandler] the class that handles the field's keys (default
 *   widget/keys.js `KeyHandler`; the browser extension passes one that reaches its engine by
 *   messages)
 * @property {boolean} [learning] learn from what is committed: a candidate chosen over the
 *   first one comes first next time, in every field of the page; default true. Kept per origin
 *   by the `HenkanIme` (IndexedDB, see its `persistLearning`); it never leaves the browser.
 * @property {'inline' | 'overlay'} [preedit] how a contenteditable shows the preedit: `inline`, a
 *   span in its text, or `overlay`, drawn over it with its DOM untouched. Default: `overlay` in the
 *   editors that draw their DOM from a model (ProseMirror, CodeMirror 6, Lexical, Quill, Slate,
 *   CKEditor 5, Draft.js: keymap.js `MODEL_EDITORS`), `inline` elsewhere.
 * @property {(link: import('./widget/host.js').OuterLink) => import('./widget/host.js').OuterWindows} [outerWindows]
 *   where the field is in a frame whose page around it is of another origin: draws the candidate
 *   window and the suggestion list there, outside the frame that would clip them (the browser
 *   extension's, extension/content/outer.js); called once, when the field is attached
 */

/**
 * @typedef {object} Attachment
 * @property {KeyHandler} keys the field's composition state
 * @property {() => void} teardown
 */

/** @type {WeakMap<HTMLElement, Attachment>} */
const fields = new WeakMap();
/** @type {WeakSet<KeyboardEvent>} keydowns given to their field already (`routeKey`) */
const routed = new WeakSet();
let nextId = 0;

/** What the live region says when a key is refused because the composition is full. */
const REFUSED_MESSAGE = '入力中の文字数が上限です。確定してから続けてください';

/**
 * Attaches the IME to a field. Password fields and other input types get nothing (a no-op
 * detach: keys pass through). In the code editors that take their keys through a hidden textarea
 * or an EditContext (CodeMirror 5, Ace, Monaco: keymap.js `HIDDEN_INPUT_EDITORS`) the field is
 * that element, and the preedit and the badge are drawn over the editor. Attaching twice returns
 * the first attachment's detach. A field that another copy of the widget has (the browser extension's on a
 * page that embeds the widget, or a second bundle of it: `claimed`) is left to that one, also with
 * a no-op detach. The field may be in a same-origin iframe or an open shadow root.
 * @param {HTMLElement} el
 * @param {AttachOptions} options
 * @returns {() => void} detach
 */
export function attach(el, options) {
  const existing = fields.get(el);
  if (existing) return existing.teardown;
  if (claimed(el)) return () => {};
  const kind = fieldKind(el);
  if (kind === null) return () => {};
  const editor = editorOf(el);
  // The box the badge sits at: the field, or the code editor that draws a hidden input's text.
  const hiddenIn = editor?.hidden ? /** @type {HTMLElement | null} */ (el.closest(editor.hidden.root)) : null;
  const box = hiddenIn ?? el;
  const doc = el.ownerDocument;
  const root = rootOf(el);
  ensureStyle(doc);
  if (root !== doc) ensureStyle(root);
  const id = `henkan-${++nextId}`;
  const ime = options.ime;

  const aria = new AriaLink(el);
  const overlay = options.preedit ? options.preedit === 'overlay' : !!editor;
  const preedit = new PreeditBox(el, kind, overlay, editor?.hidden ?? null);
  // The candidate window and the suggestion list are drawn in the page around a frame's field,
  // not clipped at the frame's edge (widget/host.js).
  const host = windowHost(doc);
  if (host.doc !== doc) ensureStyle(host.doc);
  const candidates = new CandidateWindow(host, id, preedit, aria);
  const indicator = new Indicator(doc);
  const announcer = new Announcer(doc);
  /** The focus is moving from the field to the badge (keep the badge shown). */
  let toBadge = false;
  // Before a commit goes in, the preedit leaves the text (a contenteditable's span is removed,
  // and the commit goes where it was).
  const committer = new Committer(
    el,
    kind,
    () => {
      const where = preedit.end();
      if (where) committer.range = where;
    },
    () => {
      if (kind !== 'contenteditable' && !hiddenIn) reveal();
    },
  );
  // Before the frame is drawn (and before the suggestions measure the caret in it).
  const reveal = onceAFrame(doc, () => {
    const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (el);
    if (el.isConnected && activeIn(el) === el) revealCaret(field, () => preedit.caret());
  });

  /** The output whose refusal was shown (a render of the same output shows nothing more). */
  let signalled = /** @type {import('./types.js').ImeOutput | null} */ (null);
  /** The composition is full and the key was refused: a red wavy underline for a moment, and
   * the live region says why. */
  let refusedTimer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
  const refusedSign = () => {
    preedit.runs.classList.add('henkan-refused');
    announcer.say(REFUSED_MESSAGE);
    if (refusedTimer !== null) clearTimeout(refusedTimer);
    refusedTimer = setTimeout(() => preedit.runs.classList.remove('henkan-refused'), 800);
  };
  /**
   * Draws the preedit, the candidate window, the suggestions and the indicator.
   * @param {boolean} [ifMoved] only when the field moved since they were drawn (the page may
   *   shift its layout in reaction to a key, as the demo's meters do)
   */
  const render = (ifMoved = false) => {
    if (ifMoved && !preedit.moved()) return;
    const out = keys.last;
    const showPreedit = !!out && out.preedit.text.length > 0 && !keys.osComposing && ime.composes;
    const starting = showPreedit && !preedit.shown;
    if (starting) homeLayer();
    preedit.replaced = keys.caretBack ? (keys.reconverted ?? '') : '';
    preedit.render(showPreedit && out ? out.preedit : null);
    // The preedit's line in view, as a typed character is: when the composition starts, and when
    // it is out of the viewport (the page scrolled away from the field). A contenteditable's
    // inline preedit scrolls itself into view.
    const line = preedit.lastRect;
    if (showPreedit && line && (kind !== 'contenteditable' || preedit.overlay)) {
      const view = doc.defaultView;
      const offScreen = !!view && (line.top < 0 || line.bottom > view.innerHeight || line.left < 0 || line.right > view.innerWidth);
      if (starting || offScreen) revealRect(box, line);
    }
    candidates.render(showPreedit && out ? out.candidates : null);
    suggestions.render(false);
    renderBadge(false);
    // The field's own text is tested against the badge in the frame (not on the key's path), and
    // not while a preedit is drawn over it.
    if (!showPreedit) checkBadge();
    if (!out?.refused) announcer.render(showPreedit ? out : null);
    else if (out !== signalled) {
      signalled = out;
      refusedSign();
    }
  };
  /**
   * The badge alone, after a render's preedit.
   * @param {boolean} hitTest test the field's text under its corner now (else as last tested)
   */
  const renderBadge = (hitTest) => {
    const active = activeIn(el);
    const focused = active === el || active === indicator.el || toBadge;
    indicator.render(box, focused && options.indicator !== false, ime, keys.enabled, [preedit.rect, preedit.lastRect], hitTest, keys);
  };
  /**
   * The badge tested against the field's text in the next frame, before it is drawn, however
   * many renders and edits come in it (the field's text changes by itself too: typed with the IME
   * off, pasted, undone), and not while a preedit is drawn over the field.
   */
  const checkBadge = onceAFrame(doc, () => {
    if (el.isConnected && !keys.hasComposition()) renderBadge(true);
  });
  const keys = new (options.KeyHandler ?? KeyHandler)(el, options, committer, render);
  keys.onBestText = (text) => preedit.warm(text);
  const suggestions = new SuggestionList(el, kind, id, preedit, aria, () => keys.suggestionView(), host);
  // Past a frame of another origin, the lists are drawn by the page's embedder where it can
  // (the extension): a frame's edge would clip them.
  const hostView = host.doc.defaultView;
  const outer =
    options.outerWindows && hostView && crossOriginAbove(host)
      ? options.outerWindows({
          view: hostView,
          pick: (index) => keys.select(index),
          changed: () => {
            suggestions.invalidate();
            render();
          },
        })
      : null;
  candidates.outer = outer;
  suggestions.outer = outer;
  const layer = doc.createElement('div');
  layer.className = 'henkan-layer';
  // The layer of the windows: the field's, or one of its own in the host's document.
  const windows = host.doc === doc ? layer : host.doc.createElement('div');
  windows.className = 'henkan-layer';
  layer.append(preedit.el, announcer.el);
  windows.append(candidates.el, suggestions.el);
  layerHome(doc).appendChild(layer);
  if (windows !== layer) layerHome(host.doc).appendChild(windows);
  // The badge comes right after the field in the tab order (it is drawn at the field's corner),
  // after the code editor of a hidden input.
  box.after(indicator.el);

  /** @param {KeyboardEvent} e */
  const onKeyDown = (e) => {
    if (!routed.has(e)) keys.keyDown(e);
  };
  /** @param {InputEvent} e */
  const onBeforeInput = (e) => keys.beforeInput(e);
  const onCompositionStart = () => keys.compositionStart();
  const onCompositionEnd = () => keys.compositionEnd();
  /** @param {MouseEvent} e */
  const onMouseDown = (e) => keys.pointerDown(e);
  const onDragEnter = () => keys.dragEnter();
  /**
   * The field lost the focus: what is composed goes in (in the capture phase, before the page's
   * and the editor's own `blur` listeners on the field, as a native IME's commit comes before the
   * blur: a page that reads the field then finds the commit, and CodeMirror 5, once it has handled
   * its blur, no longer reads its textarea and lost the commit).
   * @param {FocusEvent} e
   */
  const onBlur = (e) => {
    toBadge = e.relatedTarget === indicator.el;
    keys.blur();
    toBadge = false;
  };
  /**
   * The layer goes where the field is drawn: into a modal <dialog>, a popover or a fullscreen
   * element that holds it (the browser's top layer, above everything in <body>, and the rest
   * inert: clicks on the windows would not arrive), else at the end of <body> (`layerHome`).
   * Checked when the field gets the focus and when a composition starts, not on every key; never
   * once the field is detached (a render that comes late must not put the layer back).
   */
  const homeLayer = () => {
    if (!layer.isConnected) return;
    const home = topLayerOf(el) ?? layerHome(doc);
    if (layer.parentNode !== home) home.append(layer);
    const frame = host.frames[host.frames.length - 1];
    if (!frame || !windows.isConnected) return;
    const outer = topLayerOf(frame) ?? layerHome(host.doc);
    if (windows.parentNode !== outer) outer.append(windows);
  };
  // The text under an editor's overlay changed while composing: draw it again.
  preedit.onStale = () => {
    if (keys.hasComposition()) render();
  };
  const onFocus = () => {
    homeLayer();
    indicator.invalidate();
    render();
  };
  /** @type {number | null} */
  let surveyTask = null;
  // A long textarea's text is laid out ahead once the page is idle after the field gets the
  // focus (`PreeditBox.survey`), so that the first composition is as quick as the next ones.
  const onFieldFocus = () => {
    onFocus();
    if (kind !== 'textarea' || hiddenIn || surveyTask !== null || /** @type {HTMLTextAreaElement} */ (el).value.length < SURVEY_MIN_CHARS) return;
    const run = () => {
      surveyTask = null;
      if (activeIn(el) === el && !keys.hasComposition()) preedit.survey();
    };
    surveyTask = win?.requestIdleCallback ? win.requestIdleCallback(run, { timeout: 1000 }) : /** @type {any} */ (setTimeout(run, 200));
  };
  /** @param {Event} [e] */
  const onReposition = (e) => {
    // The widget's own boxes scroll too (the mirror follows the field's scroll and its caret, a
    // list its focused item): that is no move of the field, and drawing again would scroll again.
    const t = /** @type {any} */ (e?.target);
    if (t && typeof t.nodeType === 'number' && (layer.contains(t) || windows.contains(t))) return;
    preedit.invalidate();
    suggestions.invalidate();
    indicator.invalidate();
    if (keys.hasComposition() || activeIn(el) === el) render();
  };
  /** @param {MouseEvent} e */
  const onListDown = (e) => {
    e.preventDefault(); // keep the focus in the field
    const index = optionIndex(e.target);
    if (index !== null) keys.select(index);
  };
  /** @param {MouseEvent} e */
  const onIndicatorDown = (e) => {
    e.preventDefault();
    keys.toggle();
  };
  /** @param {KeyboardEvent} e Enter or Space on the focused badge toggles, back in the field. */
  const onIndicatorKey = (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    keys.toggle();
    el.focus();
  };
  const onStatus = () => {
    // The model failed while something was composed: it goes in as plain text, not lost.
    if (ime.status === 'error' && keys.hasComposition()) keys.rescue();
    render();
  };

  const win = doc.defaultView;
  /** @typedef {[EventTarget | null, string, (e: any) => void, boolean?]} Listener */
  /** @type {Listener[]} */
  const listeners = [
    [el, 'keydown', onKeyDown, true],
    [el, 'beforeinput', onBeforeInput, true],
    [el, 'input', checkBadge],
    [el, 'compositionstart', onCompositionStart, true],
    [el, 'compositionend', onCompositionEnd, true],
    [el, 'mousedown', onMouseDown, true],
    [el, 'dragenter', onDragEnter, true],
    [el, 'blur', onBlur, true],
    [el, 'focus', onFieldFocus],
    [el, 'scroll', onReposition],
    [win, 'resize', onReposition],
    [win, 'scroll', onReposition, true],
    // The page around a frame's field scrolls or resizes: the frame moves, and the windows with it.
    ...host.frames.flatMap((f) => {
      const outer = f.ownerDocument.defaultView;
      return /** @type {Listener[]} */ ([
        [outer, 'scroll', onReposition, true],
        [outer, 'resize', onReposition],
      ]);
    }),
    // The frame goes away (the page removes it or loads another document into it): its field
    // with it, and the windows drawn outside it. Not when the page is kept for the back button
    // (`persisted`): it comes back as it was.
    [host.frames.length ? win : null, 'pagehide', (/** @type {PageTransitionEvent} */ e) => e.persisted || attachment.teardown()],
    [candidates.el, 'mousedown', onListDown],
    [suggestions.el, 'mousedown', onListDown],
    [indicator.el, 'mousedown', onIndicatorDown],
    [indicator.el, 'keydown', onIndicatorKey],
    [indicator.el, 'focus', onFocus],
    [indicator.el, 'blur', onFocus],
    [ime, 'status', onStatus],
    [el, CLAIM, onClaim],
  ];
  for (const [target, type, fn, capture] of listeners) target?.addEventListener(type, fn, capture);

  /** @type {Attachment} */
  const attachment = {
    keys,
    teardown: () => {
      if (fields.get(el) !== attachment) return;
      unwatchRemoval(el);
      // A field still in the page gets its composition; a removed one has nowhere to put it.
      if (keys.hasComposition()) {
        if (el.isConnected) keys.flush(true);
        else keys.drop();
      }
      keys.cancelPreview();
      if (surveyTask !== null) {
        if (win?.cancelIdleCallback) win.cancelIdleCallback(surveyTask);
        else clearTimeout(surveyTask);
      }
      for (const [target, type, fn, capture] of listeners) target?.removeEventListener(type, fn, capture);
      keys.close();
      aria.restore();
      preedit.end();
      layer.remove();
      windows.remove();
      outer?.close();
      indicator.el.remove();
      fields.delete(el);
      ime.fieldDetached(attachment.teardown);
    },
  };
  fields.set(el, attachment);
  ime.fieldAttached(attachment.teardown);
  watchRemoval(el, attachment.teardown);
  render();
  return attachment.teardown;
}

/**
 * `fn` run in the next animation frame of `doc`'s window, once however many times the returned
 * function is called before it.
 * @param {Document} doc
 * @param {() => void} fn
 * @returns {() => void}
 */
function onceAFrame(doc, fn) {
  let pending = false;
  return () => {
    const view = doc.defaultView;
    if (pending || !view) return;
    pending = true;
    view.requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  };
}

/**
 * Where the widget's layer goes in a document: the end of <body>, or after it, in <html>, where the
 * body is itself editable (a rich-text editor in an iframe: TinyMCE, CKEditor 4, a `designMode`
 * document), so that the windows are no part of the text the editor saves.
 * @param {Document} doc
 */
function layerHome(doc) {
  const body = doc.body;
  return body && !body.isContentEditable && doc.designMode !== 'on' ? body : doc.documentElement;
}

/**
 * One IME per field, across copies of the widget: a page that embeds the widget and the browser
 * extension's content script (another JavaScript world, where this module's `fields` is another
 * map), or two bundles of it on one page. Each attachment answers a cancelable `henkan-claim` event
 * on its field by cancelling it; an event's cancellation is seen across worlds, unlike a property
 * of the element, and is not copied with the element as an attribute would be. Two widgets on one
 * field would both take keys and toggle apart (Ctrl+Space turning one off and the other on).
 */
const CLAIM = 'henkan-claim';

/**
 * Whether a copy of the widget has the field (this one, or another that cancels the claim): the
 * extension asks before it loads an engine for a field.
 * @param {HTMLElement} el
 */
export function claimed(el) {
  const Event = el.ownerDocument.defaultView?.Event ?? globalThis.Event;
  return !el.dispatchEvent(new Event(CLAIM, { cancelable: true }));
}

/** @param {Event} e */
function onClaim(e) {
  e.preventDefault();
}

/** @type {WeakMap<Node, {observer: MutationObserver, watched: Map<HTMLElement, () => void>}>} */
const removals = new WeakMap();

/**
 * Where a field's removal shows: its document, and its shadow root when it is in one (whose
 * changes the document's observer does not see).
 * @param {HTMLElement} el
 * @returns {Node[]}
 */
function removalRoots(el) {
  const root = rootOf(el);
  return root === el.ownerDocument ? [root] : [el.ownerDocument, root];
}

/**
 * Detaches a field when the page removes it from the document (its composition, windows,
 * session and listeners go with it): one observer per document (and shadow root) for all its
 * fields.
 * @param {HTMLElement} el
 * @param {() => void} teardown
 */
function watchRemoval(el, teardown) {
  for (const root of removalRoots(el)) {
    let entry = removals.get(root);
    if (!entry) {
      const watched = new Map();
      const observer = new MutationObserver(() => {
        for (const [field, detach] of [...watched]) if (!field.isConnected) detach();
      });
      observer.observe(root, { childList: true, subtree: true });
      entry = { observer, watched };
      removals.set(root, entry);
    }
    entry.watched.set(el, teardown);
  }
}

/**
 * Stops watching a field (it was detached).
 * @param {HTMLElement} el
 */
function unwatchRemoval(el) {
  for (const root of removalRoots(el)) {
    const entry = removals.get(root);
    if (!entry) continue;
    entry.watched.delete(el);
    if (entry.watched.size === 0) {
      entry.observer.disconnect();
      removals.delete(root);
    }
  }
}

/**
 * Gives a keydown to the attached field it is for (the first one on its composed path) before it
 * gets there, for a listener that runs before the page's own: a key the IME takes then goes no
 * further (`preventDefault`, `stopImmediatePropagation`), and the page's listeners in the capture
 * phase on the window, the document or the field's ancestors never see it, as with a native IME
 * (the browser extension routes every key of a frame from the window, from `document_start`
 * on). The field's own listener then leaves the event alone.
 * @param {KeyboardEvent} e
 */
export function routeKey(e) {
  if (routed.has(e)) return;
  for (const node of e.composedPath()) {
    const attachment = fields.get(/** @type {HTMLElement} */ (node));
    if (!attachment) continue;
    routed.add(e);
    attachment.keys.keyDown(e);
    return;
  }
}

/**
 * The attachment state of a field (for the demo and tests), or undefined.
 * @param {HTMLElement} el
 */
export function stateOf(el) {
  const keys = fields.get(el)?.keys;
  return keys && { enabled: keys.enabled, katakana: keys.katakana, kanaInput: keys.kanaInput, last: keys.last, osComposing: keys.osComposing, session: keys.session };
}

// The IME widget: attach(element, options) → detach() for <textarea>, <input type=text|search>
// and contenteditable elements.
//
// The preedit is drawn in an overlay at the caret; the field's value is not touched until a
// commit. Why not put the preedit into the value (as a native IME does)? Every programmatic
// change of a textarea's value either resets Chromium's undo stack (assigning `value`) or
// becomes an undo step of its own (`execCommand`), so Ctrl+Z could no longer undo exactly one
// commit, and pages would see `input` events for text that is not there yet. The cost of the
// overlay: the text after the caret does not move aside, the preedit covers it on its line.
// Commits go in through `execCommand('insertText')`, which fires `beforeinput`/`input` like
// typing and adds one undo step; when the field is not focused (a commit on blur) or the
// command is refused, `setRangeText` (or a Range in a contenteditable) plus an `input` event.

import { keyUnits, modsOf, shouldSend, pageOf, fieldKind, preeditRuns, suggestionsOf } from './keymap.js';
import { textFieldCaret, editableCaret } from './caret.js';

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
 * @property {boolean} [enabled] IME on when the field is attached (default true)
 * @property {boolean} [indicator] show the on/off indicator while focused (default true)
 * @property {boolean} [live] convert on every key while composing, so outputs carry the n-best
 *   list and segments (default false: a page that only needs the preedit saves that work)
 * @property {(out: ImeOutput, timing: KeyTiming) => void} [onOutput] after every handled key
 * @property {(out: ImeOutput) => void} [onPreview] when typing pauses during a composition: the
 *   output with the live conversion (n-best, segments), computed off the key path
 * @property {number} [previewDelay] ms of pause before `onPreview` (default 40)
 * @property {boolean} [predictions] suggestions: completions while composing and next-word
 *   predictions after a commit, in a list at the caret (Tab enters it); default true (offered
 *   when the model has an n-gram)
 * @property {boolean} [learning] learn from what is committed: the spelling chosen for a
 *   reading (下さい or ください) comes first next time, in every field of the page; default true.
 *   The history lives in wasm memory only and never leaves the page.
 */

/**
 * @typedef {object} FieldState
 * @property {HTMLElement} el
 * @property {'textarea' | 'input' | 'contenteditable'} kind
 * @property {AttachOptions} options
 * @property {number | null} session
 * @property {boolean} enabled
 * @property {boolean} osComposing an OS IME composition is under way
 * @property {boolean} inserting our own commit is going in (its beforeinput is ours)
 * @property {ImeOutput | null} last
 * @property {string} placed where the field was when the preedit box was placed ('' = not
 *   placed): the value and caret do not change during a composition, so the caret geometry is
 *   measured again only when the field moved (the page's layout shifted, it scrolled)
 * @property {string} indicatorKey what the indicator shows now (skip layout when unchanged)
 * @property {Range | null} range last selection in a contenteditable
 * @property {ReturnType<typeof setTimeout> | null} previewTimer
 * @property {HTMLDivElement} layer
 * @property {HTMLDivElement} preedit
 * @property {HTMLUListElement} list
 * @property {HTMLUListElement} suggestions the suggestion list (completions, predictions)
 * @property {string} suggestKey what the suggestion list shows now and where ('' = hidden): the
 *   list is rebuilt and placed only when that changes (a pending romaji letter changes nothing)
 * @property {boolean} suggestFrame a frame is requested to place the predictions after a commit
 * @property {{width: number, height: number} | null} viewport the viewport size, measured once
 *   per resize (reading it right after a DOM change would force a layout on the key path)
 * @property {HTMLDivElement} indicator
 * @property {string} id
 * @property {Map<string, string | null>} savedAria
 * @property {() => void} teardown
 */

/** @type {WeakMap<HTMLElement, FieldState>} */
const fields = new WeakMap();
let nextId = 0;

const STYLE_ID = 'henkan-ime-style';
const CSS = `
.henkan-composing::placeholder { color: transparent !important; }
.henkan-layer { position: fixed; left: 0; top: 0; width: 0; height: 0; z-index: 2147483000; }
.henkan-preedit { position: fixed; display: none; white-space: pre-wrap; word-break: break-all; pointer-events: none; margin: 0; padding: 0; }
.henkan-preedit span { text-decoration: underline dotted 1px; text-underline-offset: 0.18em; }
.henkan-preedit span.henkan-converted { text-decoration: underline solid 1px; }
.henkan-preedit span.henkan-focused { text-decoration: underline solid 3px; background: #cfe0ff; }
.henkan-candidates, .henkan-suggestions { position: fixed; display: none; margin: 0; padding: 2px 0; list-style: none; background: #fff; color: #111;
  border: 1px solid #8a8a8a; border-radius: 3px; box-shadow: 0 3px 10px rgba(0,0,0,.25); min-width: 7em; max-width: 32em;
  font: 16px/1.5 system-ui, "IPAGothic", "IPAPGothic", "Noto Sans CJK JP", sans-serif; }
.henkan-candidates li, .henkan-suggestions li { padding: 1px 10px 1px 6px; cursor: pointer; white-space: nowrap; }
.henkan-candidates li[aria-selected="true"], .henkan-suggestions li[aria-selected="true"] { background: #1f5fd6; color: #fff; }
.henkan-candidates .henkan-num, .henkan-suggestions .henkan-num { display: inline-block; width: 1.5em; color: #777; font-size: 0.85em; }
.henkan-candidates li[aria-selected="true"] .henkan-num, .henkan-suggestions li[aria-selected="true"] .henkan-num { color: #dbe6ff; }
.henkan-candidates li.henkan-page, .henkan-suggestions li.henkan-page { cursor: default; color: #777; font-size: 12px; text-align: right; padding: 0 8px; }
.henkan-suggestions { border-style: dashed; border-color: #6d8fc9; background: #fbfcff; }
.henkan-suggestions li.henkan-heading { cursor: default; color: #4a6aa5; font-size: 11px; padding: 0 8px 1px; border-bottom: 1px solid #e2e8f3; }
.henkan-indicator { position: fixed; display: none; font: bold 12px/1 system-ui, "IPAGothic", sans-serif; padding: 3px 5px;
  border-radius: 3px; background: #666; color: #fff; cursor: pointer; opacity: .9; user-select: none; }
.henkan-indicator[data-mode="hiragana"] { background: #c62828; }
.henkan-indicator[data-status="error"] { background: #888; }
`;

/** @param {Document} doc */
function ensureStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  doc.head.appendChild(style);
}

/**
 * Attaches the IME to a field. Password fields and other input types get nothing (a no-op
 * detach). Attaching twice returns the first attachment's detach.
 * @param {HTMLElement} el
 * @param {AttachOptions} options
 * @returns {() => void} detach
 */
export function attach(el, options) {
  const existing = fields.get(el);
  if (existing) return existing.teardown;
  const kind = fieldKind(el);
  if (kind === null) return () => {};
  const doc = el.ownerDocument;
  ensureStyle(doc);
  const id = `henkan-${++nextId}`;
  const layer = doc.createElement('div');
  layer.className = 'henkan-layer';
  const preedit = doc.createElement('div');
  preedit.className = 'henkan-preedit';
  preedit.setAttribute('aria-hidden', 'true');
  const list = doc.createElement('ul');
  list.className = 'henkan-candidates';
  list.id = `${id}-candidates`;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', '変換候補');
  // The suggestions have a window of their own (same look, dashed, with a heading): a page
  // or a test that asks for the conversion candidates does not get suggestions.
  const suggestions = doc.createElement('ul');
  suggestions.className = 'henkan-suggestions';
  suggestions.id = `${id}-suggestions`;
  suggestions.setAttribute('role', 'listbox');
  suggestions.setAttribute('aria-label', '予測候補');
  const indicator = doc.createElement('div');
  indicator.className = 'henkan-indicator';
  indicator.setAttribute('role', 'button');
  indicator.setAttribute('aria-label', 'IME on/off');
  layer.append(preedit, list, suggestions, indicator);
  doc.body.appendChild(layer);

  /** @type {FieldState} */
  const st = {
    el,
    kind,
    options,
    session: null,
    enabled: options.enabled ?? true,
    osComposing: false,
    inserting: false,
    last: null,
    placed: '',
    indicatorKey: '',
    range: null,
    previewTimer: null,
    layer,
    preedit,
    list,
    suggestions,
    suggestKey: '',
    viewport: null,
    suggestFrame: false,
    indicator,
    id,
    savedAria: new Map(),
    teardown: () => {},
  };
  for (const a of ['aria-activedescendant', 'aria-controls']) st.savedAria.set(a, el.getAttribute(a));

  const ime = options.ime;
  /** Opens the session lazily: the model may still be loading at attach time. */
  const session = () => {
    if (st.session === null && ime.handle) {
      st.session = ime.handle.openSession();
      ime.handle.setLive(st.session, options.live ?? false);
      if (options.predictions === false) ime.handle.setPredictions(st.session, false);
      if (options.learning === false) ime.handle.setLearning(st.session, false);
      if (!st.enabled) ime.handle.setEnabled(st.session, false);
    }
    return st.session;
  };

  /** @param {() => ImeOutput} call */
  const run = (call) => {
    try {
      return call();
    } catch (e) {
      ime.fail(e);
      return null;
    }
  };

  /** @param {KeyboardEvent} e */
  const onKeyDown = (e) => {
    if (!ime.ready) return;
    if (fieldKind(el) === null) {
      // The field became a password field (or read-only): drop any composition, store nothing.
      dropComposition(st, ime);
      return;
    }
    if (!shouldSend(e, { ready: true, osComposing: st.osComposing })) return;
    const s = session();
    if (s === null) return;
    saveRange(st);
    const t0 = performance.now();
    const out = run(() => {
      const handle = /** @type {NonNullable<typeof ime.handle>} */ (ime.handle);
      const units = keyUnits(e.key);
      if (units.length === 1) return handle.key(s, e.key, modsOf(e));
      // Several characters in one key: one call each, their commits joined.
      let committed = '';
      let last = null;
      for (const unit of units) {
        last = handle.key(s, unit, modsOf(e));
        committed += last.committed;
      }
      return { ...(/** @type {ImeOutput} */ (last)), committed };
    });
    const t1 = performance.now();
    if (!out) {
      // The wasm call failed (a panic): keep what the user typed as plain text; the key itself
      // then goes in natively.
      rescue(st);
      return;
    }
    if (out.consumed) {
      e.preventDefault();
      e.stopPropagation();
    }
    apply(st, out, false);
    options.onOutput?.(out, { key: e.key, wasmMs: t1 - t0, totalMs: performance.now() - t0 });
    // The page may shift its layout in reaction to the key (as the demo's meters do): check the
    // preedit's place once more before the frame is drawn.
    if (hasComposition(st)) win?.requestAnimationFrame(() => render(st));
    if (options.onPreview && out.state === 'composing') schedulePreview();
  };

  const schedulePreview = () => {
    if (st.previewTimer !== null) clearTimeout(st.previewTimer);
    st.previewTimer = setTimeout(() => {
      st.previewTimer = null;
      const s = st.session;
      // Stale when the composition ended or changed state meanwhile.
      if (s === null || !ime.ready || st.last?.state !== 'composing') return;
      const out = run(() => /** @type {NonNullable<typeof ime.handle>} */ (ime.handle).preview(s));
      if (out && out.state === 'composing') options.onPreview?.(out);
    }, options.previewDelay ?? 40);
  };

  /** @param {InputEvent} e */
  const onBeforeInput = (e) => {
    if (st.inserting || e.isComposing || st.osComposing) return;
    if (!hasComposition(st)) {
      // Text from elsewhere after a commit: the predictions were for the old context.
      if (hasSuggestions(st)) flush(st, ime, true);
      return;
    }
    // Text arriving without a key we handled (virtual keyboard, dictation, paste from the context
    // menu, drop): commit our composition first, then let the text in unconverted.
    const text = e.data ?? e.dataTransfer?.getData('text/plain') ?? null;
    if (e.inputType.startsWith('insert') && text) {
      // One edit for both, after this event: inserting from inside beforeinput and letting the
      // native insertion follow leaves Chromium's caret at the offset it computed before.
      const s = st.session;
      if (s === null || !ime.handle) return;
      const out = run(() => /** @type {NonNullable<typeof ime.handle>} */ (ime.handle).flush(s));
      if (!out) return;
      e.preventDefault();
      const all = out.committed + text;
      apply(st, { ...out, committed: '' }, true);
      queueMicrotask(() => insertText(st, all, false));
      return;
    }
    flush(st, ime, true);
  };

  const onCompositionStart = () => {
    st.osComposing = true;
    if (hasComposition(st) || hasSuggestions(st)) flush(st, ime, true);
    render(st);
  };
  const onCompositionEnd = () => {
    st.osComposing = false;
  };
  /** @param {MouseEvent} e */
  const onMouseDown = (e) => {
    // A click moves the caret: commit first, where the caret was (as native IMEs do); the
    // predictions for the old place go.
    if (e.target === el && (hasComposition(st) || hasSuggestions(st))) flush(st, ime, false);
  };
  const onBlur = () => {
    if (hasComposition(st) || hasSuggestions(st)) flush(st, ime, true);
    render(st);
  };
  const onFocus = () => {
    st.indicatorKey = '';
    render(st);
  };
  const onReposition = () => {
    st.placed = '';
    st.viewport = null;
    st.indicatorKey = '';
    if (hasComposition(st) || doc.activeElement === el) render(st);
  };
  /** @param {MouseEvent} e */
  const onListDown = (e) => {
    e.preventDefault(); // keep the focus in the field
    const li = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest('li[data-index]') : null);
    const s = st.session;
    if (!li || s === null || !ime.ready) return;
    const out = run(() => /** @type {NonNullable<typeof ime.handle>} */ (ime.handle).selectCandidate(s, Number(li.dataset.index)));
    if (out) apply(st, out, false);
  };
  /** @param {MouseEvent} e */
  const onIndicatorDown = (e) => {
    e.preventDefault();
    const s = session();
    if (s === null || !ime.ready) return;
    const out = run(() => /** @type {NonNullable<typeof ime.handle>} */ (ime.handle).setEnabled(s, !st.enabled));
    if (out) apply(st, out, false);
  };
  const onStatus = () => render(st);

  el.addEventListener('keydown', onKeyDown, true);
  el.addEventListener('beforeinput', onBeforeInput, true);
  el.addEventListener('compositionstart', onCompositionStart, true);
  el.addEventListener('compositionend', onCompositionEnd, true);
  el.addEventListener('mousedown', onMouseDown, true);
  el.addEventListener('blur', onBlur);
  el.addEventListener('focus', onFocus);
  el.addEventListener('scroll', onReposition);
  const win = doc.defaultView;
  win?.addEventListener('resize', onReposition);
  win?.addEventListener('scroll', onReposition, true);
  list.addEventListener('mousedown', onListDown);
  suggestions.addEventListener('mousedown', onListDown);
  indicator.addEventListener('mousedown', onIndicatorDown);
  ime.addEventListener('status', onStatus);

  st.teardown = () => {
    if (fields.get(el) !== st) return;
    if (hasComposition(st)) flush(st, ime, true);
    if (st.previewTimer !== null) clearTimeout(st.previewTimer);
    el.removeEventListener('keydown', onKeyDown, true);
    el.removeEventListener('beforeinput', onBeforeInput, true);
    el.removeEventListener('compositionstart', onCompositionStart, true);
    el.removeEventListener('compositionend', onCompositionEnd, true);
    el.removeEventListener('mousedown', onMouseDown, true);
    el.removeEventListener('blur', onBlur);
    el.removeEventListener('focus', onFocus);
    el.removeEventListener('scroll', onReposition);
    win?.removeEventListener('resize', onReposition);
    win?.removeEventListener('scroll', onReposition, true);
    list.removeEventListener('mousedown', onListDown);
    suggestions.removeEventListener('mousedown', onListDown);
    indicator.removeEventListener('mousedown', onIndicatorDown);
    ime.removeEventListener('status', onStatus);
    if (st.session !== null && ime.handle) {
      try {
        ime.handle.closeSession(st.session);
      } catch {
        // A broken instance has nothing left to close.
      }
    }
    for (const [a, v] of st.savedAria) {
      if (v === null) el.removeAttribute(a);
      else el.setAttribute(a, v);
    }
    el.classList.remove('henkan-composing');
    layer.remove();
    fields.delete(el);
  };
  fields.set(el, st);
  render(st);
  return st.teardown;
}

/**
 * The attachment state of a field (for the demo and tests), or undefined.
 * @param {HTMLElement} el
 */
export function stateOf(el) {
  const st = fields.get(el);
  return st && { enabled: st.enabled, last: st.last, osComposing: st.osComposing, session: st.session };
}

/** @param {FieldState} st */
function hasComposition(st) {
  return !!st.last && st.last.preedit.text.length > 0;
}

/** @param {FieldState} st */
function hasSuggestions(st) {
  return !!st.last && (st.last.completions?.length ?? 0) > 0;
}

/**
 * Commits whatever is composed.
 * @param {FieldState} st
 * @param {HenkanIme} ime
 * @param {boolean} fallback insert without execCommand (not focused, or inside another edit)
 */
function flush(st, ime, fallback) {
  const s = st.session;
  if (s === null || !ime.handle) return;
  let out = null;
  try {
    out = ime.handle.flush(s);
  } catch (e) {
    // The instance is broken: keep the user's text anyway.
    ime.fail(e);
    rescue(st);
    return;
  }
  apply(st, out, fallback);
}

/**
 * After a failure inside wasm: the preedit as shown goes into the field as plain text.
 * @param {FieldState} st
 */
function rescue(st) {
  const text = st.last?.preedit.text ?? '';
  st.last = null;
  if (text) insertText(st, text, true);
  render(st);
}

/**
 * Drops the composition without committing (the field became a password field).
 * @param {FieldState} st
 * @param {HenkanIme} ime
 */
function dropComposition(st, ime) {
  if (st.session !== null && ime.handle) {
    try {
      ime.handle.cancel(st.session);
    } catch {
      // nothing to drop
    }
  }
  st.last = null;
  render(st);
}

/**
 * @param {FieldState} st
 * @param {ImeOutput} out
 * @param {boolean} fallback
 */
function apply(st, out, fallback) {
  st.last = out;
  st.enabled = out.mode !== 'direct';
  if (out.committed) insertText(st, out.committed, fallback);
  render(st);
}

/** @param {FieldState} st */
function saveRange(st) {
  if (st.kind !== 'contenteditable') return;
  const sel = st.el.ownerDocument.getSelection();
  if (sel && sel.rangeCount > 0 && st.el.contains(sel.anchorNode)) st.range = sel.getRangeAt(0).cloneRange();
}

/**
 * Inserts committed text at the caret as one undoable edit.
 * @param {FieldState} st
 * @param {string} text
 * @param {boolean} fallback
 */
function insertText(st, text, fallback) {
  const { el } = st;
  const doc = el.ownerDocument;
  st.placed = ''; // the caret moves
  st.inserting = true;
  try {
    if (!fallback && doc.activeElement === el && doc.execCommand('insertText', false, text)) return;
    if (st.kind === 'contenteditable') {
      const sel = doc.getSelection();
      let range = sel && sel.rangeCount > 0 && el.contains(sel.anchorNode) ? sel.getRangeAt(0) : st.range;
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
      st.range = range.cloneRange();
      if (sel && doc.activeElement === el) {
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
  } finally {
    st.inserting = false;
  }
}

/**
 * Draws the preedit, the candidate window and the indicator.
 * @param {FieldState} st
 */
function render(st) {
  const { el, preedit, list, indicator, options } = st;
  const doc = el.ownerDocument;
  const ime = options.ime;
  const focused = doc.activeElement === el;
  const out = st.last;
  const showPreedit = !!out && out.preedit.text.length > 0 && !st.osComposing && ime.ready;

  // A native IME hides the placeholder while composing; the overlay would sit on top of it.
  if (el.classList.contains('henkan-composing') !== showPreedit) el.classList.toggle('henkan-composing', showPreedit);
  if (showPreedit && out) {
    const r = el.getBoundingClientRect();
    const where = `${r.left},${r.top},${r.width},${r.height},${el.scrollLeft},${el.scrollTop}`;
    if (st.placed !== where) {
      const caret = caretOf(st);
      const cs = getComputedStyle(el);
      const ps = preedit.style;
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
      ps.background = opaqueBackground(el);
      st.placed = where;
    }
    preedit.replaceChildren(
      ...preeditRuns(out.preedit.text, out.preedit.segments).map((r) => {
        const span = doc.createElement('span');
        span.textContent = r.text;
        if (r.converted) span.classList.add('henkan-converted');
        if (r.focused) span.classList.add('henkan-focused');
        return span;
      }),
    );
  } else if (st.placed || preedit.firstChild) {
    preedit.style.display = 'none';
    preedit.replaceChildren();
    st.placed = '';
  }

  const cands = showPreedit && out ? out.candidates : null;
  if (cands && cands.open && cands.items.length > 0) {
    const { start, end, page, pages } = pageOf(cands.items.length, cands.selected, cands.pageSize);
    /** @type {HTMLLIElement[]} */
    const items = [];
    for (let i = start; i < end; i++) {
      const li = doc.createElement('li');
      li.id = `${st.id}-cand-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === cands.selected));
      li.dataset.index = String(i);
      const num = doc.createElement('span');
      num.className = 'henkan-num';
      num.textContent = String(i - start + 1);
      num.setAttribute('aria-hidden', 'true');
      li.append(num, doc.createTextNode(cands.items[i]));
      items.push(li);
    }
    if (pages > 1) {
      const li = doc.createElement('li');
      li.className = 'henkan-page';
      li.setAttribute('role', 'presentation');
      li.textContent = `${page + 1}/${pages}`;
      items.push(li);
    }
    list.replaceChildren(...items);
    list.style.display = 'block';
    // At the focused segment, below the preedit; above it when there is no room below.
    const anchor = preedit.querySelector('.henkan-focused') ?? preedit.firstElementChild ?? preedit;
    const a = anchor.getBoundingClientRect();
    const p = preedit.getBoundingClientRect();
    const h = list.offsetHeight;
    const below = p.bottom + 2;
    const vh = doc.documentElement.clientHeight;
    list.style.left = `${Math.max(0, Math.min(a.left, doc.documentElement.clientWidth - list.offsetWidth - 2))}px`;
    list.style.top = `${below + h > vh && p.top - h - 2 > 0 ? p.top - h - 2 : below}px`;
    el.setAttribute('aria-controls', list.id);
    el.setAttribute('aria-activedescendant', `${st.id}-cand-${cands.selected}`);
  } else if (list.firstChild) {
    list.style.display = 'none';
    list.replaceChildren();
    restoreAria(st);
  }
  renderSuggestions(st, false);

  const indicatorKey = `${focused && options.indicator !== false}|${ime.status}|${st.enabled}`;
  if (indicatorKey === st.indicatorKey) return;
  st.indicatorKey = indicatorKey;
  if (focused && options.indicator !== false) {
    const box = el.getBoundingClientRect();
    indicator.style.display = 'block';
    indicator.dataset.status = ime.status;
    indicator.dataset.mode = ime.ready && st.enabled ? 'hiragana' : 'direct';
    indicator.textContent = ime.status === 'loading' ? '…' : ime.status === 'error' ? '×' : st.enabled ? 'あ' : 'A';
    indicator.title =
      ime.status === 'error' ? ime.error : ime.status === 'loading' ? 'loading the dictionary…' : st.enabled ? 'IME on (Ctrl+Space)' : 'IME off (Ctrl+Space)';
    indicator.style.left = `${box.right - indicator.offsetWidth - 4}px`;
    indicator.style.top = `${box.top + 4}px`;
  } else {
    indicator.style.display = 'none';
  }
}

/**
 * The suggestion list under the preedit, or under the caret after a commit (placed in the next
 * animation frame: measuring the caret right after the commit went in would force a layout of
 * its own on the key path). Shown while the field is focused, with no OS composition and no
 * candidate window.
 * @param {FieldState} st
 * @param {boolean} inFrame called from the requested frame
 */
function renderSuggestions(st, inFrame) {
  const { el, preedit, suggestions } = st;
  const doc = el.ownerDocument;
  const ime = st.options.ime;
  const visible = doc.activeElement === el && ime.ready && !st.osComposing && !st.last?.candidates?.open;
  const view = visible && st.last ? suggestionsOf(st.last) : null;
  if (!view) {
    st.suggestKey = '';
    if (suggestions.firstChild) {
      suggestions.style.display = 'none';
      suggestions.replaceChildren();
      if (el.getAttribute('aria-controls') === suggestions.id) restoreAria(st);
    }
    return;
  }
  // Below the preedit (placed at the caret when the composition started: no layout read here),
  // or below the caret after a commit; above when there is no room below (estimated height, so
  // that no key waits for a layout).
  const composing = preedit.style.display === 'block' && !!preedit.firstChild;
  const key = `${view.items.join('\n')}|${view.focused}|${composing ? `${preedit.style.left},${preedit.style.top}` : st.placed || 'caret'}`;
  if (key === st.suggestKey) return;
  const win = doc.defaultView;
  if (!composing && !inFrame && win) {
    suggestions.style.display = 'none';
    st.suggestKey = '';
    if (!st.suggestFrame) {
      st.suggestFrame = true;
      win.requestAnimationFrame(() => {
        st.suggestFrame = false;
        if (st.layer.isConnected) renderSuggestions(st, true);
      });
    }
    return;
  }
  st.suggestKey = key;
  const head = doc.createElement('li');
  head.className = 'henkan-heading';
  head.setAttribute('role', 'presentation');
  head.textContent = view.focused < 0 ? '予測  Tab ⇥' : '予測  Enter / 1–9';
  /** @type {HTMLLIElement[]} */
  const items = [head];
  view.items.forEach((text, i) => {
    const li = doc.createElement('li');
    li.id = `${st.id}-sugg-${i}`;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', String(i === view.focused));
    li.dataset.index = String(i);
    const num = doc.createElement('span');
    num.className = 'henkan-num';
    num.textContent = String(i + 1);
    num.setAttribute('aria-hidden', 'true');
    li.append(num, doc.createTextNode(text));
    items.push(li);
  });
  suggestions.replaceChildren(...items);
  suggestions.style.display = 'block';
  let top;
  let bottom;
  let left;
  if (composing) {
    left = parseFloat(preedit.style.left) || 0;
    top = parseFloat(preedit.style.top) || 0;
    bottom = top + (parseFloat(preedit.style.lineHeight) || 24);
  } else {
    const caret = caretOf(st);
    ({ top, left } = caret);
    bottom = caret.top + caret.height;
  }
  const h = 24 + 26 * view.items.length;
  const vp = (st.viewport ??= { width: doc.documentElement.clientWidth, height: doc.documentElement.clientHeight });
  suggestions.style.left = `${Math.max(0, Math.min(left, vp.width - 260))}px`;
  suggestions.style.top = `${bottom + 2 + h > vp.height && top - h - 2 > 0 ? top - h - 2 : bottom + 2}px`;
  if (view.focused >= 0) {
    el.setAttribute('aria-controls', suggestions.id);
    el.setAttribute('aria-activedescendant', `${st.id}-sugg-${view.focused}`);
  } else if (el.getAttribute('aria-controls') === suggestions.id) {
    restoreAria(st);
  }
}

/** @param {FieldState} st */
function restoreAria(st) {
  for (const [a, v] of st.savedAria) {
    if (v === null) st.el.removeAttribute(a);
    else st.el.setAttribute(a, v);
  }
}

/** @param {FieldState} st */
function caretOf(st) {
  return st.kind === 'contenteditable'
    ? editableCaret(st.el)
    : textFieldCaret(/** @type {HTMLTextAreaElement | HTMLInputElement} */ (st.el));
}

/**
 * The first non-transparent background behind an element (the preedit must hide the text under it).
 * @param {HTMLElement} el
 */
function opaqueBackground(el) {
  /** @type {Element | null} */
  let node = el;
  while (node) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
    node = node.parentElement;
  }
  return '#fff';
}

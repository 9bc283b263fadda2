// Pure logic of the widget, no DOM: which key events go to the IME, modifier bits, candidate
// paging, fields the IME may attach to. Tested with `node --test www/test/`.

/** Modifier bits, as `Henkan.key(session, key, mods)` reads them (src/ime/key.rs). */
export const SHIFT = 1;
export const CTRL = 2;
export const ALT = 4;
export const META = 8;

/**
 * @typedef {object} KeyLike
 * @property {string} key
 * @property {boolean} [shiftKey]
 * @property {boolean} [ctrlKey]
 * @property {boolean} [altKey]
 * @property {boolean} [metaKey]
 * @property {boolean} [isComposing]
 * @property {number} [keyCode]
 * @property {boolean} [repeat]
 * @property {(key: string) => boolean} [getModifierState]
 */

/**
 * The modifier bits of a key event.
 * @param {KeyLike} e
 * @returns {number}
 */
export function modsOf(e) {
  // A character typed with AltGr (Windows reports Ctrl+Alt) or Option on a Mac (Alt, a printable
  // non-ASCII key): text, not a shortcut, so it goes into the composition.
  const altGr = !!e.getModifierState?.('AltGraph');
  const option = !!e.altKey && !e.ctrlKey && !e.metaKey && [...e.key].length === 1 && e.key.charCodeAt(0) > 0x7f;
  if ((altGr || option) && [...e.key].length === 1) return e.shiftKey ? SHIFT : 0;
  return (e.shiftKey ? SHIFT : 0) | (e.ctrlKey ? CTRL : 0) | (e.altKey ? ALT : 0) | (e.metaKey ? META : 0);
}

/**
 * Whether a keydown belongs to an OS input method's composition: then the widget stays out of
 * the way. `keyCode` 229 ("Process") is what Chromium sends for keys an OS IME takes, including
 * the first key of a composition, before `isComposing` is true (crbug.com/40101893 and the UI
 * Events spec note on keyCode 229).
 * @param {KeyLike} e
 * @param {boolean} osComposing a compositionstart was seen without its compositionend
 * @returns {boolean}
 */
export function isOsImeKey(e, osComposing) {
  return osComposing || !!e.isComposing || e.keyCode === 229 || e.key === 'Process';
}

/**
 * Whether a keydown should go to the IME at all. Dead keys and modifier-only presses never do.
 * @param {KeyLike} e
 * @param {{osComposing: boolean, ready: boolean}} st
 * @returns {boolean}
 */
export function shouldSend(e, st) {
  if (!st.ready || isOsImeKey(e, st.osComposing)) return false;
  switch (e.key) {
    case 'Dead': case 'Shift': case 'Control': case 'Alt': case 'Meta': case 'AltGraph':
    case 'CapsLock': case 'Unidentified': case 'Fn': case 'OS':
      return false;
    default:
      return true;
  }
}

/**
 * The key values to send for one keydown: a named key (`Enter`, `ArrowLeft`, `F7`) or one character
 * as it is; text of several code points (an emoji sequence, a decomposed letter, a layout that types
 * two characters) one code point at a time, so it goes into the composition rather than past it.
 * @param {string} key `KeyboardEvent.key`
 * @returns {string[]}
 */
export function keyUnits(key) {
  const points = [...key];
  if (points.length <= 1 || /^[A-Z][A-Za-z0-9]+$/.test(key)) return [key];
  return points;
}

/**
 * The page of candidates to show.
 * @param {number} total number of candidates
 * @param {number} selected selected index
 * @param {number} pageSize candidates per page
 * @returns {{start: number, end: number, page: number, pages: number}} `start`..`end` (exclusive)
 */
export function pageOf(total, selected, pageSize) {
  const size = Math.max(1, pageSize | 0);
  const pages = Math.max(1, Math.ceil(total / size));
  const sel = Math.min(Math.max(0, selected | 0), Math.max(0, total - 1));
  const page = Math.floor(sel / size);
  const start = page * size;
  return { start, end: Math.min(total, start + size), page, pages };
}

/**
 * What kind of field an element is for the IME, or null when it must stay off (password fields,
 * number/email/… inputs, read-only or disabled fields). The element through which a known code
 * editor takes its keys with an EditContext (Monaco's, keymap.js `HIDDEN_INPUT_EDITORS`) counts as a
 * contenteditable; an EditContext of any other editor does not (its text is the editor's to draw).
 * @param {{tagName: string, type?: string, isContentEditable?: boolean, readOnly?: boolean, disabled?: boolean, editContext?: unknown, closest(selector: string): unknown}} el
 * @returns {'textarea' | 'input' | 'contenteditable' | null}
 */
export function fieldKind(el) {
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA') return el.readOnly || el.disabled ? null : 'textarea';
  if (tag === 'INPUT') {
    const type = (el.type || 'text').toLowerCase();
    if (type !== 'text' && type !== 'search') return null;
    return el.readOnly || el.disabled ? null : 'input';
  }
  if (el.isContentEditable) return 'contenteditable';
  if (el.editContext && editorOf(el)?.hidden) return 'contenteditable';
  return null;
}

/**
 * Editors that keep their document in a model of their own and draw their DOM from it
 * (ProseMirror, CodeMirror 6, Lexical, Quill, Slate, CKEditor 5, Draft.js, Trix, and TinyMCE and
 * CKEditor 4, whose editable `<body>` is in an iframe): the element that matches is their
 * contenteditable (TinyMCE and CKEditor 4 take DOM changes into their content as they are: an
 * inline preedit's span was in it while composing, what their autosave would keep). They read
 * back every change of that DOM, so the widget draws the preedit over it (`overlay`) and commits
 * by `execCommand('insertText')`, whose change they take as typing (`editorWays`: when, and
 * whether it is offered to them first).
 */
export const MODEL_EDITORS = /** @type {const} */ ([
  ['prosemirror', '.ProseMirror'],
  ['codemirror', '.cm-content'],
  ['lexical', '[data-lexical-editor]'],
  ['quill', '.ql-editor'],
  ['slate', '[data-slate-editor]'],
  ['ckeditor', '.ck-editor__editable'],
  ['draft', '.public-DraftEditor-content'],
  ['trix', 'trix-editor'],
  ['tinymce', '.mce-content-body'],
  ['ckeditor4', '.cke_editable'],
]);

/**
 * Model editors that take a commit only from inside the composition, as a native IME makes it
 * (its text in the DOM, then `compositionend`):
 * - Quill holds the DOM changes it observes from `compositionstart` and reads them once it has
 *   handled `compositionend` (a microtask later); a change made after that event, in the same
 *   task, is taken off its observer's queue unread, and its document never gets the text.
 * - Slate puts the DOM back as it was at `compositionstart` on `compositionend` and inserts the
 *   event's text into its model; text that comes into the DOM after that is a stray copy (the
 *   commit went in twice after a selection was replaced).
 * - Draft.js reads what its DOM observer saw during the composition: a commit after the end never
 *   reached its state.
 * - CKEditor 5 drew a commit made by a key that also starts the next composition (punctuation
 *   after a conversion) twice in its DOM, once in its model, and then lost its selection.
 * The widget commits into these before `compositionend`; into the others after it (CodeMirror
 * joins a change it sees during a composition to the previous undo step).
 */
export const COMMIT_BEFORE_END = /** @type {ReadonlySet<string>} */ (new Set(['quill', 'slate', 'draft', 'ckeditor']));

/**
 * Model editors that take a commit into their history only from a `beforeinput` they handle
 * themselves: Trix read a commit made by `execCommand('insertText')`, which fires none, from its
 * DOM into its document but recorded no undo step, and its undo (Ctrl+Z arrives as a
 * `historyUndo` it handles) took back nothing. The widget offers the commit to these first as a
 * cancelable `insertText` `beforeinput` (`Committer.insert`), as it offers a deletion to all.
 */
export const OFFER_INSERT = /** @type {ReadonlySet<string>} */ (new Set(['trix']));

/**
 * Model editors that record typing in their history from the keydown before it: TinyMCE starts a
 * typing step on a keydown it sees (not a navigation key) and closes it at the next other event;
 * the keys of a native IME's composition reach it as `keydown` `Process` (keyCode 229). The keys
 * the widget takes never reach the page, so TinyMCE recorded no step for a commit (its undo took
 * back nothing, and the editor stayed clean). The widget sends such a `Process` keydown before a
 * commit and its keyup after (`Committer.insert`); the widget itself leaves `Process` keys alone
 * (`isOsImeKey`).
 */
export const PROCESS_KEY_AROUND_COMMIT = /** @type {ReadonlySet<string>} */ (new Set(['tinymce']));

/**
 * Model editors where a selection typed over is deleted inside the composition, after
 * `compositionstart`, as a native IME deletes it with its first text: Draft.js takes the DOM
 * changes it observes during a composition into its state and draws its DOM anew at the end; a
 * deletion before the composition, which it does not observe, broke its React tree (`removeChild`)
 * when the selection spanned its text runs. In the others it goes before `compositionstart`
 * (Slate deletes an expanded selection itself on `compositionstart`).
 */
export const DELETE_IN_COMPOSITION = /** @type {ReadonlySet<string>} */ (new Set(['draft']));

/**
 * What the widget does differently in the field's editor (the sets above), decided once per field.
 * @param {HTMLElement} el
 */
export function editorWays(el) {
  const name = editorOf(el)?.name ?? '';
  return {
    commitBeforeEnd: COMMIT_BEFORE_END.has(name),
    deleteInComposition: DELETE_IN_COMPOSITION.has(name),
    offerInsert: OFFER_INSERT.has(name),
    processKey: PROCESS_KEY_AROUND_COMMIT.has(name),
    silent: HIDDEN_INPUT_EDITORS.some((e) => e.name === name),
  };
}

/**
 * @typedef {object} HiddenInputEditor a code editor that takes its keys through a hidden
 * <textarea> or an EditContext and draws its text itself
 * @property {string} name
 * @property {string} root the editor's outer box (the badge goes at its corner)
 * @property {string} lines the box its lines are drawn in: the preedit wraps within it
 * @property {string} line one line of text (the preedit takes its font and colour)
 * @property {string} cursor the editor's own caret (where the preedit starts)
 * @property {string} activeLine the highlight of the cursor's line, drawn in a layer under the
 *   text (what the preedit and the moved text are painted on)
 * @property {string} selected a box of the selection's highlight, drawn in a layer under the text
 *   (a composition over a selection in one line starts where it starts and hides it)
 */

/**
 * Editors that take their keys through a hidden element and draw the text themselves: a
 * <textarea> (CodeMirror 5, Ace, Monaco without EditContext), a pixel wide or transparent, kept at
 * the editor's caret, whose every `input` the editor reads; or, in Monaco where the browser has
 * EditContext (its default in Chromium), a <div> with an EditContext, whose `textupdate` events the
 * editor reads. The widget attaches to that element and draws the preedit as an overlay over the
 * editor's text at its caret (the editor's cursor element), in the font of its lines; the commit
 * goes into the textarea by `execCommand('insertText')`, which the editor takes as typing, or to
 * the EditContext as a `textupdate` (commit.js). The composition is not announced there
 * (`editorWays`: `silent`): Monaco types a `compositionend`'s text itself (the commit went in
 * twice), and none of them needs the events, since the keys the IME takes never reach them.
 * @type {readonly HiddenInputEditor[]}
 */
export const HIDDEN_INPUT_EDITORS = [
  { name: 'codemirror5', root: '.CodeMirror', lines: '.CodeMirror-lines', line: '.CodeMirror-line', cursor: '.CodeMirror-cursor', activeLine: '.CodeMirror-activeline-background', selected: '.CodeMirror-selected' },
  { name: 'monaco', root: '.monaco-editor', lines: '.view-lines', line: '.view-line', cursor: '.cursor', activeLine: '.current-line', selected: '.selected-text' },
  { name: 'ace', root: '.ace_editor', lines: '.ace_text-layer', line: '.ace_line', cursor: '.ace_cursor', activeLine: '.ace_active-line', selected: '.ace_selection' },
];

/**
 * The editor a field belongs to, if it is one the widget knows: `hidden` for the editors that
 * take their keys through a hidden textarea or an EditContext (`HIDDEN_INPUT_EDITORS`).
 * @param {{tagName: string, editContext?: unknown, closest(selector: string): unknown}} el
 * @returns {{name: string, hidden?: HiddenInputEditor} | null}
 */
export function editorOf(el) {
  if (el.tagName.toUpperCase() === 'TEXTAREA' || el.editContext) {
    for (const hidden of HIDDEN_INPUT_EDITORS) if (el.closest(hidden.root)) return { name: hidden.name, hidden };
    return null;
  }
  for (const [name, selector] of MODEL_EDITORS) if (el.closest(selector)) return { name };
  return null;
}

/**
 * Whether a field should start with the IME off: one-time codes, card numbers and fields whose
 * `inputmode` asks for digits, a phone number, an e-mail address or a URL (the IME would type
 * full-width characters into them). The user can still turn it on.
 * @param {{getAttribute(name: string): string | null}} el
 */
export function startsDirect(el) {
  const autocomplete = (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
  if (autocomplete.some((t) => t === 'one-time-code' || t.startsWith('cc-') || t === 'tel' || t === 'email' || t === 'url')) return true;
  const mode = (el.getAttribute('inputmode') ?? '').toLowerCase();
  return ['numeric', 'decimal', 'tel', 'email', 'url'].includes(mode);
}

/**
 * What the suggestion list shows for an output, or null when it is hidden (no suggestions, or a
 * conversion is under way).
 * @param {{completions?: string[], focusedCompletion?: number | null, state: string}} out
 * @returns {{items: string[], focused: number, afterCommit: boolean} | null} `focused` is -1 when
 *   the list is not focused; `afterCommit`: next-word predictions (nothing composed)
 */
export function suggestionsOf(out) {
  const items = out.completions ?? [];
  if (items.length === 0 || out.state === 'converting' || out.state === 'direct') return null;
  const f = out.focusedCompletion;
  const focused = typeof f === 'number' && f >= 0 && f < items.length ? f : -1;
  return { items, focused, afterCommit: out.state === 'precomposition' };
}

/**
 * Splits a preedit into the runs to draw: plain text, converted segments, the focused segment.
 * @param {string} text
 * @param {{start: number, end: number, focused: boolean, converted: boolean}[]} segments
 * @returns {{text: string, focused: boolean, converted: boolean}[]}
 */
export function preeditRuns(text, segments) {
  /** @type {{text: string, focused: boolean, converted: boolean}[]} */
  const runs = [];
  let pos = 0;
  for (const s of segments) {
    if (s.start > pos) runs.push({ text: text.slice(pos, s.start), focused: false, converted: false });
    runs.push({ text: text.slice(s.start, s.end), focused: s.focused, converted: s.converted });
    pos = Math.max(pos, s.end);
  }
  if (pos < text.length) runs.push({ text: text.slice(pos), focused: false, converted: false });
  return runs.filter((r) => r.text.length > 0);
}

/**
 * Percentile of a list of numbers (nearest rank).
 * @param {number[]} xs
 * @param {number} p 0..100
 * @returns {number}
 */
export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The punctuation settings, what `,` and `.` type (Mozc's 句読点), the default first. */
export const PUNCTUATIONS = /** @type {import('./types.js').Punctuation[]} */ (['、。', '，．', '、．', '，。']);

/** The default punctuation: `、。`. */
export const DEFAULT_PUNCTUATION = PUNCTUATIONS[0];

/**
 * `value` as a punctuation setting, or undefined when it is none.
 * @param {unknown} value
 * @returns {import('./types.js').Punctuation | undefined}
 */
export function asPunctuation(value) {
  return PUNCTUATIONS.find((p) => p === value);
}

/**
 * Gives a session a romaji table of the user's own (Mozc's format); one that does not parse is
 * reported on the console, and the session keeps the built-in table.
 * @param {{setRomajiTable(session: number, text: string): number}} handle the wasm handle
 * @param {number} session
 * @param {string} text
 */
export function useRomajiTable(handle, session, text) {
  try {
    handle.setRomajiTable(session, text);
  } catch (e) {
    console.error(`henkan: ${e instanceof Error ? e.message : e}; the built-in romaji table stays`);
  }
}

/** The most characters that 変換 with nothing selected takes back before the caret. */
export const RECONVERT_CLAUSE_CHARS = 24;

/**
 * What 変換 with nothing selected converts again (MS-IME's and Mozc's reconversion at the caret):
 * the run of kanji and kana (with `ー`, `々`, `〆`, `ヶ`) that ends where `before` ends, the text
 * before the caret; its last `RECONVERT_CLAUSE_CHARS` characters; '' when the caret follows
 * anything else (punctuation, a space, Latin letters, nothing).
 * @param {string} before
 * @returns {string}
 */
export function clauseBefore(before) {
  const run = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー々〆ヶ]+$/u.exec(before);
  return run ? [...run[0]].slice(-RECONVERT_CLAUSE_CHARS).join('') : '';
}

/**
 * What the keys of the JIS kana layout other than letters and digits type on a US layout, by
 * place (`keyOfPlace`).
 * @type {Record<string, string>}
 */
const PLACE_KEYS = { Minus: '-', Equal: '=', IntlYen: '¥', BracketLeft: '[', BracketRight: ']', Semicolon: ';', Quote: "'", Backslash: '\\', Comma: ',', Period: '.', Slash: '/', IntlRo: '_' };

/**
 * The key a keydown is sent as in kana input: `e.key`, or, for a key that types nothing on the
 * page's layout (`Unidentified` or '': Shift+0 of a JIS layout has no character, and is `を` in
 * kana input), a character of its place (`0`, `t`, `-`), so that the engine hears the key and
 * types its kana by `code`.
 * @param {{key: string, code?: string, shiftKey?: boolean}} e
 * @returns {string}
 */
export function keyOfPlace(e) {
  if (e.key !== 'Unidentified' && e.key !== '') return e.key;
  const code = e.code ?? '';
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return e.shiftKey ? letter[1] : letter[1].toLowerCase();
  const digit = /^Digit(\d)$/.exec(code);
  if (digit) return digit[1];
  return PLACE_KEYS[code] ?? e.key;
}

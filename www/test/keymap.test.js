import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyUnits, modsOf, isOsImeKey, shouldSend, pageOf, fieldKind, preeditRuns, percentile, suggestionsOf, startsDirect, editorOf, PUNCTUATIONS, asPunctuation, useRomajiTable, clauseBefore, RECONVERT_CLAUSE_CHARS, keyOfPlace, SHIFT, CTRL, ALT, META } from '../keymap.js';

test('modifier bits', () => {
  assert.equal(modsOf({ key: 'a' }), 0);
  assert.equal(modsOf({ key: 'A', shiftKey: true }), SHIFT);
  assert.equal(modsOf({ key: ' ', ctrlKey: true, metaKey: true }), CTRL | META);
  assert.equal(modsOf({ key: '`', altKey: true }), ALT);
});

test('OS IME keys are left alone', () => {
  const ready = { ready: true, osComposing: false };
  assert.equal(shouldSend({ key: 'a' }, ready), true);
  assert.equal(shouldSend({ key: 'a', isComposing: true }, ready), false);
  assert.equal(shouldSend({ key: 'Process', keyCode: 229 }, ready), false);
  assert.equal(shouldSend({ key: 'a' }, { ready: true, osComposing: true }), false);
  assert.equal(isOsImeKey({ key: 'a', keyCode: 229 }, false), true);
});

test('not sent: before the model, modifiers alone, dead keys', () => {
  assert.equal(shouldSend({ key: 'a' }, { ready: false, osComposing: false }), false);
  for (const key of ['Shift', 'Control', 'Alt', 'Meta', 'Dead', 'CapsLock', 'Unidentified']) {
    assert.equal(shouldSend({ key }, { ready: true, osComposing: false }), false, key);
  }
  for (const key of [' ', 'Enter', 'F7', 'ArrowLeft', 'Convert', 'ZenkakuHankaku', '1']) {
    assert.equal(shouldSend({ key }, { ready: true, osComposing: false }), true, key);
  }
});

test('candidate pages of nine', () => {
  assert.deepEqual(pageOf(20, 0, 9), { start: 0, end: 9, page: 0, pages: 3 });
  assert.deepEqual(pageOf(20, 8, 9), { start: 0, end: 9, page: 0, pages: 3 });
  assert.deepEqual(pageOf(20, 9, 9), { start: 9, end: 18, page: 1, pages: 3 });
  assert.deepEqual(pageOf(20, 19, 9), { start: 18, end: 20, page: 2, pages: 3 });
  assert.deepEqual(pageOf(3, 2, 9), { start: 0, end: 3, page: 0, pages: 1 });
  assert.deepEqual(pageOf(0, 0, 9), { start: 0, end: 0, page: 0, pages: 1 });
  // Out-of-range selections are clamped.
  assert.deepEqual(pageOf(5, 99, 9), { start: 0, end: 5, page: 0, pages: 1 });
});

test('field kinds: password and other inputs get no IME', () => {
  assert.equal(fieldKind({ tagName: 'TEXTAREA' }), 'textarea');
  assert.equal(fieldKind({ tagName: 'INPUT', type: 'text' }), 'input');
  assert.equal(fieldKind({ tagName: 'INPUT', type: 'search' }), 'input');
  assert.equal(fieldKind({ tagName: 'INPUT', type: 'password' }), null);
  assert.equal(fieldKind({ tagName: 'INPUT', type: 'email' }), null);
  assert.equal(fieldKind({ tagName: 'INPUT', type: 'text', readOnly: true }), null);
  assert.equal(fieldKind({ tagName: 'DIV', isContentEditable: true }), 'contenteditable');
  assert.equal(fieldKind({ tagName: 'DIV', isContentEditable: false }), null);
});

test('preedit runs', () => {
  assert.deepEqual(preeditRuns('きょうh', [{ start: 0, end: 4, focused: false, converted: false }]), [
    { text: 'きょうh', focused: false, converted: false },
  ]);
  assert.deepEqual(
    preeditRuns('今日はいい天気', [
      { start: 0, end: 3, focused: false, converted: true },
      { start: 3, end: 5, focused: true, converted: true },
      { start: 5, end: 7, focused: false, converted: true },
    ]).map((r) => [r.text, r.focused]),
    [['今日は', false], ['いい', true], ['天気', false]],
  );
  // Text outside any segment is kept as plain runs.
  assert.deepEqual(preeditRuns('abc', [{ start: 1, end: 2, focused: true, converted: true }]).map((r) => r.text), ['a', 'b', 'c']);
});

test('percentiles', () => {
  assert.equal(percentile([3, 1, 2, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('key units: named keys whole, text by code point', () => {
  assert.deepEqual(keyUnits('a'), ['a']);
  assert.deepEqual(keyUnits('ArrowLeft'), ['ArrowLeft']);
  assert.deepEqual(keyUnits('F10'), ['F10']);
  assert.deepEqual(keyUnits('𠮷'), ['𠮷']);
  assert.deepEqual(keyUnits('🇯🇵'), ['🇯', '🇵']);
  assert.deepEqual(keyUnits('e\u0301'), ['e', '\u0301']);
  assert.deepEqual(keyUnits('ab'), ['a', 'b']);
});

test('the suggestion list: hidden when empty or converting, focus -1 when not entered', () => {
  assert.equal(suggestionsOf({ completions: [], focusedCompletion: null, state: 'composing' }), null);
  assert.equal(suggestionsOf({ completions: ['今日'], focusedCompletion: null, state: 'converting' }), null);
  assert.equal(suggestionsOf({ completions: ['今日'], focusedCompletion: null, state: 'direct' }), null);
  assert.deepEqual(suggestionsOf({ completions: ['今日', '京'], focusedCompletion: null, state: 'composing' }), { items: ['今日', '京'], focused: -1, afterCommit: false });
  assert.deepEqual(suggestionsOf({ completions: ['は'], focusedCompletion: 0, state: 'suggesting' }), { items: ['は'], focused: 0, afterCommit: false });
  assert.deepEqual(suggestionsOf({ completions: ['は'], focusedCompletion: null, state: 'precomposition' }), { items: ['は'], focused: -1, afterCommit: true });
  assert.deepEqual(suggestionsOf({ completions: ['は'], focusedCompletion: 5, state: 'suggesting' }), { items: ['は'], focused: -1, afterCommit: false });
  // An output from an older package without the field.
  assert.equal(suggestionsOf({ state: 'precomposition' }), null);
});

test('AltGr and Option characters are text, not shortcuts', () => {
  const altGr = (/** @type {string} */ k) => k === 'AltGraph';
  assert.equal(modsOf({ key: '€', ctrlKey: true, altKey: true, getModifierState: altGr }), 0);
  assert.equal(modsOf({ key: 'å', altKey: true }), 0, 'Option+a on a Mac');
  assert.equal(modsOf({ key: 'Å', altKey: true, shiftKey: true }), SHIFT);
  assert.equal(modsOf({ key: 'a', altKey: true }), ALT, 'Alt+a stays a shortcut');
  assert.equal(modsOf({ key: 'c', ctrlKey: true }), CTRL);
  assert.equal(modsOf({ key: 'ArrowLeft', ctrlKey: true, altKey: true, getModifierState: altGr }), CTRL | ALT, 'named keys keep their modifiers');
});

test('fields for codes, card numbers, phone numbers, e-mail and URLs start with the IME off', () => {
  const el = (/** @type {Record<string, string>} */ attrs) => ({ getAttribute: (/** @type {string} */ n) => attrs[n] ?? null });
  assert.equal(startsDirect(el({ autocomplete: 'one-time-code' })), true);
  assert.equal(startsDirect(el({ autocomplete: 'cc-number' })), true);
  assert.equal(startsDirect(el({ autocomplete: 'section-a billing email' })), true);
  assert.equal(startsDirect(el({ inputmode: 'numeric' })), true);
  assert.equal(startsDirect(el({ inputmode: 'tel' })), true);
  assert.equal(startsDirect(el({ inputmode: 'text', autocomplete: 'name' })), false);
  assert.equal(startsDirect(el({})), false);
});

test('editors: model editors by their contenteditable, code editors by their hidden input', () => {
  /** An element inside the ancestors matched by `inside` (selectors). */
  const el = (/** @type {string} */ tagName, /** @type {string[]} */ inside) => ({ tagName, closest: (/** @type {string} */ s) => (inside.includes(s) ? {} : null) });
  assert.deepEqual(editorOf(el('DIV', ['.ProseMirror'])), { name: 'prosemirror' });
  assert.deepEqual(editorOf(el('DIV', ['.cm-content'])), { name: 'codemirror' });
  assert.deepEqual(editorOf(el('DIV', ['[data-lexical-editor]'])), { name: 'lexical' });
  assert.deepEqual(editorOf(el('DIV', ['.ql-editor'])), { name: 'quill' });
  assert.deepEqual(editorOf(el('BODY', ['.mce-content-body'])), { name: 'tinymce' });
  assert.deepEqual(editorOf(el('BODY', ['.cke_editable'])), { name: 'ckeditor4' });
  assert.equal(editorOf(el('DIV', [])), null, 'a plain contenteditable');
  assert.equal(editorOf(el('TEXTAREA', ['.CodeMirror']))?.hidden?.cursor, '.CodeMirror-cursor');
  assert.equal(editorOf(el('textarea', ['.monaco-editor']))?.hidden?.lines, '.view-lines');
  assert.equal(editorOf(el('TEXTAREA', ['.ace_editor']))?.name, 'ace');
  assert.equal(editorOf(el('DIV', ['.CodeMirror'])), null, 'a hidden-textarea editor is its textarea, not its box');
  assert.equal(editorOf(el('TEXTAREA', [])), null, 'a plain textarea');
});

test('punctuation settings: the four of Mozc, nothing else', () => {
  assert.deepEqual(PUNCTUATIONS, ['、。', '，．', '、．', '，。']);
  for (const p of PUNCTUATIONS) assert.equal(asPunctuation(p), p);
  for (const bad of ['', ',.', '。、', '、。 ', null, 2]) assert.equal(asPunctuation(bad), undefined);
});

test('a romaji table that does not parse is reported on the console; the session keeps the built-in one', (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  /** @type {[number, string][]} */
  const set = [];
  const handle = {
    setRomajiTable(/** @type {number} */ session, /** @type {string} */ text) {
      if (!text.includes('\t')) throw new Error('romaji table: line 1: empty input or output');
      set.push([session, text]);
      return 1;
    },
  };
  useRomajiTable(handle, 3, 'ka\tか\n');
  assert.deepEqual(set, [[3, 'ka\tか\n']]);
  assert.equal(errors.mock.callCount(), 0);
  useRomajiTable(handle, 3, 'ka\n');
  assert.deepEqual(set, [[3, 'ka\tか\n']]);
  assert.equal(errors.mock.callCount(), 1);
  assert.match(String(errors.mock.calls[0].arguments[0]), /line 1: empty input or output; the built-in romaji table stays/);
});

test('the clause 変換 takes back with nothing selected: the kanji and kana that end at the caret', () => {
  assert.equal(clauseBefore('昨日は雨だった。今日は晴れ'), '今日は晴れ');
  assert.equal(clauseBefore('メール送信ー'), 'メール送信ー');
  assert.equal(clauseBefore('佐々木さん、'), '');
  assert.equal(clauseBefore('hello 世界'), '世界');
  assert.equal(clauseBefore('abc'), '');
  assert.equal(clauseBefore(''), '');
  // astral kanji count as one character; a long run keeps its last characters
  assert.equal(clauseBefore('x𠮷野家'), '𠮷野家');
  const long = 'あ'.repeat(30) + '漢字';
  assert.equal([...clauseBefore(long)].length, RECONVERT_CLAUSE_CHARS);
  assert.ok(clauseBefore(long).endsWith('あ漢字'));
});

test('kana input: a key that types nothing on the page\'s layout is sent as a character of its place', () => {
  assert.equal(keyOfPlace({ key: 't', code: 'KeyT' }), 't');
  assert.equal(keyOfPlace({ key: 'Unidentified', code: 'Digit0', shiftKey: true }), '0');
  assert.equal(keyOfPlace({ key: '', code: 'KeyT', shiftKey: true }), 'T');
  assert.equal(keyOfPlace({ key: 'Unidentified', code: 'IntlRo' }), '_');
  assert.equal(keyOfPlace({ key: 'Unidentified', code: 'Numpad1' }), 'Unidentified');
  assert.equal(keyOfPlace({ key: 'Enter', code: 'Enter' }), 'Enter');
});

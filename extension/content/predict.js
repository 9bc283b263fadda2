// Whether the engine will consume a key, decided in the page before its answer comes back.
//
// The extension's engine runs in another process (extension/engine.js), so a keydown handler
// cannot wait for `ImeOutput.consumed`: it must call preventDefault() (or not) at once. This is
// the state machine's table (crates/henkan/src/ime/mod.rs, `handle` and `key_*`) reduced to what
// decides consumption, over the state the page last heard of, advanced by the keys still in
// flight. Pure logic, no DOM: tested by extension/test/predict.test.mjs.

import { CTRL, ALT, META, SHIFT } from '../../www/keymap.js';

/**
 * What the page knows of a session: whether the IME is on, whether something is composed
 * (`null`: unknown, a key in flight may have emptied it), whether suggestions are listed.
 * @typedef {object} Predicted
 * @property {boolean} on
 * @property {boolean | null} composing
 * @property {boolean} listed
 */

/**
 * The state an output leaves.
 * @param {import('../../www/types.js').ImeOutput} out
 * @returns {Predicted}
 */
export function predictedOf(out) {
  return { on: out.mode !== 'direct', composing: out.preedit.text.length > 0, listed: (out.completions?.length ?? 0) > 0 };
}

/**
 * Ctrl+Space, 半角/全角, Alt+`: toggle the IME in every state.
 * @param {string} key
 * @param {number} mods
 */
export function isToggle(key, mods) {
  const command = mods & (CTRL | ALT | META);
  if (key === ' ') return command === CTRL && !(mods & SHIFT);
  if (key === 'ZenkakuHankaku' || key === 'Zenkaku' || key === 'Hankaku') return command === 0;
  if (key === '`') return command === ALT;
  return false;
}

const IME_ON = new Set(['KanaMode', 'Hiragana', 'HiraganaKatakana', 'Lang1']);
const IME_OFF = new Set(['Eisu', 'Alphanumeric', 'Lang2']);

/**
 * Whether a key is one character (a letter, a digit, punctuation, kana) rather than a named key.
 * @param {string} key
 */
function isChar(key) {
  const points = [...key];
  return points.length === 1 ? key.charCodeAt(0) > 0x20 && key !== '\u007f' : points.length > 1 && !/^[A-Z][A-Za-z0-9]+$/.test(key);
}

/**
 * Whether the engine will consume the key, and the state after it.
 * @param {Predicted} st
 * @param {string} key `KeyboardEvent.key` (as `shouldSend` let it through)
 * @param {number} mods modifier bits (`modsOf`)
 * @param {boolean} [halfSpace] Space types the field's plain space outside a composition, Shift+Space
 *   the IME's ideographic one (the `space: 'half'` setting)
 * @returns {{consumed: boolean, next: Predicted, sure: boolean}} `sure`: false when the state
 *   was unknown and the answer a guess (the caller then consumes and replays a refused key)
 */
export function predictKey(st, key, mods, halfSpace = false) {
  const command = (mods & (CTRL | ALT | META)) !== 0;
  if (isToggle(key, mods)) return { consumed: true, next: { on: !st.on, composing: false, listed: false }, sure: true };
  // Alt+カタカナひらがな switches kana input, on or off, composing or not
  if (IME_ON.has(key) && (mods & (CTRL | ALT | META)) === ALT) return { consumed: true, next: st, sure: true };
  if (IME_ON.has(key) && !command) return { consumed: !st.on, next: { ...st, on: true }, sure: true };
  if (IME_OFF.has(key) && !command) return { consumed: st.on, next: { on: false, composing: false, listed: false }, sure: true };
  if (!st.on) return { consumed: false, next: st, sure: true };
  const sure = st.composing !== null;
  if (st.composing !== false) {
    // Inside a composition every key is the IME's, except F-keys other than F6–F10 and keys it
    // does not know; what it leaves composed is known only for keys that add text or commit.
    const fkey = /^F(\d+)$/.exec(key);
    if (fkey ? !(+fkey[1] >= 6 && +fkey[1] <= 10) : !isChar(key) && !KNOWN.has(key)) {
      return { consumed: false, next: st, sure };
    }
    if (isChar(key) && !command) return { consumed: true, next: { on: true, composing: true, listed: st.listed }, sure };
    if (key === 'Enter') return { consumed: true, next: { on: true, composing: false, listed: st.listed }, sure };
    if (key === ' ' || key === 'Convert' || key.startsWith('Arrow') || fkey) return { consumed: true, next: st, sure };
    return { consumed: true, next: { on: true, composing: null, listed: st.listed }, sure };
  }
  // Precomposition: text composes, Space types U+3000 (Shift+Space a plain space, the field's),
  // Ctrl+Shift+Space U+3000 whatever Space types, 無変換 switches hiragana and katakana input;
  // with suggestions listed after a commit, ↓ enters them and Esc hides them.
  if (key === ' ' && (mods & (CTRL | SHIFT | ALT | META)) === (CTRL | SHIFT)) return { consumed: true, next: { ...st, listed: false }, sure: true };
  if (command) return { consumed: false, next: { ...st, listed: false }, sure: true };
  if (key === 'NonConvert' && !(mods & SHIFT)) return { consumed: true, next: { ...st, listed: false }, sure: true };
  if (isChar(key)) return { consumed: true, next: { on: true, composing: true, listed: false }, sure: true };
  if (key === ' ' && !!(mods & SHIFT) === halfSpace) return { consumed: true, next: { ...st, listed: false }, sure: true };
  if (st.listed && key === 'ArrowDown') return { consumed: true, next: { on: true, composing: null, listed: true }, sure: true };
  if (st.listed && key === 'Escape') return { consumed: true, next: { ...st, listed: false }, sure: true };
  return { consumed: false, next: { ...st, listed: false }, sure: true };
}

/** The named keys the state machine reads (crates/henkan/src/ime/key.rs `from_dom`). */
const KNOWN = new Set([
  ' ', 'Spacebar', 'Enter', 'Escape', 'Esc', 'Backspace', 'Delete', 'Del', 'Tab', 'ArrowLeft', 'Left', 'ArrowRight', 'Right',
  'ArrowUp', 'Up', 'ArrowDown', 'Down', 'Home', 'End', 'PageUp', 'PageDown', 'Convert', 'NonConvert',
  'ZenkakuHankaku', 'Zenkaku', 'Hankaku', 'KanaMode', 'Hiragana', 'HiraganaKatakana', 'Lang1', 'Eisu', 'Alphanumeric', 'Lang2',
]);

// The key storms of tests/e2e/storm.test.mjs and editors.test.mjs: a seeded generator, the keys and
// the texts without a key, one step of a storm.

/** mulberry32: a small seeded generator, so that a failing storm can be replayed. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Romaji-like letters (vowels and common consonants more often), and the rest of the alphabet.
export const LETTERS = 'aiueoaiueoaiueokstnhmyrwgzdbpnnkstfjcxlvq';
// Keys that delete no committed text. Shift+←/→ resize segments while composing and are sent only
// then (outside a composition they select text, which the next key replaces).
export const KEEPING = [
  'Space', 'Space', 'Shift+Space', 'Enter', 'Enter', 'Escape', 'ArrowLeft', 'ArrowRight', 'ArrowUp',
  'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', 'F6', 'F7', 'F8', 'F9', 'F10', 'Control+Space',
  '1', '2', '5', '9', '0', 'Minus', 'Comma', 'Period', 'Slash', 'Shift+KeyA', 'Shift+KeyK', 'Shift+Digit1',
  'Shift+Digit7', 'BracketLeft', 'Quote', 'Backquote', 'Control+Shift+Space',
];
export const RESIZE = ['Shift+ArrowLeft', 'Shift+ArrowRight'];
// Keys that may delete or replace text.
export const EDITING = [
  'Backspace', 'Backspace', 'Backspace', 'Delete', 'Control+z', 'Control+Shift+z', 'Control+a',
  'Shift+Home', 'Control+Backspace', 'Control+x', 'Control+v', 'Tab',
];
// Text that arrives without a key (virtual keyboards, dictation, drops): any script, combining
// marks, joiners, emoji sequences, astral kanji, controls that are text.
export const TEXTS = [
  '😀', '👨‍👩‍👧', 'e\u0301', '𠮷', '\u200d', 'ｱｲｳ', '한국어', 'Ωμέγα', 'مرحبا', '\u202e', '\ufeff',
  '🇯🇵', 'ﾞ', '〜', '\t', 'ä', 'か\u3099', 'a'.repeat(40),
];

/**
 * One storm step: a letter, a key from `keys`, or text without a key. Returns what was sent.
 * @param {import('playwright-core').Page} page
 * @param {() => number} next
 * @param {string[]} keys
 */
export async function step(page, next, keys) {
  const r = next();
  if (r < 0.55) {
    const c = LETTERS[Math.floor(next() * LETTERS.length)];
    await page.keyboard.press(c);
    return c;
  }
  if (r < 0.95) {
    const k = keys[Math.floor(next() * keys.length)];
    await page.keyboard.press(k);
    return k;
  }
  const t = TEXTS[Math.floor(next() * TEXTS.length)];
  await page.keyboard.insertText(t);
  return JSON.stringify(t);
}

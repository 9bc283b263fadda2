// Fields that ask for katakana: a form's フリガナ (the reading of a name, in katakana). Such a field
// starts in katakana input (the `katakana` option, MS-IME's 全角カタカナ mode), so that what is
// typed there goes in as the form wants it; カタカナひらがな turns it back to hiragana. A field
// says so in its label, its placeholder or its header cell (`フリガナ`, `（カナ）`, `ヤマダ タロウ`),
// its input pattern (`[ァ-ヶー]+`) or its name (`name_kana`, `lastNameKana`, `furigana`); one that
// asks for hiragana (`ふりがな`, `hiragana`, `[ぁ-ん]`) keeps hiragana, as every other field.
//
// A form's script commonly fills its フリガナ field from what an OS IME shows in the name field
// while composing; the widget's composition stays out of the field's value, so a page names the
// field instead (the `furigana` option) and the reading of each commit goes there (`addFurigana`).

import { isTextField } from './root.js';

/**
 * What a field says about itself: the texts a reader sees for it, and its attributes.
 * @typedef {object} FieldDescription
 * @property {string[]} texts its labels, `aria-label`, `title`, header cell or term
 * @property {string} placeholder
 * @property {string} pattern the `pattern` attribute
 * @property {string[]} names its `name` and `id`
 */

/** Katakana letters (not the middle dot or the prolonged sound mark). */
const KATAKANA = 'ァ-ヺ';
/** `フリガナ`, `カタカナ` (and their half-width forms), or `カナ` / `ｶﾅ` as a word of its own (not in `カナダ`). */
const SAYS_KATAKANA = new RegExp(`フリガナ|ﾌﾘｶﾞﾅ|カタカナ|ｶﾀｶﾅ|(?:^|[^${KATAKANA}])カナ(?![${KATAKANA}])|(?:^|[^ｦ-ﾟ])ｶﾅ(?![ｦ-ﾟ])`);
/** `ふりがな`, `ひらがな`: the form wants hiragana. */
const SAYS_HIRAGANA = /ふりがな|ひらがな/;
/** A placeholder in katakana alone: `ヤマダ タロウ`, `ヤマダ`. */
const KATAKANA_PLACEHOLDER = new RegExp(`^[${KATAKANA}ー・\\s　]*[${KATAKANA}]{2}[${KATAKANA}ー・\\s　]*$`);
/** What a placeholder says before its example: `例：`, `（例）`, `例)`, `e.g.`. */
const EXAMPLE = /^(?:[（(]?例[）)]?[:：]?|e\.g\.:?)\s*/i;
/** A pattern of katakana (`[ァ-ン]`, `\u30A1`, `\p{Katakana}`) or of hiragana. */
const KATAKANA_PATTERN = /[ァ-ヶ]-[ァ-ヶ]|\\u30[a-f][a-f0-9]|\\u\{30[a-f][a-f0-9]\}|\\p\{(?:sc=|Script=)?Katakana\}/i;
const HIRAGANA_PATTERN = /[ぁ-ゖ]-[ぁ-ゖ]|\\u30[4-9][a-f0-9]|\\u\{30[4-9][a-f0-9]\}|\\p\{(?:sc=|Script=)?Hiragana\}/i;

/**
 * The words of a field's name or id: `last_name_kana`, `lastNameKana` and `name-kana` give `kana`
 * as a word; `kanazawa` does not.
 * @param {string} name
 */
function nameWords(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a field asks for katakana (its フリガナ), by what it says about itself.
 * @param {FieldDescription} field
 */
export function asksForKatakana({ texts, placeholder, pattern, names }) {
  const said = [...texts, placeholder];
  if (said.some((t) => SAYS_HIRAGANA.test(t)) || HIRAGANA_PATTERN.test(pattern)) return false;
  if (said.some((t) => SAYS_KATAKANA.test(t))) return true;
  if (KATAKANA_PLACEHOLDER.test(placeholder.trim().replace(EXAMPLE, ''))) return true;
  if (KATAKANA_PATTERN.test(pattern)) return true;
  return names.some((n) => nameWords(n).some((w) => w === 'kana' || w === 'furigana' || w === 'katakana'));
}

/**
 * The text of an element, trimmed and cut short (a header cell or a label is a few words).
 * @param {Element | null | undefined} el
 */
function textOf(el) {
  return (el?.textContent ?? '').trim().slice(0, 80);
}

/**
 * What a field says about itself (`asksForKatakana`): its labels, `aria-label`, `aria-labelledby`
 * and `title`, the header cell of its row in a table form (`<th>フリガナ</th><td><input></td>`)
 * and the term of its description in a list form (`<dt>`), its placeholder, pattern, name and id.
 * @param {HTMLElement} el
 * @returns {FieldDescription}
 */
export function describeField(el) {
  const attr = (/** @type {string} */ name) => el.getAttribute(name) ?? '';
  const texts = [attr('aria-label'), attr('title')];
  const labels = /** @type {{labels?: NodeListOf<HTMLLabelElement> | null}} */ (el).labels;
  for (const label of labels ?? []) texts.push(textOf(label));
  for (const id of attr('aria-labelledby').split(/\s+/).filter(Boolean)) texts.push(textOf(el.ownerDocument.getElementById(id)));
  // the header cell before the field's cell in its row
  for (let c = el.closest('td')?.previousElementSibling; c; c = c.previousElementSibling) {
    if (c.tagName === 'TH') {
      texts.push(textOf(c));
      break;
    }
  }
  const dd = el.closest('dd');
  if (dd?.previousElementSibling?.tagName === 'DT') texts.push(textOf(dd.previousElementSibling));
  return {
    texts: texts.filter(Boolean),
    placeholder: attr('placeholder'),
    pattern: attr('pattern'),
    names: [attr('name'), el.id].filter(Boolean),
  };
}

/**
 * Kana in katakana (ぁ–ゖ, ゝ, ゞ); everything else as it is.
 * @param {string} kana
 */
export function toKatakana(kana) {
  return kana.replace(/[\u3041-\u3096\u309d\u309e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

/**
 * The field that takes the readings of what is committed into `el` (the `furigana` option: an
 * element, or a selector looked up in `el`'s root, then its document); null when there is no
 * such `<input>` or `<textarea>`.
 * @param {HTMLElement} el
 * @param {HTMLElement | string | undefined} furigana
 * @returns {HTMLInputElement | HTMLTextAreaElement | null}
 */
export function furiganaField(el, furigana) {
  let target = /** @type {Element | null | undefined} */ (null);
  try {
    if (typeof furigana === 'string') {
      const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
      target = root.querySelector?.(furigana) ?? el.ownerDocument.querySelector(furigana);
    } else target = furigana;
  } catch {
    return null; // not a selector
  }
  const win = el.ownerDocument.defaultView;
  if (!target || !win || target === el) return null;
  return target instanceof win.HTMLInputElement || target instanceof win.HTMLTextAreaElement ? target : null;
}

/**
 * Adds the reading of a commit to the フリガナ field, as a form's own furigana script does with
 * an OS IME: in katakana where the field asks for katakana (`asksForKatakana`), else as it is
 * (hiragana). A commit into an empty field starts the reading anew (the name was cleared and
 * typed again). The value is set as the browser's own setter does, and `input` and `change`
 * are dispatched, so that a framework's model of the field follows.
 * @param {HTMLInputElement | HTMLTextAreaElement} field
 * @param {string} reading
 * @param {boolean} anew the name field was empty before the commit
 */
export function addFurigana(field, reading, anew) {
  const win = field.ownerDocument.defaultView;
  if (!win) return;
  const text = asksForKatakana(describeField(field)) ? toKatakana(reading) : reading;
  const proto = field instanceof win.HTMLInputElement ? win.HTMLInputElement.prototype : win.HTMLTextAreaElement.prototype;
  const set = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  const value = (anew ? '' : field.value) + text;
  if (set) set.call(field, value);
  else field.value = value;
  field.dispatchEvent(new win.Event('input', { bubbles: true }));
  field.dispatchEvent(new win.Event('change', { bubbles: true }));
}

/**
 * Whether a field holds no text (before a commit: the reading starts anew, `addFurigana`).
 * @param {HTMLElement} el
 */
export function isEmptyField(el) {
  const text = isTextField(el) ? el.value : (el.textContent ?? '');
  return text.trim() === '';
}

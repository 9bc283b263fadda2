//! Kana input (かな入力): the JIS kana layout (JIS X 6002), where each key types one kana, as
//! Mozc's and MS-IME's kana input have it, beside romaji input.
//!
//! Keys are named by their place on the keyboard (the DOM's `KeyboardEvent.code`), not by what
//! the OS layout types: the `@` key of a JIS keyboard is `BracketLeft` and types `゛`, whatever
//! character the layout gives it. The voiced marks `゛` and `゜` typed after a kana that takes
//! them make one kana with it (`か` `゛` → `が`, [`voiced`]), as the kana tables of the desktop
//! IMEs do; after any other character they stay marks.

/// The JIS kana layout: a key's `code`, its kana, and its kana with Shift (the small kana, `を`
/// and the brackets and marks of the lower row; the same kana where the key has no second one,
/// as MS-IME types it).
const JIS_KANA: &[(&str, char, char)] = &[
    ("Digit1", 'ぬ', 'ぬ'),
    ("Digit2", 'ふ', 'ふ'),
    ("Digit3", 'あ', 'ぁ'),
    ("Digit4", 'う', 'ぅ'),
    ("Digit5", 'え', 'ぇ'),
    ("Digit6", 'お', 'ぉ'),
    ("Digit7", 'や', 'ゃ'),
    ("Digit8", 'ゆ', 'ゅ'),
    ("Digit9", 'よ', 'ょ'),
    ("Digit0", 'わ', 'を'),
    ("Minus", 'ほ', 'ほ'),
    ("Equal", 'へ', 'へ'),
    ("IntlYen", 'ー', 'ー'),
    ("KeyQ", 'た', 'た'),
    ("KeyW", 'て', 'て'),
    ("KeyE", 'い', 'ぃ'),
    ("KeyR", 'す', 'す'),
    ("KeyT", 'か', 'か'),
    ("KeyY", 'ん', 'ん'),
    ("KeyU", 'な', 'な'),
    ("KeyI", 'に', 'に'),
    ("KeyO", 'ら', 'ら'),
    ("KeyP", 'せ', 'せ'),
    ("BracketLeft", '゛', '゛'),
    ("BracketRight", '゜', '「'),
    ("KeyA", 'ち', 'ち'),
    ("KeyS", 'と', 'と'),
    ("KeyD", 'し', 'し'),
    ("KeyF", 'は', 'は'),
    ("KeyG", 'き', 'き'),
    ("KeyH", 'く', 'く'),
    ("KeyJ", 'ま', 'ま'),
    ("KeyK", 'の', 'の'),
    ("KeyL", 'り', 'り'),
    ("Semicolon", 'れ', 'れ'),
    ("Quote", 'け', 'け'),
    ("Backslash", 'む', '」'),
    ("KeyZ", 'つ', 'っ'),
    ("KeyX", 'さ', 'さ'),
    ("KeyC", 'そ', 'そ'),
    ("KeyV", 'ひ', 'ひ'),
    ("KeyB", 'こ', 'こ'),
    ("KeyN", 'み', 'み'),
    ("KeyM", 'も', 'も'),
    ("Comma", 'ね', '、'),
    ("Period", 'る', '。'),
    ("Slash", 'め', '・'),
    ("IntlRo", 'ろ', 'ろ'),
];

/// The kana the key `code` types in the JIS kana layout, with Shift or not; `None` for a key
/// outside it (the number pad, Space, the named keys), which types as in romaji input.
///
/// ```
/// use henkan::composer::jis_kana;
/// assert_eq!(jis_kana("KeyT", false), Some('か'));
/// assert_eq!(jis_kana("Digit0", true), Some('を'));
/// assert_eq!(jis_kana("KeyZ", true), Some('っ'));
/// assert_eq!(jis_kana("BracketLeft", false), Some('゛'));
/// assert_eq!(jis_kana("Numpad1", false), None);
/// ```
pub fn jis_kana(code: &str, shift: bool) -> Option<char> {
    JIS_KANA
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|&(_, plain, shifted)| if shift { shifted } else { plain })
}

/// Kana that take the voiced mark `゛`, each with its voiced kana.
const VOICED: &[(char, char)] = &[
    ('か', 'が'),
    ('き', 'ぎ'),
    ('く', 'ぐ'),
    ('け', 'げ'),
    ('こ', 'ご'),
    ('さ', 'ざ'),
    ('し', 'じ'),
    ('す', 'ず'),
    ('せ', 'ぜ'),
    ('そ', 'ぞ'),
    ('た', 'だ'),
    ('ち', 'ぢ'),
    ('つ', 'づ'),
    ('て', 'で'),
    ('と', 'ど'),
    ('は', 'ば'),
    ('ひ', 'び'),
    ('ふ', 'ぶ'),
    ('へ', 'べ'),
    ('ほ', 'ぼ'),
    ('う', 'ゔ'),
];

/// Kana that take the semi-voiced mark `゜`, each with its semi-voiced kana.
const SEMI_VOICED: &[(char, char)] = &[
    ('は', 'ぱ'),
    ('ひ', 'ぴ'),
    ('ふ', 'ぷ'),
    ('へ', 'ぺ'),
    ('ほ', 'ぽ'),
];

/// The kana that `kana` and the mark `mark` make, or `None` when it takes no such mark. The
/// marks are the spacing `゛` and `゜` that kana input types and the combining U+3099 and U+309A
/// of decomposed (NFD) text; the kana is hiragana or katakana (`ウ` `゛` → `ヴ`).
///
/// ```
/// use henkan::composer::voiced;
/// assert_eq!(voiced('か', '゛'), Some('が'));
/// assert_eq!(voiced('ほ', '゜'), Some('ぽ'));
/// assert_eq!(voiced('う', '゛'), Some('ゔ'));
/// assert_eq!(voiced('ウ', '゛'), Some('ヴ'));
/// assert_eq!(voiced('し', '\u{3099}'), Some('じ'));
/// assert_eq!(voiced('か', '゜'), None);
/// assert_eq!(voiced('が', '゛'), None);
/// ```
pub fn voiced(kana: char, mark: char) -> Option<char> {
    let table = match mark {
        '゛' | '\u{3099}' => VOICED,
        '゜' | '\u{309A}' => SEMI_VOICED,
        _ => return None,
    };
    // katakana sit 0x60 above their hiragana
    let katakana = ('ァ'..='ヶ').contains(&kana);
    let hiragana = if katakana {
        char::from_u32(kana as u32 - 0x60)?
    } else {
        kana
    };
    let v = table
        .iter()
        .find(|(k, _)| *k == hiragana)
        .map(|&(_, v)| v)?;
    if katakana {
        char::from_u32(v as u32 + 0x60)
    } else {
        Some(v)
    }
}

/// The hiragana `kana` without its mark, and the mark (`゛` or `゜`): the inverse of [`voiced`];
/// `None` for a kana without one.
///
/// ```
/// use henkan::composer::unvoiced;
/// for (kana, plain) in [('が', 'か'), ('ぢ', 'ち'), ('づ', 'つ'), ('ど', 'と'), ('ば', 'は'), ('ぼ', 'ほ')] {
///     assert_eq!(unvoiced(kana), Some((plain, '゛')));
/// }
/// assert_eq!(unvoiced('ぱ'), Some(('は', '゜')));
/// assert_eq!(unvoiced('ぽ'), Some(('ほ', '゜')));
/// for c in ['か', 'つ', 'は', 'ほ', 'ん', 'あ', 'カ', 'a'] {
///     assert_eq!(unvoiced(c), None, "{c}");
/// }
/// ```
pub fn unvoiced(kana: char) -> Option<(char, char)> {
    let find = |table: &[(char, char)]| table.iter().find(|&&(_, v)| v == kana).map(|&(k, _)| k);
    find(VOICED)
        .map(|k| (k, '゛'))
        .or_else(|| find(SEMI_VOICED).map(|k| (k, '゜')))
}

/// Whether `c` is a voiced mark: `゛`, `゜` or their combining forms U+3099 and U+309A.
pub fn is_voiced_mark(c: char) -> bool {
    matches!(c, '゛' | '゜' | '\u{3099}' | '\u{309A}')
}

/// `text` with every kana followed by a voiced mark that it takes ([`voiced`]) written as the
/// one kana they make (`か゛` and the decomposed `か\u{3099}` → `が`), as a reading pasted from
/// decomposed text or typed with spacing marks reads; marks after anything else stay.
///
/// ```
/// use henkan::composer::join_voiced_marks;
/// assert_eq!(join_voiced_marks("でう゛ぉん"), "でゔぉん");
/// assert_eq!(join_voiced_marks("か\u{3099}っこう"), "がっこう");
/// assert_eq!(join_voiced_marks("は゜ん゛"), "ぱん゛");
/// ```
pub fn join_voiced_marks(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_voiced_mark) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_voiced_mark(c) {
            if let Some(v) = out.chars().next_back().and_then(|k| voiced(k, c)) {
                out.pop();
                out.push(v);
                continue;
            }
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_once_and_every_kana_of_the_layout() {
        for (i, (code, _, _)) in JIS_KANA.iter().enumerate() {
            assert!(
                JIS_KANA[i + 1..].iter().all(|(c, _, _)| c != code),
                "{code} twice"
            );
        }
        // the 47 kana of the layout, each on one key (ゐ and ゑ are on none), with ー and the
        // two marks
        let plain: String = JIS_KANA.iter().map(|&(_, k, _)| k).collect();
        for k in "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわん"
            .chars()
        {
            assert_eq!(plain.matches(k).count(), 1, "{k}");
        }
        assert_eq!(JIS_KANA.len(), 48);
    }

    #[test]
    fn marks_make_one_kana() {
        for &(k, v) in VOICED.iter().chain(SEMI_VOICED) {
            // the voiced kana is the kana and its combining mark, composed
            let mark = if VOICED.contains(&(k, v)) {
                '\u{3099}'
            } else {
                '\u{309A}'
            };
            let decomposed: String = [k, mark].iter().collect();
            assert_eq!(unicode_compose(&decomposed), Some(v), "{k}");
        }
    }

    /// The canonical composition of a kana and a combining voiced mark: the code point after
    /// the kana (が is か + 1), ぱ two after, ゔ its own.
    fn unicode_compose(s: &str) -> Option<char> {
        let mut chars = s.chars();
        let (k, mark) = (chars.next()?, chars.next()?);
        match (k, mark) {
            ('う', '\u{3099}') => Some('ゔ'),
            (k, '\u{3099}') => char::from_u32(k as u32 + 1),
            (k, '\u{309A}') => char::from_u32(k as u32 + 2),
            _ => None,
        }
    }
}

//! Romaji keystrokes needed to type a kana reading (for the keystroke saving rate).
//!
//! The count follows the shortest spelling in Mozc's romaji table:
//! - a vowel (あいうえお) or a long mark / punctuation / any other character: 1;
//! - a consonant + vowel kana (か, し = `si`, ち = `ti`, つ = `tu`, ふ = `hu`, を = `wo`): 2;
//! - a kana + small ゃゅょ: 3 (`kya`, `sya`, `tya`), except じゃじゅじょ: 2 (`ja`);
//! - a kana + small ぁぃぅぇぉ: 3 (`thi`, `she`), except ふぁふぃふぇふぉ and ゔぁ…: 2 (`fa`, `va`);
//! - a lone small kana (ぁ, ゃ, ゎ): 2 (`xa`); っ before a kana that starts with a consonant: 1
//!   (the doubled consonant), otherwise 3 (`xtu`);
//! - ん: 1 (`n`) before a kana that starts with a consonant other than n/y; 2 (`nn`)
//!   before a vowel, a y- or n-row kana, a non-kana or at the end.
//!
//! A *unit* is what one romaji syllable produces: one kana, or a kana with its small
//! vowel/y companion. Completion is only offered at unit boundaries.

fn is_small_y(c: char) -> bool {
    matches!(c, 'ゃ' | 'ゅ' | 'ょ')
}

fn is_small_vowel(c: char) -> bool {
    matches!(c, 'ぁ' | 'ぃ' | 'ぅ' | 'ぇ' | 'ぉ')
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'あ' | 'い' | 'う' | 'え' | 'お')
}

fn is_hiragana(c: char) -> bool {
    ('\u{3041}'..='\u{3096}').contains(&c)
}

/// Whether the romaji of `c` starts with a consonant that can be doubled for っ.
fn starts_with_consonant(c: char) -> bool {
    is_hiragana(c)
        && !is_vowel(c)
        && !matches!(c, 'ん' | 'っ')
        && !is_small_y(c)
        && !is_small_vowel(c)
        && c != 'ゎ'
}

/// Whether ん before `c` can be typed as a single `n`.
fn single_n_before(c: char) -> bool {
    starts_with_consonant(c) && !matches!(c, 'な' | 'に' | 'ぬ' | 'ね' | 'の' | 'や' | 'ゆ' | 'よ')
}

/// Keystrokes per character of `kana`: the cost of a unit sits on its first character,
/// its small companion costs 0 (so prefix sums at characters with a nonzero cost are the
/// keystrokes needed to reach each unit boundary).
pub fn keystrokes(kana: &[char]) -> Vec<u32> {
    let mut out = vec![0u32; kana.len()];
    let mut i = 0;
    while i < kana.len() {
        let c = kana[i];
        let next = kana.get(i + 1).copied();
        let (cost, len) = match c {
            'っ' => match next {
                Some(n) if starts_with_consonant(n) => (1, 1),
                _ => (3, 1),
            },
            'ん' => match next {
                Some(n) if single_n_before(n) => (1, 1),
                _ => (2, 1),
            },
            _ if is_small_y(c) || is_small_vowel(c) || c == 'ゎ' => (2, 1),
            _ if is_vowel(c) => (1, 1),
            _ if is_hiragana(c) => match next {
                Some(n) if is_small_y(n) => (if matches!(c, 'じ') { 2 } else { 3 }, 2),
                Some(n) if is_small_vowel(n) => (if matches!(c, 'ふ' | 'ゔ') { 2 } else { 3 }, 2),
                _ => (2, 1),
            },
            _ => (1, 1),
        };
        out[i] = cost;
        i += len;
    }
    out
}

/// Total keystrokes to type `kana`.
pub fn total(kana: &str) -> u32 {
    let chars: Vec<char> = kana.chars().collect();
    keystrokes(&chars).iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        for (kana, n) in [
            ("きょう", 4),      // kyo u
            ("がっこう", 6),    // ga k ko u
            ("しんぶん", 7),    // si n bu nn
            ("こんにちは", 10), // ko nn ni ti ha
            ("じゃあ", 3),      // ja a
            ("ふぁいる", 5),    // fa i ru
            ("でぃすく", 7),    // dhi su ku
            ("ー。", 2),
            ("あっ", 4), // a xtu
        ] {
            assert_eq!(total(kana), n, "{kana}");
        }
    }
}

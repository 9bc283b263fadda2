//! The digit prior: word biases for the hybrid against kanji numerals before counters.
//!
//! Modern text writes a number before a counter in digits (`１年`, `２月`, `１０円`: KWDLC and WAC
//! train, 年 2,009 times after digits and 41 after kanji numerals), the literature in kanji
//! (`一年`, `二月`), and the LSTM, trained on both, prefers the kanji numerals that Mozc has as
//! whole words (`一年/いちねん`). From the annotated training text this counts, for every
//! character, how often it follows a run of digits and how often a run of kanji numerals; a
//! lexicon entry whose surface has a kanji numeral run followed by a character `c` that the
//! text writes after digits more often gets `weight · ln((k + 1) / (d + 1))` nats (d, k: the
//! counts for `c`; summed over its runs). Words the text writes with kanji numerals (`一緒`,
//! `一般`, `一つ`: つ follows kanji numerals 461 times, digits 212) keep 0. The biases go into the
//! model's `WordBias` section (`henkan model digit-bias`, then `henkan model attach bias`), which only the
//! hybrid reads.

use henkan::decoder::bias::WordBias;
use henkan::lexicon::Lexicon;
use std::collections::HashMap;

/// Kanji numerals.
const KANJI_NUMERALS: &str = "〇一二三四五六七八九十百千";

fn is_kanji_numeral(c: char) -> bool {
    KANJI_NUMERALS.contains(c)
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || ('０'..='９').contains(&c)
}

/// What follows numbers in a text: per character, after a run of digits and after a run of
/// kanji numerals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DigitCounts {
    after_digits: HashMap<char, u32>,
    after_kanji: HashMap<char, u32>,
}

/// Adds the character after every run of `member` characters in `chars`.
fn count_after(chars: &[char], member: impl Fn(char) -> bool, to: &mut HashMap<char, u32>) {
    for w in chars.windows(2) {
        if member(w[0]) && !member(w[1]) {
            *to.entry(w[1]).or_default() += 1;
        }
    }
}

impl DigitCounts {
    /// No text yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one sentence.
    pub fn add_text(&mut self, text: &str) {
        let chars: Vec<char> = text.chars().collect();
        count_after(&chars, is_digit, &mut self.after_digits);
        count_after(&chars, is_kanji_numeral, &mut self.after_kanji);
    }

    /// Counts one annotated sentence (`surface/reading/POS` tokens separated by spaces).
    pub fn add_tokens(&mut self, line: &str) {
        let text: String = line
            .split(' ')
            .filter_map(|t| t.split('/').next())
            .collect();
        self.add_text(&text);
    }

    /// (after digits, after kanji numerals) for a character.
    pub fn counts(&self, c: char) -> (u32, u32) {
        (
            self.after_digits.get(&c).copied().unwrap_or(0),
            self.after_kanji.get(&c).copied().unwrap_or(0),
        )
    }

    /// The bias of a word written `surface` (≤ 0; 0 without a kanji numeral run the text
    /// writes in digits).
    pub fn bias_of(&self, surface: &str, weight: f32) -> f32 {
        let chars: Vec<char> = surface.chars().collect();
        let mut bias = 0.0;
        for w in chars.windows(2) {
            if is_kanji_numeral(w[0]) && !is_kanji_numeral(w[1]) {
                let (d, k) = self.counts(w[1]);
                if d > k {
                    bias += weight * ((k + 1) as f32 / (d + 1) as f32).ln();
                }
            }
        }
        bias
    }
}

/// The digit prior of every lexicon entry that has one, and those entries' `surface/reading`
/// (for people reading the biases).
pub fn digit_bias(
    lexicon: &Lexicon,
    counts: &DigitCounts,
    weight: f32,
) -> (WordBias, HashMap<u32, String>) {
    let mut bias = WordBias::new();
    let mut names = HashMap::new();
    lexicon.for_each_entry(|reading, e| {
        let surface = lexicon.surface_text(&e.surface, reading);
        if surface.chars().any(is_kanji_numeral) {
            let b = counts.bias_of(&surface, weight);
            if b != 0.0 {
                bias.set(e.offset, b);
                names.insert(e.offset, format!("{surface}/{reading}"));
            }
        }
    });
    (bias, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_written_in_digits_charge_their_kanji_numeral_words() {
        let mut c = DigitCounts::new();
        for line in [
            "１/いち/名詞-数詞 年/ねん/接尾辞 前/まえ/名詞",
            "２０/にじゅう/名詞-数詞 年/ねん/接尾辞",
            "一/ひと/名詞-数詞 つ/つ/接尾辞",
            "一緒/いっしょ/名詞",
        ] {
            c.add_tokens(line);
        }
        c.add_text("十年ひと昔");
        assert_eq!(c.counts('年'), (2, 1));
        assert_eq!(c.counts('つ'), (0, 1));
        assert_eq!(c.counts('緒'), (0, 1));
        let b = c.bias_of("一年", 2.0);
        assert!((b - 2.0 * (2.0f32 / 3.0).ln()).abs() < 1e-6, "{b}");
        // written with kanji numerals as often or more: no charge
        assert_eq!(c.bias_of("一つ", 2.0), 0.0);
        assert_eq!(c.bias_of("一緒", 2.0), 0.0);
        // no kanji numeral, or nothing after it
        assert_eq!(c.bias_of("１年", 2.0), 0.0);
        assert_eq!(c.bias_of("第一", 2.0), 0.0);
        assert_eq!(c.bias_of("", 2.0), 0.0);
        // every run counts
        assert!((c.bias_of("一年二年", 1.0) - 2.0 * (2.0f32 / 3.0).ln()).abs() < 1e-6);
    }
}

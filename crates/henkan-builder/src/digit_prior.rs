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
//! `一般`, `一つ`: つ follows kanji numerals 461 times, digits 212) keep 0, and so does a word that
//! analyzed modern text writes whole with kanji numerals clearly more often than with digits
//! ([`written_in_kanji`]: `一時停止`, `十分`, though 時 and 分 follow digits). The biases go into the
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

/// The surfaces of an analyzed sentence's tokens (`surface/…`, separated by spaces).
fn surfaces(line: &str) -> impl Iterator<Item = &str> {
    line.split(' ')
        .filter_map(|t| t.split('/').next())
        .filter(|t| !t.is_empty())
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
        let text: String = surfaces(line).collect();
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

/// How often analyzed text writes given words whole: the tokens from one token boundary to
/// another spell the word (`一時` in `一時/停止`, not in `一時間`; `1時` in `1/時/に`).
#[derive(Debug, Clone, Default)]
pub struct WordCounts {
    counts: HashMap<String, u32>,
    max_len: usize,
}

impl WordCounts {
    /// Counts of `words`, all 0.
    pub fn new(words: impl IntoIterator<Item = String>) -> Self {
        let counts: HashMap<String, u32> = words.into_iter().map(|w| (w, 0)).collect();
        let max_len = counts.keys().map(String::len).max().unwrap_or(0);
        WordCounts { counts, max_len }
    }

    /// Counts one analyzed sentence (`surface/…` tokens separated by spaces).
    pub fn add_tokens(&mut self, line: &str) {
        let toks: Vec<&str> = surfaces(line).collect();
        let mut word = String::new();
        for i in 0..toks.len() {
            word.clear();
            for t in &toks[i..] {
                word.push_str(t);
                if word.len() > self.max_len {
                    break;
                }
                if let Some(c) = self.counts.get_mut(word.as_str()) {
                    *c += 1;
                }
            }
        }
    }

    /// How often the text wrote `word` (0 for a word not asked for).
    pub fn get(&self, word: &str) -> u32 {
        self.counts.get(word).copied().unwrap_or(0)
    }
}

/// The word written with its numerals in digits, half and full width (`一時` → `1時`, `１時`;
/// one form where the widths agree, as with Latin letters: `一時OFF` → `1時OFF`), when it has a
/// numeral before a counter ([`henkan::lattice::number::digit_twin`]).
pub fn digit_forms(surface: &str) -> Vec<String> {
    let Some(half) = henkan::lattice::number::digit_twin(surface) else {
        return Vec::new();
    };
    let full = henkan::lattice::DigitWidth::Full.apply(&half);
    if full == half {
        vec![half]
    } else {
        vec![half, full]
    }
}

/// A word is written with kanji numerals when the text writes it so at least `min_count` times
/// and more than 1.5 times as often as with digits: it keeps no digit prior, whatever the
/// characters after numerals do elsewhere (whole words in the analyzed modern text: `一時停止`
/// 65 against 0, `十分` 712 against 144, `一時` 230 against 123). Counters the text writes
/// either way keep theirs (`一本` 117 against 114, `二人` 665 against 627, `一匹` 251 against
/// 172): with more than 1 times as often, `いっぽん` gave `一本` where Mozc gives `1本`.
pub fn written_in_kanji(words: &WordCounts, surface: &str, min_count: u32) -> bool {
    let kanji = words.get(surface);
    let digits: u32 = digit_forms(surface).iter().map(|d| words.get(d)).sum();
    kanji >= min_count && 2 * kanji > 3 * digits
}

/// The lexicon's surfaces that the character counts charge, with their digit forms: the words
/// [`digit_bias`] asks `words` about.
pub fn charged_words(lexicon: &Lexicon, counts: &DigitCounts) -> Vec<String> {
    let mut out = Vec::new();
    lexicon.for_each_entry(|reading, e| {
        let surface = lexicon.surface_text(&e.surface, reading);
        if surface.chars().any(is_kanji_numeral) && counts.bias_of(&surface, 1.0) != 0.0 {
            out.extend(digit_forms(&surface));
            out.push(surface);
        }
    });
    out.sort();
    out.dedup();
    out
}

/// The digit prior of every lexicon entry that has one, and those entries' `surface/reading`
/// (for people reading the biases). With `words` ([`WordCounts`] of [`charged_words`]), a word
/// the text writes with kanji numerals ([`written_in_kanji`], at least `min_count` times) gets
/// none.
pub fn digit_bias(
    lexicon: &Lexicon,
    counts: &DigitCounts,
    words: Option<&WordCounts>,
    min_count: u32,
    weight: f32,
) -> (WordBias, HashMap<u32, String>) {
    let mut bias = WordBias::new();
    let mut names = HashMap::new();
    lexicon.for_each_entry(|reading, e| {
        let surface = lexicon.surface_text(&e.surface, reading);
        if surface.chars().any(is_kanji_numeral) {
            let b = counts.bias_of(&surface, weight);
            if b != 0.0 && !words.is_some_and(|w| written_in_kanji(w, &surface, min_count)) {
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

    #[test]
    fn a_word_the_text_writes_with_kanji_numerals_keeps_them() {
        let forms = [
            "一時",
            "1時",
            "１時",
            "一時間",
            "1時間",
            "１時間",
            "一時停止",
        ];
        let mut w = WordCounts::new(forms.iter().map(|f| f.to_string()));
        for line in [
            "一時/いちじ/1 停止/ていし/2",
            "一時/いちじ/1 停止/ていし/2",
            "一時/いちじ/1 は/は/2",
            "1/いち/1 時/じ/2 に/に/3",
            "１/いち/1 時間/じかん/2",
            "1/いち/1 時間/じかん/2 半/はん/3",
        ] {
            w.add_tokens(line);
        }
        // whole words only: 一時停止 has 一時 in it, 1時間 does not have 1時
        assert_eq!(w.get("一時"), 3);
        assert_eq!(w.get("一時停止"), 2);
        assert_eq!(w.get("1時"), 1);
        assert_eq!(w.get("1時間") + w.get("１時間"), 2);
        assert_eq!(w.get("一時間"), 0);
        assert_eq!(digit_forms("一時間"), ["1時間", "１時間"]);
        assert_eq!(digit_forms("一時OFF"), ["1時OFF"]);
        assert!(digit_forms("一緒").is_empty());
        assert!(written_in_kanji(&w, "一時", 2));
        assert!(!written_in_kanji(&w, "一時", 4));
        assert!(!written_in_kanji(&w, "一時間", 1));
        // its digit form never written
        assert!(written_in_kanji(&w, "一時停止", 2));
        assert!(!written_in_kanji(&w, "一時停止", 3));
        // a counter the text writes either way keeps its prior: 3 against 2 is not 1.5 times
        let mut w = WordCounts::new(["一本", "1本", "１本"].map(String::from));
        for line in [
            "一本/いっぽん/1",
            "一本/いっぽん/1",
            "一本/いっぽん/1",
            "1/いち/1 本/ほん/2",
        ] {
            w.add_tokens(line);
        }
        assert!(written_in_kanji(&w, "一本", 1));
        w.add_tokens("１/いち/1 本/ほん/2");
        assert!(!written_in_kanji(&w, "一本", 1));
    }
}

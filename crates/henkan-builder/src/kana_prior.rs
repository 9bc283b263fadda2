//! The kana-phrase prior: word biases for the hybrid against Mozc's all-kana phrases where text
//! writes the same words with kanji.
//!
//! Mozc's dictionary has whole phrases written in kana as one entry (`よろしくおねがいします`,
//! `なんですか`, `ありがとうございます`), each with one word cost and one connection, while the
//! same words with kanji are several entries (`よろしく` `お願いします`), each paying its own cost
//! and connection. The hybrid adds those costs to the LSTM's score, so the phrase entry starts
//! ahead by what the extra costs add up to, often more than the LSTM's preference for the kanji
//! (without this prior `はい、よろしくおねがいします` stays in kana, though the chat text writes
//! `よろしくお願いします` 5,403 times and the kana 321). From the analyzed training text this counts, for the reading of every
//! such entry, how often a run of tokens reads it and how often those tokens spell it in kana; an
//! entry the text writes in kana less than half the time gets `weight · ln(2 · (k + 1) / (n + 2))`
//! nats (k: in kana, n: in all), others 0 (`なんですか`, `わからない`, `よさそう`: more often in
//! kana than not). The biases go into the model's `WordBias` section beside the digit prior
//! (`henkan model kana-bias`, then `henkan model attach bias`), which only the hybrid reads.

use crate::gold::parse_gold_token;
use crate::token::parse_token;
use henkan::decoder::bias::WordBias;
use henkan::lexicon::Lexicon;
use std::collections::HashMap;

/// Phrases read with fewer kana are left alone (one or two kana are particles and endings).
pub const MIN_CHARS: usize = 3;

/// Whether a text is hiragana only (the prolonged sound mark included).
fn is_hiragana(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| henkan::composer::is_hiragana(c) || c == 'ー')
}

/// The surface and reading of a token `surface/reading/left/right` (the analyzed training
/// text, [`parse_token`]) or `surface/reading/POS` (the annotated sets, [`parse_gold_token`]).
fn token_parts(tok: &str) -> Option<(String, String)> {
    parse_token(tok)
        .map(|(s, r, _, _)| (s, r))
        .or_else(|| parse_gold_token(tok).map(|(s, r)| (s.to_string(), r.to_string())))
}

/// For each phrase reading: how often runs of tokens read it, and how often they spell it in
/// kana.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KanaCounts {
    /// reading → (in kana, in all)
    counts: HashMap<String, (u32, u32)>,
    /// the longest reading, in chars
    longest: usize,
}

impl KanaCounts {
    /// Counts for these readings (hiragana of [`MIN_CHARS`] or more; others are ignored).
    pub fn new<S: Into<String>>(readings: impl IntoIterator<Item = S>) -> Self {
        let mut counts = HashMap::new();
        let mut longest = 0;
        for r in readings {
            let r: String = r.into();
            if is_hiragana(&r) && r.chars().count() >= MIN_CHARS {
                longest = longest.max(r.chars().count());
                counts.insert(r, (0, 0));
            }
        }
        Self { counts, longest }
    }

    /// Counts one analyzed sentence (tokens separated by spaces): every run of tokens whose
    /// readings make one of the phrases' readings.
    pub fn add_tokens(&mut self, line: &str) {
        let toks: Vec<(String, String)> = line.split(' ').filter_map(token_parts).collect();
        let (mut reading, mut surface) = (String::new(), String::new());
        for i in 0..toks.len() {
            reading.clear();
            surface.clear();
            let mut chars = 0;
            for (s, r) in &toks[i..] {
                chars += r.chars().count();
                if chars > self.longest {
                    break;
                }
                reading.push_str(r);
                surface.push_str(s);
                if let Some(c) = self.counts.get_mut(&reading) {
                    c.1 += 1;
                    if surface == reading {
                        c.0 += 1;
                    }
                }
            }
        }
    }

    /// (in kana, in all) for a reading.
    pub fn counts(&self, reading: &str) -> (u32, u32) {
        self.counts.get(reading).copied().unwrap_or((0, 0))
    }

    /// The bias of the kana phrase read `reading` (≤ 0; 0 when the text writes it in kana half
    /// the time or more).
    pub fn bias_of(&self, reading: &str, weight: f32) -> f32 {
        let (k, n) = self.counts(reading);
        let share = 2.0 * (k + 1) as f32 / (n + 2) as f32;
        if share < 1.0 {
            weight * share.ln()
        } else {
            0.0
        }
    }
}

/// The lexicon's kana phrases: entries written as they read, in hiragana of [`MIN_CHARS`] or
/// more, whose left and right POS differ (a phrase spanning several words: `よろしくおねがい
/// します` is an adverb on its left and `ます` on its right). Returns (reading, entry offset).
pub fn kana_phrases(lexicon: &Lexicon) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    lexicon.for_each_entry(|reading, e| {
        if e.left_id != e.right_id
            && reading.chars().count() >= MIN_CHARS
            && is_hiragana(reading)
            && lexicon.surface_text(&e.surface, reading) == reading
        {
            out.push((reading.to_string(), e.offset));
        }
    });
    out
}

/// The kana-phrase prior of every phrase that has one and whose reading the text has at least
/// `min_count` times, and those entries' `surface/reading` with their counts (for people
/// reading the biases).
pub fn kana_bias(
    phrases: &[(String, u32)],
    counts: &KanaCounts,
    weight: f32,
    min_count: u32,
) -> (WordBias, HashMap<u32, String>) {
    let mut bias = WordBias::new();
    let mut names = HashMap::new();
    for (reading, entry) in phrases {
        if counts.counts(reading).1 < min_count {
            continue;
        }
        let b = counts.bias_of(reading, weight);
        if b != 0.0 {
            bias.set(*entry, b);
            let (k, n) = counts.counts(reading);
            names.insert(*entry, format!("{reading}/{reading} {k}/{n}"));
        }
    }
    (bias, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_written_with_kanji_more_often_than_not_is_charged() {
        let mut c = KanaCounts::new(["よろしくおねがいします", "なんですか", "は"]);
        for line in [
            "よろしく/よろしく/12/12 お願いします/おねがいします/1841/240",
            "はい/はい/2591/2591 、/、/2658/2658 よろしく/よろしく/12/12 お願いします/おねがいします/1841/240",
            "よろしくおねがいします/よろしくおねがいします/12/240",
            "何/なん/名詞 です/です/判定詞 か/か/助詞",
            "なんですか/なんですか/12/423",
            "なんですか/なんですか/12/423",
        ] {
            c.add_tokens(line);
        }
        assert_eq!(c.counts("よろしくおねがいします"), (1, 3));
        assert_eq!(c.counts("なんですか"), (2, 3));
        // too short to count
        assert_eq!(c.counts("は"), (0, 0));
        let b = c.bias_of("よろしくおねがいします", 1.0);
        assert!((b - (2.0f32 * 2.0 / 5.0).ln()).abs() < 1e-6, "{b}");
        // in kana more often than not, or never seen: no charge
        assert_eq!(c.bias_of("なんですか", 1.0), 0.0);
        assert_eq!(c.bias_of("ありがとう", 1.0), 0.0);
    }

    #[test]
    fn the_lexicons_kana_phrases_get_the_bias_their_counts_give() {
        use crate::lexicon::LexiconWriter;
        let mut w = LexiconWriter::new();
        w.add(
            "よろしくおねがいします",
            12,
            240,
            5256,
            "よろしくおねがいします",
        );
        w.add(
            "よろしくおねがいします",
            1841,
            1841,
            8415,
            "ヨロシクオネガイシマス",
        );
        w.add("なんですか", 12, 423, 5000, "なんですか");
        // one word (the same POS on both sides), too short, or not written as it reads
        w.add("かわいい", 2472, 2472, 4000, "かわいい");
        w.add("です", 172, 240, 100, "です");
        w.add("おねがい", 1841, 240, 4000, "お願い");
        let lex = w.into_lexicon().unwrap();
        let phrases = kana_phrases(&lex);
        let readings: Vec<&str> = phrases.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(readings, ["なんですか", "よろしくおねがいします"]);
        let mut c = KanaCounts::new(phrases.iter().map(|(r, _)| r.clone()));
        for _ in 0..3 {
            c.add_tokens("よろしく/よろしく/12/12 お願いします/おねがいします/1841/240");
            c.add_tokens("何/なん/1906/1906 です/です/172/172 か/か/325/325");
        }
        let (bias, names) = kana_bias(&phrases, &c, 1.0, 3);
        let yoroshiku = phrases[1].1;
        assert_eq!(bias.len(), 2);
        assert!((bias.get(yoroshiku) - (2.0f32 / 5.0).ln()).abs() < 1e-6);
        assert_eq!(
            names[&yoroshiku],
            "よろしくおねがいします/よろしくおねがいします 0/3"
        );
        // below the minimum count: left out
        assert!(kana_bias(&phrases, &c, 1.0, 4).0.is_empty());
    }

    #[test]
    fn tokens_of_both_formats_are_read() {
        let parts = |t| token_parts(t).map(|(s, r)| format!("{s}|{r}"));
        assert_eq!(
            parts("お願い/おねがい/1841/1841").as_deref(),
            Some("お願い|おねがい")
        );
        // the analyzed text escapes `/` in a surface
        assert_eq!(parts("%2F/%2F/2645/2645").as_deref(), Some("/|/"));
        assert_eq!(parts("何/なん/名詞").as_deref(), Some("何|なん"));
        assert_eq!(parts("1/いち/名詞-数詞").as_deref(), Some("1|いち"));
    }
}

//! Training the hybrid's word bias ([`crate::decoder::bias`]): an averaged structured
//! perceptron over the hybrid decoder itself, towards the gold paths of hand-annotated
//! sentences.
//!
//! For every training sentence (`reading`, annotated text) the hybrid converts the reading
//! with the current biases. When its best sentence differs from the annotation (compared
//! after [`fold`]), the gold path ([`GoldAligner`]: of the lattice paths spelling the
//! annotation, the one closest to the decoded path) and the decoded path are compared word by
//! word (a word = span + surface): the entry of every word only on the gold path gains `rate`,
//! that of every word only on the decoded path loses `rate`. The output is the average of the weights over all steps (the averaged
//! perceptron), which generalizes better than the last weights.
//!
//! Parallel training uses iterative parameter mixing: each epoch, the sentences are dealt
//! out to `threads` workers that start from the same weights; the epoch's weights are the
//! mean of theirs.

use crate::build::gold::{fold, unknown_word_cost, GoldAligner};
use crate::decoder::bias::WordBias;
use crate::decoder::neural::{NeuralOptions, Scoring};
use crate::error::Result;
use crate::lattice::{Lattice, NUMBER_ENTRY, UNKNOWN_ENTRY};
use crate::model::{replace_section, SectionKind};
use crate::{Engine, Session};
use std::collections::HashMap;

/// One annotated sentence: its reading and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// Kana reading (the concatenation of the tokens' readings).
    pub reading: String,
    /// Annotated text (the concatenation of the tokens' surfaces).
    pub text: String,
}

/// Parses a line of gold tokens `surface/reading/POS …`; `None` when a token is malformed or
/// the line is empty.
pub fn parse_tokens(line: &str) -> Option<Sentence> {
    let (mut reading, mut text) = (String::new(), String::new());
    for tok in line.split_whitespace() {
        let mut f = tok.rsplitn(3, '/');
        let (_pos, r, s) = (f.next(), f.next(), f.next());
        match (r, s) {
            (Some(r), Some(s)) if !r.is_empty() && !s.is_empty() => {
                reading.push_str(r);
                text.push_str(s);
            }
            _ => return None,
        }
    }
    (!reading.is_empty()).then_some(Sentence { reading, text })
}

/// Training settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BiasOptions {
    /// Step of an update, in nats.
    pub rate: f32,
    /// Worker threads (parameter mixing after each epoch).
    pub threads: usize,
    /// The hybrid's settings while training (use the ones it will run with).
    pub decoder: NeuralOptions,
}

impl Default for BiasOptions {
    fn default() -> Self {
        BiasOptions {
            rate: 0.1,
            threads: 1,
            decoder: NeuralOptions::default(),
        }
    }
}

/// What an epoch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EpochReport {
    /// Sentences seen.
    pub sentences: usize,
    /// Sentences whose best conversion was the annotation (before any update of this one).
    pub correct: usize,
    /// Wrong sentences without a gold path (no update).
    pub no_gold: usize,
    /// Sentences that caused an update.
    pub updates: usize,
}

/// The result of one epoch: the current weights (to continue from) and the averaged ones
/// (to use).
#[derive(Debug, Clone, Default)]
pub struct Epoch {
    /// Mean of the workers' last weights.
    pub current: WordBias,
    /// Mean of the workers' averaged weights.
    pub averaged: WordBias,
    /// Counts.
    pub report: EpochReport,
    /// `surface/reading` of the entries updated (for people reading the weights).
    pub names: HashMap<u32, String>,
}

/// A word of a path: (begin, end, surface, entry). Two words are the same when their span
/// and surface are: entries differing only in POS ids write the same text, and the aligner
/// picks one of them by cost alone, so they are not told apart.
type Word = (u16, u16, String, u32);

fn words(lattice: &Lattice, engine: &Engine, path: &[u32]) -> Vec<Word> {
    path.iter()
        .map(|&i| {
            let n = lattice.nodes()[i as usize];
            (
                n.begin,
                n.end,
                lattice.surface(&engine.lexicon, &n),
                n.entry,
            )
        })
        .collect()
}

fn same(a: &Word, b: &Word) -> bool {
    a.0 == b.0 && a.1 == b.1 && a.2 == b.2
}

/// The perceptron's update for one sentence: +1 per entry only on the gold path, −1 per
/// entry only on the decoded one (numbers and unknown words have no bias).
fn difference(gold: &[Word], got: &[Word]) -> HashMap<u32, i32> {
    let mut d: HashMap<u32, i32> = HashMap::new();
    for w in gold {
        if !got.iter().any(|g| same(g, w)) {
            *d.entry(w.3).or_default() += 1;
        }
    }
    for w in got {
        if !gold.iter().any(|g| same(g, w)) {
            *d.entry(w.3).or_default() -= 1;
        }
    }
    d.retain(|&e, v| *v != 0 && e != NUMBER_ENTRY && e != UNKNOWN_ENTRY);
    d
}

fn same_text(a: &str, b: &str) -> bool {
    a.chars().map(fold).eq(b.chars().map(fold))
}

/// Bonus of a gold-path word that is on the decoded path too (more than any cost difference
/// of one word): the update then touches only where the two texts differ.
const DECODED_WORD_BONUS: i64 = 30_000;

fn lm_of(engine: &Engine) -> &crate::lm::lstm::NeuralLm {
    engine.neural.as_ref().expect("checked by the caller")
}

/// One worker's pass over its sentences.
fn worker(engine: &Engine, start: &WordBias, sentences: &[&Sentence], opts: &BiasOptions) -> Part {
    let mut names = HashMap::new();
    let mut engine = engine.clone();
    let Some(lm) = engine.neural.as_mut() else {
        return (start.clone(), start.clone(), EpochReport::default(), names);
    };
    lm.bias = start.clone();
    let mut session = Session::new();
    session.set_scoring(Scoring::Hybrid, opts.decoder);
    let mut aligner = GoldAligner::new();
    // averaged perceptron: avg = w − u / (n + 1), u = Σ c · Δ over the updates, c = the
    // 1-based number of the sentence that made them
    let mut u: HashMap<u32, f32> = HashMap::new();
    let mut report = EpochReport::default();
    for (i, s) in sentences.iter().enumerate() {
        let c = (i + 1) as f32;
        report.sentences += 1;
        session.clear();
        let got_text = session.best_text_of(&engine, &s.reading);
        if same_text(&got_text, &s.text) {
            report.correct += 1;
            continue;
        }
        let got_path = session.neural_best(&engine).unwrap_or_default();
        let got = words(session.lattice(), &engine, &got_path);
        // The oracle: of the paths spelling the annotation, the one closest to the decoded
        // path (its words get a bonus; the aligner's lattice over the same reading has the
        // same nodes), then with words the LM knows, then the cheapest.
        let decoded: Vec<(u16, u16, u32)> = got.iter().map(|w| (w.0, w.1, w.3)).collect();
        let lm = lm_of(&engine);
        let gold = aligner
            .align(&engine, &s.reading, &s.text, |n| {
                let mut extra = 0;
                if decoded.contains(&(n.begin, n.end, n.entry)) {
                    extra -= DECODED_WORD_BONUS;
                }
                extra + unknown_word_cost(lm, n)
            })
            .map(|p| words(aligner.lattice(), &engine, &p));
        let got = (!got.is_empty()).then_some(got);
        let (Some(got), Some(gold)) = (got, gold) else {
            report.no_gold += 1;
            continue;
        };
        for w in gold.iter().chain(&got) {
            names.entry(w.3).or_insert_with(|| {
                let r: String = s
                    .reading
                    .chars()
                    .skip(w.0 as usize)
                    .take((w.1 - w.0) as usize)
                    .collect();
                format!("{}/{r}", w.2)
            });
        }
        let d = difference(&gold, &got);
        if !d.is_empty() {
            report.updates += 1;
            let lm = engine.neural.as_mut().expect("checked above");
            for (e, k) in d {
                let delta = opts.rate * k as f32;
                lm.bias.add(e, delta);
                *u.entry(e).or_default() += c * delta;
            }
        }
    }
    let current = engine.neural.map(|lm| lm.bias).unwrap_or_default();
    let mut averaged = current.clone();
    let n = (sentences.len() + 1) as f32;
    for (e, ue) in u {
        averaged.add(e, -ue / n);
    }
    (current, averaged, report, names)
}

/// A worker's result: last weights, averaged weights, counts, entry names.
type Part = (WordBias, WordBias, EpochReport, HashMap<u32, String>);

fn mean(parts: &[WordBias]) -> WordBias {
    let mut out = WordBias::new();
    let k = parts.len().max(1) as f32;
    for p in parts {
        for (e, w) in p.entries() {
            out.add(e, w / k);
        }
    }
    out
}

/// One epoch of perceptron training from `start` over `sentences` (in this order, dealt out
/// round-robin to the workers).
pub fn train_epoch(
    engine: &Engine,
    start: &WordBias,
    sentences: &[Sentence],
    opts: &BiasOptions,
) -> Epoch {
    let threads = opts.threads.max(1);
    let shares: Vec<Vec<&Sentence>> = (0..threads)
        .map(|t| sentences.iter().skip(t).step_by(threads).collect())
        .collect();
    let results: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares
            .iter()
            .map(|share| scope.spawn(move || worker(engine, start, share, opts)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a bias worker panicked"))
            .collect()
    });
    let mut report = EpochReport::default();
    let mut names = HashMap::new();
    for (_, _, r, n) in &results {
        names.extend(n.iter().map(|(&e, s)| (e, s.clone())));
        report.sentences += r.sentences;
        report.correct += r.correct;
        report.no_gold += r.no_gold;
        report.updates += r.updates;
    }
    let current: Vec<WordBias> = results.iter().map(|r| r.0.clone()).collect();
    let averaged: Vec<WordBias> = results.iter().map(|r| r.1.clone()).collect();
    Epoch {
        current: mean(&current),
        averaged: mean(&averaged),
        report,
        names,
    }
}

/// Writes biases as `entry<TAB>bias<TAB>surface/reading` lines (the names for people; only
/// the first two columns are read back).
pub fn write_tsv(bias: &WordBias, names: &HashMap<u32, String>) -> String {
    let mut out = String::new();
    for (e, w) in bias.entries() {
        let name = names.get(&e).map(String::as_str).unwrap_or("");
        out.push_str(&format!("{e}\t{w:.4}\t{name}\n"));
    }
    out
}

/// Adds (or replaces) the `WordBias` section of a model: the biases rounded to multiples of
/// `step` nats (default: [`WordBias::fitting_step`], at least 0.01). Returns the new model
/// and the section's size.
pub fn attach_bias(model: Vec<u8>, bias: &WordBias, step: Option<f32>) -> Result<(Vec<u8>, usize)> {
    let section = bias.to_section(step.unwrap_or_else(|| bias.fitting_step(0.01)));
    let len = section.len();
    Ok((replace_section(model, SectionKind::WordBias, section)?, len))
}

/// Reads what [`write_tsv`] wrote.
pub fn read_tsv(text: &str) -> std::result::Result<WordBias, String> {
    let mut b = WordBias::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split('\t');
        let e: u32 = f
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| format!("line {}: no entry", k + 1))?;
        let w: f32 = f
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| format!("line {}: no bias", k + 1))?;
        b.set(e, w);
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_give_reading_and_text() {
        let s = parse_tokens("今日/きょう/名詞 は/は/助詞 １/いち/名詞-数詞").unwrap();
        assert_eq!(s.reading, "きょうはいち");
        assert_eq!(s.text, "今日は１");
        assert!(parse_tokens("").is_none());
        assert!(parse_tokens("今日/きょう/名詞 broken").is_none());
    }

    #[test]
    fn the_update_rewards_gold_only_words_and_punishes_decoded_only_ones() {
        let w = |b: u16, e: u16, s: &str, entry: u32| (b, e, s.to_string(), entry);
        let gold = [w(0, 2, "今日", 10), w(2, 3, "は", 11), w(3, 5, "晴れ", 12)];
        let got = [w(0, 2, "今日", 10), w(2, 5, "葉榛", 20)];
        let d = difference(&gold, &got);
        assert_eq!(d.len(), 3);
        assert_eq!(d[&11], 1);
        assert_eq!(d[&12], 1);
        assert_eq!(d[&20], -1);
        // the same entry at another span is another word; numbers have no bias
        let d = difference(
            &[w(0, 1, "木", 7), w(1, 2, "１", NUMBER_ENTRY)],
            &[w(1, 2, "木", 7)],
        );
        assert!(d.is_empty(), "{d:?}");
        // the same text with another entry (POS variant) is the same word
        let d = difference(&[w(0, 2, "今日", 10)], &[w(0, 2, "今日", 13)]);
        assert!(d.is_empty(), "{d:?}");
    }
}

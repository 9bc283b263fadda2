//! Recent words: the user's own words raise their predictions (Mozc's user-history
//! prediction, in its simplest form: a cache language model).
//!
//! Terms:
//! - *recent words*: the last [`RECENT_CAPACITY`] words committed in any field, as n-gram word
//!   ids, each with the word committed before it (`<s>` at the start of a text). Moving the
//!   caret resets a field's context, not its recent words: people come back to the words they
//!   typed a moment ago, in this field or the next.
//! - *cache probability* of word `w` after word `v`: `μ · c(v, w) / c(v) + (1 − μ) · c(w) / n`
//!   over the recent words (`c(v, w)`: `w` committed right after `v`; `c(v)`: words committed
//!   after `v`; `n`: recent words), μ = [`RECENT_BIGRAM_WEIGHT`].
//!
//! The list's ranked candidates (scores `s`, log2, [`super::neural::rerank`]) become a
//! distribution `p = 2^s / Σ 2^s`, and the recent words with the query's reading prefix one
//! too, `q = P_cache / Σ P_cache` (completions: among the words of that prefix). Each word gets
//! `(1 − λ) · p + λ · q`, λ = [`RECENT_WEIGHT`] (after a commit λ · n / (n + 50) for `n`
//! recent words, [`RECENT_WARMUP`]), back on the scale of the scores (+ log2 Σ 2^s,
//! so phrases still compare with words); recent words that were not candidates join the list
//! ([`RecentWords::apply`]). Only words of the n-gram's vocabulary are kept; `<unk>` breaks
//! the bigrams. Measured on chat.dev (docs/prediction.md).
//!
//! The words stay in memory, in the page, for as long as the IME lives; nothing is stored.

use super::Prediction;
use crate::lm::ngram::{NgramModel, BOS, UNK};
use std::collections::VecDeque;

/// Recent words kept (the oldest is forgotten first; 150 / 300 / 1,000 on chat.dev's first
/// 3,000 lines within ±0.2 points of each other).
pub const RECENT_CAPACITY: usize = 300;

/// λ: the share of the recent words in the mixture (0.1 / 0.2 / 0.35 on chat.dev's first
/// 3,000 lines: nwp_top3 0.2786 / 0.2786 / 0.2755, ksr 0.3420 / 0.3453 / 0.3447).
pub const RECENT_WEIGHT: f32 = 0.2;

/// μ: the share of the bigram in the cache probability (0.3 / 0.5 / 0.7 on chat.dev's first
/// 3,000 lines: nwp_top3 0.2784 / 0.2786 / 0.2789, ksr 0.3449 / 0.3453 / 0.3457).
pub const RECENT_BIGRAM_WEIGHT: f32 = 0.5;

/// After a commit (next words, no query), the recent words' share grows with their number
/// `n`: λ · n / (n + this). A few words make a peaky cache (three words: a third of λ each)
/// that pushed them over better next words; with a query typed, a recent word of its prefix
/// is strong evidence and keeps the whole λ. Measured 2026-12-02 against λ alone (0): the
/// first line typed (`eval prediction --committed`, chat.dev's first 1,500 lines)
/// `committed_top3` 0.2842 → 0.3090; chat.dev typed in order, 28 blocks of 1,000 lines,
/// `nwp_top3` +0.03 ± 0.01 points, ksr +0.011 ± 0.004 (20 / 50 / 100 for every list instead:
/// ksr −0.02 / −0.04 / −0.07).
pub const RECENT_WARMUP: f32 = 50.0;

/// Recent words that join a list without being the n-gram's candidates, at most.
pub const RECENT_CANDIDATES: usize = 30;

/// The recent words (see the module docs), counted when a list asks (a few hundred pairs).
#[derive(Debug, Clone)]
pub struct RecentWords {
    /// `(previous word, word)`, oldest first.
    ring: VecDeque<(u16, u16)>,
    capacity: usize,
    /// λ ([`RECENT_WEIGHT`]).
    pub weight: f32,
    /// μ ([`RECENT_BIGRAM_WEIGHT`]).
    pub bigram_weight: f32,
    /// How the share grows with the number of recent words ([`RECENT_WARMUP`]).
    pub warmup: f32,
}

impl Default for RecentWords {
    fn default() -> Self {
        RecentWords::new(RECENT_CAPACITY)
    }
}

/// One distinct recent word: its id, how often it was committed, and how often right after the
/// word asked about.
#[derive(Debug, Clone, Copy)]
struct Count {
    id: u16,
    all: u32,
    after: u32,
}

impl RecentWords {
    /// No recent words yet; keeps at most `capacity` (0: keeps nothing, changes nothing).
    pub fn new(capacity: usize) -> Self {
        RecentWords {
            ring: VecDeque::new(),
            capacity,
            weight: RECENT_WEIGHT,
            bigram_weight: RECENT_BIGRAM_WEIGHT,
            warmup: RECENT_WARMUP,
        }
    }

    /// How many recent words are kept.
    pub fn len(&self) -> usize {
        self.ring.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }

    /// Forgets every recent word.
    pub fn clear(&mut self) {
        self.ring.clear();
    }

    /// Forgets every commit of the words `ids` (the user deleted a suggestion made of them:
    /// Mozc's DeleteSelectedCandidate). Returns whether any was a recent word.
    pub fn forget(&mut self, ids: &[u16]) -> bool {
        let before = self.ring.len();
        self.ring.retain(|&(_, id)| !ids.contains(&id));
        self.ring.len() != before
    }

    /// Word `id` was committed after word `prev` (`<s>` at the start of a text, `<unk>` after
    /// a word outside the vocabulary). `<unk>` and `<s>` themselves are not kept.
    pub fn push(&mut self, prev: u16, id: u16) {
        if id <= BOS || self.capacity == 0 {
            return;
        }
        if self.ring.len() >= self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back((prev, id));
    }

    /// The distinct recent words in id order with their counts, and how many words were
    /// committed right after `prev` (none after `<unk>`).
    fn counts(&self, prev: u16) -> (Vec<Count>, u32) {
        let mut out: Vec<Count> = Vec::new();
        let mut after = 0;
        for &(p, id) in &self.ring {
            let follows = u32::from(p == prev && prev != UNK);
            after += follows;
            let at = out.partition_point(|c| c.id < id);
            match out.get_mut(at).filter(|c| c.id == id) {
                Some(c) => {
                    c.all += 1;
                    c.after += follows;
                }
                None => out.insert(
                    at,
                    Count {
                        id,
                        all: 1,
                        after: follows,
                    },
                ),
            }
        }
        (out, after)
    }

    fn cache_probability(&self, c: &Count, after: u32) -> f32 {
        let uni = c.all as f32 / self.ring.len() as f32;
        let bi = if after > 0 {
            c.after as f32 / after as f32
        } else {
            0.0
        };
        self.bigram_weight * bi + (1.0 - self.bigram_weight) * uni
    }

    /// The cache probability of word `id` after word `prev` (0 for a word not among the
    /// recent words).
    pub fn probability(&self, prev: u16, id: u16) -> f32 {
        let (counts, after) = self.counts(prev);
        counts
            .iter()
            .find(|c| c.id == id)
            .map_or(0.0, |c| self.cache_probability(c, after))
    }

    /// λ for a list of `query`'s completions, or of next words when it is empty
    /// ([`RECENT_WARMUP`]).
    fn share(&self, query: &str) -> f32 {
        let n = self.ring.len() as f32;
        if query.is_empty() && n + self.warmup > 0.0 {
            self.weight * n / (n + self.warmup)
        } else {
            self.weight
        }
    }

    /// Mixes the ranked candidates `cands` (completions of `query`, or next words when it is
    /// empty, after word `prev`) with the recent words of the query's reading prefix (see the
    /// module docs), adds the likeliest of those that are not among them (at most
    /// [`RECENT_CANDIDATES`]), and sorts the list again (stable). A recent word counts for the
    /// candidate of the same surface (its POS variants add up). Word `prev` itself is not
    /// raised (chat.dev's first 3,000 lines: the same within 0.01 points). No recent word with
    /// the prefix: nothing changes.
    pub fn apply(&self, model: &NgramModel, prev: u16, query: &str, cands: &mut Vec<Prediction>) {
        if self.ring.is_empty() || self.weight <= 0.0 {
            return;
        }
        let (counts, after) = self.counts(prev);
        let mut raise = vec![0f32; cands.len()];
        let mut new: Vec<Prediction> = Vec::new();
        // the word just committed does not come back as the next one (今日 → 今日)
        for c in counts.iter().filter(|c| c.id != prev) {
            let Some(w) = model.word(c.id).filter(|w| w.reading.starts_with(query)) else {
                continue;
            };
            let p = self.cache_probability(c, after);
            if let Some(k) = cands.iter().position(|c| c.surface == w.surface) {
                raise[k] += p;
            } else if let Some(n) = new.iter_mut().find(|c| c.surface == w.surface) {
                n.score += p;
            } else {
                new.push(Prediction {
                    surface: w.surface.to_string(),
                    reading: w.reading.to_string(),
                    id: c.id,
                    score: p,
                });
            }
        }
        let cache: f32 = raise.iter().sum::<f32>() + new.iter().map(|n| n.score).sum::<f32>();
        if cache <= 0.0 {
            return;
        }
        // the candidates' share: their probabilities normalized (none: the cache alone)
        let mass: f32 = cands.iter().map(|c| c.score.max(-64.0).exp2()).sum();
        let mass = if mass > 0.0 { mass } else { 1.0 };
        let scale = mass.log2();
        let lambda = self.share(query);
        for (c, p) in cands.iter_mut().zip(raise) {
            let m = (1.0 - lambda) * c.score.max(-64.0).exp2() / mass + lambda * p / cache;
            c.score = m.log2() + scale;
        }
        super::sort_by_score(&mut new);
        new.truncate(RECENT_CANDIDATES);
        for mut n in new {
            n.score = (lambda * n.score / cache).log2() + scale;
            cands.push(n);
        }
        super::sort_by_score(cands);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_the_window() {
        let mut r = RecentWords::new(3);
        r.push(BOS, 10);
        r.push(10, 11);
        r.push(11, 10);
        assert_eq!(r.len(), 3);
        // 10 twice of 3; after 10: 11 once of once
        let p = r.probability(10, 11);
        assert!((p - (0.5 * 1.0 + 0.5 / 3.0)).abs() < 1e-6, "{p}");
        assert!((r.probability(BOS, 10) - (0.5 + 0.5 * 2.0 / 3.0)).abs() < 1e-6);
        // the oldest (BOS, 10) goes
        r.push(10, 12);
        assert_eq!(r.len(), 3);
        assert!((r.probability(BOS, 10) - 0.5 / 3.0).abs() < 1e-6);
        assert_eq!(r.probability(BOS, 99), 0.0);
        // <unk> is not kept and breaks the bigram
        r.push(12, UNK);
        r.push(UNK, 13);
        assert_eq!(r.probability(UNK, 13), 0.5 / 3.0);
        r.clear();
        assert!(r.is_empty());
        assert_eq!(r.probability(10, 11), 0.0);
    }

    #[test]
    fn forget_drops_every_commit_of_the_words() {
        let mut r = RecentWords::new(10);
        r.push(BOS, 10);
        r.push(10, 11);
        r.push(11, 10);
        r.push(10, 12);
        assert!(r.forget(&[10, 99]));
        assert_eq!(r.len(), 2);
        assert_eq!(r.probability(BOS, 10), 0.0);
        // what followed a forgotten word stays
        assert!(r.probability(10, 11) > 0.0);
        assert!(!r.forget(&[10]));
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn next_words_share_grows_with_the_recent_words() {
        let mut r = RecentWords::new(300);
        for i in 0..50 {
            r.push(BOS, 10 + i);
        }
        // completions keep λ; next words get half of it from 50 words
        assert_eq!(r.share("か"), RECENT_WEIGHT);
        assert!((r.share("") - RECENT_WEIGHT / 2.0).abs() < 1e-6);
        for i in 0..250 {
            r.push(BOS, 10 + i);
        }
        assert!((r.share("") - RECENT_WEIGHT * 300.0 / 350.0).abs() < 1e-6);
        r.warmup = 0.0;
        assert_eq!(r.share(""), RECENT_WEIGHT);
    }

    #[test]
    fn capacity_zero_keeps_nothing() {
        let mut r = RecentWords::new(0);
        r.push(BOS, 10);
        assert!(r.is_empty());
    }
}

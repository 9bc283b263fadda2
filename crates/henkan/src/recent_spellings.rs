//! Recent spellings: the words of the text last committed in a field, which the hybrid
//! prefers where a conversion offers them in place of another spelling of the same reading.
//!
//! A writer keeps to their words and their spellings from one sentence to the next: a document
//! about `斎場` says `斎場` again, one that wrote `子ども` or `申込み` writes it so again. The LSTM
//! reads one sentence at a time and the topical coherence one sentence's words, so the hybrid
//! meets each sentence afresh; the last [`RECENT_SPELLINGS`] words committed in the field (the
//! IME's commits cut into lattice words, [`crate::Session::remember_spellings`]) carry the
//! document's choices over. They live in the session's memory only, and not with learning off.
//!
//! Terms:
//! - *recent word*: the surface of one of the last [`RECENT_SPELLINGS`] words committed that
//!   *counts*: two characters or more, or one character that is not a hiragana (`詩`, not `の`).
//! - *recent term* of a candidate of the final beam against the beam's best
//!   ([`RecentSpellings::term`]): +1 for each of its words that the best has not, over a reading
//!   span where the best has another word, if it is recent; −1 for each word of the best that
//!   the candidate spells otherwise over the same span, if it is recent. A word cut otherwise
//!   (`西洋` `が` for `西洋画`) earns nothing: the term chooses between spellings of one span
//!   (`水系`/`推計`, `子ども`/`子供`), never between cuts.
//!
//! The hybrid adds `w · term` when a conversion rescores its final beam
//! ([`crate::options::NeuralOptions::recent_spelling_weight`]). Measured (BENCHMARKS.md, "Recent
//! spellings"): about one sentence of words is what helps, and with a larger weight a recent
//! word overrules the sentence's own meaning (`橋で食べる` after `橋を渡る`).

use std::collections::VecDeque;

use crate::composer::is_hiragana;
use crate::lattice::Lattice;
use crate::lexicon::Lexicon;

/// How many committed words are kept (about one sentence of written text; 12 and 40 measured
/// within the noise of it, BENCHMARKS.md).
pub const RECENT_SPELLINGS: usize = 20;

/// The last [`RECENT_SPELLINGS`] words committed in a field that count (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct RecentSpellings {
    words: VecDeque<String>,
}

/// Whether a word's surface counts as a recent word (see the module docs).
fn counts(surface: &str) -> bool {
    let mut chars = surface.chars();
    match (chars.next(), chars.next()) {
        (None, _) => false,
        (Some(c), None) => !is_hiragana(c),
        _ => true,
    }
}

impl RecentSpellings {
    /// No words.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every word.
    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// Whether no word is kept.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The kept words, oldest first.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.words.iter().map(String::as_str)
    }

    /// A word was committed (its surface); the oldest beyond [`RECENT_SPELLINGS`] is forgotten.
    /// Words that do not count are not kept.
    pub fn push(&mut self, surface: &str) {
        if !counts(surface) {
            return;
        }
        if self.words.len() == RECENT_SPELLINGS {
            self.words.pop_front();
        }
        self.words.push_back(surface.to_string());
    }

    /// Whether `surface` is a recent word.
    pub fn contains(&self, surface: &str) -> bool {
        self.words.iter().any(|w| w == surface)
    }

    /// The recent term of the candidate `path` against the beam's `best` (node indices into
    /// `lattice`; see the module docs). Only the words where the two differ are spelled out.
    pub fn term(&self, lattice: &Lattice, lexicon: &Lexicon, path: &[u32], best: &[u32]) -> f32 {
        if self.words.is_empty() || path == best {
            return 0.0;
        }
        let nodes = lattice.nodes();
        // the words of `a` that `b` spells otherwise over the same span and that are recent
        let gained = |a: &[u32], b: &[u32]| -> usize {
            a.iter()
                .filter(|i| !b.contains(i))
                .filter_map(|&i| nodes.get(i as usize))
                .filter(|n| {
                    b.iter()
                        .filter_map(|&o| nodes.get(o as usize))
                        .any(|o| o.begin == n.begin && o.end == n.end)
                        && self.contains(&lattice.surface(lexicon, n))
                })
                .count()
        };
        gained(path, best) as f32 - gained(best, path) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_words_that_count() {
        let mut r = RecentSpellings::new();
        r.push("の");
        r.push("ー");
        r.push("詩");
        r.push("ください");
        assert_eq!(r.words().collect::<Vec<_>>(), ["ー", "詩", "ください"]);
        for i in 0..RECENT_SPELLINGS {
            r.push(&format!("語{i}"));
        }
        assert_eq!(r.words().count(), RECENT_SPELLINGS);
        assert!(!r.contains("詩"));
        assert!(r.contains("語0") && r.contains(&format!("語{}", RECENT_SPELLINGS - 1)));
        r.clear();
        assert!(r.is_empty());
    }
}

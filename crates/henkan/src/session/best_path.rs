//! The words behind a conversion and what each costs: the best path over the session's
//! lattice, word by word, with the dictionary's word cost, the connection cost into the word
//! and, when a neural scorer converts, what the LM gave it. For the playground's lattice view
//! and for looking into a conversion; computed on request, never on the key path.
//!
//! The path is the one [`Session::convert`] takes without resized segments: the classic
//! decoder's best path, or with the neural or hybrid scorer the first of the final beam after
//! its re-ranking (backward LM, coherence). A conversion whose segments the user resized
//! decodes its parts separately, so its words may differ from this path.

use super::Session;
use crate::decoder::neural::WordScore;
use crate::engine::Engine;
use crate::lattice::{phrase_of, twin_of, user_word_of, NUMBER_ENTRY};
use serde::Serialize;

/// Where a lattice node's word comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WordSource {
    /// An entry of the model's dictionary.
    Dictionary,
    /// A number read in kana (`にじゅうさん` → `23`), or a one-kana digit with its counter
    /// written with the digit (`よにん` → `4人`).
    Number,
    /// No dictionary word: the reading span as it is, in katakana for a loanword
    /// ([`crate::lattice::LOANWORD_ENTRY`]), or the letters of letter names
    /// ([`crate::lattice::ACRONYM_ENTRY`]).
    Unknown,
    /// A word of the user dictionary.
    UserWord,
    /// A phrase learned from the user's commits.
    LearnedPhrase,
}

impl WordSource {
    /// The source of a node's `entry` ([`crate::lattice::Node::entry`]).
    pub fn of(entry: u32) -> WordSource {
        if crate::lattice::is_unknown(entry) {
            WordSource::Unknown
        } else if entry == NUMBER_ENTRY || twin_of(entry).is_some() {
            WordSource::Number
        } else if user_word_of(entry).is_some() {
            WordSource::UserWord
        } else if phrase_of(entry).is_some() {
            WordSource::LearnedPhrase
        } else {
            WordSource::Dictionary
        }
    }
}

/// One word of the best path.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathWord {
    /// The word's reading.
    pub reading: String,
    /// The word as converted.
    pub surface: String,
    /// Character offset of the reading in the whole reading.
    pub start: usize,
    /// Length of the reading in characters.
    pub len: usize,
    /// Left and right POS ids (Mozc's `id.def`).
    pub left_id: u16,
    /// See `left_id`.
    pub right_id: u16,
    /// The word cost as the lattice holds it (the dictionary's, adjusted by learning).
    pub word_cost: i32,
    /// The connection cost from the previous word's right id (the sentence start: id 0).
    pub connection_cost: i32,
    /// Where the word comes from.
    pub source: WordSource,
    /// log p of the word under the LM (nats), when a neural scorer converts.
    pub lm_log_prob: Option<f32>,
    /// What the word added to the neural scorer's path score (nats), when one converts.
    pub lm_step: Option<f32>,
    /// Whether the LM knows the word (else it is `<unk>`), when a neural scorer converts.
    pub in_lm_vocabulary: Option<bool>,
}

/// The best path over the session's lattice ([`Session::best_path_words`]).
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct BestPath {
    /// The reading the lattice covers.
    pub reading: String,
    /// The scorer that chose the path (`classic`, `neural`, `hybrid`).
    pub engine: &'static str,
    /// The words, in reading order (empty for an empty lattice).
    pub words: Vec<PathWord>,
    /// The connection cost from the last word to the sentence end (id 0).
    pub end_connection_cost: i32,
    /// The classic cost of the path: every word and connection cost, the end included.
    pub cost: i32,
    /// The neural scorer's path score (nats, higher is likelier) before its re-ranking.
    pub lm_score: Option<f32>,
    /// What the sentence end added to `lm_score`.
    pub lm_end: Option<f32>,
}

impl Session {
    /// The best path over the current lattice, word by word with its costs (see the module
    /// doc). Costs a decode of the final beam's re-ranking with a neural scorer: for a view,
    /// not for every key. After keys that deferred the LM, [`Session::settle_lm`] first.
    pub fn best_path_words(&self, engine: &Engine) -> BestPath {
        debug_assert!(self.lm_pending.is_none(), "settle_lm first");
        let lattice = &self.lattice;
        let conn = &engine.connection;
        let lm = self.neural_lm(engine);
        let mut out = BestPath {
            reading: lattice.reading().to_string(),
            engine: if lm.is_some() {
                self.scoring.name()
            } else {
                "classic"
            },
            ..BestPath::default()
        };
        // An empty lattice (nothing composed, or just committed): no words, whatever the neural
        // beam still holds from the last composition.
        if lattice.is_empty() {
            return out;
        }
        let path = match lm {
            Some(lm) => self
                .rescored_finals(engine, conn, lm)
                .into_iter()
                .next()
                .map(|(_, p)| p),
            None => self
                .decoder
                .best_path(lattice, conn, self.whole())
                .map(|p| p.nodes),
        };
        let Some(path) = path else {
            return out;
        };
        let scores = lm.and_then(|lm| self.neural.path_scores(conn, lm, &path));
        let nodes = lattice.nodes();
        let mut prev = self.whole().left_context;
        for (i, &k) in path.iter().enumerate() {
            let n = &nodes[k as usize];
            let connection_cost = conn.cost(prev, n.left_id);
            let score: Option<&WordScore> = scores.as_ref().and_then(|s| s.words.get(i));
            out.words.push(PathWord {
                reading: lattice.span(n.begin as usize, n.end as usize).to_string(),
                surface: lattice.surface(&engine.lexicon, n),
                start: n.begin as usize,
                len: (n.end - n.begin) as usize,
                left_id: n.left_id,
                right_id: n.right_id,
                word_cost: n.cost,
                connection_cost,
                source: WordSource::of(n.entry),
                lm_log_prob: score.map(|s| s.lm_log_prob).filter(|p| p.is_finite()),
                lm_step: score.map(|s| s.step),
                in_lm_vocabulary: score.map(|s| s.in_vocabulary),
            });
            out.cost += connection_cost + n.cost;
            prev = n.right_id;
        }
        out.end_connection_cost = conn.cost(prev, self.whole().right_context);
        out.cost += out.end_connection_cost;
        out.lm_score = scores.as_ref().map(|s| s.score);
        out.lm_end = scores.as_ref().map(|s| s.end);
        out
    }
}

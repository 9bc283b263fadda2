//! Predictions for one text field: the committed context and the suggestions on show.
//!
//! Terms (Mozc's, see the parent module):
//! - *suggestion*: one item of the list the field shows, either a *completion* of the
//!   composition (its reading starts with the prediction query) or, right after a commit, a
//!   *next-word prediction* (zero query). A suggestion is a word or a short phrase
//!   ([`super::extend_phrase`]).
//! - *context*: the last two words committed in this field ([`Context`]). Every commit updates
//!   it: the words of a conversion or of kana committed with Enter are recovered from the
//!   lattice ([`Suggester::commit_text`]), a picked suggestion brings its own words
//!   ([`Suggester::accept`]). Moving the caret or the focus [`resets`](Suggester::reset) it.
//!
//! With an LSTM LM in the model, the n-gram's candidates are re-ranked by it
//! ([`super::neural::rerank`], measured better on chat.dev, docs/prediction.md): the
//! suggester then also keeps the LSTM state of everything committed since the last reset.
//!
//! The [`Suggester`] lives beside the field's [`crate::Session`]; the key state machine
//! ([`crate::ime`]) asks it for the list after each key and tells it what was committed.

use super::neural::{
    lm_word_of_ngram, rerank, LstmState, RerankScratch, LSTM_CANDIDATES, LSTM_WEIGHT,
};
use super::{complete, extend_phrase, next_words, Context};
use crate::lattice::{Lattice, UNKNOWN_ENTRY};
use crate::lm::ngram::UNK;
use crate::user_dictionary::UserDictionary;
use crate::Engine;

/// How many suggestions the list holds at most (all of them can be picked with 1–9).
pub const MAX_SUGGESTIONS: usize = 5;

/// Completions start at this many kana of query (see docs/prediction.md for the measurement
/// behind it).
pub const MIN_QUERY_CHARS: usize = 1;

/// Phrase extension: a word is followed by its likeliest next word while that word's log2
/// score is at least this (P ≥ 0.35 given the two words before it).
pub const PHRASE_MIN_LOG2: f32 = -1.5;

/// Phrases have at most this many words; a phrase that would go on past them (its last word's
/// likeliest follower still passes [`PHRASE_MIN_LOG2`]) is cut inside an inflection
/// (宜しくお願いいたし) and is not offered.
pub const PHRASE_MAX_WORDS: usize = 4;

/// Only the best few words of a list are extended into phrases.
const PHRASE_WORDS: usize = 3;

/// One item of the suggestion list.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// What a pick inserts.
    pub surface: String,
    /// Its reading.
    pub reading: String,
    /// The context after committing it.
    after: Context,
    /// Its words (n-gram ids).
    words: Vec<u16>,
}

/// The predictions of one text field (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Suggester {
    context: Context,
    items: Vec<Suggestion>,
    /// The LSTM state of the committed text (made on first use when the model has an LSTM).
    lstm: Option<LstmState>,
    scratch: RerankScratch,
    /// Whether words of one kana are offered too (off: only words that save keystrokes,
    /// [`super::saves_keys`]).
    short_words: bool,
    /// The list was computed for this many items plus one, before a string it must leave out
    /// was known ([`Suggester::set_provisional`]).
    provisional: Option<usize>,
}

impl Suggester {
    /// A field at the start of a text.
    pub fn new() -> Self {
        Suggester::default()
    }

    /// Offers words of one kana (`の`, `は`) too, or (the default) only words that save
    /// keystrokes and phrases ([`super::MIN_READING_CHARS`]).
    pub fn set_short_words(&mut self, on: bool) {
        self.short_words = on;
    }

    /// The context (the last two committed words).
    pub fn context(&self) -> Context {
        self.context
    }

    /// Forgets the context and the list: the caret moved, the field lost focus, a new line began.
    pub fn reset(&mut self) {
        self.context = Context::new();
        self.items.clear();
        self.lstm = None;
    }

    /// Steps the LSTM state (when the model has an LSTM) over the word with LM id `id`.
    fn feed_lstm(&mut self, engine: &Engine, id: impl FnOnce(&crate::lm::lstm::NeuralLm) -> u32) {
        if let Some(lm) = engine.neural.as_ref() {
            let id = id(lm);
            self.lstm
                .get_or_insert_with(|| LstmState::new(lm))
                .feed(lm, id);
        }
    }

    /// The last list computed by [`suggest`](Self::suggest).
    pub fn items(&self) -> &[Suggestion] {
        &self.items
    }

    /// Empties the list (the context stays).
    pub fn clear_items(&mut self) {
        self.items.clear();
        self.provisional = None;
    }

    /// Marks the last list as computed for `limit` + 1 items before a string it must leave out
    /// was known (the IME's best conversion, while the LM catches up): [`Suggester::settle`]
    /// then leaves it out. `None`: the list is final.
    pub fn set_provisional(&mut self, limit: Option<usize>) {
        self.provisional = limit;
    }

    /// Whether the last list is provisional ([`Suggester::set_provisional`]).
    pub fn is_provisional(&self) -> bool {
        self.provisional.is_some()
    }

    /// A provisional list ([`Suggester::set_provisional`]) without `exclude`, cut to its limit:
    /// the list [`Suggester::suggest_with`] gives with `exclude` among its exclusions. `None`
    /// when the last list is final.
    pub fn settle(&mut self, exclude: &str) -> Option<&[Suggestion]> {
        let limit = self.provisional.take()?;
        self.items.retain(|s| s.surface != exclude);
        self.items.truncate(limit);
        Some(&self.items)
    }

    /// Computes the list: completions of `query` (kana), or next-word predictions when it is
    /// empty, in the current context, at most `limit`, none of them equal to a string in
    /// `exclude` (the conversion the user gets with Space, the kana Enter commits). Without
    /// an n-gram in the engine, or for a query shorter than [`MIN_QUERY_CHARS`], the list is
    /// empty.
    pub fn suggest(
        &mut self,
        engine: &Engine,
        query: &str,
        exclude: &[&str],
        limit: usize,
    ) -> &[Suggestion] {
        self.suggest_with(engine, None, query, exclude, limit)
    }

    /// [`Suggester::suggest`], with the words of the user dictionary `user` whose reading
    /// starts with `query` first ([`UserDictionary::completions`], suggestion-only words
    /// included; with or without an n-gram).
    pub fn suggest_with(
        &mut self,
        engine: &Engine,
        user: Option<&UserDictionary>,
        query: &str,
        exclude: &[&str],
        limit: usize,
    ) -> &[Suggestion] {
        self.items.clear();
        self.provisional = None;
        if let Some(user) = user {
            let query = crate::composer::to_hiragana(query);
            for w in user.completions(&query, limit) {
                if exclude.contains(&w.word.as_str())
                    || self.items.iter().any(|s| s.surface == w.word)
                {
                    continue;
                }
                let mut after = self.context;
                after.push_id(UNK);
                self.items.push(Suggestion {
                    surface: w.word.clone(),
                    reading: w.reading.clone(),
                    after,
                    words: Vec::new(),
                });
            }
        }
        let Some(model) = engine.ngram.as_ref() else {
            return &self.items;
        };
        if !query.is_empty() && query.chars().count() < MIN_QUERY_CHARS {
            return &self.items;
        }
        let ctx = self.context;
        // Excluded words still lead to their phrases (よろしく → よろしくお願いします).
        let mut n = limit + exclude.len();
        if engine.neural.is_some() {
            n = n.max(LSTM_CANDIDATES);
        }
        let mut words = if query.is_empty() {
            next_words(model, ctx, &[], n)
        } else {
            complete(model, Some(&engine.lexicon), ctx, query, &[], n)
        };
        if let Some(lm) = engine.neural.as_ref() {
            let state = self.lstm.get_or_insert_with(|| LstmState::new(lm));
            rerank(
                lm,
                &engine.lexicon,
                &state.h,
                &mut words,
                LSTM_WEIGHT,
                &mut self.scratch,
            );
        }
        for (k, w) in words.iter().enumerate() {
            if self.items.len() >= limit {
                break;
            }
            // A stem before っ (思っ, 行っ) never ends what the user wants to insert; a word of
            // one kana saves no keys (its phrase may).
            let shown = w.surface.ends_with('っ')
                || !(self.short_words || super::saves_keys(&w.reading))
                || exclude.contains(&w.surface.as_str())
                || self.items.iter().any(|s| s.surface == w.surface);
            if !shown {
                let mut after = ctx;
                after.push_id(w.id);
                self.items.push(Suggestion {
                    surface: w.surface.clone(),
                    reading: w.reading.clone(),
                    after,
                    words: vec![w.id],
                });
            }
            if k >= PHRASE_WORDS || self.items.len() >= limit {
                continue;
            }
            let phrase = extend_phrase(model, ctx, w, PHRASE_MIN_LOG2, PHRASE_MAX_WORDS)
                .filter(|(_, after, _)| !continues(model, *after));
            if let Some((p, after, more)) = phrase {
                let dup = self.items.iter().any(|s| s.surface == p.surface)
                    || exclude.contains(&p.surface.as_str());
                if !dup && !p.surface.ends_with('っ') {
                    let mut words = vec![w.id];
                    words.extend(more);
                    self.items.push(Suggestion {
                        surface: p.surface,
                        reading: p.reading,
                        after,
                        words,
                    });
                }
            }
        }
        &self.items
    }

    /// Picks item `index` of the list: the context becomes the one after it, the list is
    /// emptied. Returns the item (`None` past the end: nothing changes).
    pub fn accept(&mut self, engine: &Engine, index: usize) -> Option<Suggestion> {
        if index >= self.items.len() {
            return None;
        }
        let s = self.items.swap_remove(index);
        self.items.clear();
        self.context = s.after;
        if s.words.is_empty() {
            // a user word: unknown to the LMs
            self.feed_lstm(engine, |lm| lm.model.unk_id);
        }
        if let Some(model) = engine.ngram.as_ref() {
            for &id in &s.words {
                self.feed_lstm(engine, |lm| {
                    lm_word_of_ngram(lm, &engine.lexicon, model, id)
                });
            }
        }
        Some(s)
    }

    /// Text was committed from the session: each `(reading, surface)` piece (a segment of a
    /// conversion, or kana committed with Enter) is split into the lattice's words whose
    /// readings cover the piece's reading and whose surfaces spell its surface (the cheapest
    /// such split); a piece with no such split, or outside the lattice, counts as one unknown
    /// word. The pieces' readings follow each other from the lattice's start.
    pub fn commit_text(&mut self, engine: &Engine, lattice: &Lattice, pieces: &[(&str, &str)]) {
        self.items.clear();
        let Some(model) = engine.ngram.as_ref() else {
            return;
        };
        let mut begin = 0;
        for &(reading, surface) in pieces {
            let end = begin + reading.chars().count();
            let words = (end <= lattice.len() && lattice.span(begin, end) == reading)
                .then(|| split_words(engine, lattice, begin, end, surface))
                .flatten();
            match words {
                Some(nodes) => {
                    for i in nodes {
                        let node = &lattice.nodes()[i as usize];
                        let r = lattice.span(node.begin as usize, node.end as usize);
                        let s = lattice.surface(&engine.lexicon, node);
                        self.context.push(model, r, &s, node.left_id, node.right_id);
                        self.feed_lstm(engine, |lm| lm.vocab.lm_id(node.entry));
                    }
                }
                None => {
                    self.context.push_id(UNK);
                    self.feed_lstm(engine, |lm| lm.model.unk_id);
                }
            }
            begin = end;
        }
    }

    /// Text the model cannot analyze was committed (a full-width space, a transliteration):
    /// it counts as one unknown word.
    pub fn commit_unknown(&mut self, engine: &Engine) {
        self.items.clear();
        self.context.push_id(UNK);
        self.feed_lstm(engine, |lm| lm.model.unk_id);
    }
}

/// Whether the phrase extension would go on after `ctx` (see [`PHRASE_MAX_WORDS`]).
fn continues(model: &crate::lm::ngram::NgramModel, ctx: Context) -> bool {
    let next = model.trigram_followers(ctx.u, ctx.v).next().or_else(|| {
        model
            .bigram_followers(ctx.v)
            .next()
            .map(|(id, s)| (id, s + model.alpha_log2()))
    });
    next.is_some_and(|(id, s)| {
        s >= PHRASE_MIN_LOG2
            && model.word(id).is_some_and(|w| {
                w.reading
                    .chars()
                    .next()
                    .is_some_and(|c| ('\u{3041}'..='\u{3096}').contains(&c))
            })
    })
}

/// The cheapest sequence of lattice nodes (by word cost) covering positions `begin..end`
/// whose surfaces spell `surface`, as node indices in order; `None` when there is none.
/// Unknown nodes never match (they are not words of the n-gram).
pub(crate) fn split_words(
    engine: &Engine,
    lattice: &Lattice,
    begin: usize,
    end: usize,
    surface: &str,
) -> Option<Vec<u32>> {
    // best[(pos, bytes)] = cheapest path from `begin` to position `pos` spelling the first
    // `bytes` bytes of `surface`. Filled forward over positions; nodes are grouped by end.
    use std::collections::HashMap;
    let mut best: HashMap<(usize, usize), (i64, Vec<u32>)> = HashMap::new();
    best.insert((begin, 0), (0, Vec::new()));
    for pos in begin + 1..=end {
        for i in lattice.ending_at(pos) {
            let node = &lattice.nodes()[i];
            if node.entry == UNKNOWN_ENTRY || (node.begin as usize) < begin {
                continue;
            }
            let s = lattice.surface(&engine.lexicon, node);
            let starts: Vec<(usize, i64, Vec<u32>)> = best
                .iter()
                .filter(|((p, _), _)| *p == node.begin as usize)
                .map(|((_, b), (c, path))| (*b, *c, path.clone()))
                .collect();
            for (b, c, mut path) in starts {
                if !surface[b..].starts_with(s.as_str()) {
                    continue;
                }
                let key = (pos, b + s.len());
                let cost = c + node.cost as i64;
                if best.get(&key).is_none_or(|(old, _)| cost < *old) {
                    path.push(i as u32);
                    best.insert(key, (cost, path));
                }
            }
        }
    }
    best.remove(&(end, surface.len())).map(|(_, p)| p)
}

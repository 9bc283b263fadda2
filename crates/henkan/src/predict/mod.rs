//! Predictions: completion while composing, next-word prediction after a commit.
//!
//! Terms (Mozc's vocabulary):
//! - *completion* (suggestion): while the user types, words whose reading starts with the
//!   prediction query (the settled kana, [`crate::composer`]'s query view), ranked in context.
//! - *next-word prediction* (zero query): right after a commit, the likeliest next words
//!   given what was just committed.
//! - *context*: the last two committed words as n-gram word ids ([`Context`]).
//!
//! Ranking today is the n-gram's stupid-backoff score ([`crate::lm::ngram`]): candidates
//! come from the trigram followers of the context, then the bigram followers of the last
//! word, then every vocabulary word with the reading prefix (completion) or the frequent
//! words (next-word); each gets its exact backoff score. Lexicon words outside the n-gram
//! vocabulary fill the list after them, cheapest word cost first. Candidates are
//! deduplicated by surface (what the user sees) and against the conversion candidates
//! the caller passes in.

pub mod adapt;
pub mod eval;
pub mod neural;
pub mod recent;
pub mod romaji;
pub mod suggest;

use crate::lexicon::Lexicon;
use crate::lm::ngram::{NgramModel, BOS, UNK};

/// The last two committed words, as n-gram word ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// The word before the last (or [`BOS`]/[`UNK`]).
    pub u: u16,
    /// The last word (or [`BOS`] at the start of a text).
    pub v: u16,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// The context at the start of a text.
    pub fn new() -> Self {
        Context { u: UNK, v: BOS }
    }

    /// Appends a word id.
    pub fn push_id(&mut self, id: u16) {
        self.u = self.v;
        self.v = id;
    }

    /// Appends a committed word (one lexicon entry); words outside the vocabulary are `<unk>`.
    pub fn push(
        &mut self,
        model: &NgramModel,
        reading: &str,
        surface: &str,
        left: u16,
        right: u16,
    ) {
        self.push_id(model.id(reading, surface, left, right).unwrap_or(UNK));
    }
}

/// One predicted word.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// What to insert.
    pub surface: String,
    /// Its reading.
    pub reading: String,
    /// The n-gram word id (0 for lexicon words outside the n-gram vocabulary).
    pub id: u16,
    /// log2 stupid-backoff score (lexicon-only words: far below every n-gram word).
    pub score: f32,
}

/// Sorts predictions best score first (stable: ties keep their order). One function for every
/// such sort, so that the wasm module holds one copy of the sort.
pub fn sort_by_score(preds: &mut [Prediction]) {
    preds.sort_by(|a, b| b.score.total_cmp(&a.score));
}

/// A single word is offered as a suggestion only when its reading has at least this many kana:
/// a word of one kana (`の`, `は`, `、`) takes one or two keys to type, as many as picking it
/// from the list, so it saves nothing and only pushes the words that do out of the list.
/// Phrases are always offered. Measured on chat.dev: docs/prediction.md.
pub const MIN_READING_CHARS: usize = 2;

/// Whether a single-word prediction saves keystrokes: its reading has at least
/// [`MIN_READING_CHARS`] kana.
pub fn saves_keys(reading: &str) -> bool {
    reading.chars().count() >= MIN_READING_CHARS
}

/// How many vocabulary words with the query's prefix are scored at most (short queries
/// match thousands of words; they come in key order, so this is a bound on latency, not a
/// ranking: a one-kana query may miss frequent words late in the order).
pub const MAX_PREFIX_SCAN: usize = 4000;

fn push_scored(out: &mut Vec<(u16, f32)>, seen: &mut Vec<u16>, id: u16, s: f32) {
    if id <= BOS || seen.contains(&id) {
        return;
    }
    seen.push(id);
    out.push((id, s));
}

fn finish(
    model: &NgramModel,
    mut scored: Vec<(u16, f32)>,
    exclude: &[&str],
    limit: usize,
) -> Vec<Prediction> {
    // Best score first; ties by unigram score (more frequent first), then id.
    scored.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(model.unigram(b.0).total_cmp(&model.unigram(a.0)))
            .then(a.0.cmp(&b.0))
    });
    let mut out: Vec<Prediction> = Vec::with_capacity(limit);
    for (id, score) in scored {
        if out.len() >= limit {
            break;
        }
        let Some(w) = model.word(id) else { continue };
        if exclude.contains(&w.surface) || out.iter().any(|p| p.surface == w.surface) {
            continue;
        }
        out.push(Prediction {
            surface: w.surface.to_string(),
            reading: w.reading.to_string(),
            id,
            score,
        });
    }
    out
}

/// Next-word predictions after `ctx`: at most `limit`, best first.
pub fn next_words(
    model: &NgramModel,
    ctx: Context,
    exclude: &[&str],
    limit: usize,
) -> Vec<Prediction> {
    let mut scored = Vec::with_capacity(64);
    let mut seen = Vec::with_capacity(64);
    let a = model.alpha_log2();
    for (id, s) in model.trigram_followers(ctx.u, ctx.v) {
        push_scored(&mut scored, &mut seen, id, s);
    }
    for (id, s) in model.bigram_followers(ctx.v) {
        push_scored(&mut scored, &mut seen, id, a + s);
    }
    // Frequent words: enough to fill the list after deduplication.
    for id in model.frequent().take(limit * 4 + 16) {
        push_scored(&mut scored, &mut seen, id, 2.0 * a + model.unigram(id));
    }
    finish(model, scored, exclude, limit)
}

/// Completions of `query` (kana) after `ctx`: at most `limit`, best first.
///
/// With a `lexicon`, words outside the n-gram vocabulary fill the rest of the list.
pub fn complete(
    model: &NgramModel,
    lexicon: Option<&Lexicon>,
    ctx: Context,
    query: &str,
    exclude: &[&str],
    limit: usize,
) -> Vec<Prediction> {
    if query.is_empty() {
        return next_words(model, ctx, exclude, limit);
    }
    let mut scored = Vec::with_capacity(256);
    let mut seen = Vec::with_capacity(64);
    let a = model.alpha_log2();
    let starts = |id: u16| model.word(id).is_some_and(|w| w.reading.starts_with(query));
    for (id, s) in model.trigram_followers(ctx.u, ctx.v) {
        if starts(id) {
            push_scored(&mut scored, &mut seen, id, s);
        }
    }
    for (id, s) in model.bigram_followers(ctx.v) {
        if starts(id) && !seen.contains(&id) {
            push_scored(&mut scored, &mut seen, id, a + s);
        }
    }
    let followers = seen.len();
    for id in model.words_with_prefix(query, MAX_PREFIX_SCAN) {
        // `seen` holds only the (few) followers; the prefix scan yields each id once.
        if id > BOS && !seen[..followers].contains(&id) {
            scored.push((id, 2.0 * a + model.unigram(id)));
        }
    }
    let mut out = finish(model, scored, exclude, limit);
    if out.len() < limit {
        if let Some(lex) = lexicon {
            let mut extra: Vec<(i32, String, String)> = Vec::new();
            for (reading, value) in lex.predictive(query, 64) {
                for e in lex.entries(value) {
                    extra.push((
                        e.cost,
                        lex.surface_text(&e.surface, &reading),
                        reading.clone(),
                    ));
                }
            }
            extra.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            for (cost, surface, reading) in extra {
                if out.len() >= limit {
                    break;
                }
                if exclude.contains(&surface.as_str()) || out.iter().any(|p| p.surface == surface) {
                    continue;
                }
                out.push(Prediction {
                    surface,
                    reading,
                    id: UNK,
                    score: -1000.0 - cost as f32 / 100.0,
                });
            }
        }
    }
    out
}

/// Whether the reading of n-gram word `id` starts with hiragana (not a digit, a letter or a
/// symbol): only such words go on a phrase.
pub(crate) fn starts_with_kana(model: &NgramModel, id: u16) -> bool {
    model.word(id).is_some_and(|w| {
        w.reading
            .chars()
            .next()
            .is_some_and(|c| ('\u{3041}'..='\u{3096}').contains(&c))
    })
}

/// Extends predictions into short phrases: each word is followed by its likeliest next
/// word (the best trigram follower, else the best bigram follower at α) as long as that
/// word's log2 score is at least `min_log2` and it starts with kana, up to `max_words` words
/// in all (`よろしく` → `よろしくお願いします`). Returns only the extended ones, each with the
/// summed score and the last word's id; the widget can list them after the words.
pub fn extend_to_phrases(
    model: &NgramModel,
    ctx: Context,
    preds: &[Prediction],
    min_log2: f32,
    max_words: usize,
) -> Vec<Prediction> {
    preds
        .iter()
        .filter_map(|p| extend_phrase(model, ctx, p, min_log2, max_words).map(|(p, ..)| p))
        .collect()
}

/// One prediction of [`extend_to_phrases`]: the phrase, the context after it (its last
/// two words) and the n-gram ids of its words after the first, or `None` when the word is
/// not extended.
pub fn extend_phrase(
    model: &NgramModel,
    ctx: Context,
    p: &Prediction,
    min_log2: f32,
    max_words: usize,
) -> Option<(Prediction, Context, Vec<u16>)> {
    if p.id <= BOS {
        return None;
    }
    let mut phrase = p.clone();
    let mut after = ctx;
    let mut more = Vec::new();
    after.push_id(p.id);
    for _ in 1..max_words {
        let next = model
            .trigram_followers(after.u, after.v)
            .next()
            .or_else(|| {
                model
                    .bigram_followers(after.v)
                    .next()
                    .map(|(id, s)| (id, s + model.alpha_log2()))
            });
        let Some((id, s)) = next else { break };
        let Some(w) = model.word(id) else { break };
        if s < min_log2 || !starts_with_kana(model, id) {
            break;
        }
        phrase.surface.push_str(w.surface);
        phrase.reading.push_str(w.reading);
        phrase.score += s;
        phrase.id = id;
        after.push_id(id);
        more.push(id);
    }
    (!more.is_empty()).then_some((phrase, after, more))
}

/// The n-gram predictor for [`eval::evaluate`]: next words and completions in the context
/// of the last two words of the history.
#[derive(Debug, Clone, Copy)]
pub struct NgramPredictor<'a> {
    /// The n-gram LM.
    pub model: &'a NgramModel,
    /// The lexicon, for completions outside the n-gram vocabulary.
    pub lexicon: Option<&'a Lexicon>,
}

impl NgramPredictor<'_> {
    /// The context after `history` (the previous words of the line; `None` = `<unk>`).
    pub fn context(&self, history: &[Option<eval::Word>]) -> Context {
        let mut ctx = Context::new();
        for w in &history[history.len().saturating_sub(2)..] {
            match w {
                Some(w) => ctx.push(self.model, &w.reading, &w.surface, w.left_id, w.right_id),
                None => ctx.push_id(UNK),
            }
        }
        ctx
    }
}

impl eval::Predictor for NgramPredictor<'_> {
    fn predict(
        &mut self,
        history: &[Option<eval::Word>],
        query: &str,
        limit: usize,
    ) -> Vec<Prediction> {
        let ctx = self.context(history);
        complete(self.model, self.lexicon, ctx, query, &[], limit)
    }
}

/// Extends `ctx` with the words of the session's best path over its current input (what a
/// commit inserts): call it right before committing, then ask [`next_words`].
///
/// Unknown lattice nodes and words outside the n-gram vocabulary become `<unk>`; without an
/// n-gram in the engine, `ctx` is returned unchanged.
pub fn context_after(
    engine: &crate::Engine,
    session: &crate::Session,
    mut ctx: Context,
) -> Context {
    let Some(model) = engine.ngram.as_ref() else {
        return ctx;
    };
    let Some(path) = session.best_path(engine) else {
        return ctx;
    };
    let lattice = session.lattice();
    for &i in &path.nodes {
        let Some(node) = lattice.nodes().get(i as usize) else {
            continue;
        };
        ctx.push_id(node_word(model, &engine.lexicon, lattice, node));
    }
    ctx
}

/// The n-gram word id of lattice node `node` (its reading, surface and POS ids); `<unk>` for an
/// unknown node or a word outside the n-gram's vocabulary.
pub fn node_word(
    model: &NgramModel,
    lexicon: &Lexicon,
    lattice: &crate::lattice::Lattice,
    node: &crate::lattice::Node,
) -> u16 {
    if crate::lattice::is_unknown(node.entry) {
        return UNK;
    }
    let reading = lattice.span(node.begin as usize, node.end as usize);
    let surface = lattice.surface(lexicon, node);
    model
        .id(reading, &surface, node.left_id, node.right_id)
        .unwrap_or(UNK)
}

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
use super::recent::RecentWords;
use super::{complete, extend_phrase, next_words, starts_with_kana, Context, Prediction};
use crate::lattice::{is_unknown, Lattice};
use crate::lexicon::Lexicon;
use crate::lm::lstm::NeuralLm;
use crate::lm::ngram::{NgramModel, UNK};
use crate::user_dictionary::UserDictionary;
use crate::Engine;

/// How many suggestions the list holds at most (all of them can be picked with 1–9).
pub const MAX_SUGGESTIONS: usize = 5;

/// Completions start at this many kana of query (see docs/prediction.md for the measurement
/// behind it).
pub const MIN_QUERY_CHARS: usize = 1;

/// Phrase extension while composing (completions): after its second word, a phrase goes on
/// with its likeliest next word while that word's log2 score is at least this (P ≥ 0.35 given
/// the two words before it).
pub const PHRASE_MIN_LOG2: f32 = -1.5;

/// The same after a commit (next words, no query typed; P ≥ 0.71): with nothing typed the
/// list guesses, and a phrase cut where its n-gram is no longer nearly sure is right whole more
/// often. Over chat.dev's 28 blocks of 1,000 lines against −1.5 (docs/prediction.md):
/// `nwp_top3` +1.06 ± 0.05 points, ksr −0.01 ± 0.02; at −0.25, ksr −0.10 ± 0.02.
pub const NEXT_PHRASE_MIN_LOG2: f32 = -0.5;

/// A phrase's second word: one of the best [`PHRASES_PER_WORD`] followers of its first word
/// whose log2 score is at least this. Low, because phrases compete with words on their
/// score ([`list_items`]).
pub const PHRASE_FIRST_MIN_LOG2: f32 = -5.0;

/// Phrases have at most this many words; a phrase that would go on past them (its last word's
/// likeliest follower still passes the threshold, [`PHRASE_MIN_LOG2`] or
/// [`NEXT_PHRASE_MIN_LOG2`]) is cut inside an inflection (宜しくお願いいたし) and is not offered.
pub const PHRASE_MAX_WORDS: usize = 4;

/// Only the best few words of a list lead to phrases.
pub const PHRASE_WORDS: usize = 3;

/// After a commit, a word's phrase takes the word's place when the phrase's second word has
/// at least this log2 score (P ≥ 0.81): `ござい` → `ございます`.
pub const REPLACE_MIN_LOG2: f32 = -0.3;

/// Phrases that begin with one word at most (its best followers).
pub const PHRASES_PER_WORD: usize = 3;

/// Items are ranked by score plus this times log2 of their reading's length in kana, the keys
/// a pick saves (0.25 / 0.5 / 1: chat.dev's first 3,000 lines nwp_top3 0.2631 / 0.2631 /
/// 0.2589, ksr 0.3186 / 0.3202 / 0.3219, docs/prediction.md).
pub const LENGTH_WEIGHT: f32 = 0.5;

/// One item of the suggestion list.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// What a pick inserts.
    pub surface: String,
    /// Its reading.
    pub reading: String,
    /// Its words (n-gram ids).
    words: Vec<u16>,
}

impl Suggestion {
    /// Its words, as n-gram ids.
    pub fn words(&self) -> &[u16] {
        &self.words
    }
}

impl From<&Suggestion> for Prediction {
    /// The item as a prediction (its text and reading; no id or score), as the offline
    /// evaluation ([`super::eval`]) compares them with the text.
    fn from(s: &Suggestion) -> Self {
        Prediction {
            surface: s.surface.clone(),
            reading: s.reading.clone(),
            id: UNK,
            score: 0.0,
        }
    }
}

/// The predictions of one text field (see the module docs).
#[derive(Debug, Clone)]
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
    /// The user's recent words, which raise their predictions ([`super::recent`]); a reset
    /// keeps them.
    recent: RecentWords,
    /// Whether committed words are kept as recent words (off with learning off).
    keep_recent: bool,
}

impl Default for Suggester {
    fn default() -> Self {
        Suggester {
            context: Context::new(),
            items: Vec::new(),
            lstm: None,
            scratch: RerankScratch::default(),
            short_words: false,
            provisional: None,
            recent: RecentWords::default(),
            keep_recent: true,
        }
    }
}

impl Suggester {
    /// A field at the start of a text, with no recent words.
    pub fn new() -> Self {
        Suggester::default()
    }

    /// Keeps committed words as recent words ([`super::recent`]), or (off) forgets them and
    /// keeps none; on by default.
    pub fn set_keep_recent(&mut self, on: bool) {
        self.keep_recent = on;
        if !on {
            self.recent.clear();
        }
    }

    /// The recent words.
    pub fn recent(&self) -> &RecentWords {
        &self.recent
    }

    /// Takes the recent words out (none are left), to hand them to another field.
    pub fn take_recent(&mut self) -> RecentWords {
        std::mem::take(&mut self.recent)
    }

    /// Replaces the recent words (another field's, [`Suggester::take_recent`]); with
    /// [`Suggester::set_keep_recent`] off they are dropped.
    pub fn set_recent(&mut self, recent: RecentWords) {
        if self.keep_recent {
            self.recent = recent;
        }
    }

    /// The context takes word `id` (n-gram id), which the recent words keep too.
    fn push_word(&mut self, id: u16) {
        if self.keep_recent {
            self.recent.push(self.context.v, id);
        }
        self.context.push_id(id);
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

    /// Forgets the context and the list (not the recent words): the caret moved, the field lost
    /// focus, a new line began.
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

    /// Forgets item `index` of the last list from the recent words (the user deleted it from
    /// the list: Mozc's DeleteSelectedCandidate), so that it is raised no more; the n-gram may
    /// still offer it. Returns whether it was among the recent words.
    pub fn forget(&mut self, index: usize) -> bool {
        match self.items.get(index) {
            Some(item) => self.recent.forget(&item.words),
            None => false,
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
                self.items.push(Suggestion {
                    surface: w.word.clone(),
                    reading: w.reading.clone(),
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
        self.recent.apply(model, ctx.v, query, &mut words);
        let mut followers = Followers {
            model,
            lstm: engine
                .neural
                .as_ref()
                .zip(self.lstm.as_ref())
                .map(|(lm, state)| (lm, &engine.lexicon, state)),
            zero_query: query.is_empty(),
            scratch: &mut self.scratch,
        };
        list_items(
            model,
            ctx,
            &words,
            exclude,
            self.short_words,
            &ListRules::default(),
            limit,
            &mut self.items,
            &mut followers,
        );
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
        if s.words.is_empty() {
            // a user word: unknown to the LMs
            self.push_word(UNK);
            self.feed_lstm(engine, |lm| lm.model.unk_id);
        }
        if let Some(model) = engine.ngram.as_ref() {
            for &id in &s.words {
                self.push_word(id);
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
    /// such split by word and connection costs, as the classic engine cuts text); a piece with
    /// no such split, or outside the lattice, counts as one unknown word. The pieces' readings
    /// follow each other from the lattice's start.
    pub fn commit_text(&mut self, engine: &Engine, lattice: &Lattice, pieces: &[(&str, &str)]) {
        self.items.clear();
        let Some(model) = engine.ngram.as_ref() else {
            return;
        };
        for words in split_pieces(engine, lattice, pieces) {
            match words {
                Some(nodes) => {
                    for i in nodes {
                        let node = &lattice.nodes()[i as usize];
                        self.push_word(super::node_word(model, &engine.lexicon, lattice, node));
                        self.feed_lstm(engine, |lm| {
                            lm.vocab.lm_word_or_class(node.entry, node.left_id).0
                        });
                    }
                }
                None => {
                    self.push_word(UNK);
                    self.feed_lstm(engine, |lm| lm.model.unk_id);
                }
            }
        }
    }

    /// Text the model cannot analyze was committed (a full-width space, a transliteration):
    /// it counts as one unknown word.
    pub fn commit_unknown(&mut self, engine: &Engine) {
        self.items.clear();
        self.push_word(UNK);
        self.feed_lstm(engine, |lm| lm.model.unk_id);
    }
}

/// How ranked words become the list of suggestions ([`list_items`]); the default is what the
/// IME shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListRules {
    /// The best this many words lead to phrases ([`PHRASE_WORDS`]).
    pub phrase_words: usize,
    /// Phrases per word ([`PHRASES_PER_WORD`]).
    pub phrases_per_word: usize,
    /// Lowest log2 score of a phrase's second word ([`PHRASE_FIRST_MIN_LOG2`]).
    pub phrase_first_min_log2: f32,
    /// Lowest log2 score of each word after the second ([`PHRASE_MIN_LOG2`]).
    pub phrase_min_log2: f32,
    /// The same for next words ([`NEXT_PHRASE_MIN_LOG2`]).
    pub next_phrase_min_log2: f32,
    /// Words in a phrase at most ([`PHRASE_MAX_WORDS`]).
    pub phrase_max_words: usize,
    /// Weight of the reading's length in the ranking ([`LENGTH_WEIGHT`]).
    pub length_weight: f32,
    /// Next words: a word the list shows leads to one phrase (its likeliest follower, at
    /// least [`ListRules::next_phrase_min_log2`]) and that phrase takes the word's place when the
    /// follower's log2 score is at least this.
    pub replace_min_log2: f32,
}

impl Default for ListRules {
    fn default() -> Self {
        ListRules {
            phrase_words: PHRASE_WORDS,
            phrases_per_word: PHRASES_PER_WORD,
            phrase_first_min_log2: PHRASE_FIRST_MIN_LOG2,
            phrase_min_log2: PHRASE_MIN_LOG2,
            next_phrase_min_log2: NEXT_PHRASE_MIN_LOG2,
            phrase_max_words: PHRASE_MAX_WORDS,
            length_weight: LENGTH_WEIGHT,
            replace_min_log2: REPLACE_MIN_LOG2,
        }
    }
}

/// Where a phrase's second word comes from ([`Followers::of`]).
pub struct Followers<'a> {
    /// The n-gram LM.
    pub model: &'a NgramModel,
    /// The LSTM, the lexicon and the LSTM state of the context, when the model has an LSTM.
    pub lstm: Option<(&'a NeuralLm, &'a Lexicon, &'a LstmState)>,
    /// Next-word predictions (no query), rather than completions.
    pub zero_query: bool,
    /// Buffers for the LSTM's ranking.
    pub scratch: &'a mut RerankScratch,
}

impl Followers<'_> {
    /// The words that may follow word `w` (the context `after` ends with it) in a phrase, best
    /// first, with log2 scores. `shown`: the list offers `w` alone too.
    ///
    /// - Next words: a word the list leaves out (`は`, `を`) leads to phrases whose second
    ///   word is ranked as a next word after it: the n-gram's candidates re-ranked by the
    ///   LSTM stepped over `w` (nwp_top3 on chat.dev's first 3,000 lines 0.2569 with the
    ///   n-gram's followers alone). A word the list offers alone takes the n-gram's followers
    ///   ([`list_items`] keeps only its likeliest).
    /// - Completions: the n-gram's followers (trigram, then bigram × α).
    pub fn of(&mut self, w: &Prediction, after: Context, shown: bool) -> Vec<(u16, f32)> {
        let model = self.model;
        if !self.zero_query {
            return ngram_followers(model, after);
        }
        let Some((lm, lexicon, state)) = self.lstm.filter(|_| !shown) else {
            return ngram_followers(model, after);
        };
        let mut st = state.clone();
        st.feed(lm, lm_word_of_ngram(lm, lexicon, model, w.id));
        let mut next = next_words(model, after, &[], LSTM_CANDIDATES);
        rerank(lm, lexicon, &st.h, &mut next, LSTM_WEIGHT, self.scratch);
        next.into_iter().map(|p| (p.id, p.score)).collect()
    }
}

/// The n-gram's followers of the context `after` (its trigram followers, then its last word's
/// bigram followers × α), best first, with their log2 scores.
pub fn ngram_followers(model: &NgramModel, after: Context) -> Vec<(u16, f32)> {
    model
        .trigram_followers(after.u, after.v)
        .chain(
            model
                .bigram_followers(after.v)
                .map(|(id, s)| (id, s + model.alpha_log2())),
        )
        .collect()
}

/// Appends to `items` (at most `limit` in all) the suggestions for `words`, the ranked
/// predictions in context `ctx`, best first:
///
/// - each word the list shows: not a stem before っ (思っ, 行っ: they never end what the user
///   wants to insert), not a word of one kana unless `short_words` (typing it takes as many
///   keys as picking it);
/// - phrases: each of the best [`ListRules::phrase_words`] words followed by one of its best
///   [`ListRules::phrases_per_word`] followers ([`Followers::of`]) whose reading starts with
///   kana, then extended by the n-gram ([`extend_phrase`]); a phrase that would go on past
///   [`ListRules::phrase_max_words`] words, or ends in っ, is left out.
///
/// A word's score is its ranking score; a phrase's, its first word's plus its followers'
/// log2 scores. Items are sorted by score plus [`ListRules::length_weight`] × log2 of the
/// reading's length (ties: words first, in their order), and those in `exclude` or already
/// listed are left out.
#[allow(clippy::too_many_arguments)]
pub fn list_items(
    model: &NgramModel,
    ctx: Context,
    words: &[Prediction],
    exclude: &[&str],
    short_words: bool,
    rules: &ListRules,
    limit: usize,
    items: &mut Vec<Suggestion>,
    followers: &mut Followers<'_>,
) {
    let mut pool: Vec<(f32, Suggestion)> = Vec::new();
    let min_log2 = if followers.zero_query {
        rules.next_phrase_min_log2
    } else {
        rules.phrase_min_log2
    };
    for (k, w) in words.iter().enumerate() {
        let shown = !w.surface.ends_with('っ') && (short_words || super::saves_keys(&w.reading));
        let mut after = ctx;
        after.push_id(w.id);
        if shown {
            pool.push((
                w.score,
                Suggestion {
                    surface: w.surface.clone(),
                    reading: w.reading.clone(),
                    words: vec![w.id],
                },
            ));
        }
        if k >= rules.phrase_words || w.id <= crate::lm::ngram::BOS {
            continue;
        }
        let (per_word, first_min) = if shown && followers.zero_query {
            (1, min_log2)
        } else {
            (rules.phrases_per_word, rules.phrase_first_min_log2)
        };
        let mut firsts: Vec<(u16, f32)> = Vec::with_capacity(per_word);
        for (id, s) in followers.of(w, after, shown) {
            if firsts.len() >= per_word {
                break;
            }
            if s >= first_min && starts_with_kana(model, id) && !firsts.iter().any(|f| f.0 == id) {
                firsts.push((id, s));
            }
        }
        let word_at = pool.len().checked_sub(1).filter(|_| shown);
        for (id, s) in firsts {
            let Some(next) = model.word(id) else { continue };
            let mut p = w.clone();
            p.surface.push_str(next.surface);
            p.reading.push_str(next.reading);
            p.score = w.score + s;
            p.id = id;
            let mut ids = vec![w.id, id];
            let mut end = after;
            end.push_id(id);
            // `extend_phrase` goes on from p's last word
            let p = match extend_phrase(
                model,
                after,
                &p,
                min_log2,
                rules.phrase_max_words.saturating_sub(1),
            ) {
                Some((longer, longer_end, more)) => {
                    ids.extend(more);
                    end = longer_end;
                    longer
                }
                None => p,
            };
            if continues(model, end, min_log2) || p.surface.ends_with('っ') {
                continue;
            }
            if let Some(at) =
                word_at.filter(|_| followers.zero_query && s >= rules.replace_min_log2)
            {
                pool.remove(at);
            }
            pool.push((
                p.score,
                Suggestion {
                    surface: p.surface,
                    reading: p.reading,
                    words: ids,
                },
            ));
        }
    }
    if rules.length_weight != 0.0 {
        for (score, s) in pool.iter_mut() {
            *score += rules.length_weight * (s.reading.chars().count() as f32).log2();
        }
    }
    // stable: ties keep words before their phrases, in rank order
    pool.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, s) in pool {
        if items.len() >= limit {
            break;
        }
        if exclude.contains(&s.surface.as_str()) || items.iter().any(|i| i.surface == s.surface) {
            continue;
        }
        items.push(s);
    }
}

/// Whether the phrase extension would go on after `ctx` at `min_log2` (see
/// [`PHRASE_MAX_WORDS`]).
fn continues(model: &NgramModel, ctx: Context, min_log2: f32) -> bool {
    let next = model.trigram_followers(ctx.u, ctx.v).next().or_else(|| {
        model
            .bigram_followers(ctx.v)
            .next()
            .map(|(id, s)| (id, s + model.alpha_log2()))
    });
    next.is_some_and(|(id, s)| s >= min_log2 && starts_with_kana(model, id))
}

/// Each committed `(reading, surface)` piece, whose readings follow each other from the
/// lattice's start, cut into the lattice's words that spell it ([`split_words`], connected), as
/// node indices; `None` for a piece with no such split or outside the lattice.
pub(crate) fn split_pieces(
    engine: &Engine,
    lattice: &Lattice,
    pieces: &[(&str, &str)],
) -> Vec<Option<Vec<u32>>> {
    let mut begin = 0;
    pieces
        .iter()
        .map(|&(reading, surface)| {
            let end = begin + reading.chars().count();
            let at = begin;
            begin = end;
            (end <= lattice.len() && lattice.span(at, end) == reading)
                .then(|| split_words(engine, lattice, at, end, surface, true))
                .flatten()
        })
        .collect()
}

/// The cheapest sequence of lattice nodes covering positions `begin..end` whose surfaces spell
/// `surface`, as node indices in order; `None` when there is none. Unknown nodes never match
/// (they are not words of the n-gram), but an acronym ([`crate::lattice::ACRONYM_ENTRY`]: `OK`
/// over `おーけー`), which a commit holds as a word of its own.
///
/// With `connected`, the cost is the classic engine's: word costs plus the connection costs
/// between the words, from a sentence start before the first, so the split is the analysis the
/// n-gram's corpus was made with (`ありがとう` one word; by word costs alone, `あり` `が` `とう`).
/// On chat.dev's first 1,500 lines (713 in kana alone, each committed whole with its written
/// form) the last two words are the analyzer's for 692 lines; by word costs alone, 131. The
/// context of predictions uses it; learning ([`crate::history`]) splits by word costs alone,
/// the split its rules and figures were measured with.
pub(crate) fn split_words(
    engine: &Engine,
    lattice: &Lattice,
    begin: usize,
    end: usize,
    surface: &str,
    connected: bool,
) -> Option<Vec<u32>> {
    // best[(pos, bytes, right id)] = cheapest path from `begin` to position `pos` spelling the
    // first `bytes` bytes of `surface`, its last word with that right POS id. Filled forward
    // over positions; nodes are grouped by end. Ordered, so that of two paths of equal cost
    // the same one wins on every run.
    use std::collections::BTreeMap;
    let mut best: BTreeMap<(usize, usize, u16), (i64, Vec<u32>)> = BTreeMap::new();
    best.insert((begin, 0, 0), (0, Vec::new()));
    for pos in begin + 1..=end {
        for i in lattice.ending_at(pos) {
            let node = &lattice.nodes()[i];
            let acronym = node.entry == crate::lattice::ACRONYM_ENTRY;
            if (is_unknown(node.entry) && !acronym) || (node.begin as usize) < begin {
                continue;
            }
            let s = lattice.surface(&engine.lexicon, node);
            let at = node.begin as usize;
            // the paths to the node's begin whose spelling it continues
            let starts: Vec<(usize, u16, i64, Vec<u32>)> = best
                .range((at, 0, 0)..=(at, usize::MAX, u16::MAX))
                .filter(|((_, b, _), _)| surface[*b..].starts_with(s.as_str()))
                .map(|((_, b, r), (c, path))| (*b, *r, *c, path.clone()))
                .collect();
            for (b, right, c, mut path) in starts {
                // by word costs alone, the last word's POS does not matter
                let key = (pos, b + s.len(), if connected { node.right_id } else { 0 });
                let mut cost = c + node.cost as i64;
                if connected {
                    cost += engine.connection.cost(right, node.left_id) as i64;
                }
                if best.get(&key).is_none_or(|(old, _)| cost < *old) {
                    path.push(i as u32);
                    best.insert(key, (cost, path));
                }
            }
        }
    }
    let whole = surface.len();
    best.range((end, whole, 0)..=(end, whole, u16::MAX))
        .map(|(_, (c, path))| (c, path))
        .min()
        .map(|(_, p)| p.clone())
}

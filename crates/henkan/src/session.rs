//! A session: the state of one text field, reused for every key.
//!
//! Terms:
//! - *conversion*: the reading turned into text, split into *segments* (文節), each with
//!   its *candidates* (alternatives for the same reading span, ranked in context), plus
//!   the *n-best* whole sentences.
//! - *fixed segments*: after a resize, the leading segments whose reading lengths the user
//!   chose; the rest is converted freely after them ([`Session::convert_reading_with_fixed`]).
//!
//! Typing extends the lattice by the new kana and runs the forward pass over the new nodes
//! only; the conversion (segments, candidates, n-best) is computed on request.

use crate::candidate_filter::{self, Recut, Word};
use crate::composer::{to_katakana, Composer};
use crate::decoder::neural::{NeuralDecoder, NeuralOptions, Scoring};
use crate::decoder::{segment_starts, Decoder, Path, Span, Within, MAX_POPS, MAX_POPS_SEGMENT};
use crate::engine::Engine;
use crate::history::History;
use crate::lattice::{Lattice, Node};
use crate::lm::lstm::NeuralLm;
use serde::Serialize;

/// What ends a sentence: after it, a conversion begins a sentence
/// ([`Session::continue_sentence`]).
const SENTENCE_ENDS: &[char] = &['。', '．', '！', '？', '!', '?'];

/// The committed words of a sentence that the final beam's rescoring reads before each
/// candidate ([`Session::continue_sentence`]): the collocations and the selectional preferences
/// look two words back, the coherence over the sentence.
const SENTENCE_WORDS: usize = 16;

mod best_path;
pub use best_path::{BestPath, PathWord, WordSource};

/// Whether a node of `entry` is preferred: a learned spelling, phrase or a user word.
fn is_preferred(history: &History, entry: u32) -> bool {
    crate::lattice::is_own_word(entry) || history.is_preferred(entry)
}

/// The text of the words `seen` (sorted by position) over exactly `begin..end`: `None` when no
/// words start at `begin` and end at `end`.
fn shown_text(seen: &[CommitWord], begin: usize, end: usize) -> Option<String> {
    let first = seen.iter().position(|w| w.begin == begin)?;
    let mut text = String::new();
    for w in &seen[first..] {
        text.push_str(&w.text);
        if w.end >= end {
            return (w.end == end).then_some(text);
        }
    }
    None
}

/// A lattice word of committed or shown text.
#[derive(Debug, Clone)]
struct CommitWord {
    begin: usize,
    end: usize,
    reading: String,
    text: String,
    /// Its lattice node (POS ids, word cost).
    node: crate::lattice::Node,
}

/// Whether a corrected word is learned with the word before it: one character, not kana, a
/// noun suffix (`名詞,接尾`: counters, `強` of `2強`, `的`).
fn is_corrected_suffix(engine: &Engine, word: &CommitWord) -> bool {
    let mut chars = word.text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if !crate::composer::is_kana(c))
        && engine
            .segmenter
            .in_group(word.node.left_id, crate::pos::PosGroup::NounSuffix)
}

/// The longest reading converted in one piece, in characters (Mozc's longest composition):
/// a longer one is converted in pieces ([`Session::convert_reading_with_fixed`]). The IME
/// never composes more ([`crate::ime::MAX_COMPOSITION_CHARS`]).
pub const MAX_PIECE_CHARS: usize = 256;
/// At a cut without a sentence end, at least this many characters at the end of the window
/// are converted again with what follows (longer than any word).
const PIECE_TAIL_CHARS: usize = 32;
/// The LM engines' beam (hypotheses kept per position) in the pieces of a reading longer than
/// [`MAX_PIECE_CHARS`] (a paste through the API or the CLI; never an IME composition): half the
/// time of the default beam of 10 for nearly the same text. Measured on 5,000 kana of kwdlc
/// (`henkan convert --beam B`, 2026-11-26): hybrid 3.66 s with beam 10, 1.81 s with 4, classic
/// 0.32 s; character similarity to the annotated text 0.9629, 0.9615 and 0.9549.
pub const LONG_INPUT_BEAM: usize = 4;

/// The LM engines' beam over the rest of a reading after segments the user fixed (a resize,
/// [`Session::convert_reading_with_fixed`]), decoded afresh at every Shift+←/→: half the time of
/// the default beam of 10 for the same text. Measured with `henkan eval conversion --engine
/// hybrid --resize` (kwdlc.test and wac.dev, first segments resized to the annotated first
/// phrase, 2026-12-02): beam 4 against 10, kwdlc −0.09 ± 0.06 points (0 fixed, 2 broken), wac
/// ±0 (1 / 1); the resize's mean 22.9 → 11.9 ms natively on kwdlc's first 600 sentences.
pub const REST_BEAM: usize = 4;

/// The piece converted where a long reading has no sentence end for [`MAX_PIECE_CHARS`]
/// characters, in characters: a piece's cost per character grows with its length (the LSTM's
/// vocabulary is that of the whole lattice), and this length costs about what sentences do.
const CUT_WINDOW_CHARS: usize = 128;

/// Where the first sentence of `window` ends: one past its first `。！？!?．` and the closing
/// brackets right after it; `None` when it has none.
fn sentence_end(window: &[char]) -> Option<usize> {
    let end = window
        .iter()
        .position(|c| matches!(c, '。' | '！' | '？' | '!' | '?' | '．'))?;
    let closing = window[end + 1..]
        .iter()
        .take_while(|c| matches!(c, '」' | '』' | '）' | ')' | '】' | '〉' | '》' | '”' | '’'))
        .count();
    Some(end + 1 + closing)
}

/// The decoder buffers a session keeps between inputs, in bytes (at most): those of a
/// sentence of about 60 kana with the hybrid. A longer input frees what it grew when it is
/// cleared or, converted in pieces, when it is converted ([`Session::clear`]).
pub const KEPT_BUFFER_BYTES: usize = 8 << 20;

/// How many distinct whole sentences [`Conversion::nbest`] holds (at most).
pub const NBEST: usize = 10;
/// How many candidates a segment offers (at most, before the kana forms).
pub const SEGMENT_CANDIDATES: usize = 30;

/// One segment of a conversion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    /// The segment's reading.
    pub reading: String,
    /// Character offset of the segment in the whole reading.
    pub start: usize,
    /// Length of the reading in characters.
    pub len: usize,
    /// Candidates, best first; `candidates[0]` is the segment in the best sentence. The
    /// hiragana and katakana of the reading are always among them.
    pub candidates: Vec<String>,
}

/// A converted reading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    /// The reading that was converted.
    pub reading: String,
    /// Segments of the best sentence, in order.
    pub segments: Vec<Segment>,
    /// Distinct whole sentences, best first (`nbest[0]` is the best sentence).
    pub nbest: Vec<String>,
}

impl Conversion {
    /// The best sentence: the first candidate of every segment.
    pub fn text(&self) -> String {
        text_of(&self.segments)
    }
}

/// The first candidate of every segment (the segment's reading where it has none), in order.
fn text_of(segments: &[Segment]) -> String {
    segments
        .iter()
        .map(|s| {
            s.candidates
                .first()
                .map(String::as_str)
                .unwrap_or(&s.reading)
        })
        .collect()
}

/// The most characters of lattice a deferred LM falls behind ([`Session::set_lm_deferred`]):
/// keys that come faster than the browser runs the catch-up (a burst of synthetic keys, a held
/// key) each run the LM over what lies beyond this lag, as every key did without deferral, so
/// that the conversion that follows has at most this much of its work left.
pub const MAX_LM_LAG_CHARS: usize = 2;

/// Per-field state: the composer, the lattice and decoder scratch.
#[derive(Debug, Clone, Default)]
pub struct Session {
    composer: Composer,
    lattice: Lattice,
    decoder: Decoder,
    /// Forward costs of `decoder` are valid for the whole lattice up to this position.
    forward_valid: usize,
    /// Which scorer converts (the neural ones need an engine with an LSTM).
    scoring: Scoring,
    /// Beam state of the neural/hybrid scorer.
    neural: NeuralDecoder,
    /// What the user committed (learned spellings).
    history: History,
    /// The last words committed, preferred over other spellings of their reading.
    recent: crate::recent_spellings::RecentSpellings,
    /// The reading of the words committed before in the sentence ([`Session::continue_sentence`]).
    sentence_reading: String,
    /// Those words, the last [`SENTENCE_WORDS`], as a path over `sentence_reading`: the final
    /// beam's rescoring reads each candidate after them.
    sentence_words: Vec<Node>,
    /// The right POS id of the last word committed before in the sentence (0, the sentence
    /// start, when none): the classic decoder connects the first word from it, as the LSTM
    /// engines' first word connects ([`Session::continue_sentence`]).
    left_context: u16,
    /// Whether commits are learned.
    learning: bool,
    /// Today, for the date candidates of `きょう`, `あした`, … ([`crate::dates`]); `None`: none.
    today: Option<crate::dates::Day>,
    /// Whether keys leave the LM's part of the work for later ([`Session::set_lm_deferred`]).
    lm_deferred: bool,
    /// The first lattice position the LM's beams have not caught up with, when a key left
    /// them behind ([`Session::settle_lm`]).
    lm_pending: Option<usize>,
    /// The rest after fixed segments is converted by the dictionary alone
    /// ([`Session::convert_with_fixed_quick`]).
    quick_rest: bool,
}

impl Session {
    /// A fresh session.
    pub fn new() -> Self {
        Session {
            composer: Composer::new(),
            lattice: Lattice::new(),
            decoder: Decoder::new(),
            forward_valid: 0,
            scoring: Scoring::Classic,
            neural: NeuralDecoder::new(),
            history: History::default(),
            recent: crate::recent_spellings::RecentSpellings::new(),
            sentence_reading: String::new(),
            sentence_words: Vec::new(),
            left_context: 0,
            learning: true,
            today: None,
            lm_deferred: false,
            lm_pending: None,
            quick_rest: false,
        }
    }

    /// Sets today's date, which `きょう`, `あした`, `きのう`, … offer among their candidates
    /// (`2026/11/26`, `2026年11月26日`, …, [`crate::dates`]); `None` (the default) offers none.
    /// The browser sets it from the page's clock before every call.
    pub fn set_today(&mut self, today: Option<crate::dates::Day>) {
        self.today = today;
    }

    /// Chooses the scorer. `Neural` ignores `opts.lambda`, `opts.bias_weight` (pure LM),
    /// `opts.twin_penalty`,
    /// `opts.coherence_weight`, `opts.homophone_weight`, `opts.collocation_weight`,
    /// `opts.selection_weight` and `opts.recent_spelling_weight`; `Hybrid` uses them and
    /// ignores `opts.rank_prior` and `opts.backward_weight`. An engine without an LSTM always
    /// converts with the classic scorer.
    pub fn set_scoring(&mut self, scoring: Scoring, mut opts: NeuralOptions) {
        if scoring == Scoring::Neural {
            opts.lambda = 0.0;
            opts.bias_weight = 0.0;
            opts.twin_penalty = 0.0;
            opts.coherence_weight = 0.0;
            opts.homophone_weight = 0.0;
            opts.collocation_weight = 0.0;
            opts.selection_weight = 0.0;
            opts.recent_spelling_weight = 0.0;
        } else {
            opts.rank_prior = 0.0;
            opts.backward_weight = 0.0;
        }
        self.scoring = scoring;
        self.neural.set_options(opts);
        self.lattice.clear();
        self.forward_valid = 0;
        // a committed sentence's LSTM state and words are the old model's
        self.end_sentence();
    }

    /// The user history (learned spellings) this session converts with.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Replaces the user history (e.g. one with other settings). Forgets the input.
    pub fn set_history(&mut self, history: History) {
        self.history = history;
        self.clear();
        self.history_changed();
    }

    /// Takes over a history learned elsewhere (e.g. by another field of the page), keeping the
    /// composition. Ignored while learning is off.
    pub fn share_history(&mut self, history: &History) {
        if !self.learning {
            return;
        }
        self.history = history.clone();
        self.history_changed();
    }

    /// The user committed `text` for `reading` (a word of committed text): later
    /// conversions write that word this way (when learning is on, [`crate::history`]). The
    /// lattice is rebuilt on the next key when anything was learned; the composition is kept.
    pub fn learn(&mut self, engine: &Engine, reading: &str, text: &str) -> bool {
        if !self.learning {
            return false;
        }
        let changed = self.history.learn(engine, reading, text);
        if changed {
            self.history_changed();
        }
        changed
    }

    fn history_changed(&mut self) {
        self.lattice.clear();
        self.lattice
            .set_respellings(self.history.respellings().clone());
        self.lattice.set_phrases(self.history.phrases().to_vec());
        self.forward_valid = 0;
    }

    /// Learns committed text: `pieces` are (reading, surface) in order, covering the current
    /// lattice from its start (the segments of a conversion, or the kana). Each piece is cut
    /// into lattice words that spell it, and every word is learned; a piece no words spell is
    /// skipped. Returns how many readings changed. [`Session::learn_commit`] learns only what
    /// the user corrected.
    pub fn learn_pieces(&mut self, engine: &Engine, pieces: &[(&str, &str)]) -> usize {
        self.learn_commit(engine, pieces, &[])
    }

    /// Remembers the words of a commit as recent spellings ([`crate::recent_spellings`]),
    /// which later conversions in the hybrid prefer: `committed` are the (reading, surface)
    /// pieces committed, covering the current lattice from its start, as for
    /// [`Session::learn_commit`]. They stay in the session's memory; with learning off
    /// ([`Session::set_learning`]) nothing is remembered.
    pub fn remember_spellings(&mut self, engine: &Engine, committed: &[(&str, &str)]) {
        if !self.learning {
            return;
        }
        for w in &self.words_of(engine, committed, true) {
            self.recent.push(&w.text);
        }
    }

    /// The recent spellings ([`Session::remember_spellings`]).
    pub fn recent_spellings(&self) -> &crate::recent_spellings::RecentSpellings {
        &self.recent
    }

    /// Forgets the recent spellings (the page cleared what was learned).
    pub fn forget_recent_spellings(&mut self) {
        self.recent.clear();
    }

    /// Learns the corrections of a commit: `committed` are the (reading, surface) pieces
    /// committed, `shown` those the engine put first for the same reading (the first
    /// conversion the user saw), both covering the current lattice from its start. Both are
    /// cut into lattice words, and the committed words into *units*: the shortest runs whose
    /// ends are ends of shown words too. A unit the shown text has too was accepted
    /// ([`History::accept`]); any other was corrected ([`History::choose`]: a word, or a
    /// phrase when the user chose a segment the engine had cut otherwise). Empty `shown`:
    /// every word is learned. Returns how many readings changed.
    pub fn learn_commit(
        &mut self,
        engine: &Engine,
        committed: &[(&str, &str)],
        shown: &[(&str, &str)],
    ) -> usize {
        if !self.learning {
            return 0;
        }
        let words = self.words_of(engine, committed, false);
        let seen = self.words_of(engine, shown, false);
        let expired = self.history.tick();
        let mut changed = 0;
        if shown.is_empty() {
            for w in &words {
                changed += usize::from(self.history.learn(engine, &w.reading, &w.text));
            }
        } else if !seen.is_empty() {
            // units: the shortest runs of committed words whose ends are also ends of shown
            // words (one word, or the words of a segment the user resegmented)
            let mut first = 0;
            for k in 0..words.len() {
                let end = words[k].end;
                if !seen.iter().any(|w| w.end == end) {
                    continue;
                }
                let mut start = first;
                first = k + 1;
                if start == k
                    && start > 0
                    && words[start - 1].end == words[start].begin
                    && is_corrected_suffix(engine, &words[k])
                {
                    // a one-character suffix (`強` of `2強`) is learned with the word it
                    // follows: alone it acts only where it is the whole input, and its reading
                    // alone is mostly another word (`きょう`: 今日)
                    start -= 1;
                }
                let (start, was) = match shown_text(&seen, words[start].begin, end) {
                    Some(was) => (start, was),
                    None => match shown_text(&seen, words[k].begin, end) {
                        Some(was) => (k, was),
                        None => continue,
                    },
                };
                let unit = &words[start..=k];
                let begin = unit[0].begin;
                let text: String = unit.iter().map(|w| w.text.as_str()).collect();
                if was == text {
                    for w in unit {
                        self.history.accept(&w.reading, &w.text);
                    }
                    continue;
                }
                let reading = self.lattice.span(begin, end).to_string();
                let pieces: Vec<(&str, &str)> = unit
                    .iter()
                    .map(|w| (w.reading.as_str(), w.text.as_str()))
                    .collect();
                let beat = (unit.len() > 1)
                    .then(|| self.phrase_beat(engine, unit))
                    .flatten();
                changed += usize::from(
                    self.history
                        .choose(engine, &reading, &text, &was, &pieces, beat),
                );
            }
        }
        if changed > 0 || expired {
            self.history_changed();
        }
        changed
    }

    /// What the committed `words`, as one lattice word (a learned phrase), must cost less than
    /// for the classic engine to write them in this sentence: the best path's cost, less the
    /// best paths before and after them joined to their first and last word (`None` when the
    /// lattice has no path).
    fn phrase_beat(&self, engine: &Engine, words: &[CommitWord]) -> Option<i32> {
        use crate::decoder::{Decoder, Span};
        let (first, last) = (&words.first()?.node, &words.last()?.node);
        let (begin, end, n) = (
            words[0].begin,
            words[words.len() - 1].end,
            self.lattice.len(),
        );
        let conn = &engine.connection;
        let mut decoder = Decoder::new();
        let mut best = |span: Span| {
            decoder.forward(&self.lattice, conn, span, &[], span.begin);
            decoder.best_path(&self.lattice, conn, span).map(|p| p.cost)
        };
        let whole = best(Span::whole(&self.lattice))?;
        let before = match begin {
            0 => conn.cost(0, first.left_id),
            _ => best(Span {
                begin: 0,
                end: begin,
                left_context: 0,
                right_context: first.left_id,
            })?,
        };
        let after = if end == n {
            conn.cost(last.right_id, 0)
        } else {
            best(Span {
                begin: end,
                end: n,
                left_context: last.right_id,
                right_context: 0,
            })?
        };
        Some(whole - before - after)
    }

    /// The lattice words (begin, end, reading, surface) spelling `pieces` from the start, the
    /// cheapest by the classic engine's costs (`connected`) or by word costs alone
    /// ([`crate::predict::suggest::split_words`]). They are cut along the lexicon's own
    /// spellings: text written in a spelling the history respells (the kana the user typed
    /// again) is cut into its words too.
    fn words_of(
        &mut self,
        engine: &Engine,
        pieces: &[(&str, &str)],
        connected: bool,
    ) -> Vec<CommitWord> {
        let respell = self.lattice.take_respellings();
        let mut words = Vec::new();
        let mut begin = 0;
        for &(reading, surface) in pieces {
            let end = begin + reading.chars().count();
            if end <= self.lattice.len() && self.lattice.span(begin, end) == reading {
                if let Some(nodes) = crate::predict::suggest::split_words(
                    engine,
                    &self.lattice,
                    begin,
                    end,
                    surface,
                    connected,
                ) {
                    for i in nodes {
                        let n = self.lattice.nodes()[i as usize];
                        let (b, e) = (n.begin as usize, n.end as usize);
                        let r = self.lattice.span(b, e);
                        words.push(CommitWord {
                            begin: b,
                            end: e,
                            reading: r.to_string(),
                            text: self.lattice.surface(&engine.lexicon, &n),
                            node: n,
                        });
                    }
                }
            }
            begin = end;
        }
        self.lattice.set_respellings(respell);
        words
    }

    /// Converts with the words of `user` too (a lattice node each, [`crate::user_dictionary`]);
    /// `None`: without. Forgets the lattice (the composition is kept).
    pub fn set_user_dictionary(
        &mut self,
        user: Option<std::sync::Arc<crate::user_dictionary::UserDictionary>>,
    ) {
        self.lattice.set_user_dictionary(user);
        self.lattice.clear();
        self.forward_valid = 0;
    }

    /// The user dictionary this session converts with.
    pub fn user_dictionary(&self) -> Option<&crate::user_dictionary::UserDictionary> {
        self.lattice.user_dictionary()
    }

    /// Learning from committed text on or off (on by default). Off forgets the history.
    pub fn set_learning(&mut self, on: bool) {
        self.learning = on;
        if !on {
            self.recent.clear();
        }
        if !on && !self.history.is_empty() {
            self.history.clear();
            self.history_changed();
        }
    }

    /// Whether learning is on.
    pub fn learning(&self) -> bool {
        self.learning
    }

    /// The scorer in use.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The neural decoder (options, timing statistics).
    pub fn neural_decoder(&self) -> &NeuralDecoder {
        &self.neural
    }

    /// Starts the LSTM from the state after previously committed text: `reading` is
    /// converted and the LM words of its best path become the context. Only its last
    /// [`MAX_PIECE_CHARS`] characters are read (the LSTM state hardly depends on more).
    pub fn set_context(&mut self, engine: &Engine, reading: &str) {
        let Some(lm) = engine.neural.as_ref() else {
            return;
        };
        let skip = reading.chars().count().saturating_sub(MAX_PIECE_CHARS);
        let reading = match reading.char_indices().nth(skip) {
            Some((at, _)) => &reading[at..],
            None => reading,
        };
        self.neural.set_context(lm, &[]);
        let mut words = Vec::new();
        if !reading.is_empty() {
            self.clear();
            self.sync(engine, reading);
            if let Some(path) = self
                .neural_best(engine)
                .or_else(|| self.best_path(engine).map(|p| p.nodes))
            {
                words = self.neural.words(
                    &self.lattice,
                    &engine.lexicon,
                    &engine.connection,
                    lm,
                    &path,
                );
            }
        }
        self.set_context_words(engine, &words);
    }

    /// Starts the LSTM from the state after the LM words `ids` (e.g. `<s>` and the words of
    /// committed text, see the builder's `gold::CommittedContext`); empty = no context.
    pub fn set_context_words(&mut self, engine: &Engine, ids: &[u32]) {
        if let Some(lm) = engine.neural.as_ref() {
            self.neural.set_context(lm, ids);
            self.clear();
        }
    }

    /// Text was committed from this session's lattice: `pieces` (reading, text), whose readings
    /// follow each other from the lattice's start (a conversion's segments, or kana committed
    /// whole). The next conversion goes on after them as the same sentence, as one phrase
    /// typed after another is: the LSTM starts from its state after them
    /// ([`NeuralDecoder::continue_after`]) and the first word connects from the last one's POS,
    /// in the classic decoder too, as Mozc connects from its last committed segment. Each piece
    /// is cut into the lattice's words that spell it (the cheapest split, as predictions cut
    /// it).
    /// Text that ends a sentence (`。`, `！`, `？`), or that the lattice cannot cut, ends the
    /// sentence instead ([`Session::end_sentence`]). Forgets the decoded positions.
    ///
    /// Measured on phrases of kwdlc.test and wac.dev typed and committed one by one (BENCHMARKS.md,
    /// "Phrase by phrase").
    pub fn continue_sentence(&mut self, engine: &Engine, pieces: &[(&str, &str)]) {
        let Some(split) = crate::predict::suggest::split_pieces(engine, &self.lattice, pieces)
            .into_iter()
            .collect::<Option<Vec<_>>>()
        else {
            self.end_sentence();
            return;
        };
        let committed: Vec<Node> = split
            .iter()
            .flatten()
            .map(|&i| self.lattice.nodes()[i as usize])
            .collect();
        let len = pieces.iter().map(|(r, _)| r.chars().count()).sum();
        let ends = pieces
            .last()
            .is_some_and(|(_, text)| text.trim_end().ends_with(SENTENCE_ENDS));
        if ends {
            self.end_sentence();
            return;
        }
        let Some(last) = committed.last() else {
            return;
        };
        self.set_left_context(last.right_id);
        if let Some(lm) = self.neural_lm(engine) {
            let words: Vec<u32> = committed
                .iter()
                .map(|n| NeuralDecoder::word_of(lm, n.entry, n.left_id))
                .collect();
            self.neural.continue_after(lm, &words, last.right_id);
            self.keep_sentence_words(&committed, len);
        }
    }

    /// Text committed from elsewhere than the composition (a prediction picked): `text`
    /// spelling `reading` goes on with the sentence as [`Session::continue_sentence`] goes on
    /// after a conversion's segments, cut into the words of a lattice over `reading`. The
    /// composition and its lattice are cleared.
    pub fn continue_sentence_with(&mut self, engine: &Engine, reading: &str, text: &str) {
        self.clear();
        self.lm_pending = None;
        self.lattice
            .sync(&engine.lexicon, &engine.connection.special, reading);
        self.continue_sentence(engine, &[(reading, text)]);
        self.clear();
    }

    /// The classic decoder's left context: its cached forward costs start from it.
    fn set_left_context(&mut self, right_id: u16) {
        if self.left_context != right_id {
            self.left_context = right_id;
            self.forward_valid = 0;
        }
    }

    /// The whole lattice as the classic decoder spans it: after the sentence's committed words.
    fn whole(&self) -> Span {
        Span {
            left_context: self.left_context,
            ..Span::whole(&self.lattice)
        }
    }

    /// Adds `committed` (nodes of the lattice over its first `len` positions) to the sentence's
    /// words, keeping the last [`SENTENCE_WORDS`].
    fn keep_sentence_words(&mut self, committed: &[Node], len: usize) {
        let base = self.sentence_reading.chars().count() as u16;
        self.sentence_reading.push_str(self.lattice.span(0, len));
        self.sentence_words.extend(committed.iter().map(|n| Node {
            begin: n.begin + base,
            end: n.end + base,
            ..*n
        }));
        let extra = self.sentence_words.len().saturating_sub(SENTENCE_WORDS);
        if extra > 0 {
            self.sentence_words.drain(..extra);
            let cut = self.sentence_words[0].begin;
            let at = self
                .sentence_reading
                .char_indices()
                .nth(cut as usize)
                .map_or(self.sentence_reading.len(), |(i, _)| i);
            self.sentence_reading.drain(..at);
            for n in &mut self.sentence_words {
                n.begin -= cut;
                n.end -= cut;
            }
        }
    }

    /// The next conversion begins a sentence: the context of [`Session::continue_sentence`]
    /// is forgotten (the caret moved, the field lost focus, a sentence ended). Forgets the
    /// decoded positions.
    pub fn end_sentence(&mut self) {
        self.set_left_context(0);
        self.neural.forget_context();
        self.sentence_reading.clear();
        self.sentence_words.clear();
    }

    fn neural_lm<'e>(&self, engine: &'e Engine) -> Option<&'e NeuralLm> {
        if self.scoring == Scoring::Classic {
            None
        } else {
            engine.neural.as_ref()
        }
    }

    /// The final beam re-ranked as a conversion ranks it: the hybrid adds the collocations of
    /// each candidate's words ([`crate::lm::collocation`]) when the model has an n-gram, and
    /// its selectional preferences against the best's ([`crate::lm::selection`]) when it has
    /// their centroids too, and the recent spellings against the best's
    /// ([`crate::recent_spellings`]), as rescoring terms, so a learned spelling or a user word
    /// keeps the lead its forward score gave it.
    fn rescored_finals(
        &self,
        engine: &Engine,
        conn: &crate::pos::Connection,
        lm: &NeuralLm,
    ) -> Vec<(f32, Vec<u32>)> {
        let h = &self.history;
        // the words committed before in the sentence come before each path
        let joined = (!self.sentence_words.is_empty()).then(|| {
            self.lattice
                .after_words(&self.sentence_reading, &self.sentence_words)
        });
        let lattice = joined.as_ref().unwrap_or(&self.lattice);
        let w = self.neural.options().collocation_weight;
        let ngram = engine.ngram.as_ref().filter(|_| w != 0.0);
        let ws = self.neural.options().selection_weight;
        let wr = self.neural.options().recent_spelling_weight;
        let selection = match (&lm.selection, &lm.coherence, &engine.ngram) {
            (Some(selection), Some(coherence), Some(ngram)) if ws != 0.0 => {
                Some(crate::lm::selection::Scope::new(
                    selection,
                    coherence,
                    ngram,
                    &engine.lexicon,
                    &engine.segmenter,
                    lattice,
                ))
            }
            _ => None,
        };
        self.neural.rescored_finals_preferring(
            conn,
            lm,
            lattice,
            self.sentence_words.len(),
            |n| is_preferred(h, n.entry),
            |path, best| {
                let collocations = ngram.map_or(0.0, |ngram| {
                    w * crate::lm::collocation::bonus(
                        ngram,
                        &engine.lexicon,
                        &engine.segmenter,
                        conn,
                        lattice,
                        path,
                    )
                });
                let selection = selection
                    .as_ref()
                    .map_or(0.0, |s| ws * crate::lm::selection::term(s, path, best));
                let recent = if wr != 0.0 {
                    wr * self.recent.term(lattice, &engine.lexicon, path, best)
                } else {
                    0.0
                };
                collocations + selection + recent
            },
        )
    }

    /// The best path of the neural/hybrid scorer (node indices), if it is in use.
    pub fn neural_best(&self, engine: &Engine) -> Option<Vec<u32>> {
        debug_assert!(self.lm_pending.is_none(), "settle_lm first");
        let lm = self.neural_lm(engine)?;
        self.neural
            .finals(&engine.connection, lm)
            .into_iter()
            .next()
            .map(|(_, p)| p)
    }

    /// The composer (preedit, submission, transliterations).
    pub fn composer(&self) -> &Composer {
        &self.composer
    }

    /// Sets how digits of converted numbers are written (default: half width, as Google
    /// Japanese Input writes them).
    pub fn set_digit_width(&mut self, digits: crate::lattice::DigitWidth) {
        self.lattice.digits = digits;
    }

    /// What `,` and `.` type from now on ([`crate::composer::Punctuation`]).
    pub fn set_punctuation(&mut self, punctuation: crate::composer::Punctuation) {
        self.composer.set_punctuation(punctuation);
    }

    /// The romaji table from now on ([`crate::composer::Composer::set_table`]).
    pub fn set_romaji_table(&mut self, table: crate::composer::RomajiTable) {
        self.composer.set_table(table);
    }

    /// The lattice over the current reading.
    pub fn lattice(&self) -> &Lattice {
        &self.lattice
    }

    /// Types one character (romaji letter, kana, anything): the composer takes it and the
    /// lattice is extended to the settled kana. The lattice and the beam grow with the
    /// composition, faster than its length; the IME keeps compositions within
    /// [`crate::ime::MAX_COMPOSITION_CHARS`], and a long text is better converted at once
    /// ([`Session::convert_reading`], which converts it in pieces).
    pub fn insert(&mut self, engine: &Engine, c: char) {
        self.composer.insert(c);
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// Types one kana in kana input, with the character its key types without the IME
    /// ([`Composer::insert_kana`]).
    pub fn insert_kana(&mut self, engine: &Engine, kana: char, key: char) {
        self.composer.insert_kana(kana, key);
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// Types several characters.
    pub fn insert_str(&mut self, engine: &Engine, s: &str) {
        for c in s.chars() {
            self.insert(engine, c);
        }
    }

    /// Deletes the last pending letter or kana.
    pub fn backspace(&mut self, engine: &Engine) {
        self.composer.backspace();
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// Deletes the kana after the composer's caret (the Delete key).
    pub fn delete(&mut self, engine: &Engine) {
        self.composer.delete();
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// Moves the composer's caret (settling pending letters).
    pub fn move_caret(&mut self, engine: &Engine, to: crate::composer::CaretMove) {
        self.composer.move_caret(to);
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// The first `chars` characters of the composition were committed: the composer drops
    /// them ([`Composer::drop_head`]) and the lattice is built over the rest.
    pub fn drop_head(&mut self, engine: &Engine, chars: usize) {
        self.composer.drop_head(chars);
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// Alphanumeric input on or off ([`Composer::set_ascii`]).
    pub fn set_ascii(&mut self, engine: &Engine, on: bool) {
        self.composer.set_ascii(on);
        let kana = self.composer.kana().to_string();
        self.sync_key(engine, &kana);
    }

    /// The composer alone, for keys typed before a model is loaded: the lattice no longer
    /// covers the input until [`resync`](Self::resync).
    pub(crate) fn composer_mut(&mut self) -> &mut Composer {
        &mut self.composer
    }

    /// Builds the lattice over the composer's input afresh (the composer was used without the
    /// engine, or with another one).
    pub(crate) fn resync(&mut self, engine: &Engine) {
        self.lattice.clear();
        self.forward_valid = 0;
        let kana = self.composer.kana().to_string();
        self.sync(engine, &kana);
    }

    /// Forgets the input. The buffers are kept for the next input, unless a long one grew
    /// them past [`KEPT_BUFFER_BYTES`]: then they are freed, so that what a session holds
    /// after any composition is at most that much.
    pub fn clear(&mut self) {
        self.composer.clear();
        self.release();
    }

    /// Forgets the lattice; frees the lattice's and the decoders' buffers when together they
    /// hold more than [`KEPT_BUFFER_BYTES`].
    fn release(&mut self) {
        self.lattice.clear();
        self.forward_valid = 0;
        let held =
            self.lattice.buffer_bytes() + self.decoder.buffer_bytes() + self.neural.buffer_bytes();
        if held > KEPT_BUFFER_BYTES {
            self.lattice.free_buffers();
            self.decoder = Decoder::new();
            self.neural.free_buffers();
        }
    }

    /// Makes the lattice cover `reading` and runs the forward pass over what changed.
    fn sync(&mut self, engine: &Engine, reading: &str) {
        self.sync_lattice(engine, reading, false);
    }

    /// [`Session::sync`] after a key: the LM's part waits for [`Session::settle_lm`] when
    /// [`Session::set_lm_deferred`] says so.
    fn sync_key(&mut self, engine: &Engine, reading: &str) {
        self.sync_lattice(engine, reading, self.lm_deferred);
    }

    /// Keys leave the LM engines' forward pass (most of a key's time with an LSTM) for
    /// [`Session::settle_lm`], which the browser calls once the key's preedit is on screen;
    /// whatever needs the LM's beams (a conversion, the best text) catches up first. Off by
    /// default: every key runs it.
    pub fn set_lm_deferred(&mut self, on: bool) {
        self.lm_deferred = on;
    }

    /// Whether keys have left LM work for [`Session::settle_lm`].
    pub fn lm_pending(&self) -> bool {
        self.lm_pending.is_some()
    }

    /// Runs the LM work keys left ([`Session::set_lm_deferred`]). Returns whether there was any.
    pub fn settle_lm(&mut self, engine: &Engine) -> bool {
        let Some(from) = self.lm_pending.take() else {
            return false;
        };
        let len = self.lattice.len();
        self.sync_lm(engine, from.min(len)..len);
        true
    }

    /// The LM's beams over the lattice: positions before `span.start` kept, the rest up to
    /// `span.end` decoded (neural and hybrid engines).
    fn sync_lm(&mut self, engine: &Engine, span: std::ops::Range<usize>) {
        if let Some(lm) = self.neural_lm(engine) {
            self.neural.sync(
                &self.lattice,
                &engine.lexicon,
                &engine.connection,
                lm,
                &self.history,
                span,
            );
        }
    }

    fn sync_lattice(&mut self, engine: &Engine, reading: &str, defer: bool) {
        let changed = self
            .lattice
            .sync(&engine.lexicon, &engine.connection.special, reading);
        if !self.history.is_empty() {
            let h = &self.history;
            self.lattice.add_costs(changed, |n| h.adjustment(n.entry));
        }
        let from = changed.min(self.forward_valid);
        let span = self.whole();
        self.decoder
            .forward(&self.lattice, &engine.connection, span, &[], from);
        self.forward_valid = self.lattice.len();
        let changed = self.lm_pending.take().map_or(changed, |p| p.min(changed));
        let len = self.lattice.len();
        if !defer || self.neural_lm(engine).is_none() {
            self.sync_lm(engine, changed..len);
            return;
        }
        let behind = len.saturating_sub(MAX_LM_LAG_CHARS);
        if changed < behind {
            self.sync_lm(engine, changed..behind);
            self.lm_pending = Some(behind);
        } else {
            self.lm_pending = Some(changed);
        }
    }

    /// The best sentence of the current lattice (cheap: after each key the forward costs
    /// are already there; after keys that deferred the LM, [`Session::settle_lm`] first).
    pub fn best_text(&self, engine: &Engine) -> String {
        debug_assert!(self.lm_pending.is_none(), "settle_lm first");
        if let Some(p) = self.neural_best(engine) {
            return self.surface_of(engine, &p);
        }
        let span = self.whole();
        match self
            .decoder
            .best_path(&self.lattice, &engine.connection, span)
        {
            Some(p) => self.surface_of(engine, &p.nodes),
            None => self.lattice.reading().to_string(),
        }
    }

    /// The best sentence for a reading given directly (the lattice is extended from the
    /// common prefix with the previous reading; no segments or candidates are built).
    pub fn best_text_of(&mut self, engine: &Engine, reading: &str) -> String {
        self.sync(engine, reading);
        self.best_text(engine)
    }

    /// The best path over the current lattice (node indices into [`Lattice::nodes`]).
    pub fn best_path(&self, engine: &Engine) -> Option<Path> {
        self.decoder
            .best_path(&self.lattice, &engine.connection, self.whole())
    }

    /// Converts the composer's submission (a trailing `n` counts as ん).
    pub fn convert(&mut self, engine: &Engine) -> Conversion {
        let reading = self.composer.submission();
        self.convert_reading(engine, &reading)
    }

    /// Converts the composer's submission with the leading segments forced to the given
    /// reading lengths (in characters); the rest is converted freely.
    pub fn convert_with_fixed(&mut self, engine: &Engine, fixed: &[usize]) -> Conversion {
        let reading = self.composer.submission();
        self.convert_reading_with_fixed(engine, &reading, fixed)
    }

    /// [`Session::convert_with_fixed`] with the rest after the fixed segments converted by the
    /// dictionary alone, as the classic engine converts it (a sentence of its own), in any
    /// engine: what a resize shows at once where keys leave the LM's work for later
    /// ([`Session::set_lm_deferred`]); the LM's conversion of the rest is
    /// [`Session::convert_with_fixed`]'s. The fixed segments are the same in both.
    pub fn convert_with_fixed_quick(&mut self, engine: &Engine, fixed: &[usize]) -> Conversion {
        self.quick_rest = true;
        let conversion = self.convert_with_fixed(engine, fixed);
        self.quick_rest = false;
        conversion
    }

    /// Whether keys leave the LM's work for later ([`Session::set_lm_deferred`]).
    pub fn lm_deferred(&self) -> bool {
        self.lm_deferred
    }

    /// Converts a reading given directly (kana, possibly with digits, letters, symbols),
    /// bypassing the composer. Voiced marks join the kana before them as in typing
    /// ([`crate::composer::join_voiced_marks`]: `でう゛ぉん`, decomposed `か\u{3099}` read as
    /// `でゔぉん`, `が`); the segments' readings and any fixed lengths are the joined reading's.
    pub fn convert_reading(&mut self, engine: &Engine, reading: &str) -> Conversion {
        self.convert_reading_with_fixed(engine, reading, &[])
    }

    /// [`Session::convert_reading`] with fixed leading segments: the segments of `fixed`
    /// reading lengths (a resize, Shift+←/→), the rest converted after them, in the LM engines
    /// as their continuation with a beam of 4 (`REST_BEAM`).
    ///
    /// A reading of at most [`MAX_PIECE_CHARS`] characters (every composition of the IME) is
    /// converted in one piece. A longer one is converted piece by piece, so that time and
    /// memory grow linearly with its length: each sentence alone, and a run of more than
    /// [`MAX_PIECE_CHARS`] characters without a sentence end cut at segment boundaries. The
    /// fixed lengths then shape the first piece only. After such a conversion the lattice is
    /// empty and the buffers a long input grew are freed, as by [`Session::clear`].
    pub fn convert_reading_with_fixed(
        &mut self,
        engine: &Engine,
        reading: &str,
        fixed: &[usize],
    ) -> Conversion {
        let reading = &*crate::composer::join_voiced_marks(reading);
        if reading.chars().nth(MAX_PIECE_CHARS).is_some() {
            self.convert_long(engine, reading, fixed)
        } else {
            self.convert_piece(engine, reading, fixed)
        }
    }

    /// Converts a reading longer than [`MAX_PIECE_CHARS`] in pieces, as the IME commits a long
    /// composition (the lattice, the beam and the LSTM's logits of one piece grow faster than
    /// its length, so one lattice over thousands of kana would take minutes and gigabytes):
    ///
    /// - each sentence (up to `。！？!?．` and the closing brackets after it) of at most
    ///   [`MAX_PIECE_CHARS`] characters is one piece, converted as it would be alone;
    /// - where the next [`MAX_PIECE_CHARS`] characters hold no sentence end, the next
    ///   [`CUT_WINDOW_CHARS`] are converted, their segments that end at least
    ///   [`PIECE_TAIL_CHARS`] before the window's end are kept (at least one), and the rest
    ///   is converted again with what follows, so that no cut falls inside a word.
    ///
    /// The conversion is the pieces' segments in order (their `start` in the whole reading),
    /// and its n-best are the best text of the pieces before the last followed by each of the
    /// last piece's n-best. The LSTM starts each piece from the session's context; the
    /// classic decoder connects the first piece from the sentence's last committed word and
    /// the others from a sentence start ([`Session::continue_sentence`]). The
    /// lattice is empty afterwards, and the decoder's buffers are freed as by
    /// [`Session::clear`].
    fn convert_long(&mut self, engine: &Engine, reading: &str, fixed: &[usize]) -> Conversion {
        // The LM engines keep at most LONG_INPUT_BEAM hypotheses here (see its doc).
        let opts = self.neural.options();
        if opts.beam > LONG_INPUT_BEAM {
            self.neural.set_options(NeuralOptions {
                beam: LONG_INPUT_BEAM,
                ..opts
            });
        }
        let conv = self.convert_pieces(engine, reading, fixed);
        if opts.beam > LONG_INPUT_BEAM {
            self.neural.set_options(opts);
        }
        conv
    }

    /// The pieces of [`Session::convert_long`].
    fn convert_pieces(&mut self, engine: &Engine, reading: &str, fixed: &[usize]) -> Conversion {
        let chars: Vec<char> = reading.chars().collect();
        let mut segments: Vec<Segment> = Vec::new();
        let mut head = String::new();
        let mut fixed = fixed;
        let mut at = 0;
        // the first piece goes on after the sentence's committed words; the classic decoder
        // starts the others at a sentence start
        let left_context = self.left_context;
        loop {
            if at > 0 {
                self.set_left_context(0);
            }
            let rest = &chars[at..];
            let window = &rest[..rest.len().min(MAX_PIECE_CHARS)];
            // a sentence that ends before the reading does
            let cut = sentence_end(window).filter(|&c| c < rest.len());
            let last = cut.is_none() && rest.len() <= MAX_PIECE_CHARS;
            let len = match cut {
                Some(c) => c,
                None if last => window.len(),
                None => CUT_WINDOW_CHARS,
            };
            let piece: String = window[..len].iter().collect();
            let conv = self.convert_piece(engine, &piece, fixed);
            fixed = &[];
            let keep = if last || cut.is_some() {
                conv.segments.len()
            } else {
                let within = CUT_WINDOW_CHARS - PIECE_TAIL_CHARS;
                conv.segments
                    .iter()
                    .take_while(|s| s.start + s.len <= within)
                    .count()
                    .max(1)
            };
            let mut taken = 0;
            for mut seg in conv.segments.into_iter().take(keep) {
                taken = seg.start + seg.len;
                seg.start += at;
                if !last {
                    head.push_str(seg.candidates.first().unwrap_or(&seg.reading));
                }
                segments.push(seg);
            }
            if last {
                self.release();
                self.set_left_context(left_context);
                let nbest = conv.nbest.iter().map(|s| format!("{head}{s}")).collect();
                return Conversion {
                    reading: reading.to_string(),
                    segments,
                    nbest,
                };
            }
            // A piece without segments (none is ever empty) still moves on.
            at += taken.max(1);
        }
    }

    /// Converts one piece of reading: the whole reading, or a piece of a long one.
    fn convert_piece(&mut self, engine: &Engine, reading: &str, fixed: &[usize]) -> Conversion {
        self.sync(engine, reading);
        let n = self.lattice.len();
        if n == 0 {
            return Conversion::default();
        }
        // Barriers: the ends of the fixed segments (clipped to the reading).
        let mut barriers = Vec::new();
        let mut at = 0;
        for &len in fixed {
            at += len.max(1);
            if at >= n {
                break;
            }
            barriers.push(at);
        }
        let fixed_end = barriers.last().copied().unwrap_or(0);
        let span = self.whole();
        let conn = &engine.connection;
        let neural = if barriers.is_empty() {
            self.neural_lm(engine)
                .map(|lm| self.rescored_finals(engine, conn, lm))
                .filter(|f| !f.is_empty())
        } else {
            None
        };
        let best = if let Some(f) = &neural {
            Some(Path {
                nodes: f[0].1.clone(),
                cost: 0,
            })
        } else if barriers.is_empty() {
            self.decoder.best_path(&self.lattice, conn, span)
        } else {
            // The fixed segments end where the user put the last boundary, as a sentence ends;
            // what follows is converted below by the session's engine (`with_rest`).
            let head = Span {
                end: fixed_end,
                right_context: 0,
                ..span
            };
            self.decoder
                .forward(&self.lattice, conn, head, &barriers, 0);
            let first = self.decoder.best_path(&self.lattice, conn, head);
            // the cached forward costs no longer describe the free lattice
            self.forward_valid = 0;
            self.decoder.forward(&self.lattice, conn, span, &[], 0);
            self.forward_valid = n;
            first
        };
        let Some(best) = best else {
            return self.fallback(reading);
        };
        let starts = segment_starts(
            &self.lattice,
            &engine.lexicon,
            &engine.segmenter,
            &best.nodes,
            &barriers,
            fixed_end,
        );
        let mut segments = Vec::with_capacity(starts.len());
        for (k, &s) in starts.iter().enumerate() {
            let nodes = self.lattice.nodes();
            let e = starts.get(k + 1).copied().unwrap_or(best.nodes.len());
            let first = &nodes[best.nodes[s] as usize];
            let last = &nodes[best.nodes[e - 1] as usize];
            let seg_span = Span {
                begin: first.begin as usize,
                end: last.end as usize,
                left_context: if s == 0 {
                    self.left_context
                } else {
                    nodes[best.nodes[s - 1] as usize].right_id
                },
                right_context: if e == best.nodes.len() {
                    0
                } else {
                    nodes[best.nodes[e] as usize].left_id
                },
            };
            let best_surface = self.surface_of(engine, &best.nodes[s..e]);
            let resized = seg_span.begin < fixed_end;
            let top_head = (first.end - first.begin) as usize;
            let mut candidates =
                self.segment_candidates(engine, seg_span, best_surface, top_head, resized);
            if let Some(f) = &neural {
                self.beam_alternatives(engine, f, seg_span, &mut candidates);
            }
            let seg_reading = self.lattice.span(seg_span.begin, seg_span.end).to_string();
            segments.push(Segment {
                len: seg_reading.chars().count(),
                reading: seg_reading,
                start: seg_span.begin,
                candidates,
            });
        }
        // a single number word converted on its own: its kanji numeral first, the digits
        // right after it (number::lone_number_order); what the user learned still comes first
        let mut rewritten = false;
        for seg in segments.iter_mut().filter(|s| s.len == n) {
            rewritten |=
                crate::lattice::number::lone_number_order(&seg.reading, &mut seg.candidates);
        }
        // a learned reading converted on its own (the whole input one segment) gets its
        // learned spelling first, in every engine; within longer input only the most recent
        // learned readings are preferred ([`History`])
        for seg in segments.iter_mut().filter(|s| s.len == n) {
            let Some(t) = self.history.learned(&seg.reading) else {
                continue;
            };
            match seg.candidates.iter().position(|c| c == t) {
                Some(0) => continue,
                Some(i) => {
                    let c = seg.candidates.remove(i);
                    seg.candidates.insert(0, c);
                }
                None => seg.candidates.insert(0, t.to_string()),
            }
            rewritten = true;
        }
        if !barriers.is_empty() {
            let tail = self.lattice.span(fixed_end, n).to_string();
            return self.with_rest(engine, segments, &best.nodes, &tail);
        }
        let nbest = match &neural {
            Some(f) => {
                // The beam's sentences first (the best 5), then the classic n-best, then the
                // rest of the beam: the beam alone holds few distinct sentences.
                let mut beam: Vec<String> = Vec::new();
                let first = f.first().map(|(_, p)| p.as_slice()).unwrap_or_default();
                let first = self.placed(engine, first);
                for (i, (_, p)) in f.iter().enumerate() {
                    let s = self.surface_of(engine, p);
                    if !beam.contains(&s) && (i == 0 || !self.garbled(engine, &first, p)) {
                        beam.push(s);
                    }
                }
                let classic = self.nbest(engine, span, &best);
                let mut out: Vec<String> = beam.iter().take(NBEST / 2).cloned().collect();
                for s in classic.into_iter().chain(beam.into_iter().skip(NBEST / 2)) {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
                out.truncate(NBEST.max(1));
                out
            }
            None => self.nbest(engine, span, &best),
        };
        let mut nbest = nbest;
        if rewritten {
            let text = text_of(&segments);
            nbest.retain(|s| *s != text);
            nbest.insert(0, text);
        }
        add_digit_twins(&mut nbest, self.lattice.digits);
        add_segment_swaps(&mut nbest, &segments);
        nbest.truncate(NBEST.max(1));
        Conversion {
            reading: self.lattice.reading().to_string(),
            segments,
            nbest,
        }
    }

    /// The conversion of the fixed segments `head` (the words `head_nodes`) followed by `rest`,
    /// the reading after them, converted on its own: in the LM engines as the continuation of
    /// the fixed segments (the LSTM from its state after their words, the first word connected
    /// from the last of them), so that `くるま|でいく` gives `車|で|行く` and `ねこ|のほん`
    /// gives `猫|の|本`; in the classic engine as a sentence of its own, as Mozc re-segments
    /// the rest after a resize (`ここで|はきものをぬぐ` gives `ここで|履物を|脱ぐ`). The rest's
    /// segments and n-best come from its own lattice and decoders, with the session's settings,
    /// dropped after; the session's lattice and decoders still describe the whole reading, for
    /// the commit's learning and the next key. The n-best are the fixed segments' text followed
    /// by each of the rest's n-best. A quick rest ([`Session::convert_with_fixed_quick`]) is
    /// the classic engine's in any engine.
    fn with_rest(
        &mut self,
        engine: &Engine,
        mut head: Vec<Segment>,
        head_nodes: &[u32],
        rest: &str,
    ) -> Conversion {
        let reading = self.lattice.reading().to_string();
        let fixed_end = self.lattice.len() - rest.chars().count();
        let head_text = text_of(&head);
        let last_right = head_nodes
            .last()
            .map(|&i| self.lattice.nodes()[i as usize].right_id);
        let whole = (
            std::mem::replace(&mut self.lattice, Lattice::new()),
            std::mem::take(&mut self.decoder),
            std::mem::take(&mut self.neural),
            self.forward_valid,
            self.lm_pending.take(),
        );
        self.lattice = whole.0.empty_like();
        self.neural = whole.2.empty_like();
        let opts = self.neural.options();
        if opts.beam > REST_BEAM {
            self.neural.set_options(NeuralOptions {
                beam: REST_BEAM,
                ..opts
            });
        }
        self.forward_valid = 0;
        // a quick rest is the classic engine's (`convert_with_fixed_quick`)
        let scoring = if self.quick_rest {
            std::mem::replace(&mut self.scoring, Scoring::Classic)
        } else {
            self.scoring
        };
        let (lattice, decoder, neural, forward_valid, lm_pending) = whole;
        let kept = match (self.neural_lm(engine), last_right) {
            (Some(lm), Some(right_id)) => {
                let ids = neural.words(
                    &lattice,
                    &engine.lexicon,
                    &engine.connection,
                    lm,
                    head_nodes,
                );
                self.neural.continue_after(lm, &ids, right_id);
                // the whole reading's decoder has stepped most of the rest's word sequences
                self.neural.lend(neural);
                None
            }
            _ => Some(neural),
        };
        // the classic decoder converts the rest as a sentence of its own: after a user's new
        // boundary the rest is not the fixed segments' continuation (ここで|はきものを)
        let left_context = std::mem::take(&mut self.left_context);
        let tail = self.convert_piece(engine, rest, &[]);
        self.left_context = left_context;
        self.scoring = scoring;
        let neural = kept
            .or_else(|| self.neural.take_donor())
            .unwrap_or_default();
        (
            self.lattice,
            self.decoder,
            self.neural,
            self.forward_valid,
            self.lm_pending,
        ) = (lattice, decoder, neural, forward_valid, lm_pending);
        head.extend(tail.segments.into_iter().map(|mut s| {
            s.start += fixed_end;
            s
        }));
        Conversion {
            reading,
            segments: head,
            nbest: tail
                .nbest
                .iter()
                .map(|t| format!("{head_text}{t}"))
                .collect(),
        }
    }

    fn fallback(&self, reading: &str) -> Conversion {
        Conversion {
            reading: reading.to_string(),
            segments: vec![Segment {
                reading: reading.to_string(),
                start: 0,
                len: reading.chars().count(),
                candidates: vec![reading.to_string(), to_katakana(reading)],
            }],
            nbest: vec![reading.to_string()],
        }
    }

    /// Whether a sentence of the input's n-best garbles a number
    /// ([`candidate_filter::garbles_number`]).
    fn garbles_number(&self, engine: &Engine, path: &[u32]) -> bool {
        let nodes = self.lattice.nodes();
        let surfaces: Vec<String> = path
            .iter()
            .map(|&i| self.lattice.surface(&engine.lexicon, &nodes[i as usize]))
            .collect();
        candidate_filter::garbles_number(surfaces.iter().map(String::as_str))
    }

    /// The words of `path` with where each begins in the reading, as the n-best's filters see
    /// them ([`candidate_filter::Placed`]).
    fn placed(&self, engine: &Engine, path: &[u32]) -> Vec<candidate_filter::Placed> {
        let nodes = self.lattice.nodes();
        path.iter()
            .map(|&i| {
                let n = &nodes[i as usize];
                let word = Word {
                    left: n.left_id,
                    right: n.right_id,
                    surface: self.lattice.surface(&engine.lexicon, n),
                    len: usize::from(n.end - n.begin),
                };
                (usize::from(n.begin), word)
            })
            .collect()
    }

    /// Whether a sentence of the input's n-best other than the best (whose words are `best`)
    /// is left out: it garbles a number ([`candidate_filter::garbles_number`]), writes in
    /// digits part of a number that the best writes in digits
    /// ([`candidate_filter::recuts_number`]), or a lone digit where the best has a word in
    /// hiragana ([`candidate_filter::digit_for_kana`]).
    fn garbled(&self, engine: &Engine, best: &[candidate_filter::Placed], path: &[u32]) -> bool {
        let words = self.placed(engine, path);
        candidate_filter::garbles_number(words.iter().map(|(_, w)| w.surface.as_str()))
            || candidate_filter::recuts_number(best, &words, &engine.segmenter)
            || candidate_filter::digit_for_kana(best, &words)
    }

    /// Puts the final beam's best other spelling of the segment over `span` second among its
    /// `candidates`: that of the first path after the best one that cuts words at both ends of
    /// the segment and has the best's words everywhere else (the LM's second choice for this
    /// segment in this sentence); the classic n-best follows. Numbers are left as they are:
    /// their digit twins and other forms stay right after them. One spelling, not more:
    /// measured on the segments of the dev sets (BENCHMARKS.md, "Segment candidates"), it is
    /// the expected text more often on phrases and on kwdlc, and a second one pushes wac's down.
    fn beam_alternatives(
        &self,
        engine: &Engine,
        finals: &[(f32, Vec<u32>)],
        span: Span,
        candidates: &mut Vec<String>,
    ) {
        let nodes = self.lattice.nodes();
        // the words of `path` over `span`, as a range of its indices
        let cut = |path: &[u32]| -> Option<std::ops::Range<usize>> {
            let s = path
                .iter()
                .position(|&i| nodes[i as usize].begin as usize == span.begin)?;
            let e = path[s..]
                .iter()
                .position(|&i| nodes[i as usize].end as usize == span.end)?;
            Some(s..s + e + 1)
        };
        let Some((best, b)) = finals.first().and_then(|(_, p)| Some((p, cut(p)?))) else {
            return;
        };
        // numbers keep their forms right after them (digit twins, number styles)
        let numeric = |words: &[u32]| {
            words.iter().any(|&i| {
                let e = nodes[i as usize].entry;
                e == crate::lattice::NUMBER_ENTRY || crate::lattice::twin_of(e).is_some()
            })
        };
        let has_twin = |text: &str| crate::lattice::number::digit_twin(text).is_some();
        if numeric(&best[b.clone()]) || candidates.first().is_some_and(|c| has_twin(c)) {
            return;
        }
        let other = finals.iter().skip(1).find_map(|(_, path)| {
            let r = cut(path)?;
            let same_rest = path[..r.start] == best[..b.start] && path[r.end..] == best[b.end..];
            let words = &path[r];
            if !same_rest || numeric(words) || self.garbles_number(engine, words) {
                return None;
            }
            Some(self.surface_of(engine, words)).filter(|t| !has_twin(t))
        });
        // the same text as the first (the best's, by other words) leaves the list as it is
        match other.map(|t| (candidates.iter().position(|c| *c == t), t)) {
            None | Some((Some(0), _)) => {}
            Some((Some(i), _)) => {
                let c = candidates.remove(i);
                candidates.insert(1, c);
            }
            Some((None, t)) => candidates.insert(1.min(candidates.len()), t),
        }
    }

    fn surface_of(&self, engine: &Engine, path: &[u32]) -> String {
        let nodes = self.lattice.nodes();
        path.iter()
            .map(|&i| self.lattice.surface(&engine.lexicon, &nodes[i as usize]))
            .collect()
    }

    /// The candidates of the segment over `span` whose best is `best`: the segment's n-best
    /// paths, then digit twins, number forms, symbols and dates, the kana and the katakana. As
    /// in Mozc, a candidate is one segment (文節): a path the segmenter would split (`キュ` +
    /// `雨` for `きゅう`) is left out, unless the user resized the segment (`resized`), and so
    /// is a path of several words far dearer than the first ([`CandidateFilter`]) and a
    /// made-up re-cut of the best's first word, `top_head` characters long
    /// ([`candidate_filter::recut`]).
    fn segment_candidates(
        &mut self,
        engine: &Engine,
        span: Span,
        best: String,
        top_head: usize,
        resized: bool,
    ) -> Vec<String> {
        let lattice = &self.lattice;
        let lexicon = &engine.lexicon;
        let segmenter = &engine.segmenter;
        let within = Within {
            join: |a: &Node, b: &Node| resized || !segmenter.is_boundary(a.right_id, b.left_id),
            max_extra: CandidateFilter::SEARCH_EXTRA,
        };
        let found = self.decoder.n_best(
            lattice,
            &engine.connection,
            span,
            &[],
            SEGMENT_CANDIDATES,
            MAX_POPS_SEGMENT,
            within,
            |p| {
                p.iter()
                    .map(|&i| lattice.surface(lexicon, &lattice.nodes()[i as usize]))
                    .collect::<String>()
            },
        );
        let nodes = lattice.nodes();
        let structure = |p: &Path| -> i32 {
            p.nodes
                .windows(2)
                .map(|w| {
                    let (a, b) = (&nodes[w[0] as usize], &nodes[w[1] as usize]);
                    engine.connection.cost(a.right_id, b.left_id)
                })
                .sum()
        };
        let mut filter: Option<CandidateFilter> = None;
        let at_start = span.begin == 0;
        let mut out = vec![best];
        let mut recuts = 0;
        for (p, s) in found {
            let structure = structure(&p);
            let f = filter.get_or_insert_with(|| CandidateFilter::new(p.cost, structure));
            let kept = f.keeps(&Proposal {
                words: p.nodes.len(),
                chars: s.chars().count(),
                cost: p.cost,
                structure,
            });
            if !kept || out.contains(&s) {
                continue;
            }
            let words: Vec<Word> = p
                .nodes
                .iter()
                .map(|&i| {
                    let n = &nodes[i as usize];
                    Word {
                        left: n.left_id,
                        right: n.right_id,
                        surface: lattice.surface(lexicon, n),
                        len: usize::from(n.end - n.begin),
                    }
                })
                .collect();
            let made_up = match candidate_filter::recut(&words, segmenter, top_head) {
                Recut::No => false,
                Recut::Composition => !f.near_top(p.cost),
                Recut::Fragments => true,
            };
            // the rank counts the re-cuts left out before: leaving them out does not bring a
            // weak compound (`お嬉々します`) up into the first ten
            let rank = out.len() + recuts;
            if made_up {
                recuts += 1;
            } else if !candidate_filter::is_noise(&words, segmenter, rank, at_start) {
                out.push(s);
                f.accepted += 1;
            }
        }
        add_digit_twins(&mut out, lattice.digits);
        let reading = lattice.span(span.begin, span.end);
        add_number_styles(&mut out, reading, lattice.digits);
        add_symbols(&mut out, reading, self.today, lattice.digits);
        for form in [reading.to_string(), to_katakana(reading)] {
            if !out.contains(&form) {
                out.push(form);
            }
        }
        // restore the free forward costs for the per-key path
        self.forward_valid = 0;
        out
    }

    fn nbest(&mut self, engine: &Engine, span: Span, best: &Path) -> Vec<String> {
        let lattice = &self.lattice;
        let lexicon = &engine.lexicon;
        let found = self.decoder.n_best(
            lattice,
            &engine.connection,
            span,
            &[],
            NBEST,
            MAX_POPS,
            Within::ALL,
            |p| {
                p.iter()
                    .map(|&i| lattice.surface(lexicon, &lattice.nodes()[i as usize]))
                    .collect::<String>()
            },
        );
        // n_best ran a full free forward pass: the per-key cache is valid again.
        self.forward_valid = self.lattice.len();
        let best_text = self.surface_of(engine, &best.nodes);
        let best_words = self.placed(engine, &best.nodes);
        let mut out = vec![best_text];
        for (p, s) in found {
            if !out.contains(&s) && !self.garbled(engine, &best_words, &p.nodes) {
                out.push(s);
            }
        }
        out.truncate(NBEST.max(1));
        out
    }
}

/// When the segment's whole reading is a number (`せんにひゃくさんじゅうよん`), its other forms
/// right after its digits (`１２３４`): the other digit width (`1234`), with thousands separators
/// (`１，２３４`), in kanji (`千二百三十四`, `一二三四`), as Mozc's number rewriter offers them
/// ([`crate::lattice::number::styles`]); a form already among the candidates is not repeated.
/// A day of the month or a span of days ([`crate::lattice::number::day_or_days`]) gets the same
/// forms with its unit: `にじゅうよっか` `24日`, `二十四日`; `じゅうよっかかん` `14日間`, `十四日間`.
fn add_number_styles(out: &mut Vec<String>, reading: &str, digits: crate::lattice::DigitWidth) {
    use crate::lattice::{number, DigitWidth};
    let Some((v, unit)) = number::parse(reading)
        .map(|v| (v, ""))
        .or_else(|| number::day_or_days("", reading))
    else {
        return;
    };
    let own = digits.apply(&format!("{}{unit}", number::written(v)));
    let other = match digits {
        DigitWidth::Full => DigitWidth::Half,
        DigitWidth::Half => DigitWidth::Full,
    };
    let styles = number::styles(v);
    let forms = std::iter::once(other.apply(&format!("{}{unit}", number::written(v))))
        .chain(styles.iter().map(|f| digits.apply(&format!("{f}{unit}"))));
    let at = out
        .iter()
        .position(|c| *c == own)
        .map_or(out.len().min(1), |i| i + 1);
    insert_new(out, at, forms);
}

/// Inserts `forms` in order at `at`, leaving out those already among `out`.
fn insert_new(out: &mut Vec<String>, mut at: usize, forms: impl IntoIterator<Item = String>) {
    for f in forms {
        if !out.contains(&f) {
            out.insert(at, f);
            at += 1;
        }
    }
}

/// A segment's path offered as a candidate, as [`CandidateFilter`] judges it.
struct Proposal {
    /// Lattice words on the path.
    words: usize,
    /// Characters of its text.
    chars: usize,
    /// Its cost, contexts included.
    cost: i32,
    /// The connection costs between its own words (Mozc's structure cost).
    structure: i32,
}

/// After Mozc's candidate filter (`converter/candidate_filter.cc`): which of a segment's paths,
/// in order of cost, are shown. A one-word or one-character candidate always is; a path of
/// several words is not when it is a million times less likely than the first candidate (cost
/// offset 6907 at Mozc's 500 cost units per nat) or its structure (the connections between its
/// words) is dearer by 3453 (×1000): fragments such as a word and a lone kana (`生ゅう` for
/// `きゅう`, `和たしは` for `わたしは`) and made-up compounds (`篇感` for `へんかん`). Mozc drops
/// a dear path only when its structure is also dearer by 1151; without that condition far fewer
/// made-up compounds of two nouns get through. The first three are judged leniently, as in Mozc.
struct CandidateFilter {
    top_cost: i32,
    top_structure: i32,
    /// Candidates accepted so far.
    accepted: usize,
}

impl CandidateFilter {
    const MIN_COST: i32 = 100;
    const COST_OFFSET: i32 = 6907;
    const STRUCTURE_OFFSET: i32 = 3453;
    /// The first three candidates may be this much dearer than the first (×100) with any
    /// structure below [`Self::COST_OFFSET`].
    const LENIENT_COST_OFFSET: i32 = 2302;
    /// Paths dearer than the first by more than this are not searched for (a trillion times
    /// less likely: a one-word candidate that rare is not offered either).
    const SEARCH_EXTRA: i32 = 2 * Self::COST_OFFSET;

    /// A filter whose first candidate has `cost` and `structure`.
    fn new(cost: i32, structure: i32) -> Self {
        CandidateFilter {
            top_cost: cost.max(Self::MIN_COST),
            top_structure: structure.max(Self::MIN_COST),
            accepted: 0,
        }
    }

    /// Whether a path of `cost` is within 1000 times the first's probability (the offset of
    /// [`Self::STRUCTURE_OFFSET`]): how near a re-cut must be ([`candidate_filter::recut`]).
    fn near_top(&self, cost: i32) -> bool {
        cost <= self.top_cost.saturating_add(Self::STRUCTURE_OFFSET)
    }

    fn keeps(&self, p: &Proposal) -> bool {
        if p.words <= 1 || p.chars <= 1 {
            return true;
        }
        if self.accepted < 3
            && p.cost < self.top_cost.saturating_add(Self::LENIENT_COST_OFFSET)
            && p.structure < Self::COST_OFFSET
        {
            return true;
        }
        p.cost <= self.top_cost.saturating_add(Self::COST_OFFSET)
            && p.structure <= self.top_structure.saturating_add(Self::STRUCTURE_OFFSET)
    }
}

/// Where a segment's symbols and dates go in its candidates ([`add_symbols`]): after the
/// first three.
const SYMBOLS_AT: usize = 3;

/// The symbols read as the segment's whole reading (`やじるし` → `→`, [`crate::symbols`]) and,
/// when today is known, its dates (`きょう` → `2026/11/26`, [`crate::dates`], digits in the
/// session's width), after its first [`SYMBOLS_AT`] candidates, as Mozc's rewriters place them;
/// one already among the candidates is not repeated.
fn add_symbols(
    out: &mut Vec<String>,
    reading: &str,
    today: Option<crate::dates::Day>,
    digits: crate::lattice::DigitWidth,
) {
    let dates = today.map_or_else(Vec::new, |t| crate::dates::for_reading(reading, t));
    let extra = crate::symbols::for_reading(reading)
        .iter()
        .map(|s| s.to_string())
        .chain(dates.iter().map(|d| match digits {
            // one width throughout: ２０２６／１１／２６, not ２０２６/１１/２６
            crate::lattice::DigitWidth::Full => crate::composer::to_full_ascii(d),
            crate::lattice::DigitWidth::Half => d.clone(),
        }));
    insert_new(out, SYMBOLS_AT.min(out.len()), extra);
}

/// How many of the first candidates get a digit twin ([`add_digit_twins`]).
const TWINS_OF: usize = 5;

/// After each of the first [`TWINS_OF`] candidates with a kanji numeral before a counter
/// (`二人`, `十二月`), its twin in Arabic digits in the session's width (`２人`, `１２月`), as
/// Mozc offers them ([`crate::lattice::number::digit_twin`]); a twin already in the list is not
/// repeated.
fn add_digit_twins(out: &mut Vec<String>, digits: crate::lattice::DigitWidth) {
    let mut i = 0;
    let mut seen = 0;
    while i < out.len() && seen < TWINS_OF {
        seen += 1;
        if let Some(t) = crate::lattice::number::digit_twin(&out[i]) {
            let t = digits.apply(&t);
            if !out.contains(&t) {
                out.insert(i + 1, t);
                i += 1;
            }
        }
        i += 1;
    }
}

/// Fills the input's n-best up to [`NBEST`] sentences with the best sentence in which one
/// segment takes another of its candidates: each segment's second candidate in turn, then
/// each one's third, and so on (`２０２４年` and `二千二十四年` after `2024年` when the
/// lattice's other paths garble the number). A sentence already in the list is not repeated,
/// nor one whose segments garble a number ([`candidate_filter::garbles_number`]: `30` + `二値`
/// for `さんじゅうにち`).
fn add_segment_swaps(out: &mut Vec<String>, segments: &[Segment]) {
    let deepest = segments
        .iter()
        .map(|s| s.candidates.len())
        .max()
        .unwrap_or(0);
    for rank in 1..deepest {
        for (i, seg) in segments.iter().enumerate() {
            if out.len() >= NBEST {
                return;
            }
            let Some(other) = seg.candidates.get(rank) else {
                continue;
            };
            let texts: Vec<&str> = segments
                .iter()
                .enumerate()
                .map(|(j, s)| match s.candidates.first() {
                    _ if j == i => other.as_str(),
                    Some(c) => c.as_str(),
                    None => s.reading.as_str(),
                })
                .collect();
            let sentence = texts.concat();
            if !out.contains(&sentence) && !candidate_filter::garbles_number(texts) {
                out.push(sentence);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CandidateFilter, Proposal};

    fn path(words: usize, chars: usize, cost: i32, structure: i32) -> Proposal {
        Proposal {
            words,
            chars,
            cost,
            structure,
        }
    }

    #[test]
    fn candidate_filter_drops_dear_fragments_and_keeps_words() {
        let mut f = CandidateFilter::new(3000, 0);
        f.accepted = 3;
        // a word or one character is always offered, however rare
        assert!(f.keeps(&path(1, 2, 30_000, 0)));
        assert!(f.keeps(&path(2, 1, 30_000, 9_000)));
        // several words: within a million times the first's probability and 1000 times its
        // structure (the structure floor is 100)
        assert!(f.keeps(&path(2, 3, 3000 + 6907, 100 + 3453)));
        assert!(!f.keeps(&path(2, 3, 3000 + 6908, 0)));
        assert!(!f.keeps(&path(2, 3, 3000, 100 + 3454)));
        // the first three are judged leniently: near the first's cost, structure below 6907
        f.accepted = 2;
        assert!(f.keeps(&path(2, 3, 3000 + 2301, 6906)));
        assert!(!f.keeps(&path(2, 3, 3000 + 6908, 6906)));
    }
}

//! The neural decoder: beam search over the lattice under the LSTM LM, with incremental
//! vocabulary selection (IVS), incremental across keystrokes.
//!
//! Terms:
//! - *hypothesis*: a path from the sentence start to a position `t` (its last word ends at
//!   `t`), with the LSTM state after its last word. Π\[t\] holds the best `beam` of them.
//! - *D_t*: the LM words of the lattice nodes ending at `t`.
//! - *lattice vocabulary* V_t = D_1 ∪ … ∪ D_t ∪ Ṽ, Ṽ = the `frequent` most frequent LM words
//!   (LM ids are sorted by frequency, so Ṽ = ids `0..frequent`), plus `<s>` and `<unk>`.
//! - *numerator* of a hypothesis: what its last word added to its parent's score
//!   (logit + the within-class term for `<unk>` + the hybrid's cost term); its *score* is
//!   `parent.score + numerator − parent.lse`, where `lse` = log Σ exp(logits over V).
//!
//! Every hypothesis caches its logits over V. When a new key grows V, the logits of the new
//! words are computed for all cached states in one batch and folded into each state's `lse`
//! (the stale-denominator fix-up), and all scores are re-swept, so every path is scored with
//! the same normalizer. Then the nodes ending at the new position extend the hypotheses of
//! the positions they start at; the best `beam` form Π\[t\] and take one batched LSTM step.
//! A backspace truncates Π and V to the shorter reading.
//!
//! A decoder can be lent another that decoded a longer reading after the same context
//! ([`NeuralDecoder::lend`]): the rest of a reading after the segments the user fixed is then
//! decoded copying the LSTM states and logits of the hypotheses with the same words (keyed by a
//! hash of the word sequence) instead of computing them.
//!
//! A number node (a whole number read in kana) is the LM word of the digit 1 (the corpus
//! has numbers digit by digit). Out-of-vocabulary words and unknown-word nodes are `<unk>`
//! times a within-class probability `exp(−unk_base − (cost + connection cost) / cost_scale)`
//! from the dictionary (word cost and the connection into the word): never dropped. In the
//! hybrid, a person's name out of the vocabulary that the dictionary ranks below a spelling of
//! the same name the LM knows is scored as that spelling, charged as one
//! (`NeuralDecoder::find_name_spellings`: `山田太郎`, not `山田たろう`).
//!
//! Hybrid scoring adds `λ · (−(word cost + connection cost) / cost_scale)` per word (and the
//! connection to the sentence end), and the word's learned bias ([`crate::decoder::bias`]).
//! A learned spelling ([`crate::history`]) comes first for its reading in both: a node the
//! history prefers is raised to [`PREFERENCE_MARGIN_NATS`] above the best other node over the
//! same reading after the same hypothesis (by at most [`PREFERENCE_MAX_LIFT_NATS`]: a context
//! the LM finds far likelier otherwise still wins), and the words around it are scored as
//! always. A learned phrase or a user word is `<unk>` to the LM, which then says nothing about
//! it: it is raised by as much as it takes. A user-dictionary word
//! ([`crate::user_dictionary`]) is preferred so too. A learned phrase is also raised above
//! every path ending where it ends that begins inside its reading (`に` `今日` under `2強`):
//! the user chose it over the engine's own cut of that reading.

use crate::history::{History, PREFERENCE_MARGIN_NATS, PREFERENCE_MAX_LIFT_NATS};
use crate::lattice::{is_digit, Lattice, Node, NUMBER_ENTRY};
use crate::lexicon::Lexicon;
use crate::lm::coherence::Coherence;
use crate::lm::homophone_metric::HomophoneMetric;
use crate::lm::lstm::{log_sum_exp, LstmModel, NeuralLm, StepScratch, WordMatch};
pub use crate::options::{NeuralOptions, Scoring, Softmax};
use crate::pos::Connection;

const NONE: u32 = u32::MAX;
const DIGIT_FIRST: u8 = 1;
const DIGIT_LAST: u8 = 2;
const DIGIT_KNOWN: u8 = 4;
/// The node ends a clock hour: the counter `時` read `じ`, or a digit twin ending in it (`2時`).
const CLOCK_HOUR: u8 = 8;
/// The node is the particle `に`.
const PARTICLE_NI: u8 = 16;

/// What the hybrid takes off Mozc's connection cost from a clock hour to the particle `に`
/// (`2時に`, `10時に`), in Mozc's cost units, weighted as the connection is (λ · `conn_weight`):
/// the difference between what Mozc's matrix charges the time counter `時` after a number
/// (2,279, from `名詞,数,アラビア数字`) and the generic counter (333). Without it the hybrid gave
/// `虹に会いましょう` for `にじにあいましょう` and `従事に会いましょう` for `じゅうじにあいましょう`;
/// 1,000 fixes the first, 1,200 (not 1,100) the second. Only before `に`, where the hour is a time
/// expression: on every node `時` (2,000 from the number to `時`) also gave `1時はどうなるかと`
/// for `一時は`, and 3,000 `9時を引く` and `5時がある` (`くじ`, `誤字`). Measured 2026-12-03: no
/// sentence of kwdlc, wac or chat changes; of 564 everyday phrases, those two.
pub const CLOCK_HOUR_NI_DISCOUNT: f32 = 1946.0;

/// Whether `node`, written `surface`, ends a clock hour ([`CLOCK_HOUR`]): the counter `時` read
/// `じ` (after a number node), or a digit twin of a kanji numeral with `時` (`2時` of `二時`).
fn ends_clock_hour(lattice: &Lattice, node: &Node, surface: &str) -> bool {
    if crate::lattice::twin_of(node.entry).is_some() {
        return surface
            .strip_suffix('時')
            .is_some_and(|d| !d.is_empty() && d.chars().all(is_digit));
    }
    surface == "時" && lattice.span(node.begin as usize, node.end as usize) == "じ"
}

/// What a word `n` after a hypothesis ending in POS `right` takes off its numerator besides
/// the LM: the hybrid's `λ · (word cost + weighted connection cost) / cost_scale`; nothing for
/// the LM alone (λ = 0).
fn classic_term(
    opts: &NeuralOptions,
    conn: &Connection,
    n: &crate::lattice::Node,
    right: u16,
) -> f32 {
    if opts.lambda == 0.0 {
        0.0
    } else {
        opts.lambda * (n.cost as f32 + opts.conn_weight * conn.cost(right, n.left_id) as f32)
            / opts.cost_scale
    }
}

/// A candidate extension: score, parent hypothesis, lattice node, LM word and numerator.
#[derive(Debug, Clone, Copy)]
struct Cand {
    score: f32,
    parent: u32,
    node: u32,
    word: u32,
    num: f32,
    /// The node writes a learned spelling ([`History::is_preferred`]), or is a learned phrase
    /// or a user word.
    preferred: bool,
    /// A learned phrase or a user word: `<unk>` to the LM, whose score says nothing of it, so
    /// its lift is not capped.
    own_word: bool,
    /// For a node the LM reads as several words ([`NodeWords`]): its lead-in state
    /// ([`NeuralDecoder::lead_in`]); `NONE` for one word.
    mid: u32,
    /// The log-probability of that node's words after the first (0 for one word).
    lead: f32,
}

/// The LM words a lattice node is scored as ([`NeuralDecoder::node_words`]): one, or up to
/// three for a digit twin in the hybrid (`4時半`: the number word, `時`, `半`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeWords {
    len: u8,
    ids: [u32; 3],
}

impl NodeWords {
    fn one(id: u32) -> Self {
        NodeWords {
            len: 1,
            ids: [id, 0, 0],
        }
    }

    /// The words, in reading order.
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }
}

#[derive(Debug, Clone, Copy)]
struct Hyp {
    /// The hypothesis whose LSTM state (and path) this one continues.
    parent: u32,
    node: u32,
    word: u32,
    right_id: u16,
    num: f32,
    score: f32,
    lse: f32,
    /// The hypothesis's words as a key ([`history_key`]), from the sentence start.
    key: u64,
    /// The donor's hypothesis with the same words ([`NeuralDecoder::lend`]), whose LSTM state
    /// and logits this one copies; `NONE` when there is none.
    source: u32,
    /// For a node of several LM words: its lead-in state while its position is decoded
    /// ([`Cand::mid`]), and the log-probability of its words after the first.
    mid: u32,
    lead: f32,
}

/// The key of the words of a hypothesis that continues one keyed `key` with LM word `word`
/// (splitmix64's finaliser over both): equal word sequences after the same context have equal
/// keys, hence equal LSTM states. 64 bits make a false match among a decoder's few thousand
/// hypotheses a chance of about 10⁻¹³.
fn history_key(key: u64, word: u32) -> u64 {
    let mut z = key.rotate_left(17) ^ (u64::from(word) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The range `ks` covers when it is one run of consecutive indices (ascending).
fn contiguous(ks: &[usize]) -> Option<std::ops::Range<usize>> {
    let (&first, &last) = (ks.first()?, ks.last()?);
    (last - first + 1 == ks.len()).then_some(first..last + 1)
}

/// The LM word of the lexicon's entry with this reading and spelling that the dictionary puts
/// after a word of right POS id `prev_right` (the least word and connection cost), with that
/// entry's right POS id: of the entries whose own key is an LM word, else of those scored by
/// their spelling; `None` when the lexicon or the LM lacks it. Mozc has such a part under
/// several POS (`時間`/`じかん` as a counter and as a noun), and after a number the counter's
/// is the LM word that text writes there.
fn lm_word_after(
    lm: &NeuralLm,
    lexicon: &Lexicon,
    conn: &Connection,
    prev_right: u16,
    (reading, written): (&str, &str),
) -> Option<(u32, u16)> {
    // (cost, LM id, right id), own keys and spellings apart
    let (mut own, mut by_spelling) = (None::<(i32, u32, u16)>, None::<(i32, u32, u16)>);
    for e in lexicon.get(reading) {
        if lexicon.surface_text(&e.surface, reading) != written {
            continue;
        }
        let cost = e.cost.saturating_add(conn.cost(prev_right, e.left_id));
        let best = match lm.vocab.lm_word(e.offset) {
            (id, _) if id == lm.vocab.unk_id => continue,
            (id, WordMatch::Own) => (&mut own, (cost, id, e.right_id)),
            (id, WordMatch::Spelling { .. }) => (&mut by_spelling, (cost, id, e.right_id)),
        };
        if best.0.is_none_or(|b| best.1 .0 < b.0) {
            *best.0 = Some(best.1);
        }
    }
    own.or(by_spelling).map(|(_, id, right)| (id, right))
}

/// The key of the sentence start (after the context and `<s>`).
const START_KEY: u64 = 0;

/// A decoder lent to another ([`NeuralDecoder::lend`]) with its hypotheses by key.
#[derive(Debug, Clone, Default)]
struct Donor {
    decoder: Box<NeuralDecoder>,
    by_key: std::collections::HashMap<u64, u32>,
}

/// A final candidate with both LMs' log-probabilities ([`NeuralDecoder::directions`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Directions {
    /// The beam's score.
    pub score: f32,
    /// The path (node indices).
    pub path: Vec<u32>,
    /// log p of its words and the closing `<s>` under the forward LM, normalised over V.
    pub forward: f32,
    /// The same under the backward LM, read right to left.
    pub backward: f32,
}

/// What one word of a final path added to its score ([`NeuralDecoder::path_scores`]), in nats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WordScore {
    /// log p of the word's LM word after the words before it, normalised over V (the rank
    /// prior included, as the beam scores it; for `<unk>`, the class `<unk>` alone).
    pub lm_log_prob: f32,
    /// All the word added to the path's score: the LM term, `<unk>`'s within-class term, the
    /// word's bias, the hybrid's cost term and the penalties.
    pub step: f32,
    /// Whether the word is in the LM's vocabulary (else it is `<unk>`).
    pub in_vocabulary: bool,
}

/// The scores behind one final path of the beam ([`NeuralDecoder::path_scores`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PathScores {
    /// One per word of the path, in order.
    pub words: Vec<WordScore>,
    /// What the end of the sentence added (`<s>`, and in the hybrid the connection to id 0).
    pub end: f32,
    /// The beam's score of the path: the sum of every `step` and `end`.
    pub score: f32,
}

/// Time spent, for benchmarks (nanoseconds; zero on wasm).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NeuralStats {
    /// Computing logits and denominators (the softmax).
    pub softmax_ns: u64,
    /// LSTM steps.
    pub lstm_ns: u64,
    /// Positions decoded.
    pub positions: u64,
    /// Hypotheses whose LSTM state and logits were copied from a donor
    /// ([`NeuralDecoder::lend`]) instead of computed.
    pub lent_states: u64,
}

struct Timer(#[cfg(not(target_arch = "wasm32"))] std::time::Instant);

impl Timer {
    fn start() -> Self {
        Timer(
            #[cfg(not(target_arch = "wasm32"))]
            std::time::Instant::now(),
        )
    }
    fn ns(&self) -> u64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.0.elapsed().as_nanos() as u64
        }
        #[cfg(target_arch = "wasm32")]
        {
            0
        }
    }
}

/// Per-session state of the neural decoder (reused between keys).
#[derive(Debug, Clone, Default)]
pub struct NeuralDecoder {
    /// Settings (change them with [`NeuralDecoder::set_options`]).
    opts: NeuralOptions,
    hyps: Vec<Hyp>,
    /// `pos_start[t]..pos_start[t + 1]` are the hypotheses of Π\[t\].
    pos_start: Vec<u32>,
    /// LSTM states per hypothesis (`hidden` floats each).
    h: Vec<f32>,
    c: Vec<f32>,
    /// Logits over V per hypothesis (slot order).
    logits: Vec<Vec<f32>>,
    /// V: LM id per slot, slot per LM id (NONE = absent), decoded rows per slot, output
    /// bias per slot (the rank prior taken off).
    v_ids: Vec<u32>,
    v_bias: Vec<f32>,
    slot: Vec<u32>,
    rows: Vec<f32>,
    /// |V| after each position.
    v_len_at: Vec<usize>,
    /// Per lattice node: [`DIGIT_FIRST`] / [`DIGIT_LAST`] / [`DIGIT_KNOWN`] (an entry or a
    /// number, not an unknown run), [`CLOCK_HOUR`] / [`PARTICLE_NI`]; filled as positions are
    /// decoded.
    digit_edges: Vec<u8>,
    /// Per lattice node: the LM words it is scored as ([`NeuralDecoder::node_words`]); filled
    /// as positions are decoded.
    node_words: Vec<NodeWords>,
    /// Per lattice node: for a person's name the LM does not know (`<unk>`) whose reading the
    /// dictionary also spells, at a lower cost, as a name the LM knows (`ハナコ`, `太朗` beside
    /// `花子`, `太郎`), the dictionary cost it has above that spelling: the node is scored as that
    /// name, charged as a spelling ([`WordMatch::Spelling`],
    /// [`NeuralDecoder::find_name_spellings`]); else `None`.
    name_spelling: Vec<Option<u32>>,
    /// The lead-in states of the position being decoded ([`NeuralDecoder::lead_in`]): per state
    /// its hypothesis, the key of the node's words and their log-probability after the first,
    /// and the LSTM state (`mid_h`, `mid_c`).
    mids: Vec<(usize, u64, f32)>,
    mid_h: Vec<f32>,
    mid_c: Vec<f32>,
    /// The mean `ln(id + 10)` over the vocabulary (the rank prior's `<unk>` term), for a
    /// vocabulary of `prior_vocab` words.
    prior_unk_ln: f32,
    prior_vocab: usize,
    /// Initial state (after the context), `hidden` floats each; empty = zeros.
    ctx_h: Vec<f32>,
    ctx_c: Vec<f32>,
    /// Decoded positions (= the lattice length the state describes).
    done: usize,
    stats: NeuralStats,
    // scratch
    cand: Vec<Cand>,
    tmp: Vec<f32>,
    row: Vec<f32>,
    full: Vec<f32>,
    x: Vec<f32>,
    step: StepScratch,
    /// Set when the input continues words decoded before ([`NeuralDecoder::continue_after`]):
    /// the right POS id of the last of them. `None`: the input is a sentence of its own.
    continues: Option<u16>,
    /// The key of the start hypothesis: [`START_KEY`], or that of the words it continues.
    start_key: u64,
    /// A decoder of the same context whose states and logits this one copies where its
    /// hypotheses have the same words ([`NeuralDecoder::lend`]).
    donor: Option<Donor>,
    /// Scratch: the hypotheses without a source, and their states side by side.
    misses: Vec<usize>,
    miss_h: Vec<f32>,
    miss_c: Vec<f32>,
}

impl NeuralDecoder {
    /// A decoder with default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Changes the settings (and forgets everything decoded).
    pub fn set_options(&mut self, opts: NeuralOptions) {
        self.opts = opts;
        self.reset();
    }

    /// The settings.
    pub fn options(&self) -> NeuralOptions {
        self.opts
    }

    /// Time spent so far.
    pub fn stats(&self) -> NeuralStats {
        self.stats
    }

    /// The bytes held by the buffers that grow with the input: each hypothesis's logits over
    /// the lattice vocabulary (most of it: about 130 KB a kana at beam 10), the LSTM states
    /// and the vocabulary's decoded rows.
    pub fn buffer_bytes(&self) -> usize {
        let f = std::mem::size_of::<f32>();
        let logits: usize = self.logits.iter().map(|l| l.capacity() * f).sum();
        logits
            + self.logits.capacity() * std::mem::size_of::<Vec<f32>>()
            + (self.h.capacity() + self.c.capacity() + self.rows.capacity()) * f
            + self.hyps.capacity() * std::mem::size_of::<Hyp>()
    }

    /// Frees those buffers ([`buffer_bytes`](Self::buffer_bytes)) and forgets the decoded
    /// positions (a long input grew them; the next input allocates what it needs).
    pub fn free_buffers(&mut self) {
        self.reset();
        self.hyps = Vec::new();
        self.logits = Vec::new();
        self.h = Vec::new();
        self.c = Vec::new();
        self.rows = Vec::new();
    }

    /// A decoder with this one's settings and context (the LSTM state after the committed
    /// text, and the words it continues), nothing decoded and none of its buffers.
    pub fn empty_like(&self) -> Self {
        NeuralDecoder {
            opts: self.opts,
            ctx_h: self.ctx_h.clone(),
            ctx_c: self.ctx_c.clone(),
            continues: self.continues,
            start_key: self.start_key,
            ..NeuralDecoder::default()
        }
    }

    /// Makes the input continue `words` (LM ids) instead of beginning a sentence: the LSTM
    /// starts from its state after `<s>` and them (from the context, [`set_context`]), and the
    /// first word of the input connects from `right_id`, the POS of the last of them. How the
    /// rest of a reading after segments the user fixed is converted
    /// (`Session::convert_reading_with_fixed`), and how a phrase goes on after the phrases
    /// committed before it (`Session::continue_sentence`). Forgets the decoded positions.
    ///
    /// When the input continues words already (this was called before, and not
    /// [`set_context`] since), `words` go on after those: the context grows.
    ///
    /// [`set_context`]: NeuralDecoder::set_context
    pub fn continue_after(&mut self, lm: &NeuralLm, words: &[u32], right_id: u16) {
        let bos = match self.continues {
            Some(_) => None,
            None => {
                self.start_key = START_KEY;
                Some(lm.model.bos_id)
            }
        };
        self.continues = Some(right_id);
        self.start_key = words.iter().fold(self.start_key, |k, &w| history_key(k, w));
        self.feed_context(lm, bos.into_iter().chain(words.iter().copied()));
    }

    /// Lends this decoder `donor`, a decoder of the same model, settings (the beam aside) and
    /// context that decoded a reading this one's input is part of: where a hypothesis here has
    /// the same words from the sentence start as one of the donor's (a continuation
    /// ([`continue_after`]) counts the words it continues), it copies that one's LSTM state and
    /// logits instead of computing them. How the rest of a reading after the segments the user
    /// fixed is converted without decoding it all again: the whole reading's decoder has
    /// stepped most of the rest's word sequences already. Take it back with
    /// [`take_donor`](Self::take_donor).
    ///
    /// [`continue_after`]: NeuralDecoder::continue_after
    pub fn lend(&mut self, donor: NeuralDecoder) {
        // its logits hold what the settings add to them (the rank prior): they must agree
        let alike = NeuralOptions {
            beam: self.opts.beam,
            ..donor.opts
        } == self.opts;
        let by_key = if alike && matches!(self.opts.softmax, Softmax::Ivs | Softmax::IvsNoFrequent)
        {
            donor
                .hyps
                .iter()
                .enumerate()
                .map(|(k, h)| (h.key, k as u32))
                .collect()
        } else {
            Default::default()
        };
        self.donor = Some(Donor {
            decoder: Box::new(donor),
            by_key,
        });
    }

    /// Gives back the decoder lent with [`lend`](Self::lend).
    pub fn take_donor(&mut self) -> Option<NeuralDecoder> {
        self.donor.take().map(|d| *d.decoder)
    }

    /// The donor's hypothesis with the words keyed `key`, or `NONE`.
    fn source_of(&self, key: u64) -> u32 {
        self.donor
            .as_ref()
            .and_then(|d| d.by_key.get(&key))
            .copied()
            .unwrap_or(NONE)
    }

    /// Forgets the decoded positions (keeps buffers and the context).
    pub fn reset(&mut self) {
        self.hyps.clear();
        self.pos_start.clear();
        self.v_ids.clear();
        self.v_bias.clear();
        for s in self.slot.iter_mut() {
            *s = NONE;
        }
        self.rows.clear();
        self.v_len_at.clear();
        self.done = 0;
    }

    /// Sets the LSTM state the sentence starts from: after `<s>` and the LM words of
    /// previously committed text (`ids`, may be empty). Forgets the decoded positions.
    pub fn set_context(&mut self, lm: &NeuralLm, ids: &[u32]) {
        self.ctx_h.clear();
        self.continues = None;
        self.start_key = START_KEY;
        self.feed_context(lm, ids.iter().copied());
    }

    /// Forgets the context: the sentence starts afresh, after `<s>` alone (a new model or
    /// scorer, whose LSTM states are not this one's). Forgets the decoded positions.
    pub fn forget_context(&mut self) {
        self.ctx_h.clear();
        self.ctx_c.clear();
        self.continues = None;
        self.start_key = START_KEY;
        self.reset();
    }

    /// Steps the context's LSTM state (zeros if it has none) over `ids` and forgets the decoded
    /// positions.
    fn feed_context(&mut self, lm: &NeuralLm, ids: impl IntoIterator<Item = u32>) {
        let m = &lm.model;
        let hd = m.hidden;
        if self.ctx_h.len() != hd {
            self.ctx_h = vec![0.0; hd];
            self.ctx_c = vec![0.0; m.cell];
        }
        self.x.resize(hd, 0.0);
        for id in ids {
            m.embed(id, &mut self.x);
            m.step(&self.x, &mut self.ctx_h, &mut self.ctx_c, &mut self.step);
        }
        self.reset();
    }

    /// The LM word of a lattice node with entry `entry` and left POS id `left` (a digit twin is
    /// its kanji word's).
    pub fn word_of(lm: &NeuralLm, entry: u32, left: u16) -> u32 {
        Self::lm_word_of(lm, entry, left, false).0
    }

    /// The LM word of a lattice node, as this decoder scores it.
    pub fn scored_word(&self, lm: &NeuralLm, entry: u32, left: u16) -> u32 {
        Self::lm_word_of(lm, entry, left, self.twins_as_numbers()).0
    }

    /// Whether a digit twin ([`crate::lattice::DIGIT_TWIN_BASE`], `4人` for `よにん`) is the LM's
    /// number word and its counter, as a number node and a counter are
    /// ([`NeuralDecoder::node_words`]), rather than its kanji word (`四人`): so in the hybrid,
    /// where the twin's dictionary cost and POS keep it before counters (`ごぜんくじ` → `午前9時`,
    /// which the kanji word, rare in modern text, loses to `くじ`). The LM alone cannot tell a
    /// number before a counter from a word (`くじびき` would be `9時匹`), so the neural engine
    /// scores the twin as its kanji word. Read as the number word alone, the twin would leave the
    /// LM reading `4 の 人` (`よにんのひと` → `四人の人`). The dev sets convert the same either
    /// way, sentence for sentence (kwdlc, wac and chat, 2026-12-02).
    fn twins_as_numbers(&self) -> bool {
        self.opts.lambda != 0.0
    }

    /// The LM word of a lattice node and how the node has it (a lexicon entry without an LM
    /// word: the `<unk>` class of its left POS id `left`); `twins_as_numbers`:
    /// [`NeuralDecoder::twins_as_numbers`].
    fn lm_word_of(
        lm: &NeuralLm,
        entry: u32,
        left: u16,
        twins_as_numbers: bool,
    ) -> (u32, WordMatch) {
        if crate::lattice::is_unknown(entry) {
            (lm.vocab.unk_id, WordMatch::Own)
        } else if entry == NUMBER_ENTRY
            || twins_as_numbers && crate::lattice::twin_of(entry).is_some()
        {
            (lm.vocab.number_id, WordMatch::Own)
        } else {
            lm.vocab.lm_word_or_class(entry, left)
        }
    }

    /// The LM words this decoder scores lattice node `n` as: its word
    /// ([`NeuralDecoder::scored_word`]), or, for a digit twin in the hybrid, the number word,
    /// the counter and what follows the counter, as text writes them and the LM read them in
    /// training (`4人` → the number word and `人`, `4時半` → the number word, `時` and `半`;
    /// [`crate::lattice::number::twin_parts`]). A twin whose parts the lexicon or the LM lacks
    /// stays the number word alone.
    pub fn node_words(
        &self,
        lm: &NeuralLm,
        lexicon: &Lexicon,
        conn: &Connection,
        lattice: &Lattice,
        n: &crate::lattice::Node,
    ) -> NodeWords {
        let one = NodeWords::one(self.scored_word(lm, n.entry, n.left_id));
        if !self.twins_as_numbers() {
            return one;
        }
        let Some(e) = crate::lattice::twin_of(n.entry).and_then(|e| lexicon.entry(e)) else {
            return one;
        };
        let reading = lattice.span(n.begin as usize, n.end as usize);
        let kanji = lexicon.surface_text(&e.surface, reading);
        let Some(parts) = crate::lattice::number::twin_parts(reading, &kanji) else {
            return one;
        };
        let number = conn.special.number;
        // the counter with what follows it as one word where the LM has it (`時半`), else each
        if !parts.tail.1.is_empty() {
            let whole = (
                &reading[reading.len() - parts.counter.0.len() - parts.tail.0.len()..],
                &kanji[kanji.len() - parts.counter.1.len() - parts.tail.1.len()..],
            );
            if let Some((id, _)) = lm_word_after(lm, lexicon, conn, number, whole) {
                return NodeWords {
                    len: 2,
                    ids: [one.ids[0], id, 0],
                };
            }
        }
        let mut out = one;
        let mut prev = number;
        for part in [parts.counter, parts.tail] {
            if part.1.is_empty() {
                continue;
            }
            match lm_word_after(lm, lexicon, conn, prev, part) {
                Some((id, right)) => {
                    out.ids[out.len as usize] = id;
                    out.len += 1;
                    prev = right;
                }
                None => return one,
            }
        }
        out
    }

    /// The hybrid's rare spellings of names ([`NeuralDecoder::name_spelling`]), over the nodes
    /// ending at `t`: a person's name in the dictionary that the LM does not know (`たろう`,
    /// `ハナコ`, `太朗`) would be scored by `<unk>`, whose share after a surname (most given
    /// names are rare words) is far above the share of any one name the LM knows (`太郎`,
    /// `花子`); so `山田たろう` beat `山田太郎`. Where the dictionary ranks a spelling of the same
    /// reading with the same POS above it (a lower word cost) and the LM knows that one (as
    /// itself, not as another reading of its spelling: `一人` read `まさと`), it is
    /// scored as that spelling instead, charged as a spelling of it (the cheapest such). A name
    /// the dictionary ranks first keeps `<unk>` (`純子` beside `順子`). Only names: other words
    /// that share a reading and a POS are homophones, not spellings (`溶接` and `夭折`).
    fn find_name_spellings(
        &mut self,
        lm: &NeuralLm,
        lexicon: &Lexicon,
        conn: &Connection,
        lattice: &Lattice,
        t: usize,
    ) {
        for i in lattice.ending_at(t) {
            if let Some((words, extra_cost)) = self.name_spelling_of(lm, lexicon, conn, lattice, i)
            {
                self.node_words[i] = words;
                self.name_spelling[i] = Some(extra_cost);
            }
        }
    }

    /// For lattice node `i`, a person's name the LM does not know: the words of the spelling it
    /// is scored as and the dictionary cost it has above it ([`NeuralDecoder::find_name_spellings`]).
    fn name_spelling_of(
        &self,
        lm: &NeuralLm,
        lexicon: &Lexicon,
        conn: &Connection,
        lattice: &Lattice,
        i: usize,
    ) -> Option<(NodeWords, u32)> {
        let names = person_name_ids(&conn.special)?;
        let nodes = lattice.nodes();
        let n = nodes[i];
        if !names.contains(&n.left_id)
            || crate::lattice::is_unknown(n.entry)
            || lexicon.entry(n.entry).is_none()
            || !lm
                .vocab
                .is_unknown(self.scored_word(lm, n.entry, n.left_id))
        {
            return None;
        }
        let j = lattice
            .ending_at(n.end as usize)
            .filter(|&j| {
                let m = nodes[j];
                m.begin == n.begin
                    && m.left_id == n.left_id
                    && m.cost < n.cost
                    && lm.vocab.lm_word(m.entry).1 == WordMatch::Own
                    && !lm
                        .vocab
                        .is_unknown(self.scored_word(lm, m.entry, m.left_id))
            })
            .min_by_key(|&j| nodes[j].cost)?;
        let m = nodes[j];
        Some((
            NodeWords::one(self.scored_word(lm, m.entry, m.left_id)),
            (n.cost - m.cost) as u32,
        ))
    }

    /// The lead-in of a node the LM reads as `words` (several) after hypothesis `k`: the
    /// log-probability of its words after the first, each normalised as the beam's words are,
    /// and the index of the LSTM state after all but the last word in `mid_h`/`mid_c`, from
    /// which the node's hypothesis steps its last word. Nodes with the same words from the
    /// same hypothesis share it.
    fn lead_in(&mut self, lm: &NeuralLm, k: usize, words: &[u32]) -> (f32, u32) {
        let key = words
            .iter()
            .fold(self.hyps[k].key, |key, &w| history_key(key, w));
        if let Some(i) = self.mids.iter().position(|&(j, kk, _)| j == k && kk == key) {
            return (self.mids[i].2, i as u32);
        }
        let m = &lm.model;
        let (hd, cd) = (m.hidden, m.cell);
        let mut h = self.h[k * hd..(k + 1) * hd].to_vec();
        let mut c = self.c[k * cd..(k + 1) * cd].to_vec();
        let mut x = vec![0.0; hd];
        let mut lead = 0.0;
        for j in 1..words.len() {
            m.embed(words[j - 1], &mut x);
            m.step(&x, &mut h, &mut c, &mut self.step);
            lead += self.log_prob_at(lm, &h, words[j]);
        }
        self.mid_h.extend_from_slice(&h);
        self.mid_c.extend_from_slice(&c);
        self.mids.push((k, key, lead));
        (lead, (self.mids.len() - 1) as u32)
    }

    /// The log-probability of LM word `w` (in V) after LSTM state `h`, normalised as the
    /// beam's words are: over V, or over the whole vocabulary with [`Softmax::Full`].
    fn log_prob_at(&mut self, lm: &NeuralLm, h: &[f32], w: u32) -> f32 {
        let hd = lm.model.hidden;
        if self.opts.softmax == Softmax::Full {
            let mut all = std::mem::take(&mut self.full);
            lm.model.logits_all(h, &mut all, &mut self.row);
            for (id, v) in all.iter_mut().enumerate() {
                *v -= self.prior_of(lm, id as u32);
            }
            let lp = all[w as usize] - log_sum_exp(&all);
            self.full = all;
            return lp;
        }
        let n = self.v_ids.len();
        let mut logits = std::mem::take(&mut self.tmp);
        logits.resize(n, 0.0);
        let mut v = [0.0];
        for (s, l) in logits.iter_mut().enumerate() {
            crate::kernels::row_times_states(&self.rows[s * hd..(s + 1) * hd], h, hd, &mut v);
            *l = v[0] + self.v_bias[s];
        }
        let lp = logits[self.slot[w as usize] as usize] - log_sum_exp(&logits);
        self.tmp = logits;
        lp
    }

    fn add_to_v(&mut self, lm: &NeuralLm, id: u32) {
        if self.slot.len() < lm.model.vocab {
            self.slot.resize(lm.model.vocab, NONE);
        }
        if self.slot[id as usize] != NONE {
            return;
        }
        self.slot[id as usize] = self.v_ids.len() as u32;
        self.v_ids.push(id);
        self.v_bias
            .push(lm.model.out_bias[id as usize] - self.prior_of(lm, id));
        let hd = lm.model.hidden;
        let at = self.rows.len();
        self.rows.resize(at + hd, 0.0);
        lm.model
            .embedding
            .decode_row(id as usize, hd, &mut self.rows[at..at + hd]);
    }

    /// What the rank prior takes off the logit of LM word `id` (nats).
    fn prior_of(&self, lm: &NeuralLm, id: u32) -> f32 {
        let a = self.opts.rank_prior;
        if a == 0.0 {
            0.0
        } else if lm.vocab.is_unknown(id) {
            a * self.prior_unk_ln
        } else {
            a * (id as f32 + 10.0).ln()
        }
    }

    /// One batched LSTM step for hypotheses `hs` (new, their states' room allocated): each
    /// from its parent's state and its word, or copied from its source in the donor.
    fn step_hyps(&mut self, lm: &NeuralLm, hs: std::ops::Range<usize>) {
        let m = &lm.model;
        let (hd, cd) = (m.hidden, m.cell);
        self.misses.clear();
        for k in hs.clone() {
            let hy = self.hyps[k];
            match self.donor.as_ref().filter(|_| hy.source != NONE) {
                Some(d) => {
                    let j = hy.source as usize;
                    self.h[k * hd..(k + 1) * hd]
                        .copy_from_slice(&d.decoder.h[j * hd..(j + 1) * hd]);
                    self.c[k * cd..(k + 1) * cd]
                        .copy_from_slice(&d.decoder.c[j * cd..(j + 1) * cd]);
                    self.stats.lent_states += 1;
                }
                None => self.misses.push(k),
            }
        }
        let nb = self.misses.len();
        if nb == 0 {
            return;
        }
        // each of the others from its parent's state, in its own rows
        self.x.resize(nb * hd, 0.0);
        for (i, &k) in self.misses.iter().enumerate() {
            let hy = self.hyps[k];
            let s = self.slot[hy.word as usize] as usize;
            self.x[i * hd..(i + 1) * hd].copy_from_slice(&self.rows[s * hd..(s + 1) * hd]);
            if hy.mid != NONE {
                // a node of several words steps its last from its lead-in state
                let j = hy.mid as usize;
                self.h[k * hd..(k + 1) * hd].copy_from_slice(&self.mid_h[j * hd..(j + 1) * hd]);
                self.c[k * cd..(k + 1) * cd].copy_from_slice(&self.mid_c[j * cd..(j + 1) * cd]);
            } else {
                let p = hy.parent as usize;
                self.h.copy_within(p * hd..(p + 1) * hd, k * hd);
                self.c.copy_within(p * cd..(p + 1) * cd, k * cd);
            }
        }
        let x = &self.x[..nb * hd];
        if let Some(ks) = contiguous(&self.misses) {
            // stepped in place: every hypothesis without a donor
            let (hs, cs) = (
                &mut self.h[ks.start * hd..ks.end * hd],
                &mut self.c[ks.start * cd..ks.end * cd],
            );
            m.step(x, hs, cs, &mut self.step);
            return;
        }
        self.miss_h.resize(nb * hd, 0.0);
        self.miss_c.resize(nb * cd, 0.0);
        for (i, &k) in self.misses.iter().enumerate() {
            self.miss_h[i * hd..(i + 1) * hd].copy_from_slice(&self.h[k * hd..(k + 1) * hd]);
            self.miss_c[i * cd..(i + 1) * cd].copy_from_slice(&self.c[k * cd..(k + 1) * cd]);
        }
        m.step(
            x,
            &mut self.miss_h[..nb * hd],
            &mut self.miss_c[..nb * cd],
            &mut self.step,
        );
        for (i, &k) in self.misses.iter().enumerate() {
            self.h[k * hd..(k + 1) * hd].copy_from_slice(&self.miss_h[i * hd..(i + 1) * hd]);
            self.c[k * cd..(k + 1) * cd].copy_from_slice(&self.miss_c[i * cd..(i + 1) * cd]);
        }
    }

    /// Logits of slots `from..to` for hypotheses `hs`, appended to their caches: copied from
    /// a hypothesis's source in the donor where the donor has the word in its vocabulary,
    /// else one batched product per slot over the states that need it.
    fn fill_logits(&mut self, lm: &NeuralLm, hs: std::ops::Range<usize>, from: usize, to: usize) {
        let hd = lm.model.hidden;
        if hs.is_empty() || from >= to {
            return;
        }
        for k in hs.clone() {
            let l = &mut self.logits[k];
            l.truncate(from);
            l.resize(to, 0.0);
        }
        // the hypotheses with a source take the donor's logits of every slot the donor has
        self.misses.clear();
        let mut gaps = Vec::new();
        match &self.donor {
            Some(d) => {
                for k in hs.clone() {
                    let j = self.hyps[k].source;
                    let Some(theirs) = (j != NONE)
                        .then(|| d.decoder.logits.get(j as usize))
                        .flatten()
                    else {
                        self.misses.push(k);
                        continue;
                    };
                    for s in from..to {
                        let ds = d.decoder.slot.get(self.v_ids[s] as usize).copied();
                        match ds.and_then(|ds| theirs.get(ds as usize)) {
                            Some(&v) => self.logits[k][s] = v,
                            None => gaps.push((k, s)),
                        }
                    }
                }
            }
            None => self.misses.extend(hs.clone()),
        }
        for (k, s) in gaps {
            let row = &self.rows[s * hd..(s + 1) * hd];
            let mut v = [0.0];
            crate::kernels::row_times_states(row, &self.h[k * hd..(k + 1) * hd], hd, &mut v);
            self.logits[k][s] = v[0] + self.v_bias[s];
        }
        let n = self.misses.len();
        if n == 0 {
            return;
        }
        // the others' states side by side, unless they are already
        let states = match contiguous(&self.misses) {
            Some(ks) => &self.h[ks.start * hd..ks.end * hd],
            None => {
                self.miss_h.resize(n * hd, 0.0);
                for (i, &k) in self.misses.iter().enumerate() {
                    self.miss_h[i * hd..(i + 1) * hd]
                        .copy_from_slice(&self.h[k * hd..(k + 1) * hd]);
                }
                &self.miss_h[..n * hd]
            }
        };
        self.tmp.resize(n, 0.0);
        for s in from..to {
            let row = &self.rows[s * hd..(s + 1) * hd];
            crate::kernels::row_times_states(row, states, hd, &mut self.tmp[..n]);
            let bias = self.v_bias[s];
            for (i, v) in self.tmp[..n].iter().enumerate() {
                self.logits[self.misses[i]][s] = v + bias;
            }
        }
    }

    /// Recomputes the denominators of `hs` from their logits over slots `from..`, folding
    /// them into the old ones when `from > 0` (the fix-up adds only the new words' terms).
    fn refresh_lse(&mut self, hs: std::ops::Range<usize>, from: usize) {
        if self.opts.softmax == Softmax::Full {
            return; // exact denominators, computed once per state
        }
        for k in hs {
            let add = log_sum_exp(&self.logits[k][from.min(self.logits[k].len())..]);
            let old = self.hyps[k].lse;
            self.hyps[k].lse = if from == 0 || !old.is_finite() {
                add
            } else {
                let m = old.max(add);
                if m.is_finite() {
                    m + ((old - m).exp() + (add - m).exp()).ln()
                } else {
                    m
                }
            };
        }
    }

    fn resweep(&mut self) {
        for k in 0..self.hyps.len() {
            let p = self.hyps[k].parent;
            if p != NONE {
                let pa = self.hyps[p as usize];
                self.hyps[k].score = pa.score + self.hyps[k].num - pa.lse;
            }
        }
    }

    /// Truncates to a lattice of `len` positions.
    fn truncate(&mut self, len: usize) {
        if len >= self.done {
            return;
        }
        if len == 0 {
            self.reset();
            return;
        }
        let keep = self.pos_start[len + 1] as usize;
        self.hyps.truncate(keep);
        self.pos_start.truncate(len + 2);
        let vlen = self.v_len_at[len];
        for &id in &self.v_ids[vlen..] {
            self.slot[id as usize] = NONE;
        }
        self.v_ids.truncate(vlen);
        self.v_bias.truncate(vlen);
        self.v_len_at.truncate(len + 1);
        self.done = len;
        for k in 0..keep {
            self.logits[k].truncate(vlen);
        }
    }

    /// Brings the decoder to the lattice as far as position `span.end`: positions before
    /// `span.start` (the first changed one) are kept, the rest up to `span.end` is (re)decoded.
    /// Call after every lattice change with `changed..lattice.len()`; an `end` short of the
    /// lattice's length leaves the rest for a later call (the final beam is then that of the
    /// lattice's first `end` characters).
    pub fn sync(
        &mut self,
        lattice: &Lattice,
        lexicon: &Lexicon,
        conn: &Connection,
        lm: &NeuralLm,
        history: &History,
        span: std::ops::Range<usize>,
    ) {
        let changed = span.start;
        let hd = lm.model.hidden;
        if changed < self.done {
            self.truncate(changed);
            let vlen = self.v_ids.len();
            self.rows.truncate(vlen * hd);
            let n = self.hyps.len();
            self.refresh_lse(0..n, 0);
            self.resweep();
        }
        if self.done == 0 {
            self.start(lm);
        }
        for t in self.done + 1..=span.end.min(lattice.len()) {
            self.extend(lattice, lexicon, conn, lm, history, t);
        }
    }

    fn start(&mut self, lm: &NeuralLm) {
        let m = &lm.model;
        let hd = m.hidden;
        self.reset();
        if self.opts.rank_prior != 0.0 && self.prior_vocab != m.vocab {
            let sum: f64 = (0..m.vocab).map(|i| (i as f64 + 10.0).ln()).sum();
            self.prior_unk_ln = (sum / m.vocab.max(1) as f64) as f32;
            self.prior_vocab = m.vocab;
        }
        // Ṽ, <s>, <unk>
        let frequent = match self.opts.softmax {
            Softmax::IvsNoFrequent => 0,
            _ => self.opts.frequent.min(m.vocab),
        };
        self.add_to_v(lm, m.bos_id);
        self.add_to_v(lm, m.unk_id);
        for id in 0..frequent as u32 {
            self.add_to_v(lm, id);
        }
        // Π[0]: the sentence start, after <s> (and the context)
        let (mut h, mut c) = if self.ctx_h.len() == hd {
            (self.ctx_h.clone(), self.ctx_c.clone())
        } else {
            (vec![0.0; hd], vec![0.0; m.cell])
        };
        self.x.resize(hd, 0.0);
        if self.continues.is_none() {
            m.embed(m.bos_id, &mut self.x);
            m.step(&self.x, &mut h, &mut c, &mut self.step);
        }
        self.h.clear();
        self.c.clear();
        self.h.extend_from_slice(&h);
        self.c.extend_from_slice(&c);
        self.hyps.push(Hyp {
            parent: NONE,
            node: NONE,
            word: m.bos_id,
            right_id: self.continues.unwrap_or(0),
            num: 0.0,
            score: 0.0,
            lse: 0.0,
            key: self.start_key,
            source: self.source_of(self.start_key),
            mid: NONE,
            lead: 0.0,
        });
        if self.logits.is_empty() {
            self.logits.push(Vec::new());
        }
        self.pos_start.clear();
        self.pos_start.push(0);
        self.pos_start.push(1);
        let t0 = Timer::start();
        let vlen = self.v_ids.len();
        self.fill_logits(lm, 0..1, 0, vlen);
        self.full_lse(lm, 0..1);
        self.refresh_lse(0..1, 0);
        self.stats.softmax_ns += t0.ns();
        self.v_len_at.clear();
        self.v_len_at.push(vlen);
        self.done = 0;
    }

    fn full_lse(&mut self, lm: &NeuralLm, hs: std::ops::Range<usize>) {
        if self.opts.softmax != Softmax::Full {
            return;
        }
        let m = &lm.model;
        let hd = m.hidden;
        let n = hs.len();
        self.full.resize(n * m.vocab, 0.0);
        self.row.resize(hd, 0.0);
        self.tmp.resize(n, 0.0);
        let states = &self.h[hs.start * hd..hs.end * hd];
        for id in 0..m.vocab {
            m.embedding.decode_row(id, hd, &mut self.row);
            crate::kernels::row_times_states(&self.row, states, hd, &mut self.tmp[..n]);
            let bias = m.out_bias[id] - self.prior_of(lm, id as u32);
            for k in 0..n {
                self.full[k * m.vocab + id] = self.tmp[k] + bias;
            }
        }
        for k in 0..n {
            self.hyps[hs.start + k].lse = log_sum_exp(&self.full[k * m.vocab..(k + 1) * m.vocab]);
        }
    }

    /// Raises every candidate that writes a learned spelling (or a user word) to
    /// [`PREFERENCE_MARGIN_NATS`] above the best other candidate over the same reading from the
    /// same hypothesis, by at most [`PREFERENCE_MAX_LIFT_NATS`] (learned phrases and user
    /// words, `<unk>` to the LM, by as much as it takes).
    fn prefer_learned(&mut self, nodes: &[crate::lattice::Node]) {
        for a in 0..self.cand.len() {
            let c = self.cand[a];
            if !c.preferred {
                continue;
            }
            let begin = nodes[c.node as usize].begin;
            let rival = self
                .cand
                .iter()
                .filter(|o| {
                    !o.preferred && o.parent == c.parent && nodes[o.node as usize].begin == begin
                })
                .map(|o| o.num)
                .fold(f32::NEG_INFINITY, f32::max);
            let cap = if c.own_word {
                f32::INFINITY
            } else {
                PREFERENCE_MAX_LIFT_NATS
            };
            let lift = (rival + PREFERENCE_MARGIN_NATS - c.num).min(cap);
            if lift > 0.0 {
                self.cand[a].num += lift;
                self.cand[a].score += lift;
            }
        }
        // a learned phrase also beats the paths that cut its reading otherwise (`に` `今日`
        // under `2強`): all its candidates are raised together, to the margin above the best
        // path ending here that begins inside its reading
        for a in 0..self.cand.len() {
            let c = self.cand[a];
            let entry = nodes[c.node as usize].entry;
            if !(crate::lattice::PHRASE_ENTRY_BASE..crate::lattice::USER_ENTRY_BASE)
                .contains(&entry)
                || self.cand[..a].iter().any(|o| o.node == c.node)
            {
                continue;
            }
            let begin = nodes[c.node as usize].begin;
            let others = self
                .cand
                .iter()
                .filter(|o| !o.preferred && nodes[o.node as usize].begin >= begin)
                .map(|o| o.score)
                .fold(f32::NEG_INFINITY, f32::max);
            let own = self
                .cand
                .iter()
                .filter(|o| o.node == c.node)
                .map(|o| o.score)
                .fold(f32::NEG_INFINITY, f32::max);
            let lift = others + PREFERENCE_MARGIN_NATS - own;
            if lift > 0.0 && lift.is_finite() {
                for o in self.cand.iter_mut().filter(|o| o.node == c.node) {
                    o.num += lift;
                    o.score += lift;
                }
            }
        }
    }

    fn extend(
        &mut self,
        lattice: &Lattice,
        lexicon: &Lexicon,
        conn: &Connection,
        lm: &NeuralLm,
        history: &History,
        t: usize,
    ) {
        let m = &lm.model;
        let hd = m.hidden;
        let nodes = lattice.nodes();
        // 1. grow V by D_t
        let old = self.v_ids.len();
        if self.node_words.len() < nodes.len() {
            self.node_words.resize(nodes.len(), NodeWords::default());
        }
        if self.name_spelling.len() < nodes.len() {
            self.name_spelling.resize(nodes.len(), None);
        }
        for i in lattice.ending_at(t) {
            let words = self.node_words(lm, lexicon, conn, lattice, &nodes[i]);
            for &w in words.ids() {
                self.add_to_v(lm, w);
            }
            self.node_words[i] = words;
            self.name_spelling[i] = None;
        }
        if self.opts.lambda != 0.0 {
            self.find_name_spellings(lm, lexicon, conn, lattice, t);
        }
        let new = self.v_ids.len();
        if self.digit_edges.len() < nodes.len() {
            self.digit_edges.resize(nodes.len(), 0);
        }
        let charge_joins = self.opts.digit_join_penalty != 0.0;
        let clock_hours = self.opts.lambda != 0.0;
        if charge_joins || clock_hours {
            for i in lattice.ending_at(t) {
                let surface = lattice.surface(lexicon, &nodes[i]);
                let mut f = 0;
                if surface == "に" {
                    f |= PARTICLE_NI;
                } else if ends_clock_hour(lattice, &nodes[i], &surface) {
                    f |= CLOCK_HOUR;
                }
                if surface.chars().next().is_some_and(is_digit) {
                    f |= DIGIT_FIRST;
                }
                if surface.chars().next_back().is_some_and(is_digit) {
                    f |= DIGIT_LAST;
                }
                if !crate::lattice::is_unknown(nodes[i].entry) {
                    f |= DIGIT_KNOWN;
                }
                self.digit_edges[i] = f;
            }
        }
        // 2. fix up the cached states' logits and denominators
        let t0 = Timer::start();
        let live = self.hyps.len();
        if self.opts.softmax == Softmax::NonIncremental {
            self.fill_logits(lm, 0..live, 0, new);
            self.refresh_lse(0..live, 0);
            self.resweep();
        } else if new > old {
            self.fill_logits(lm, 0..live, old, new);
            self.refresh_lse(0..live, old);
            self.resweep();
        }
        self.stats.softmax_ns += t0.ns();
        // 3. extend
        self.cand.clear();
        self.mids.clear();
        self.mid_h.clear();
        self.mid_c.clear();
        let scale = self.opts.cost_scale;
        let twins_as_numbers = self.twins_as_numbers();
        let charge_twins = self.opts.twin_penalty != 0.0 && twins_as_numbers && !lm.bias.is_empty();
        for i in lattice.ending_at(t) {
            let n = nodes[i];
            let b = n.begin as usize;
            if b + 1 >= self.pos_start.len() {
                continue;
            }
            let (w, matched) = match self.name_spelling[i] {
                Some(extra_cost) => (
                    self.node_words[i].ids[0],
                    WordMatch::Spelling { extra_cost },
                ),
                None => Self::lm_word_of(lm, n.entry, n.left_id, twins_as_numbers),
            };
            let s = self.slot[w as usize] as usize;
            let words = self.node_words[i];
            let is_unk = lm.vocab.is_unknown(w);
            let mut bias = if self.opts.bias_weight != 0.0 {
                self.opts.bias_weight * lm.bias.get(n.entry)
            } else {
                0.0
            };
            // a twin of a kanji word without a digit prior (`1度` of `一度`); a model without
            // word biases has no digit prior to tell those words by
            if charge_twins
                && crate::lattice::twin_of(n.entry).is_some_and(|e| lm.bias.get(e) == 0.0)
            {
                bias -= self.opts.twin_penalty;
            }
            if let WordMatch::Spelling { extra_cost } = matched {
                bias -= self.opts.spelling_penalty
                    + self.opts.spelling_cost_weight * extra_cost as f32 / scale;
            }
            let edge = self.digit_edges[i];
            let own_word = crate::lattice::is_own_word(n.entry);
            let preferred = own_word || (!history.is_empty() && history.is_preferred(n.entry));
            for k in self.pos_start[b] as usize..self.pos_start[b + 1] as usize {
                let hy = self.hyps[k];
                let join = if charge_joins && edge & DIGIT_FIRST != 0 && hy.node != NONE {
                    let prev = self.digit_edges[hy.node as usize];
                    prev & DIGIT_LAST != 0 && (prev | edge) & DIGIT_KNOWN != 0
                } else {
                    false
                };
                // within-class probability of an <unk> word: from its cost and the
                // connection cost into it (the dictionary's own estimate in context)
                let class = if is_unk {
                    -self.opts.unk_base
                        - (n.cost + conn.cost(hy.right_id, n.left_id)) as f32 / scale
                } else {
                    0.0
                };
                let mut num = self.logits[k][s] + class + bias - self.opts.word_penalty;
                if join {
                    num -= self.opts.digit_join_penalty;
                }
                if clock_hours
                    && edge & PARTICLE_NI != 0
                    && hy.node != NONE
                    && self.digit_edges[hy.node as usize] & CLOCK_HOUR != 0
                {
                    num +=
                        self.opts.lambda * self.opts.conn_weight * CLOCK_HOUR_NI_DISCOUNT / scale;
                }
                num -= classic_term(&self.opts, conn, &n, hy.right_id);
                // a node of several LM words: the words after the first from its lead-in
                let (word, mid, lead) = match words.ids() {
                    ids @ [_, .., last] => {
                        let (lead, mid) = self.lead_in(lm, k, ids);
                        (*last, mid, lead)
                    }
                    _ => (w, NONE, 0.0),
                };
                num += lead;
                let score = hy.score + num - hy.lse;
                self.cand.push(Cand {
                    score,
                    parent: k as u32,
                    node: i as u32,
                    word,
                    num,
                    preferred,
                    own_word,
                    mid,
                    lead,
                });
            }
        }
        if self.cand.iter().any(|c| c.preferred) {
            self.prefer_learned(nodes);
        }
        // best first; ties keep the earlier candidate (stable sort)
        self.cand.sort_by(|a, b| b.score.total_cmp(&a.score));
        self.cand.truncate(self.opts.beam.max(1));
        let first = self.hyps.len();
        for &Cand {
            score,
            parent,
            node,
            word,
            num,
            mid,
            lead,
            ..
        } in &self.cand
        {
            let key = self.node_words[node as usize]
                .ids()
                .iter()
                .fold(self.hyps[parent as usize].key, |key, &w| {
                    history_key(key, w)
                });
            self.hyps.push(Hyp {
                parent,
                node,
                word,
                right_id: nodes[node as usize].right_id,
                num,
                score,
                lse: 0.0,
                key,
                source: self.source_of(key),
                mid,
                lead,
            });
        }
        let last = self.hyps.len();
        while self.logits.len() < last {
            self.logits.push(Vec::new());
        }
        // 4. one batched LSTM step for Π[t]
        let t1 = Timer::start();
        let cd = m.cell;
        self.h.resize(last * hd, 0.0);
        self.c.resize(last * cd, 0.0);
        self.step_hyps(lm, first..last);
        self.stats.lstm_ns += t1.ns();
        let t2 = Timer::start();
        for k in first..last {
            self.logits[k].clear();
        }
        self.fill_logits(lm, first..last, 0, new);
        self.full_lse(lm, first..last);
        self.refresh_lse(first..last, 0);
        self.stats.softmax_ns += t2.ns();
        self.pos_start.push(last as u32);
        self.v_len_at.push(new);
        self.done = t;
        self.stats.positions += 1;
    }

    /// The best complete paths (node indices) with their scores, best first, at most `beam`.
    /// The end of sentence is scored as the word `<s>` (and, in hybrid, the connection to
    /// id 0).
    pub fn finals(&self, conn: &Connection, lm: &NeuralLm) -> Vec<(f32, Vec<u32>)> {
        self.final_hyps(conn, lm)
            .into_iter()
            .map(|(score, k)| (score, self.path_of(k)))
            .collect()
    }

    /// [`NeuralDecoder::finals`] re-ranked on conversion (the per-key preview keeps the beam's
    /// order), best first:
    /// - with the backward LM when the model has one and [`NeuralOptions::backward_weight`]
    ///   is not 0: each candidate's score gets `β · (log p_backward(words) − log p_forward(words))`,
    ///   both directions from `<s>` to `<s>` and normalised over the lattice vocabulary V (the
    ///   forward log-probabilities from the logits the beam cached, without the rank prior; the
    ///   backward LM run right to left over the candidates' words as a trie, so shared endings
    ///   are stepped once, batched per depth);
    /// - with the topical coherence of its words ([`crate::lm::coherence`]) when the model has
    ///   word vectors and [`NeuralOptions::coherence_weight`] is not 0: `w · coherence`;
    /// - with the coherence between homophones ([`NeuralOptions::homophone_weight`]): a
    ///   candidate that differs from the best only in words of the same reading spans, each
    ///   with a vector, gets `w · (its coherence − the best's)`.
    pub fn rescored_finals(
        &self,
        conn: &Connection,
        lm: &NeuralLm,
        lattice: &Lattice,
    ) -> Vec<(f32, Vec<u32>)> {
        self.rescored_finals_preferring(conn, lm, lattice, 0, |_| false, |_, _| 0.0)
    }

    /// [`NeuralDecoder::rescored_finals`] with one more rescoring term, `term(path, best)` of
    /// each candidate and the beam's best (the caller's, e.g. the hybrid's collocations and
    /// selectional preferences), where the rescoring cannot overturn a
    /// preferred node (a learned spelling, a user word: `preferred(node)`): a path that has
    /// one gets the spread of the rescoring terms over the final beam on top, so it keeps the
    /// lead its forward score gave it.
    ///
    /// With `words` > 0, `lattice` is the decoded lattice after the words committed before it
    /// ([`Lattice::after_words`]): its first `words` nodes are those words, and the rescoring
    /// terms (coherence, `term`) read each path after them, so that a verb meets the object
    /// committed before it. The paths returned are the decoded lattice's.
    #[allow(clippy::too_many_arguments)]
    pub fn rescored_finals_preferring(
        &self,
        conn: &Connection,
        lm: &NeuralLm,
        lattice: &Lattice,
        words: usize,
        preferred: impl Fn(&crate::lattice::Node) -> bool,
        term: impl Fn(&[u32], &[u32]) -> f32,
    ) -> Vec<(f32, Vec<u32>)> {
        let beta = self.opts.backward_weight;
        let finals = self.final_hyps(conn, lm);
        let shift = words as u32;
        let after_words = |path: Vec<u32>| -> Vec<u32> {
            if words == 0 {
                return path;
            }
            (0..shift)
                .chain(path.into_iter().map(|n| n + shift))
                .collect()
        };
        // (forward score, rescoring terms, path)
        let mut finals: Vec<(f32, f32, Vec<u32>)> = match &lm.backward {
            Some(bwd) if beta != 0.0 && finals.len() > 1 => self
                .directions_of(lm, bwd, finals)
                .into_iter()
                .map(|f| {
                    (
                        f.score,
                        beta * (f.backward - f.forward),
                        after_words(f.path),
                    )
                })
                .collect(),
            _ => finals
                .into_iter()
                .map(|(score, k)| (score, 0.0, after_words(self.path_of(k))))
                .collect(),
        };
        let w = self.opts.coherence_weight;
        let nodes = lattice.nodes();
        if let Some(c) = lm
            .coherence
            .as_ref()
            .filter(|_| w != 0.0 && finals.len() > 1)
        {
            for (_, extra, path) in &mut finals {
                let entries = path
                    .iter()
                    .filter_map(|&n| nodes.get(n as usize))
                    .map(|n| n.entry);
                *extra += w * c.of_entries(entries);
            }
        }
        let wh = self.opts.homophone_weight;
        if let Some(c) = lm
            .coherence
            .as_ref()
            .filter(|_| wh != 0.0 && finals.len() > 1)
        {
            homophone_terms(c, lm.homophone_metric.as_ref(), nodes, &mut finals, wh);
        }
        if finals.len() > 1 {
            // the final beam comes best first by forward score (`final_hyps`)
            let best = finals[0].2.clone();
            for (_, extra, path) in &mut finals {
                *extra += term(path, &best);
            }
        }
        let (lo, hi) = finals
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), f| {
                (lo.min(f.1), hi.max(f.1))
            });
        let spread = if hi > lo { hi - lo } else { 0.0 };
        let mut finals: Vec<(f32, Vec<u32>)> = finals
            .into_iter()
            .map(|(score, extra, path)| {
                let kept = spread > 0.0
                    && path[words..]
                        .iter()
                        .filter_map(|&n| nodes.get(n as usize))
                        .any(&preferred);
                let path = path[words..].iter().map(|&n| n - shift).collect();
                (score + extra + if kept { spread } else { 0.0 }, path)
            })
            .collect();
        finals.sort_by(|a, b| b.0.total_cmp(&a.0));
        finals
    }

    /// The final beam (as [`NeuralDecoder::finals`], best first) with each candidate's
    /// log-probability under the forward and the backward LM, normalised over V, as
    /// [`NeuralDecoder::rescored_finals`] mixes them; empty when the model has no backward LM.
    pub fn directions(&self, conn: &Connection, lm: &NeuralLm) -> Vec<Directions> {
        match &lm.backward {
            Some(bwd) => self.directions_of(lm, bwd, self.final_hyps(conn, lm)),
            None => Vec::new(),
        }
    }

    /// [`NeuralDecoder::directions`] of these final hypotheses (scores and `hyps` indices).
    fn directions_of(
        &self,
        lm: &NeuralLm,
        bwd: &LstmModel,
        finals: Vec<(f32, usize)>,
    ) -> Vec<Directions> {
        // Nothing decoded (a fresh or freed decoder): the vocabulary has no rows to read.
        if finals.is_empty() {
            return Vec::new();
        }
        let words: Vec<Vec<u32>> = finals.iter().map(|&(_, k)| self.words_of(k)).collect();
        let ks: Vec<usize> = finals.iter().map(|f| f.1).collect();
        let forward = self.forward_log_probs(lm, &ks);
        let backward = self.backward_log_probs(lm, bwd, &words);
        finals
            .into_iter()
            .zip(forward.into_iter().zip(backward))
            .map(|((score, k), (forward, backward))| Directions {
                score,
                path: self.path_of(k),
                forward,
                backward,
            })
            .collect()
    }

    /// What each word of `path` (node indices, as [`NeuralDecoder::finals`] gives it) added to
    /// its beam score; `None` when no final hypothesis has that path. For a view of a
    /// conversion; not on the key path.
    pub fn path_scores(
        &self,
        conn: &Connection,
        lm: &NeuralLm,
        path: &[u32],
    ) -> Option<PathScores> {
        let (score, k) = self
            .final_hyps(conn, lm)
            .into_iter()
            .find(|&(_, k)| self.path_of(k) == path)?;
        let words = self
            .chain(k)
            .into_iter()
            .map(|j| {
                let hy = self.hyps[j];
                let parent = self.hyps[hy.parent as usize];
                let first = self.first_word(j);
                let s = self.slot.get(first as usize).copied().unwrap_or(NONE);
                let lm_log_prob = match self.logits[hy.parent as usize].get(s as usize) {
                    Some(logit) if s != NONE => logit - parent.lse + hy.lead,
                    _ => f32::NAN,
                };
                WordScore {
                    lm_log_prob,
                    step: hy.score - parent.score,
                    in_vocabulary: !lm.vocab.is_unknown(hy.word),
                }
            })
            .collect();
        Some(PathScores {
            words,
            end: score - self.hyps[k].score,
            score,
        })
    }

    /// The final hypotheses (index into `hyps`) with their scores, best first.
    fn final_hyps(&self, conn: &Connection, lm: &NeuralLm) -> Vec<(f32, usize)> {
        let t = self.done;
        if t == 0 || t + 1 >= self.pos_start.len() {
            return Vec::new();
        }
        let s = self
            .slot
            .get(lm.model.bos_id as usize)
            .copied()
            .unwrap_or(NONE);
        let mut out = Vec::new();
        for k in self.pos_start[t] as usize..self.pos_start[t + 1] as usize {
            let hy = self.hyps[k];
            let mut score = hy.score - hy.lse;
            if s != NONE {
                score += self.logits[k][s as usize];
            }
            if self.opts.lambda != 0.0 {
                score -=
                    self.opts.lambda * self.opts.conn_weight * conn.cost(hy.right_id, 0) as f32
                        / self.opts.cost_scale;
            }
            out.push((score, k));
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// The hypotheses from the first word to hypothesis `k` (the sentence start left out).
    fn chain(&self, k: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut j = k as u32;
        while j != NONE && self.hyps[j as usize].node != NONE {
            out.push(j as usize);
            j = self.hyps[j as usize].parent;
        }
        out.reverse();
        out
    }

    /// The lattice nodes of hypothesis `k`'s path.
    fn path_of(&self, k: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut j = k as u32;
        while j != NONE && self.hyps[j as usize].node != NONE {
            out.push(self.hyps[j as usize].node);
            j = self.hyps[j as usize].parent;
        }
        out.reverse();
        out
    }

    fn words_of(&self, k: usize) -> Vec<u32> {
        self.chain(k)
            .into_iter()
            .flat_map(|j| self.words_of_hyp(j).ids().to_vec())
            .collect()
    }

    /// The LM words hypothesis `j`'s node added ([`NeuralDecoder::node_words`]; its last is the
    /// hypothesis's `word`).
    fn words_of_hyp(&self, j: usize) -> NodeWords {
        self.node_words[self.hyps[j].node as usize]
    }

    /// The first LM word hypothesis `j`'s node added.
    fn first_word(&self, j: usize) -> u32 {
        self.words_of_hyp(j).ids[0]
    }

    /// log Σ exp over V of hypothesis `k`'s cached logits without the rank prior.
    fn raw_lse(&self, lm: &NeuralLm, k: usize) -> f32 {
        let l = &self.logits[k];
        if self.opts.rank_prior == 0.0 {
            return log_sum_exp(l);
        }
        let raw: Vec<f32> = l
            .iter()
            .zip(&self.v_ids)
            .map(|(v, &id)| v + self.prior_of(lm, id))
            .collect();
        log_sum_exp(&raw)
    }

    /// The forward LM's log-probability of the words of each final hypothesis and the closing
    /// `<s>`, normalised over V, from the logits the beam cached (rank prior taken back out;
    /// each state's denominator computed once).
    fn forward_log_probs(&self, lm: &NeuralLm, finals: &[usize]) -> Vec<f32> {
        let mut lse: std::collections::HashMap<usize, f32> = Default::default();
        let mut logp = |parent: usize, word: u32| -> f32 {
            let s = self.slot[word as usize] as usize;
            let z = *lse
                .entry(parent)
                .or_insert_with(|| self.raw_lse(lm, parent));
            self.logits[parent][s] + self.prior_of(lm, word) - z
        };
        finals
            .iter()
            .map(|&k| {
                let mut total = 0.0;
                for j in self.chain(k) {
                    let hy = self.hyps[j];
                    // a node of several words: its lead-in holds the words after the first
                    total += logp(hy.parent as usize, self.first_word(j)) + hy.lead;
                }
                total + logp(k, lm.model.bos_id)
            })
            .collect()
    }

    /// The backward LM's log-probability of each word sequence read right to left, from
    /// `<s>` to `<s>` (zero start state), normalised over V. Every word must be in V. The
    /// sequences form a trie (shared endings are stepped once); each depth is one batched
    /// step, and its logits over V are reduced before the next, so memory stays
    /// `O(sequences · |V|)` whatever the length.
    fn backward_log_probs(&self, lm: &NeuralLm, bwd: &LstmModel, seqs: &[Vec<u32>]) -> Vec<f32> {
        let hd = bwd.hidden;
        let bos = lm.model.bos_id;
        // the trie of the reversed sequences: node 0 is the state after <s>; nodes of one
        // depth are contiguous in `levels[d]`
        let mut parent = vec![NONE];
        let mut word = vec![bos];
        let mut levels: Vec<Vec<u32>> = vec![vec![0]];
        let mut children: std::collections::HashMap<(u32, u32), u32> = Default::default();
        let mut ends = Vec::with_capacity(seqs.len());
        for seq in seqs {
            let mut at = 0u32;
            for (d, &w) in seq.iter().rev().enumerate() {
                at = *children.entry((at, w)).or_insert_with(|| {
                    parent.push(at);
                    word.push(w);
                    let id = (parent.len() - 1) as u32;
                    if levels.len() <= d + 1 {
                        levels.push(Vec::new());
                    }
                    levels[d + 1].push(id);
                    id
                });
            }
            ends.push(at as usize);
        }
        let n = parent.len();
        let mut is_end = vec![false; n];
        for &e in &ends {
            is_end[e] = true;
        }
        let row = |w: u32| {
            let s = self.slot[w as usize] as usize;
            &self.rows[s * hd..(s + 1) * hd]
        };
        // sum[i]: log p of the words from the root to node i; end[i]: log p(<s> | node i)
        let (mut sum, mut end) = (vec![0.0f32; n], vec![0.0f32; n]);
        let (mut h, mut c) = (vec![0.0; n * hd], vec![0.0; n * hd]);
        let mut scratch = StepScratch::default();
        let nv = self.v_ids.len();
        let (mut x, mut bh, mut bc) = (Vec::new(), Vec::new(), Vec::new());
        let (mut logits, mut tmp) = (Vec::new(), Vec::new());
        let mut pos = vec![0usize; n];
        for (d, level) in levels.iter().enumerate() {
            // one step for the level: node i is the state after its word, stepped from its
            // parent's state (the root: after <s>, from zeros)
            x.clear();
            bh.clear();
            bc.clear();
            for &i in level {
                let i = i as usize;
                x.extend_from_slice(row(word[i]));
                if i == 0 {
                    bh.resize(bh.len() + hd, 0.0);
                    bc.resize(bc.len() + hd, 0.0);
                } else {
                    let p = parent[i] as usize;
                    bh.extend_from_slice(&h[p * hd..(p + 1) * hd]);
                    bc.extend_from_slice(&c[p * hd..(p + 1) * hd]);
                }
            }
            bwd.step(&x, &mut bh, &mut bc, &mut scratch);
            let b = level.len();
            for (k, &i) in level.iter().enumerate() {
                let i = i as usize;
                h[i * hd..(i + 1) * hd].copy_from_slice(&bh[k * hd..(k + 1) * hd]);
                c[i * hd..(i + 1) * hd].copy_from_slice(&bc[k * hd..(k + 1) * hd]);
            }
            // the level's logits over V, `logits[k · nv + slot]`
            logits.resize(b * nv, 0.0);
            tmp.resize(b, 0.0);
            for (s, &id) in self.v_ids.iter().enumerate() {
                crate::kernels::row_times_states(
                    &self.rows[s * hd..(s + 1) * hd],
                    &bh,
                    hd,
                    &mut tmp,
                );
                let bias = bwd.out_bias[id as usize];
                for (k, v) in tmp.iter().enumerate() {
                    logits[k * nv + s] = v + bias;
                }
            }
            let mut lse = Vec::with_capacity(b);
            for (k, &i) in level.iter().enumerate() {
                let i = i as usize;
                lse.push(log_sum_exp(&logits[k * nv..(k + 1) * nv]));
                pos[i] = k;
                if is_end[i] {
                    end[i] = logits[k * nv + self.slot[bos as usize] as usize] - lse[k];
                }
            }
            // the next level's words given this level's states
            for &j in levels.get(d + 1).map_or(&[][..], |l| &l[..]) {
                let (j, p) = (j as usize, parent[j as usize] as usize);
                let k = pos[p];
                sum[j] = sum[p] + logits[k * nv + self.slot[word[j] as usize] as usize] - lse[k];
            }
        }
        ends.into_iter().map(|e| sum[e] + end[e]).collect()
    }

    /// The LM words of a path (node indices), as this decoder scores them
    /// ([`NeuralDecoder::node_words`]).
    pub fn words(
        &self,
        lattice: &Lattice,
        lexicon: &Lexicon,
        conn: &Connection,
        lm: &NeuralLm,
        path: &[u32],
    ) -> Vec<u32> {
        path.iter()
            .flat_map(|&i| {
                let n = &lattice.nodes()[i as usize];
                let name = (self.opts.lambda != 0.0)
                    .then(|| self.name_spelling_of(lm, lexicon, conn, lattice, i as usize))
                    .flatten();
                match name {
                    Some((words, _)) => words,
                    None => self.node_words(lm, lexicon, conn, lattice, n),
                }
                .ids()
                .to_vec()
            })
            .collect()
    }

    /// Positions decoded.
    pub fn len(&self) -> usize {
        self.done
    }

    /// Whether nothing is decoded.
    pub fn is_empty(&self) -> bool {
        self.done == 0
    }

    /// Size of the current lattice vocabulary.
    pub fn vocabulary_len(&self) -> usize {
        self.v_ids.len()
    }
}

/// The homophone term of [`NeuralDecoder::rescored_finals_preferring`], added to each final
/// candidate's rescoring terms (`finals`: forward score, terms, node path): a candidate whose
/// nodes cover the same reading spans as those of the best by forward score (the first), and whose words
/// that differ from the best's all have a word vector, as the best's words there do (`源泉`
/// for `厳選`, `露天` for `露店`), gets `w · (coherence(candidate) − coherence(best))`; the
/// others get nothing. Between such homophones the words' vectors decide the topic; a
/// candidate with kana where the best has kanji, or cut into other words, is left to the
/// LM, since the coherence favours whichever has more words with a vector. With a
/// [`HomophoneMetric`] the coherence is the metric's, not the cosines'.
fn homophone_terms(
    c: &Coherence,
    metric: Option<&HomophoneMetric>,
    nodes: &[Node],
    finals: &mut [(f32, f32, Vec<u32>)],
    w: f32,
) {
    // the final beam comes best first by forward score (`final_hyps`)
    let Some((best, others)) = finals.split_first_mut() else {
        return;
    };
    // (span, entry, vector row) of each word
    type Word = ((u16, u16), u32, Option<u16>);
    let rows = |path: &[u32]| -> Option<Vec<Word>> {
        path.iter()
            .map(|&n| {
                let n = nodes.get(n as usize)?;
                Some(((n.begin, n.end), n.entry, c.row(n.entry)))
            })
            .collect()
    };
    let Some(top) = rows(&best.2) else {
        return;
    };
    let top_rows: Vec<u16> = top.iter().filter_map(|t| t.2).collect();
    let top_sum = metric.map(|m| m.sum(c, &top_rows));
    let top_score = match (metric, &top_sum) {
        (Some(m), Some(s)) => m.score(s),
        _ => c.score(&top_rows),
    };
    for (_, extra, path) in others {
        if path.len() != top.len() {
            continue;
        }
        let Some(mine) = rows(path) else {
            continue;
        };
        let homophones = mine
            .iter()
            .zip(&top)
            .all(|(a, b)| a.0 == b.0 && (a.1 == b.1 || (a.2.is_some() && b.2.is_some())));
        if homophones && mine != top {
            let score = match (metric, &top_sum) {
                // the best's sum with the words that differ replaced (each has a vector on
                // both sides, so the count stays)
                (Some(m), Some(s)) => {
                    let mut s = s.clone();
                    for (a, b) in mine.iter().zip(&top) {
                        if let (true, Some(to), Some(from)) = (a.1 != b.1, a.2, b.2) {
                            m.replace(c, &mut s, from, to);
                        }
                    }
                    m.score(&s)
                }
                _ => {
                    let r: Vec<u16> = mine.iter().filter_map(|t| t.2).collect();
                    c.score(&r)
                }
            };
            *extra += w * (score - top_score);
        }
    }
}

/// The POS ids of people's names (given names, surnames, full names) in a model built from the
/// `id.def` whose ids [`crate::user_dictionary::UserPos`] has; `None` for another one.
fn person_name_ids(special: &crate::pos::SpecialIds) -> Option<[u16; 3]> {
    use crate::user_dictionary::UserPos;
    let ids =
        [UserPos::PersonName, UserPos::Surname, UserPos::GivenName].map(|p| p.pos_id(special));
    (ids[2] != special.proper_noun).then_some(ids)
}

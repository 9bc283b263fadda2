//! The decoders' settings in one place: which engine scores a conversion ([`Scoring`], with
//! the names every interface uses) and the neural decoders' options with their tuned defaults
//! ([`NeuralOptions::default`], which the CLI's flags default to as well).

/// Which scorer a session uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Word cost + connection cost (Viterbi).
    #[default]
    Classic,
    /// LSTM log-probability.
    Neural,
    /// LSTM log-probability + λ · classic score.
    Hybrid,
}

impl Scoring {
    /// Every scorer, in the order the engines are offered.
    pub const ALL: [Scoring; 3] = [Scoring::Classic, Scoring::Neural, Scoring::Hybrid];

    /// The engine's name, as the CLI (`--engine`), the wasm API and the demo spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Classic => "classic",
            Scoring::Neural => "neural",
            Scoring::Hybrid => "hybrid",
        }
    }

    /// The scorer named `name` ([`Scoring::name`]); `None` for any other string.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the scorer needs the model's LSTM LM.
    pub const fn needs_lm(self) -> bool {
        !matches!(self, Scoring::Classic)
    }
}

/// How the softmax denominator is formed (for comparisons in one binary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Softmax {
    /// Incremental vocabulary selection with the frequent-word sample.
    #[default]
    Ivs,
    /// IVS without the frequent-word sample (V = lattice words, `<s>`, `<unk>`).
    IvsNoFrequent,
    /// Vocabulary selection recomputed from scratch for every state on every key.
    NonIncremental,
    /// Full softmax over the whole vocabulary (batched per state).
    Full,
}

/// Decoder settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NeuralOptions {
    /// Hypotheses kept per position.
    pub beam: usize,
    /// Size of the frequent-word sample Ṽ.
    pub frequent: usize,
    /// Softmax variant.
    pub softmax: Softmax,
    /// Weight of the classic score in the hybrid (tuned: 1; `Scoring::Neural` uses 0).
    pub lambda: f32,
    /// Cost units per nat (Mozc costs ≈ 500 · −ln p).
    pub cost_scale: f32,
    /// −log of the within-class probability of an `<unk>` word before its cost term.
    pub unk_base: f32,
    /// Subtracted per word (a word insertion penalty, in nats).
    pub word_penalty: f32,
    /// Weight of the connection cost relative to the word cost in the hybrid's classic term.
    pub conn_weight: f32,
    /// Weight of the learned word bias ([`crate::decoder::bias`]; `Scoring::Neural` uses 0).
    pub bias_weight: f32,
    /// Nats subtracted when a word written with a leading digit follows one written with a
    /// trailing digit and one of them is a number or dictionary word (`２０００`+`７` for
    /// にせんなな: the LM scores a number as one digit, so split numbers cost it nothing).
    pub digit_join_penalty: f32,
    /// The hybrid only: nats charged to a digit twin ([`crate::lattice::DIGIT_TWIN_BASE`],
    /// `1度` for `いちど`) whose kanji word has no word bias: the digit prior charges the kanji
    /// words that text writes with digits, so one without a charge is a word text writes with
    /// kanji numerals (`一度`, `一つ`), and its twin, scored as a number word and a counter, is
    /// not to beat it where the LM has no context to tell (without it, `いちど` alone is `1度`).
    pub twin_penalty: f32,
    /// The LM alone only: nats per unit of `ln(id + 10)` taken off every word's logit
    /// (LM ids are frequency ranks, so this is a Zipf prior that favours frequent words and
    /// needs no table; `<unk>` counts as a word of the vocabulary's mean log rank). Tuned on
    /// kwdlc.test: 0.15. [`crate::Session::set_scoring`] turns it off for the hybrid (its
    /// dictionary costs carry the frequencies).
    pub rank_prior: f32,
    /// Nats charged for a word whose LM word is another reading of its spelling
    /// (the builder's `VocabMatch::Spelling`: `日/にち` scored as `日/ひ`, which the
    /// corpus analysis wrote for every `日` after a number): the LM's probability of the
    /// spelling, less this for the reading the LM never saw it with, and less
    /// `spelling_cost_weight` times the word's cost above its LM word's entry.
    pub spelling_penalty: f32,
    /// Weight of such a word's cost above its LM word's entry (in nats, cost / `cost_scale`),
    /// charged on top of `spelling_penalty`: Mozc's costs tell how rare the reading is
    /// (`分/ぶ` is 3.2 nats dearer than `分/ふん`, `日/にち` 0.2 more than `日/ひ`). Tuned on
    /// kwdlc.test and wac.dev with `spelling_penalty`: 1 and 1.
    pub spelling_cost_weight: f32,
    /// Weight β of the backward LM (the `LstmBackward` section) when the final beam is
    /// rescored on conversion ([`crate::decoder::neural::NeuralDecoder::rescored_finals`]): each candidate gets
    /// `β · (log p_backward − log p_forward)` of its words, both normalised over the lattice
    /// vocabulary, i.e. part of the forward LM's weight moves to the backward LM, which reads
    /// the sentence right to left and so sees the words that settle an earlier one. 0: off.
    /// Tuned on kwdlc.test and wac.dev: 0.4 for the LM alone;
    /// [`crate::Session::set_scoring`] turns it off for the hybrid (no gain there).
    pub backward_weight: f32,
    /// Weight of the topical coherence of a candidate's words (the `Coherence` section's
    /// word vectors, [`crate::lm::coherence`]) when the final beam is rescored on conversion
    /// ([`crate::decoder::neural::NeuralDecoder::rescored_finals`]), in nats per unit. 0: off. Tuned on kwdlc.test
    /// and wac.dev: 3 for the hybrid; [`crate::Session::set_scoring`]
    /// turns it off for the LM alone (−1 / −3 sentences there).
    pub coherence_weight: f32,
    /// Weight of the coherence between homophones when a conversion rescores the final beam
    /// (`homophone_terms` in [`crate::decoder::neural`]): a candidate that differs from the
    /// beam's best only in words of the same reading spans, each with a word vector on both
    /// sides (`機械` for `機会`), gets `w · (coherence(candidate) − coherence(best))`. 0: off.
    /// Tuned on kwdlc.test, wac.dev and chat (BENCHMARKS.md): 6 for the hybrid;
    /// [`crate::Session::set_scoring`] turns it off for the LM alone.
    pub homophone_weight: f32,
    /// Weight (nats per log2 unit) of the noun–particle–verb collocations of a candidate's
    /// words ([`crate::lm::collocation`], from the model's n-gram) when a conversion rescores
    /// the final beam. 0: off. 1 for the hybrid: the n-gram weights chat 40 to 3, so a verb
    /// common in chat (`撮る`) stands out less from its unigram than in written text, and 0.5
    /// no longer puts `撮る` after `写真を` (BENCHMARKS.md); [`crate::Session::set_scoring`]
    /// turns it off for the LM alone.
    pub collocation_weight: f32,
    /// Weight (nats per z-score unit) of the selectional preferences when a conversion
    /// rescores the final beam ([`crate::lm::selection`], the model's `Selection` section): a
    /// candidate over the same reading spans as the best gets `w · Σ (its nouns' fit − the
    /// best's)` over the noun–particle–predicate triples that the n-gram has not counted. 0:
    /// off. Measured on kwdlc.test, wac.dev and chat (BENCHMARKS.md): 3 for the hybrid;
    /// [`crate::Session::set_scoring`] turns it off for the LM alone.
    pub selection_weight: f32,
    /// Weight (nats per word) of the recent spellings when a conversion rescores the final
    /// beam ([`crate::recent_spellings`]: the last words committed in the field): a candidate
    /// that spells a span as a recent word where the best spells it otherwise gets `w` per such
    /// word, and `w` less per recent word of the best it spells otherwise. 0: off. Measured on
    /// kwdlc.test, wac.dev, chat and the everyday phrases (BENCHMARKS.md): 4 for the hybrid;
    /// [`crate::Session::set_scoring`] turns it off for the LM alone.
    pub recent_spelling_weight: f32,
}

impl Default for NeuralOptions {
    fn default() -> Self {
        NeuralOptions {
            beam: 10,
            frequent: 400,
            softmax: Softmax::Ivs,
            lambda: 1.0,
            cost_scale: 500.0,
            unk_base: -2.0,
            word_penalty: 0.0,
            conn_weight: 1.0,
            bias_weight: 1.0,
            digit_join_penalty: 10.0,
            twin_penalty: 1.0,
            rank_prior: 0.15,
            spelling_penalty: 1.0,
            spelling_cost_weight: 1.0,
            backward_weight: 0.4,
            coherence_weight: 3.0,
            homophone_weight: 6.0,
            collocation_weight: 1.0,
            selection_weight: 3.0,
            recent_spelling_weight: 4.0,
        }
    }
}

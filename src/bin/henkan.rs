//! `henkan`: the native command line — convert, evaluate, benchmark, build models.

use clap::{Parser, Subcommand, ValueEnum};
use henkan::build::{build_model, BuildOptions};
use henkan::decoder::neural::{Compounds, NeuralOptions, Scoring, Softmax};
use henkan::{Engine, Session};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `println!` that ignores a closed stdout (e.g. `henkan convert … | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

#[derive(Parser)]
#[command(
    name = "henkan",
    version,
    about = "Japanese input method engine (romaji → kana → kanji)"
)]
struct Cli {
    /// Model file (default: $HENKAN_MODEL or models/henkan.henkan).
    #[arg(long, global = true)]
    model: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum EngineKind {
    Classic,
    /// The LSTM LM alone (beam search with incremental vocabulary selection).
    Neural,
    /// LSTM log-probability + λ · classic score.
    Hybrid,
}

impl EngineKind {
    /// The model's default engine ([`Engine::default_scoring`]).
    fn default_for(engine: &Engine) -> Self {
        match engine.default_scoring() {
            Scoring::Classic => EngineKind::Classic,
            Scoring::Neural => EngineKind::Neural,
            Scoring::Hybrid => EngineKind::Hybrid,
        }
    }

    fn name(self) -> &'static str {
        match self {
            EngineKind::Classic => "classic",
            EngineKind::Neural => "neural",
            EngineKind::Hybrid => "hybrid",
        }
    }

    fn scoring(self) -> Scoring {
        match self {
            EngineKind::Classic => Scoring::Classic,
            EngineKind::Neural => Scoring::Neural,
            EngineKind::Hybrid => Scoring::Hybrid,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum SoftmaxKind {
    Ivs,
    IvsNoFrequent,
    NonIncremental,
    Full,
}

/// How a dictionary word the LM does not know but other lattice words spell is scored.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum CompoundsKind {
    /// As `<unk>` times its within-class probability.
    Unk,
    /// By the LM's probability of the words that spell it (a chain in the beam), with its
    /// own dictionary costs.
    Chain,
    /// Both candidates compete.
    Both,
}

/// Settings of the neural and hybrid engines.
#[derive(clap::Args, Clone, Debug)]
struct NeuralArgs {
    /// Hypotheses kept per position.
    #[arg(long, default_value_t = 10)]
    beam: usize,
    /// Weight of the classic score in the hybrid.
    #[arg(long, default_value_t = DEFAULT_LAMBDA)]
    lambda: f32,
    /// Size of the frequent-word sample of the lattice vocabulary.
    #[arg(long, default_value_t = 400)]
    frequent: usize,
    /// −log within-class probability of an <unk> word (before its cost term).
    #[arg(long, default_value_t = -2.0, allow_hyphen_values = true)]
    unk_base: f32,
    /// Cost units per nat (the classic score's scale in the hybrid and in the `<unk>` class).
    #[arg(long, default_value_t = 500.0)]
    cost_scale: f32,
    /// Penalty per word (nats).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    word_penalty: f32,
    /// Merge beam candidates that differ only in the last word's POS ids (sum their
    /// probabilities; measured worse, off by default).
    #[arg(long)]
    merge_variants: bool,
    /// Weight of the connection cost relative to the word cost in the hybrid.
    #[arg(long, default_value_t = 1.0)]
    conn_weight: f32,
    /// Nats charged when a word starting with a digit follows one ending with a digit
    /// (a number split in two: ２０００７ for にせんなな).
    #[arg(long, default_value_t = 10.0)]
    digit_join_penalty: f32,
    /// The LM alone only: nats per unit of ln(LM id + 10) taken off each word's logit (a Zipf
    /// prior over the LM's frequency ranks; 0: off).
    #[arg(long, default_value_t = 0.15, allow_hyphen_values = true)]
    rank_prior: f32,
    /// Nats charged for a word scored as another reading of its spelling (the model's lexicon
    /// entries mapped to LM words by spelling, `henkan remap-lm-vocab`).
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    spelling_penalty: f32,
    /// Weight of such a word's cost above its LM word's entry (nats per cost-scale units),
    /// charged on top of --spelling-penalty.
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    spelling_cost_weight: f32,
    /// The LM alone only: weight of the model's backward LM when a conversion rescores the final
    /// beam (score + β · (backward − forward log-probability); 0: off).
    #[arg(long, default_value_t = 0.4, allow_hyphen_values = true)]
    backward_weight: f32,
    /// The hybrid only: weight of the topical coherence of a conversion's words (the model's
    /// word vectors) when a conversion rescores the final beam (score + w · coherence; 0: off).
    #[arg(long, default_value_t = 3.0, allow_hyphen_values = true)]
    coherence_weight: f32,
    /// How the softmax denominator is formed.
    #[arg(long, value_enum, default_value = "ivs")]
    softmax: SoftmaxKind,
    /// How an out-of-vocabulary dictionary word that LM words spell (a compound such as
    /// されました) is scored.
    #[arg(long, value_enum, default_value = "unk")]
    compounds: CompoundsKind,
    /// Weight of the learned word bias in the hybrid (0: off).
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    bias_weight: f32,
    /// Use these word biases (`henkan train-bias` output) instead of the model's.
    #[arg(long)]
    bias_file: Option<PathBuf>,
    /// Add these offsets (f32 LE, one per LM word, `training/fit_predict_bias.py` output) to
    /// the LSTM's output bias (an experiment: the LM's word frequencies moved to other text).
    #[arg(long)]
    lm_bias: Option<PathBuf>,
}

/// `POS=COST` of `build-model --pos-max-cost`.
fn parse_pos_max_cost(s: &str) -> Result<(String, i32), String> {
    let (pos, cost) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("{s}: want POS=COST"))?;
    let cost = cost
        .parse()
        .map_err(|_| format!("{s}: COST is not a number"))?;
    Ok((pos.to_string(), cost))
}

/// λ of the hybrid, tuned on kwdlc.test + wac.dev (docs/NEURAL.md).
const DEFAULT_LAMBDA: f32 = 1.0;

impl NeuralArgs {
    fn options(&self) -> NeuralOptions {
        NeuralOptions {
            beam: self.beam,
            frequent: self.frequent,
            lambda: self.lambda,
            unk_base: self.unk_base,
            cost_scale: self.cost_scale,
            word_penalty: self.word_penalty,
            conn_weight: self.conn_weight,
            merge_variants: self.merge_variants,
            bias_weight: self.bias_weight,
            digit_join_penalty: self.digit_join_penalty,
            rank_prior: self.rank_prior,
            spelling_penalty: self.spelling_penalty,
            spelling_cost_weight: self.spelling_cost_weight,
            backward_weight: self.backward_weight,
            coherence_weight: self.coherence_weight,
            compounds: match self.compounds {
                CompoundsKind::Unk => Compounds::Unk,
                CompoundsKind::Chain => Compounds::Chain,
                CompoundsKind::Both => Compounds::Both,
            },
            softmax: match self.softmax {
                SoftmaxKind::Ivs => Softmax::Ivs,
                SoftmaxKind::IvsNoFrequent => Softmax::IvsNoFrequent,
                SoftmaxKind::NonIncremental => Softmax::NonIncremental,
                SoftmaxKind::Full => Softmax::Full,
            },
        }
    }
}

/// The experiment options of [`NeuralArgs`] that change the engine: `--lm-bias` (added to the
/// LSTM's output bias) and `--bias-file` (replaces the model's word biases).
fn apply_bias_file(engine: &mut Engine, args: &NeuralArgs) -> Result<(), String> {
    if let (Some(path), Some(lm)) = (&args.lm_bias, engine.neural.as_mut()) {
        let d = read_predict_bias(path, lm.model.vocab)?;
        for (b, d) in lm.model.out_bias.iter_mut().zip(d) {
            *b += d;
        }
    }
    if let (Some(path), Some(lm)) = (&args.bias_file, engine.neural.as_mut()) {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        lm.bias =
            henkan::build::bias::read_tsv(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn session_for(engine: &Engine, kind: EngineKind, args: &NeuralArgs) -> Result<Session, String> {
    let mut session = Session::new();
    if kind != EngineKind::Classic {
        if engine.neural.is_none() {
            return Err(format!(
                "--engine {} needs a model with an LSTM (henkan attach-lstm)",
                kind.name()
            ));
        }
        session.set_scoring(kind.scoring(), args.options());
    }
    Ok(session)
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum Digits {
    Full,
    Half,
}

// Parsed once per run: boxing the big variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Convert TEXT (romaji or kana) and print the best conversion, segments and n-best.
    /// Without TEXT, reads one input per line from stdin (an interactive loop).
    Convert {
        /// Romaji (e.g. kyouhaiitenkidesune) or kana.
        text: Option<String>,
        /// Default: hybrid when the model has an LSTM LM, else classic.
        #[arg(long, value_enum)]
        engine: Option<EngineKind>,
        /// Print each segment's candidates, and the best path's words with their POS ids and
        /// costs.
        #[arg(long)]
        debug: bool,
        /// Previously committed text (kana or romaji) the LSTM starts from.
        #[arg(long)]
        context: Option<String>,
        #[command(flatten)]
        neural: NeuralArgs,
    },
    /// Predictions: next words after --context (converted with the classic engine, as if
    /// committed), or completions of QUERY (romaji or kana) in that context.
    Predict {
        /// What is being typed (romaji or kana); empty = next-word prediction.
        query: Option<String>,
        /// Previously committed text, as romaji or kana (its best conversion is the context).
        #[arg(long)]
        context: Option<String>,
        /// An n-gram section file (default: the model's n-gram section).
        #[arg(long)]
        ngram: Option<PathBuf>,
        /// How many predictions.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Evaluate.
    Eval {
        #[command(subcommand)]
        what: EvalWhat,
    },
    /// Benchmark.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Build a model container from Mozc's dictionary (see `make model`).
    BuildModel {
        /// lex.tsv from training/mozc_extract.py.
        #[arg(long, default_value = "build/mozc/lex.tsv")]
        lex: PathBuf,
        /// Mozc's matrix.bin.
        #[arg(long, default_value = "build/mozc/matrix.bin")]
        matrix: PathBuf,
        /// Mozc's id.def.
        #[arg(long, default_value = "../shared/data/mozc/id.def")]
        id_def: PathBuf,
        /// Mozc's segmenter.def.
        #[arg(long, default_value = "../shared/data/mozc/segmenter.def")]
        segmenter_def: PathBuf,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
        /// Drop entries whose cost is above this.
        #[arg(long)]
        max_cost: Option<i32>,
        /// `POS=COST`: drop entries off the keep-list whose POS (id.def feature) starts with
        /// POS and whose cost is above COST (repeatable), e.g. `名詞,固有名詞,人名=7000`.
        #[arg(long, value_parser = parse_pos_max_cost)]
        pos_max_cost: Vec<(String, i32)>,
        /// Keep at most this many entries per reading.
        #[arg(long)]
        max_per_reading: Option<usize>,
        /// Drop readings longer than this many characters.
        #[arg(long)]
        max_reading_chars: Option<usize>,
        /// Connection-cost quantization step.
        #[arg(long, default_value_t = 1)]
        conn_step: i32,
        /// Bytes per connection cell (1 or 2).
        #[arg(long, default_value_t = 2)]
        conn_width: usize,
        /// Cluster left/right POS ids into K classes each (k-means) for a smaller matrix.
        #[arg(long)]
        conn_clusters: Option<usize>,
        /// Keep the entries listed in this file (`reading<TAB>surface<TAB>left<TAB>right<TAB>count`,
        /// from training/entry_counts.py) whatever --max-cost says.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Only keep-list entries seen at least this often.
        #[arg(long, default_value_t = 1)]
        keep_min_count: u64,
        /// Added to the cost of entries written in ASCII digits (に → 2).
        #[arg(long, default_value_t = 0)]
        digit_penalty: i32,
        /// Name recorded in the model.
        #[arg(long, default_value = "custom")]
        name: String,
        /// Also pack the LSTM LM from this directory (lstm.safetensors + vocab.tsv).
        #[arg(long)]
        lstm: Option<PathBuf>,
        /// LM quantization: `B` bits per embedding weight (k-means codebook, 3..=8; 32 = f32),
        /// or `H:T@K` (the K most frequent words H bits, the others T bits); `,rN` stores the
        /// recurrent matrices as N-bit codebooks instead of int8. E.g. `4`, `4:3@8192,r4`.
        #[arg(long, default_value = "4")]
        lstm_bits: henkan::build::lstm::PackOptions,
        #[command(flatten)]
        vocab_match: VocabMatchArgs,
        /// Also add this n-gram section (from `henkan build-ngram`).
        #[arg(long)]
        ngram: Option<PathBuf>,
        /// zstd level for the sections (1–22; see the container format); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Drop entries off the keep-list with readings of at least N characters when the
        /// dictionary without them converts their reading to their surface anyway.
        #[arg(long)]
        prune_composable: Option<usize>,
        /// Store word costs rounded to multiples of this.
        #[arg(long, default_value_t = 1)]
        cost_step: i32,
    },
    /// Rewrites a model with its sections zstd-compressed (`--compress L`) or stored.
    Repack {
        /// The model to rewrite (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// zstd level (1–22); without it every section is stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Builds the n-gram prediction LM from the analyzed corpus (see docs/PREDICTION.md);
    /// writes the section to --out and, with --attach, adds it to a model.
    BuildNgram {
        /// Directory of analyzed training text (`NAME.txt` files).
        #[arg(long, default_value = "build/corpus/train")]
        corpus: PathBuf,
        /// Files and weights, `NAME:WEIGHT,…` (counts are multiplied by the weight).
        #[arg(long, default_value = "chat:3,docs:3,jglue:3,kwdlc:3,wac:3,aozora:1")]
        files: String,
        /// Vocabulary size (at most 65536, `<unk>` and `<s>` included).
        #[arg(long, default_value_t = 50000)]
        vocab: usize,
        /// Byte budget of the section, in MiB.
        #[arg(long, default_value_t = 4.0)]
        budget_mb: f64,
        /// Followers kept per word.
        #[arg(long, default_value_t = 64)]
        top_bigram: usize,
        /// Followers kept per word pair.
        #[arg(long, default_value_t = 24)]
        top_trigram: usize,
        /// Drop trigrams that beat their backoff estimate by less than this many bits.
        #[arg(long)]
        prune_bits: Option<f32>,
        /// Output section file.
        #[arg(long, default_value = "build/ngram/ngram.bin")]
        out: PathBuf,
        /// Also write the model given by --model (or this file) with the section added…
        #[arg(long)]
        attach: Option<PathBuf>,
        /// …to this file.
        #[arg(long)]
        attach_out: Option<PathBuf>,
    },
    /// Train the hybrid's word biases (an averaged perceptron over the decoder towards the gold
    /// paths of annotated sentences; see `henkan::build::bias`). Writes `OUT` (the averaged
    /// weights after the last epoch) and `OUT.N` after epoch N, as `entry<TAB>bias<TAB>word`.
    TrainBias {
        /// Annotated sentences (`surface/reading/POS` tokens per line); repeatable.
        #[arg(long, required = true)]
        input: Vec<PathBuf>,
        /// Passes over the sentences.
        #[arg(long, default_value_t = 3)]
        epochs: usize,
        /// Update step (nats).
        #[arg(long, default_value_t = 0.1)]
        rate: f32,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Only the first N sentences of each input.
        #[arg(long)]
        limit: Option<usize>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        neural: NeuralArgs,
    },
    /// Write what fitting a prediction bias needs, to DIR: the LSTM state before every word of
    /// analyzed text (`states.f32`, hidden floats each; lines start at `<s>`), the words' LM ids
    /// (`targets.u32`), the decoded output embedding (`emb.f32`) and bias (`out_bias.f32`).
    DumpLmStates {
        /// Analyzed text (`surface/reading/left/right` tokens), e.g. build/corpus/train/chat.txt.
        #[arg(long)]
        tokens: PathBuf,
        /// Only the first N lines.
        #[arg(long)]
        limit: Option<usize>,
        /// Take every K-th line.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// The text is hand-annotated sentences (`surface/reading/POS` tokens): cut into LM
        /// words along their gold paths, each followed by `<s>` (as the decoder scores them).
        #[arg(long)]
        gold: bool,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) the backward LM of a model file (`LstmBackward` section): a
    /// right-to-left LSTM trained on the model LM's own embedding (training/README.md §9), which
    /// the neural engine's conversions rescore their final beam with (--backward-weight).
    AttachBackward {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Directory with the backward LM's `lstm.safetensors` (`training/export.py`).
        #[arg(long)]
        lstm: PathBuf,
        /// Bits of the recurrent matrices' k-means codebooks (3–8; 32: f32).
        #[arg(long, default_value_t = 4)]
        bits: u32,
        /// Bits of the output bias's k-means codebook (3–8; 32: f32).
        #[arg(long, default_value_t = 8)]
        bias_bits: u32,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) the word vectors of a model file (`Coherence` section): the topical
    /// coherence that re-ranks the neural engines' final beam on conversion
    /// (--coherence-weight). DIR holds `training/coherence_vectors.py`'s output.
    AttachCoherence {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Directory with `vectors.f32` (rows of --dims f32, little endian) and `words.tsv`
        /// (`surface<TAB>row` per line).
        #[arg(long)]
        vectors: PathBuf,
        /// Floats per vector.
        #[arg(long, default_value_t = 64)]
        dims: usize,
        /// Only entries with a word cost up to this get a vector.
        #[arg(long, default_value_t = i32::MAX)]
        max_cost: i32,
        /// Mozc's `id.def`, to leave out entries by part of speech (--skip-pos).
        #[arg(long)]
        id_def: Option<PathBuf>,
        /// Entries whose POS (id.def feature) starts with this get no vector (repeatable;
        /// needs --id-def), e.g. `名詞,固有名詞,人名`.
        #[arg(long)]
        skip_pos: Vec<String>,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) the prediction-bias section of a model file (logit offsets per LM word
    /// for next-word prediction, `training/fit_predict_bias.py` output).
    AttachPredictBias {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Offsets (f32 LE, one per LM word).
        #[arg(long)]
        bias: PathBuf,
        /// Quantization step (nats).
        #[arg(long, default_value_t = 0.05)]
        step: f32,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// The digit prior (`henkan::build::digit_prior`): word biases for the hybrid against the
    /// kanji numeral words (一年, 十円) of counters that annotated text writes after digits,
    /// from that text; writes `entry<TAB>bias<TAB>surface/reading` lines for `attach-bias`.
    DigitBias {
        /// Annotated sentences (`surface/reading/POS` tokens, one sentence per line), e.g. the
        /// KWDLC and WAC training sets.
        #[arg(long, num_args = 1.., required = true)]
        corpus: Vec<PathBuf>,
        /// Nats per unit of ln((k + 1) / (d + 1)) (tuned on kwdlc.test and wac.dev: 1, 2 and 3
        /// within two sentences of each other).
        #[arg(long, default_value_t = 1.0)]
        weight: f32,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) Mozc's rules in a model: the boundary penalties (`boundary.def`: a
    /// conversion that starts with a suffix or a particle pays more; with --suffix also one that
    /// ends on a stem) in its connection section, and the POS groups of Mozc's candidate filter
    /// (`pos_matcher_rule.def`) in its segmenter section.
    MozcRules {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Mozc's id.def (the POS features the rules match).
        #[arg(long, default_value = "../shared/data/mozc/id.def")]
        id_def: PathBuf,
        /// Mozc's boundary.def.
        #[arg(long, default_value = "../shared/data/mozc/boundary.def")]
        boundary_def: PathBuf,
        /// Mozc's pos_matcher_rule.def.
        #[arg(long, default_value = "../shared/data/mozc/pos_matcher_rule.def")]
        pos_matcher_def: PathBuf,
        /// Also the suffix penalties (off: every key's input is converted as it stands, and
        /// most of it does not end a phrase).
        #[arg(long)]
        suffix: bool,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) the word-bias section of a model file.
    AttachBias {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Biases (`henkan train-bias` output).
        #[arg(long)]
        bias: PathBuf,
        /// Quantization step (nats; default: the largest bias / 127, at least 0.01).
        #[arg(long)]
        step: Option<f32>,
        /// Leave out biases smaller than this in magnitude (nats).
        #[arg(long, default_value_t = 0.0)]
        min: f32,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Adds (or replaces) the LSTM LM sections of an existing model file.
    AttachLstm {
        /// The model to extend (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// Directory with lstm.safetensors + vocab.tsv.
        #[arg(long, default_value = "build/lm")]
        lstm: PathBuf,
        /// LM quantization: `B` bits per embedding weight (k-means codebook, 3..=8; 32 = f32),
        /// or `H:T@K` (the K most frequent words H bits, the others T bits); `,rN` stores the
        /// recurrent matrices as N-bit codebooks instead of int8. E.g. `4`, `4:3@8192,r4`.
        #[arg(long, default_value = "4")]
        lstm_bits: henkan::build::lstm::PackOptions,
        #[command(flatten)]
        vocab_match: VocabMatchArgs,
        /// Keep the model's stored embedding and replace only the recurrent matrices (stored as
        /// --lstm-bits says), their bias and the output bias: for an LM trained with the model's
        /// own embedding frozen (checked). The vocabulary map, the prediction bias and the
        /// backward LM stay.
        #[arg(long)]
        keep_embedding: bool,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Rebuilds only the map lexicon entry → LM word of a model with an LSTM LM (the LM, its
    /// biases and everything else stay as they are).
    RemapLmVocab {
        /// The model to change (default: --model).
        #[arg(long = "in")]
        input: Option<PathBuf>,
        /// The LM's vocab.tsv (`id<TAB>surface/reading/left/right<TAB>count`).
        #[arg(long)]
        vocab: PathBuf,
        #[command(flatten)]
        vocab_match: VocabMatchArgs,
        /// zstd level for the sections (1–22); none: stored.
        #[arg(long)]
        compress: Option<i32>,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Write the model's LSTM LM decoded to f32 (`DIR/lstm.safetensors` as training/export.py
    /// writes it): the starting point for training it further.
    ExportLstm {
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    },
    /// Cut hand-annotated sentences (`surface/reading/POS` tokens, one sentence per line) into
    /// the LM's words along their gold path: the cheapest lattice path over the gold reading
    /// that spells the gold text. Writes one line of `surface/reading/left/right` word keys (as
    /// in VOCAB, `<unk>` outside it) per sentence; a sentence without such a path keeps the
    /// line of --fallback (the analyzer's) or is left out.
    AlignGold {
        /// Annotated sentences.
        #[arg(long)]
        input: PathBuf,
        /// The LM's vocabulary (`id<TAB>key<TAB>count`, training/vocab.py).
        #[arg(long)]
        vocab: PathBuf,
        /// The same sentences as cut by the analyzer, line for line.
        #[arg(long)]
        fallback: Option<PathBuf>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// Also write `reading<TAB>text` of the sentences without a gold path here.
        #[arg(long)]
        misses: Option<PathBuf>,
    },
}

/// The bytes of the model file `input`, or of the `--model` one.
fn read_model_file(input: Option<PathBuf>, model: &Option<PathBuf>) -> Result<Vec<u8>, String> {
    let path = input.unwrap_or_else(|| model_path(model));
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Writes a model file and says how big it is.
fn write_model_file(out: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!("{}: {} bytes", out.display(), bytes.len());
    Ok(())
}

/// Prints the section table: kind, encoding, stored and decoded bytes.
fn print_sections(bytes: &[u8]) {
    if let Ok(t) = henkan::model::read_table(bytes) {
        for e in t {
            let name = e.kind.map(|k| k.name()).unwrap_or("unknown");
            eprintln!(
                "  {name:<18} {:<6} {:>10} stored {:>10} decoded",
                format!("{:?}", e.encoding).to_lowercase(),
                e.length,
                e.decoded_length
            );
        }
    }
}

/// The container with its sections compressed at `level` (unchanged when `None`).
fn compress_model(bytes: Vec<u8>, level: Option<i32>) -> Result<Vec<u8>, String> {
    match level {
        Some(l) => henkan::model::repack(bytes, Some(l)).map_err(|e| e.to_string()),
        None => Ok(bytes),
    }
}

/// The LSTM weights `DIR/lstm.safetensors` (training/export.py's output).
fn read_lstm_weights(dir: &std::path::Path) -> Result<henkan::build::lstm::LstmWeights, String> {
    let st = std::fs::read(dir.join("lstm.safetensors"))
        .map_err(|e| format!("cannot read {}/lstm.safetensors: {e}", dir.display()))?;
    henkan::build::lstm::read_safetensors(&st).map_err(|e| e.to_string())
}

fn attach(
    model: Vec<u8>,
    dir: &std::path::Path,
    opts: henkan::build::lstm::PackOptions,
    how: henkan::build::lstm::VocabMatch,
) -> Result<Vec<u8>, String> {
    let w = read_lstm_weights(dir)?;
    let vocab = std::fs::read_to_string(dir.join("vocab.tsv"))
        .map_err(|e| format!("cannot read {}/vocab.tsv: {e}", dir.display()))?;
    let (bytes, r) = henkan::build::lstm::attach_lstm(model, &w, &vocab, opts, how)
        .map_err(|e| e.to_string())?;
    eprintln!(
        "lstm: vocab {} hidden {} cells {} quantization {opts:?}: lstm section {} bytes, lm vocabulary {} bytes; {} of {} lexicon entries are LM words; {} LM words have no entry",
        w.vocab, w.hidden, w.cell, r.lstm_bytes, r.vocab_bytes, r.entries_in_vocab, r.entries, r.lm_words_unmapped
    );
    Ok(bytes)
}

/// How a built model's lexicon entries find their LM word.
#[derive(clap::Args, Clone, Copy, Debug)]
struct VocabMatchArgs {
    /// How lexicon entries find their LM word: `spelling` also maps an entry whose own key is
    /// not an LM word to the most frequent LM word with its surface and POS ids (another
    /// reading); `exact` only by the whole key.
    #[arg(long = "vocab-match", value_name = "MATCH", value_enum, default_value_t = VocabMatchArg::Spelling)]
    how: VocabMatchArg,
}

/// How lexicon entries find their LM word (`henkan::build::lstm::VocabMatch`).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum VocabMatchArg {
    /// Only by the whole key surface/reading/left/right.
    Exact,
    /// By the whole key, else by surface and POS ids.
    Spelling,
}

impl From<VocabMatchArg> for henkan::build::lstm::VocabMatch {
    fn from(a: VocabMatchArg) -> Self {
        match a {
            VocabMatchArg::Exact => Self::Exact,
            VocabMatchArg::Spelling => Self::Spelling,
        }
    }
}

/// The LM that ranks predictions.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum PredictLm {
    Ngram,
    Lstm,
}

#[derive(Subcommand)]
enum EvalWhat {
    /// Whole-sentence conversion accuracy over `reading<TAB>expected` lines.
    Conversion {
        #[arg(long)]
        input: PathBuf,
        /// Default: hybrid when the model has an LSTM LM, else classic.
        #[arg(long, value_enum)]
        engine: Option<EngineKind>,
        /// Print one JSON object as the last line.
        #[arg(long)]
        json: bool,
        /// Only the first N sentences.
        #[arg(long)]
        limit: Option<usize>,
        /// Print each wrong conversion.
        #[arg(long)]
        errors: bool,
        /// How digits of converted numbers are written.
        #[arg(long, value_enum, default_value = "full")]
        digits: Digits,
        /// Start each sentence's LSTM from the state after the expected text of the N lines
        /// before it (the text a user has committed just before, e.g. earlier sentences of the
        /// same document; the paper's context vector). 0: every sentence starts afresh.
        #[arg(long, default_value_t = 0)]
        context_lines: usize,
        /// Learn from every sentence after converting it, as the IME learns from what the user
        /// commits (`Session::learn_pieces`): the expected text is cut into lattice words and
        /// their spellings go into the session's user history (`henkan::history`), in file
        /// order. Every engine.
        #[arg(long)]
        learn: bool,
        /// Readings the history keeps (with --learn; the oldest learned is forgotten first).
        #[arg(long, default_value_t = henkan::history::CAPACITY)]
        learn_capacity: usize,
        /// Also convert every sentence with this engine (afresh, same options) and report the
        /// paired comparison: sentences only one of the two gets right, the difference in
        /// exact top-1 and its standard error (points).
        #[arg(long, value_enum)]
        versus: Option<EngineKind>,
        #[command(flatten)]
        neural: NeuralArgs,
    },
    /// Next-word prediction and completion over analyzed text: nwp top-1/top-3, keystroke
    /// saving rate, latency (see docs/PREDICTION.md for the simulation).
    Prediction {
        /// Plain text lines (e.g. ../shared/data/dev/chat.dev.txt), analyzed into words by the
        /// training pipeline's analyzer (`--analyzer`, `--lex`, `--matrix`; `make corpus-tok`
        /// builds them).
        #[arg(long)]
        input: Option<PathBuf>,
        /// The training pipeline's analyzer binary (for --input).
        #[arg(long, default_value = "build/tokenize-target/release/henkan-tokenize")]
        analyzer: PathBuf,
        /// The Mozc dictionary the analyzer reads (for --input).
        #[arg(long, default_value = "build/mozc/lex.tsv")]
        lex: PathBuf,
        /// The Mozc connection matrix the analyzer reads (for --input).
        #[arg(long, default_value = "build/mozc/matrix.bin")]
        matrix: PathBuf,
        /// The analyzed text (`surface/reading/left/right` tokens), e.g. build/corpus/dev/chat.txt.
        #[arg(long)]
        tokens: Option<PathBuf>,
        /// The predicting model.
        #[arg(long = "lm", value_enum, default_value = "ngram")]
        lm: PredictLm,
        /// An n-gram section file (default: the model's n-gram section).
        #[arg(long)]
        ngram: Option<PathBuf>,
        /// Only the first N lines.
        #[arg(long)]
        limit: Option<usize>,
        /// With --lm lstm: weight of the LSTM in the mix with the n-gram score.
        #[arg(long, default_value_t = henkan::predict::neural::LSTM_WEIGHT)]
        lstm_weight: f32,
        /// With --lm lstm: use these logit offsets (`training/fit_predict_bias.py` output) instead
        /// of the model's; `none`: no offsets.
        #[arg(long)]
        predict_bias: Option<PathBuf>,
        /// With --lm lstm: next words also from the LSTM's top N over its whole vocabulary
        /// (0: the n-gram's candidates only).
        #[arg(long, default_value_t = 0)]
        lstm_full_vocabulary: usize,
        /// With --lm lstm: n-gram candidates re-ranked per call.
        #[arg(long, default_value_t = henkan::predict::neural::LSTM_CANDIDATES)]
        lstm_candidates: usize,
        #[arg(long)]
        json: bool,
    },
    /// Perplexity of the model's LSTM (full softmax) over a token file of int32 LM ids
    /// (`build/lm/dev_*.bin`, `<s>` before every sentence).
    Perplexity {
        #[arg(long)]
        input: PathBuf,
        /// Only the first N tokens.
        #[arg(long, default_value_t = 5000)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Types each reading one kana at a time through the IME (key state machine, no live
    /// conversion), then Enter, with suggestions on and off side by side; per-key latency.
    /// With --tokens (analyzed corpus lines), each word's reading is typed and committed
    /// with Enter in turn (word by word: every key has a short completion query).
    Ime {
        #[arg(long, required_unless_present = "tokens")]
        input: Option<PathBuf>,
        #[arg(long)]
        tokens: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Types each reading one kana at a time through a Session; per-key latency.
    Keystroke {
        #[arg(long)]
        input: PathBuf,
        /// Default: hybrid when the model has an LSTM LM, else classic.
        #[arg(long, value_enum)]
        engine: Option<EngineKind>,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        neural: NeuralArgs,
        /// Also run the neural engine with every softmax variant (IVS, no frequent words,
        /// non-incremental, full) and report the speedups of IVS.
        #[arg(long)]
        compare: bool,
    },
}

fn bench_keystroke(
    engine: &Engine,
    pairs: &[(String, String)],
    kind: EngineKind,
    neural: &NeuralArgs,
    sink: &mut usize,
) -> Result<serde_json::Value, String> {
    let mut session = session_for(engine, kind, neural)?;
    let mut keys = Vec::new();
    let mut convs = Vec::new();
    // HENKAN_SLOW_KEY_MS=N prints the keys slower than N ms (to find the tail).
    let slow: Option<f64> = std::env::var("HENKAN_SLOW_KEY_MS")
        .ok()
        .and_then(|v| v.parse().ok());
    for (reading, _) in pairs {
        session.clear();
        for c in reading.chars() {
            let t0 = Instant::now();
            session.insert(engine, c);
            *sink += session.best_text(engine).len();
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            if slow.is_some_and(|l| ms > l) {
                eprintln!(
                    "slow key {ms:.2} ms at {} of {reading}",
                    session.lattice().len()
                );
            }
            keys.push(ms);
        }
        let t0 = Instant::now();
        let conv = session.convert(engine);
        convs.push(t0.elapsed().as_secs_f64() * 1000.0);
        *sink += conv.nbest.len();
    }
    let stats = session.neural_decoder().stats();
    let nk = keys.len().max(1) as f64;
    keys.sort_by(|a, b| a.total_cmp(b));
    convs.sort_by(|a, b| a.total_cmp(b));
    Ok(serde_json::json!({
        "engine": kind.name(),
        "softmax": format!("{:?}", neural.softmax).to_lowercase(),
        "beam": neural.beam,
        "kernels": henkan::kernels::implementation(),
        "sentences": pairs.len(),
        "keys": keys.len(),
        "per_key_p50_ms": percentile(&keys, 0.5),
        "per_key_p95_ms": percentile(&keys, 0.95),
        "per_key_max_ms": keys.last().copied().unwrap_or(0.0),
        "per_key_mean_ms": keys.iter().sum::<f64>() / nk,
        "softmax_ms_per_key": stats.softmax_ns as f64 / 1e6 / nk,
        "lstm_ms_per_key": stats.lstm_ns as f64 / 1e6 / nk,
        "conversion_p50_ms": percentile(&convs, 0.5),
        "conversion_p95_ms": percentile(&convs, 0.95),
        "conversion_mean_ms": convs.iter().sum::<f64>() / convs.len().max(1) as f64,
    }))
}

fn model_path(cli: &Option<PathBuf>) -> PathBuf {
    if let Some(p) = cli {
        return p.clone();
    }
    if let Ok(p) = std::env::var("HENKAN_MODEL") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("models/henkan.henkan");
    if local.exists() {
        return local;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/models/henkan.henkan"))
}

fn load(cli: &Option<PathBuf>) -> Result<Engine, String> {
    let path = model_path(cli);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Engine::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_pairs(path: &PathBuf, limit: Option<usize>) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut f = line.split('\t');
        let reading = f.next().unwrap_or("").to_string();
        let expected = f.next().unwrap_or("").to_string();
        out.push((reading, expected));
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
    }
    Ok(out)
}

fn lcs(a: &[char], b: &[char]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Two engines' exact top-1 over the same sentences, for `eval conversion --versus`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Paired {
    n: usize,
    both: usize,
    only_this: usize,
    only_other: usize,
}

impl Paired {
    fn add(&mut self, this: bool, other: bool) {
        self.n += 1;
        match (this, other) {
            (true, true) => self.both += 1,
            (true, false) => self.only_this += 1,
            (false, true) => self.only_other += 1,
            (false, false) => {}
        }
    }

    /// Sentences the other engine gets right.
    fn theirs(&self) -> usize {
        self.both + self.only_other
    }

    /// This engine's exact top-1 minus the other's, in points.
    fn diff_points(&self) -> f64 {
        100.0 * (self.only_this as f64 - self.only_other as f64) / self.n.max(1) as f64
    }

    /// The standard error of [`Paired::diff_points`] (the per-sentence differences are −1, 0
    /// or 1: their sample variance over n, then the mean's): √(b + c − (b − c)²/n) / n.
    fn se_points(&self) -> f64 {
        let n = self.n.max(1) as f64;
        let (b, c) = (self.only_this as f64, self.only_other as f64);
        100.0 * (b + c - (b - c).powi(2) / n).max(0.0).sqrt() / n
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn is_romaji(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
}

fn print_conversion(engine: &Engine, session: &mut Session, text: &str, debug: bool) {
    let conv = if is_romaji(text) {
        session.clear();
        session.insert_str(engine, text);
        session.convert(engine)
    } else {
        session.clear();
        session.convert_reading(engine, text)
    };
    outln!("{}", conv.text());
    let segs: Vec<String> = conv
        .segments
        .iter()
        .map(|s| format!("{}({})", s.candidates[0], s.reading))
        .collect();
    outln!("segments: {}", segs.join(" | "));
    for (i, s) in conv.nbest.iter().enumerate() {
        outln!("{:>2}. {s}", i + 1);
    }
    if debug {
        for seg in &conv.segments {
            outln!("[{}] {}", seg.reading, seg.candidates.join(" "));
        }
        let path = session
            .neural_best(engine)
            .or_else(|| session.best_path(engine).map(|p| p.nodes));
        if let Some(path) = path {
            let lat = session.lattice();
            let mut prev = 0u16;
            for &i in &path {
                let n = lat.nodes()[i as usize];
                let lm = engine.neural.as_ref().map_or(u32::MAX, |lm| {
                    henkan::decoder::neural::NeuralDecoder::word_of(lm, n.entry)
                });
                // an entry scored as another reading of its spelling
                let spelled = match engine.neural.as_ref().map(|lm| lm.vocab.lm_word(n.entry).1) {
                    Some(henkan::lm::lstm::WordMatch::Spelling { extra_cost }) => {
                        format!(" (by spelling, +{extra_cost} cost)")
                    }
                    _ => String::new(),
                };
                outln!(
                    "  {}\t{}\tleft {} right {} cost {} conn {} lm {lm}{spelled}",
                    lat.span(n.begin as usize, n.end as usize),
                    lat.surface(&engine.lexicon, &n),
                    n.left_id,
                    n.right_id,
                    n.cost,
                    engine.connection.cost(prev, n.left_id)
                );
                prev = n.right_id;
            }
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Convert {
            text,
            engine: kind,
            debug,
            context,
            neural,
        } => {
            let mut engine = load(&cli.model)?;
            apply_bias_file(&mut engine, &neural)?;
            let engine = engine;
            let kind = kind.unwrap_or_else(|| EngineKind::default_for(&engine));
            let mut session = session_for(&engine, kind, &neural)?;
            if let Some(ctx) = context {
                let reading = if is_romaji(&ctx) {
                    session.clear();
                    session.insert_str(&engine, &ctx);
                    session.composer().submission()
                } else {
                    ctx
                };
                session.set_context(&engine, &reading);
            }
            match text {
                Some(t) => print_conversion(&engine, &mut session, &t, debug),
                None => {
                    let stdin = std::io::stdin();
                    eprintln!("henkan: type romaji or kana, one line per conversion (Ctrl-D ends)");
                    for line in stdin.lock().lines() {
                        let line = line.map_err(|e| e.to_string())?;
                        let t = line.trim();
                        if !t.is_empty() {
                            print_conversion(&engine, &mut session, t, debug);
                            std::io::stdout().flush().ok();
                        }
                    }
                }
            }
        }
        Command::Eval {
            what:
                EvalWhat::Conversion {
                    input,
                    engine: kind,
                    json,
                    limit,
                    errors,
                    digits,
                    context_lines,
                    learn,
                    learn_capacity,
                    versus,
                    neural,
                },
        } => {
            let mut engine = load(&cli.model)?;
            apply_bias_file(&mut engine, &neural)?;
            let engine = engine;
            let pairs = read_pairs(&input, limit)?;
            let kind = kind.unwrap_or_else(|| EngineKind::default_for(&engine));
            let mut session = session_for(&engine, kind, &neural)?;
            session.set_digit_width(match digits {
                Digits::Full => henkan::lattice::DigitWidth::Full,
                Digits::Half => henkan::lattice::DigitWidth::Half,
            });
            let (mut top1, mut top10) = (0usize, 0usize);
            let (mut sum_lcs, mut sum_got, mut sum_exp) = (0usize, 0usize, 0usize);
            let mut times = Vec::with_capacity(pairs.len());
            let mut context = henkan::build::gold::CommittedContext::new(context_lines);
            session.set_history(henkan::history::History::new(learn_capacity));
            let mut learned_sentences = 0usize;
            let digit_width = session.lattice().digits;
            let mut other = versus
                .map(|k| {
                    session_for(&engine, k, &neural).map(|mut s| {
                        s.set_digit_width(digit_width);
                        (k, s)
                    })
                })
                .transpose()?;
            let mut paired = Paired::default();
            for (reading, expected) in &pairs {
                if context_lines > 0 && kind != EngineKind::Classic {
                    session.set_context_words(&engine, &context.words());
                }
                session.clear();
                let t0 = Instant::now();
                let conv = session.convert_reading(&engine, reading);
                times.push(t0.elapsed().as_secs_f64() * 1000.0);
                let got = conv.text();
                if got == *expected {
                    top1 += 1;
                } else if errors {
                    outln!("{reading}\n  want {expected}\n  got  {got}");
                }
                if conv.nbest.iter().any(|s| s == expected) {
                    top10 += 1;
                }
                if let Some((_, o)) = other.as_mut() {
                    o.clear();
                    let theirs = o.convert_reading(&engine, reading).text() == *expected;
                    paired.add(got == *expected, theirs);
                }
                if context_lines > 0 && kind != EngineKind::Classic {
                    context.commit(&engine, reading, expected);
                }
                if learn && session.learn_pieces(&engine, &[(reading, expected)]) > 0 {
                    learned_sentences += 1;
                }
                let g: Vec<char> = got.chars().collect();
                let e: Vec<char> = expected.chars().collect();
                sum_lcs += lcs(&g, &e);
                sum_got += g.len();
                sum_exp += e.len();
            }
            let n = pairs.len().max(1) as f64;
            let p = sum_lcs as f64 / sum_got.max(1) as f64;
            let r = sum_lcs as f64 / sum_exp.max(1) as f64;
            let f1 = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            let mean = times.iter().sum::<f64>() / n;
            times.sort_by(|a, b| a.total_cmp(b));
            let mut result = serde_json::json!({
                "engine": kind.name(),
                "lambda": if kind == EngineKind::Hybrid { neural.lambda } else { 0.0 },
                "rank_prior": if kind == EngineKind::Neural { (f64::from(neural.rank_prior) * 1e4).round() / 1e4 } else { 0.0 },
                "backward_weight": if kind == EngineKind::Neural && engine.neural.as_ref().is_some_and(|l| l.backward.is_some()) { (f64::from(neural.backward_weight) * 1e4).round() / 1e4 } else { 0.0 },
                "coherence_weight": if kind == EngineKind::Hybrid && engine.neural.as_ref().is_some_and(|l| l.coherence.is_some()) { (f64::from(neural.coherence_weight) * 1e4).round() / 1e4 } else { 0.0 },
                "beam": neural.beam,
                "digits": format!("{digits:?}").to_lowercase(),
                "context_lines": context_lines,
                "learn": learn,
                "learn_capacity": if learn { learn_capacity } else { 0 },
                "learned_sentences": learned_sentences,
                "learned_readings": session.history().len(),
                "sentences": pairs.len(),
                "exact_top1": top1 as f64 / n,
                "exact_top10": top10 as f64 / n,
                "char_f1": f1,
                "mean_ms": mean,
                "p95_ms": percentile(&times, 0.95),
            });
            if let Some((k, _)) = other {
                result["versus"] = serde_json::json!({
                    "engine": k.name(),
                    "exact_top1": paired.theirs() as f64 / n,
                    "only_this": paired.only_this,
                    "only_other": paired.only_other,
                    "diff_points": paired.diff_points(),
                    "se_points": paired.se_points(),
                });
                if !json {
                    outln!(
                        "versus {}: exact top-1 {:.2}%; right only here {}, only there {}; difference {:+.2} ± {:.2} points (standard error)",
                        k.name(),
                        100.0 * paired.theirs() as f64 / n,
                        paired.only_this,
                        paired.only_other,
                        paired.diff_points(),
                        paired.se_points()
                    );
                }
            }
            if json {
                outln!("{result}");
            } else {
                outln!(
                    "{} sentences: exact top-1 {:.1}%, top-10 {:.1}%, char F1 {:.1}%, mean {:.2} ms, p95 {:.2} ms",
                    pairs.len(),
                    100.0 * top1 as f64 / n,
                    100.0 * top10 as f64 / n,
                    100.0 * f1,
                    mean,
                    percentile(&times, 0.95)
                );
            }
        }
        Command::Bench {
            what:
                BenchWhat::Ime {
                    input,
                    tokens,
                    json,
                    limit,
                },
        } => {
            let engine = load(&cli.model)?;
            let lines: Vec<Vec<String>> = match (&tokens, &input) {
                (Some(t), _) => std::fs::read_to_string(t)
                    .map_err(|e| format!("cannot read {}: {e}", t.display()))?
                    .lines()
                    .take(limit.unwrap_or(usize::MAX))
                    .map(|l| {
                        l.split_whitespace()
                            .filter_map(henkan::lm::ngram::parse_token)
                            .map(|(_, r, _, _)| r)
                            .collect()
                    })
                    .collect(),
                (None, Some(i)) => read_pairs(i, limit)?
                    .into_iter()
                    .map(|(r, _)| vec![r])
                    .collect(),
                (None, None) => return Err("--input or --tokens".into()),
            };
            let result = bench_ime(&engine, &lines);
            if json {
                outln!("{result}");
            } else {
                outln!("{result:#}");
            }
        }
        Command::Bench {
            what:
                BenchWhat::Keystroke {
                    input,
                    engine: kind,
                    json,
                    limit,
                    neural,
                    compare,
                },
        } => {
            let mut engine = load(&cli.model)?;
            apply_bias_file(&mut engine, &neural)?;
            let engine = engine;
            let pairs = read_pairs(&input, limit)?;
            let mut sink = 0usize;
            let kind = kind.unwrap_or_else(|| EngineKind::default_for(&engine));
            let mut result = bench_keystroke(&engine, &pairs, kind, &neural, &mut sink)?;
            if compare && engine.neural.is_some() {
                let mut engines = serde_json::Map::new();
                let mut runs: Vec<(String, EngineKind, NeuralArgs)> = vec![
                    ("classic".into(), EngineKind::Classic, neural.clone()),
                    ("hybrid".into(), EngineKind::Hybrid, neural.clone()),
                ];
                for (name, sm) in [
                    ("neural", SoftmaxKind::Ivs),
                    ("neural_ivs_no_frequent", SoftmaxKind::IvsNoFrequent),
                    ("neural_non_incremental", SoftmaxKind::NonIncremental),
                    ("neural_full_softmax", SoftmaxKind::Full),
                ] {
                    let mut a = neural.clone();
                    a.softmax = sm;
                    runs.push((name.into(), EngineKind::Neural, a));
                }
                for (name, k, a) in &runs {
                    engines.insert(
                        name.clone(),
                        bench_keystroke(&engine, &pairs, *k, a, &mut sink)?,
                    );
                }
                let get = |n: &str, f: &str| engines[n][f].as_f64().unwrap_or(0.0);
                let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
                result["ivs_speedup_softmax"] = ratio(
                    get("neural_full_softmax", "softmax_ms_per_key"),
                    get("neural", "softmax_ms_per_key"),
                )
                .into();
                result["ivs_speedup_total"] = ratio(
                    get("neural_full_softmax", "per_key_mean_ms"),
                    get("neural", "per_key_mean_ms"),
                )
                .into();
                result["engines"] = serde_json::Value::Object(engines);
            }
            if !json {
                eprintln!("(checksum {sink})");
            }
            outln!("{result}");
        }
        Command::BuildModel {
            lex,
            matrix,
            id_def,
            segmenter_def,
            out,
            max_cost,
            pos_max_cost,
            max_per_reading,
            max_reading_chars,
            conn_step,
            conn_width,
            conn_clusters,
            keep,
            keep_min_count,
            digit_penalty,
            name,
            lstm,
            lstm_bits,
            vocab_match,
            ngram,
            compress,
            prune_composable,
            cost_step,
        } => {
            let read = |p: &PathBuf| {
                std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
            };
            let lex_text = read(&lex)?;
            let matrix_bytes = std::fs::read(&matrix)
                .map_err(|e| format!("cannot read {}: {e}", matrix.display()))?;
            let opts = BuildOptions {
                max_cost,
                pos_max_cost,
                max_per_reading,
                max_reading_chars,
                conn_step,
                conn_width,
                conn_clusters: conn_clusters.map(|k| (k, k)),
                keep: match &keep {
                    None => None,
                    Some(p) => Some(
                        read(p)?
                            .lines()
                            .filter_map(|l| {
                                let f: Vec<&str> = l.split('\t').collect();
                                let n: u64 = f.get(4)?.parse().ok()?;
                                (n >= keep_min_count).then(|| f[..4].join("\t"))
                            })
                            .collect(),
                    ),
                },
                extra_sections: match &ngram {
                    Some(p) => vec![(
                        henkan::model::SectionKind::Ngram,
                        std::fs::read(p)
                            .map_err(|e| format!("cannot read {}: {e}", p.display()))?,
                    )],
                    None => Vec::new(),
                },
                digit_penalty,
                name,
                prune_composable,
                cost_step,
            };
            let (bytes, report) = build_model(
                &lex_text,
                &matrix_bytes,
                &read(&id_def)?,
                &read(&segmenter_def)?,
                &opts,
            )
            .map_err(|e| e.to_string())?;
            // The LM vocabulary maps lexicon entry offsets, known only once the lexicon is
            // built: the LM sections are added to the built container.
            let bytes = match &lstm {
                Some(dir) => attach(bytes, dir, lstm_bits, vocab_match.how.into())?,
                None => bytes,
            };
            let bytes = compress_model(bytes, compress)?;
            if let Some(dir) = out.parent() {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            std::fs::write(&out, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            eprintln!(
                "{}: {} of {} entries, {} readings, {} bytes ({} bytes in the file)",
                out.display(),
                report.entries_kept,
                report.entries_in,
                report.readings,
                report.total,
                bytes.len()
            );
            if report.composable_dropped > 0 {
                eprintln!("  {} composable entries dropped", report.composable_dropped);
            }
            for (name, len) in report.sections {
                eprintln!("  {name:<18} {len:>10}");
            }
        }
        Command::Predict {
            query,
            context,
            ngram,
            limit,
        } => {
            let engine = load(&cli.model)?;
            predict_cmd(&engine, query, context, ngram, limit)?;
        }
        Command::BuildNgram {
            corpus,
            files,
            vocab,
            budget_mb,
            top_bigram,
            top_trigram,
            prune_bits,
            out,
            attach,
            attach_out,
        } => {
            let opts = henkan::build::ngram::NgramOptions {
                vocab,
                top_bigram,
                top_trigram,
                prune_bits: prune_bits.unwrap_or(f32::NEG_INFINITY),
                budget: (budget_mb * 1048576.0) as usize,
                ..Default::default()
            };
            build_ngram_cmd(&corpus, &files, &opts, &out)?;
            if let Some(model_out) = attach_out {
                let path = attach.unwrap_or_else(|| model_path(&cli.model));
                let model = std::fs::read(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let section = std::fs::read(&out).map_err(|e| e.to_string())?;
                let bytes = henkan::build::ngram::attach_ngram(model, section)
                    .map_err(|e| e.to_string())?;
                std::fs::write(&model_out, &bytes)
                    .map_err(|e| format!("cannot write {}: {e}", model_out.display()))?;
                eprintln!("{}: {} bytes", model_out.display(), bytes.len());
            }
        }
        Command::Eval {
            what:
                EvalWhat::Prediction {
                    input,
                    analyzer,
                    lex,
                    matrix,
                    tokens,
                    lm,
                    ngram,
                    limit,
                    lstm_weight,
                    lstm_candidates,
                    lstm_full_vocabulary,
                    predict_bias,
                    json,
                },
        } => {
            let mut engine = load(&cli.model)?;
            if let (Some(p), Some(lm)) = (&predict_bias, engine.neural.as_mut()) {
                lm.predict_bias = read_predict_bias(p, lm.model.vocab)?;
            }
            let engine = engine;
            let (tokens, analyzed) = match (tokens, input) {
                (Some(t), _) => (t, false),
                (None, Some(input)) => (analyze(&input, &analyzer, &lex, &matrix)?, true),
                (None, None) => {
                    return Err("give --input FILE (plain text) or --tokens FILE".into())
                }
            };
            let tmp = analyzed.then(|| tokens.clone());
            let args = PredictionArgs {
                tokens,
                lm,
                ngram,
                limit,
                lstm_weight,
                lstm_candidates,
                lstm_full_vocabulary,
                json,
            };
            let result = eval_prediction_cmd(&engine, args);
            if let Some(t) = tmp {
                // the analyzer also writes its unknown words beside the output
                let _ = std::fs::remove_file(format!("{}.unk", t.display()));
                let _ = std::fs::remove_file(t);
            }
            result?;
        }
        Command::Repack {
            input,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let bytes = henkan::model::repack(model, compress).map_err(|e| e.to_string())?;
            write_model_file(&out, &bytes)?;
            print_sections(&bytes);
        }
        Command::TrainBias {
            input,
            epochs,
            rate,
            threads,
            limit,
            out,
            neural,
        } => train_bias(
            &cli.model, &input, epochs, rate, threads, limit, &out, &neural,
        )?,
        Command::DumpLmStates {
            tokens,
            limit,
            every,
            gold,
            out,
        } => dump_lm_states(&load(&cli.model)?, &tokens, limit, every, gold, &out)?,
        Command::AttachBackward {
            input,
            lstm,
            bits,
            bias_bits,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let w = read_lstm_weights(&lstm)?;
            let quant = match bits {
                32 => henkan::build::lstm::Quant::F32,
                3..=8 => henkan::build::lstm::Quant::Codebook(bits),
                _ => return Err(format!("--bits {bits}: 3 to 8, or 32")),
            };
            if !(3..=8).contains(&bias_bits) && bias_bits != 32 {
                return Err(format!("--bias-bits {bias_bits}: 3 to 8, or 32"));
            }
            let (bytes, report) = henkan::build::lstm::attach_backward(model, &w, quant, bias_bits)
                .map_err(|e| e.to_string())?;
            eprintln!(
                "backward LM: {} bytes (recurrent {bits} bits, output bias {bias_bits} bits), embedding max diff {}",
                report.bytes, report.embedding_max_diff
            );
            write_model_file(&out, &compress_model(bytes, compress)?)?;
        }
        Command::AttachCoherence {
            input,
            vectors,
            dims,
            max_cost,
            id_def,
            skip_pos,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let mut skip = Vec::new();
            if !skip_pos.is_empty() {
                let id_def = id_def.ok_or("--skip-pos needs --id-def")?;
                let text = std::fs::read_to_string(&id_def)
                    .map_err(|e| format!("{}: {e}", id_def.display()))?;
                let features = henkan::build::parse_id_def(&text).map_err(|e| e.to_string())?;
                skip = features
                    .iter()
                    .map(|f| skip_pos.iter().any(|p| f.starts_with(p.as_str())))
                    .collect();
            }
            let keep = |left: u16, cost: i32| {
                cost <= max_cost && !skip.get(left as usize).copied().unwrap_or(false)
            };
            let read = |name: &str| {
                let p = vectors.join(name);
                std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))
            };
            let floats = henkan::predict::adapt::read_f32(&read("vectors.f32")?);
            if dims == 0 || floats.len() % dims != 0 {
                return Err(format!("vectors.f32 is not rows of {dims} floats"));
            }
            let words = String::from_utf8(read("words.tsv")?).map_err(|e| e.to_string())?;
            let words = henkan::build::coherence::parse_words(&words, floats.len() / dims)
                .map_err(|e| e.to_string())?;
            let (bytes, r) =
                henkan::build::coherence::attach_coherence(model, &words, &floats, dims, keep)
                    .map_err(|e| e.to_string())?;
            eprintln!(
                "coherence: {} entries ({} surfaces) → {} rows of {dims}, {} bytes",
                r.entries, r.surfaces, r.rows, r.bytes
            );
            write_model_file(&out, &compress_model(bytes, compress)?)?;
        }
        Command::AttachPredictBias {
            input,
            bias,
            step,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let vocab = Engine::from_bytes(model.clone())
                .map_err(|e| e.to_string())?
                .neural
                .ok_or("the model has no LSTM")?
                .model
                .vocab;
            let offsets = read_predict_bias(&bias, vocab)?;
            let section = henkan::predict::adapt::to_section(&offsets, step);
            eprintln!("prediction bias: {} offsets, step {step}", offsets.len());
            let bytes = henkan::model::replace_section(
                model,
                henkan::model::SectionKind::PredictBias,
                section,
            )
            .map_err(|e| e.to_string())?;
            write_model_file(&out, &compress_model(bytes, compress)?)?;
        }
        Command::DigitBias {
            corpus,
            weight,
            out,
        } => {
            let engine = load(&cli.model)?;
            let mut counts = henkan::build::digit_prior::DigitCounts::new();
            for path in &corpus {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                for line in text.lines() {
                    counts.add_tokens(line);
                }
            }
            let (bias, names) =
                henkan::build::digit_prior::digit_bias(&engine.lexicon, &counts, weight);
            eprintln!("digit prior: {} entries", bias.len());
            std::fs::write(&out, henkan::build::bias::write_tsv(&bias, &names))
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        }
        Command::MozcRules {
            input,
            id_def,
            boundary_def,
            pos_matcher_def,
            suffix,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let read = |p: &PathBuf| {
                std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
            };
            let bytes = henkan::build::add_mozc_rules(
                model,
                &read(&id_def)?,
                &read(&boundary_def)?,
                &read(&pos_matcher_def)?,
                suffix,
            )
            .map_err(|e| e.to_string())?;
            let bytes = compress_model(bytes, compress)?;
            write_model_file(&out, &bytes)?;
        }
        Command::AttachBias {
            input,
            bias,
            step,
            min,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let text = std::fs::read_to_string(&bias)
                .map_err(|e| format!("cannot read {}: {e}", bias.display()))?;
            let mut b = henkan::build::bias::read_tsv(&text)
                .map_err(|e| format!("{}: {e}", bias.display()))?;
            for (e, w) in b.entries() {
                if w.abs() < min {
                    b.set(e, 0.0);
                }
            }
            let (bytes, len) =
                henkan::build::bias::attach_bias(model, &b, step).map_err(|e| e.to_string())?;
            eprintln!("word bias: {} entries, section {len} bytes", b.len());
            let bytes = compress_model(bytes, compress)?;
            write_model_file(&out, &bytes)?;
        }
        Command::AttachLstm {
            input,
            lstm,
            lstm_bits,
            vocab_match,
            keep_embedding,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let bytes = if keep_embedding {
                let w = read_lstm_weights(&lstm)?;
                let (bytes, diff) =
                    henkan::build::lstm::replace_recurrent(model, &w, lstm_bits.recurrent)
                        .map_err(|e| e.to_string())?;
                eprintln!(
                    "lstm: recurrent part replaced ({:?}), embedding kept (differs by up to {diff})",
                    lstm_bits.recurrent
                );
                bytes
            } else {
                attach(model, &lstm, lstm_bits, vocab_match.how.into())?
            };
            let bytes = compress_model(bytes, compress)?;
            write_model_file(&out, &bytes)?;
        }
        Command::RemapLmVocab {
            input,
            vocab,
            vocab_match,
            compress,
            out,
        } => {
            let model = read_model_file(input, &cli.model)?;
            let text = std::fs::read_to_string(&vocab)
                .map_err(|e| format!("cannot read {}: {e}", vocab.display()))?;
            let (bytes, r) =
                henkan::build::lstm::remap_lm_vocab(model, &text, vocab_match.how.into())
                    .map_err(|e| e.to_string())?;
            eprintln!(
                "lm vocabulary {} bytes: {} of {} lexicon entries are LM words; {} LM words have no entry",
                r.vocab_bytes, r.entries_in_vocab, r.entries, r.lm_words_unmapped
            );
            let bytes = compress_model(bytes, compress)?;
            write_model_file(&out, &bytes)?;
        }
        Command::ExportLstm { out } => {
            let engine = load(&cli.model)?;
            let lm = engine.neural.as_ref().ok_or("the model has no LSTM")?;
            let m = &lm.model;
            let w = henkan::build::lstm::LstmWeights::from_model(m);
            let source = model_path(&cli.model).display().to_string();
            let bytes = w.to_safetensors(&[
                ("vocab_size", m.vocab.to_string()),
                ("emb", m.hidden.to_string()),
                ("hidden", m.hidden.to_string()),
                ("cell", m.cell.to_string()),
                ("unk_id", m.unk_id.to_string()),
                ("bos_id", m.bos_id.to_string()),
                ("gate_order", "i,f,g,o".into()),
                ("steps", "0".into()),
                ("tokens", "0".into()),
                ("source", format!("decoded from {source}")),
            ]);
            std::fs::create_dir_all(&out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let path = out.join("lstm.safetensors");
            write_model_file(&path, &bytes)?;
        }
        Command::AlignGold {
            input,
            vocab,
            fallback,
            out,
            misses,
        } => align_gold(
            &load(&cli.model)?,
            &input,
            &vocab,
            fallback.as_deref(),
            &out,
            misses.as_deref(),
        )?,
        Command::Eval {
            what: EvalWhat::Perplexity { input, limit, json },
        } => {
            let engine = load(&cli.model)?;
            let lm = engine.neural.as_ref().ok_or("the model has no LSTM")?;
            let m = &lm.model;
            let raw = std::fs::read(&input)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
            let ids: Vec<u32> = raw
                .chunks_exact(4)
                .take(limit + 1)
                .map(|c| {
                    let v = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    if v < 0 || v as usize >= m.vocab {
                        m.unk_id
                    } else {
                        v as u32
                    }
                })
                .collect();
            let hd = m.hidden;
            let (mut h, mut c, mut x) = (vec![0.0; hd], vec![0.0; m.cell], vec![0.0; hd]);
            let mut scratch = henkan::lm::lstm::StepScratch::default();
            let (mut lp, mut row) = (Vec::new(), Vec::new());
            let (mut nll, mut n, mut nll_known, mut n_known) = (0f64, 0usize, 0f64, 0usize);
            let t0 = Instant::now();
            for k in 0..ids.len().saturating_sub(1) {
                if ids[k] == m.bos_id {
                    h.iter_mut().for_each(|v| *v = 0.0);
                    c.iter_mut().for_each(|v| *v = 0.0);
                }
                m.embed(ids[k], &mut x);
                m.step(&x, &mut h, &mut c, &mut scratch);
                m.log_softmax_full(&h, &mut lp, &mut row);
                let l = -(lp[ids[k + 1] as usize] as f64);
                nll += l;
                n += 1;
                if ids[k + 1] != m.unk_id {
                    nll_known += l;
                    n_known += 1;
                }
            }
            let result = serde_json::json!({
                "tokens": n,
                "perplexity": (nll / n.max(1) as f64).exp(),
                "perplexity_no_unk": (nll_known / n_known.max(1) as f64).exp(),
                "embedding_bits": m.embedding.bits(),
                "lstm_bytes": m.stored_bytes(),
                "seconds": t0.elapsed().as_secs_f64(),
            });
            if json {
                outln!("{result}");
            } else {
                outln!("{result:#}");
            }
        }
    }
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("henkan: {e}");
        std::process::exit(1);
    }
}

fn build_ngram_cmd(
    corpus: &std::path::Path,
    files: &str,
    opts: &henkan::build::ngram::NgramOptions,
    out: &std::path::Path,
) -> Result<(), String> {
    let mut list = Vec::new();
    for f in files.split(',').filter(|f| !f.is_empty()) {
        let (name, w) = f.split_once(':').unwrap_or((f, "1"));
        let w: u32 = w.parse().map_err(|_| format!("bad weight in {f}"))?;
        list.push((corpus.join(format!("{name}.txt")), w));
    }
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let t0 = Instant::now();
    let mut b = henkan::build::ngram::NgramBuilder::new();
    for (p, w) in &list {
        b.count_words(&read(p)?, *w);
        eprintln!(
            "words: {} ({:.0}s)",
            p.display(),
            t0.elapsed().as_secs_f64()
        );
    }
    b.freeze_vocab(opts.vocab);
    for (p, w) in &list {
        b.count_ngrams(&read(p)?, *w);
        eprintln!(
            "n-grams: {} ({:.0}s)",
            p.display(),
            t0.elapsed().as_secs_f64()
        );
    }
    let (bytes, r) = b.finish(opts).map_err(|e| e.to_string())?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "{}: {} bytes; vocab {} of {} types (covers {:.2}% of {} weighted tokens); \
         bigrams {} of {} seen, trigrams {} in {} contexts of {} seen; min counts {:?} ({:.0}s)",
        out.display(),
        r.bytes,
        r.vocab,
        r.types,
        100.0 * r.coverage,
        r.tokens,
        r.stored.0,
        r.seen.0,
        r.stored.2,
        r.stored.1,
        r.seen.1,
        r.min_counts,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Times every call of the wrapped predictor.
struct Timed<P> {
    inner: P,
    ms: Vec<f64>,
}

impl<P: henkan::predict::eval::Predictor> henkan::predict::eval::Predictor for Timed<P> {
    fn predict(
        &mut self,
        history: &[Option<henkan::predict::eval::Word>],
        query: &str,
        limit: usize,
    ) -> Vec<henkan::predict::Prediction> {
        let t0 = Instant::now();
        let p = self.inner.predict(history, query, limit);
        self.ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        p
    }
}

struct PredictionArgs {
    tokens: PathBuf,
    lm: PredictLm,
    ngram: Option<PathBuf>,
    limit: Option<usize>,
    lstm_weight: f32,
    lstm_candidates: usize,
    lstm_full_vocabulary: usize,
    json: bool,
}

/// Analyzes plain text `input` into words (`surface/reading/left/right` tokens) with the
/// training pipeline's analyzer, as `make corpus-tok` does for the dev sets; returns the
/// analyzed file (in the temporary directory).
fn analyze(input: &Path, analyzer: &Path, lex: &Path, matrix: &Path) -> Result<PathBuf, String> {
    for (p, what) in [
        (analyzer, "analyzer"),
        (lex, "dictionary"),
        (matrix, "matrix"),
    ] {
        if !p.exists() {
            return Err(format!(
                "plain-text input needs the training analyzer: {what} {} not found \
                 (`make corpus-tok` builds it; or pass analyzed text with --tokens)",
                p.display()
            ));
        }
    }
    if !input.exists() {
        return Err(format!("cannot read {}: no such file", input.display()));
    }
    let out = std::env::temp_dir().join(format!("henkan-analyzed-{}.txt", std::process::id()));
    let job = format!("raw:{}:{}", input.display(), out.display());
    let run = std::process::Command::new(analyzer)
        .arg("--lex")
        .arg(lex)
        .arg("--matrix")
        .arg(matrix)
        .arg(&job)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", analyzer.display()))?;
    if !run.status.success() {
        return Err(format!(
            "{} failed: {}",
            analyzer.display(),
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    }
    Ok(out)
}

fn eval_prediction_cmd(engine: &Engine, args: PredictionArgs) -> Result<(), String> {
    let PredictionArgs {
        tokens,
        lm,
        ngram,
        limit,
        lstm_weight,
        lstm_candidates,
        lstm_full_vocabulary,
        json,
    } = args;
    let model = &load_ngram(engine, &ngram)?;
    let text = std::fs::read_to_string(&tokens)
        .map_err(|e| format!("cannot read {}: {e}", tokens.display()))?;
    let ngram_predictor = henkan::predict::NgramPredictor {
        model,
        lexicon: Some(&engine.lexicon),
    };
    let t0 = Instant::now();
    let (n, mut ms) = match lm {
        PredictLm::Ngram => {
            let mut p = Timed {
                inner: ngram_predictor,
                ms: Vec::new(),
            };
            (henkan::predict::eval::evaluate(&text, limit, &mut p), p.ms)
        }
        PredictLm::Lstm => {
            let neural = engine
                .neural
                .as_ref()
                .ok_or("the model has no LSTM (use e.g. --model build/models/full-lstm8.henkan)")?;
            let mut inner = henkan::predict::neural::LstmPredictor::new(
                ngram_predictor,
                neural,
                &engine.lexicon,
            );
            inner.weight = lstm_weight;
            inner.candidates = lstm_candidates;
            let inner = inner.with_full_vocabulary(lstm_full_vocabulary);
            let mut p = Timed {
                inner,
                ms: Vec::new(),
            };
            let n = henkan::predict::eval::evaluate(&text, limit, &mut p);
            eprintln!(
                "lstm: {} of {} candidates scored as <unk>",
                p.inner.unk_candidates, p.inner.scored_candidates
            );
            (n, p.ms)
        }
    };
    ms.sort_by(|a, b| a.total_cmp(b));
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let p95 = ms.get(ms.len() * 95 / 100).copied().unwrap_or(0.0);
    let (nb, nm) = model.ngram_counts();
    let w = n.words.max(1) as f64;
    let result = serde_json::json!({
        "model": match lm {
            PredictLm::Ngram => "ngram",
            PredictLm::Lstm => "lstm",
        },
        "words": n.words,
        "nwp_top1": n.top1 as f64 / w,
        "nwp_top3": n.top3 as f64 / w,
        "ksr": n.ksr(),
        "mean_ms": mean,
        "p95_ms": p95,
        "calls": n.calls,
        "keys_full": n.keys_full,
        "keys_typed": n.keys_typed,
        "ngram_bytes": model.byte_len(),
        "ngram_vocab": model.vocab_len(),
        "bigrams": nb,
        "trigrams": nm,
        "seconds": t0.elapsed().as_secs_f64(),
    });
    if json {
        outln!("{result}");
    } else {
        outln!("{result:#}");
    }
    Ok(())
}

/// Prediction logit offsets from a `training/fit_predict_bias.py` file (`none`: no offsets).
fn read_predict_bias(p: &std::path::Path, vocab: usize) -> Result<Vec<f32>, String> {
    if p.as_os_str() == "none" {
        return Ok(Vec::new());
    }
    let b = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let v = henkan::predict::adapt::read_f32(&b);
    if v.len() != vocab {
        return Err(format!("{}: not {vocab} f32 values", p.display()));
    }
    Ok(v)
}

fn dump_lm_states(
    engine: &Engine,
    tokens: &std::path::Path,
    limit: Option<usize>,
    every: usize,
    gold: bool,
    out: &std::path::Path,
) -> Result<(), String> {
    use henkan::predict::neural::{lm_word, LstmState};
    let mut context = henkan::build::gold::CommittedContext::new(1);
    let lm = engine.neural.as_ref().ok_or("the model has no LSTM")?;
    let text = std::fs::read_to_string(tokens)
        .map_err(|e| format!("cannot read {}: {e}", tokens.display()))?;
    let (mut states, mut targets) = (Vec::<u8>::new(), Vec::<u8>::new());
    let mut n = 0usize;
    // the state before word `id`, then the step over it
    let mut push = |st: &mut LstmState, id: u32| {
        states.extend(st.h.iter().flat_map(|v| v.to_le_bytes()));
        targets.extend(id.to_le_bytes());
        n += 1;
        st.feed(lm, id);
    };
    for line in text
        .lines()
        .step_by(every.max(1))
        .take(limit.unwrap_or(usize::MAX))
    {
        let mut st = LstmState::new(lm);
        if gold {
            let Some(s) = henkan::build::bias::parse_tokens(line) else {
                continue;
            };
            context.commit(engine, &s.reading, &s.text);
            // [<s>, words…]: the words, then <s> (the sentence end)
            let words = context.words();
            for &id in words[1..].iter().chain(std::iter::once(&lm.model.bos_id)) {
                push(&mut st, id);
            }
            continue;
        }
        for w in henkan::predict::eval::parse_line(line) {
            let id = match &w {
                Some(w) => lm_word(
                    lm,
                    &engine.lexicon,
                    &w.reading,
                    &w.surface,
                    w.left_id,
                    w.right_id,
                ),
                None => lm.model.unk_id,
            };
            push(&mut st, id);
        }
    }
    let m = &lm.model;
    let mut emb = Vec::with_capacity(m.vocab * m.hidden * 4);
    let mut row = vec![0f32; m.hidden];
    for id in 0..m.vocab {
        m.embedding.decode_row(id, m.hidden, &mut row);
        emb.extend(row.iter().flat_map(|v| v.to_le_bytes()));
    }
    let bias: Vec<u8> = m.out_bias.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for (name, bytes) in [
        ("states.f32", &states),
        ("targets.u32", &targets),
        ("emb.f32", &emb),
        ("out_bias.f32", &bias),
    ] {
        let p = out.join(name);
        std::fs::write(&p, bytes).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    eprintln!(
        "{n} words, hidden {}, vocab {} -> {}",
        m.hidden,
        m.vocab,
        out.display()
    );
    Ok(())
}

/// `henkan train-bias`: see the command's help.
#[allow(clippy::too_many_arguments)]
fn train_bias(
    model: &Option<PathBuf>,
    inputs: &[PathBuf],
    epochs: usize,
    rate: f32,
    threads: usize,
    limit: Option<usize>,
    out: &std::path::Path,
    neural: &NeuralArgs,
) -> Result<(), String> {
    use henkan::build::bias::{parse_tokens, train_epoch, write_tsv, BiasOptions};
    let mut engine = load(model)?;
    apply_bias_file(&mut engine, neural)?;
    if engine.neural.is_none() {
        return Err("the model has no LSTM".into());
    }
    let mut sentences = Vec::new();
    for p in inputs {
        let text =
            std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let before = sentences.len();
        sentences.extend(
            text.lines()
                .filter_map(parse_tokens)
                .take(limit.unwrap_or(usize::MAX)),
        );
        eprintln!("{}: {} sentences", p.display(), sentences.len() - before);
    }
    let opts = BiasOptions {
        rate,
        threads,
        decoder: neural.options(),
    };
    let mut current = engine
        .neural
        .as_ref()
        .map(|lm| lm.bias.clone())
        .unwrap_or_default();
    let mut names = std::collections::HashMap::new();
    for epoch in 1..=epochs {
        let t0 = Instant::now();
        let e = train_epoch(&engine, &current, &sentences, &opts);
        names.extend(e.names);
        let r = e.report;
        eprintln!(
            "epoch {epoch}: {} sentences, {} correct ({:.2}%), {} without a gold path, {} updates; {} weights; {:.0} s",
            r.sentences,
            r.correct,
            100.0 * r.correct as f64 / r.sentences.max(1) as f64,
            r.no_gold,
            r.updates,
            e.averaged.len(),
            t0.elapsed().as_secs_f64()
        );
        let tsv = write_tsv(&e.averaged, &names);
        let path = format!("{}.{epoch}", out.display());
        std::fs::write(&path, &tsv).map_err(|e| format!("cannot write {path}: {e}"))?;
        if epoch == epochs {
            std::fs::write(out, &tsv)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        }
        current = e.current;
    }
    Ok(())
}

/// `henkan align-gold`: see the command's help.
fn align_gold(
    engine: &Engine,
    input: &std::path::Path,
    vocab: &std::path::Path,
    fallback: Option<&std::path::Path>,
    out: &std::path::Path,
    misses: Option<&std::path::Path>,
) -> Result<(), String> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let lm = engine.neural.as_ref().ok_or("the model has no LSTM")?;
    let table = henkan::build::lstm::read_vocab_tsv(&read(vocab)?).map_err(|e| e.to_string())?;
    if table.len != lm.model.vocab {
        return Err(format!(
            "{}: {} words, the model's LM has {}",
            vocab.display(),
            table.len,
            lm.model.vocab
        ));
    }
    // id → key (ids the table does not name, if any, read as <unk>)
    let mut keys = vec!["<unk>"; table.len];
    for (key, &id) in &table.ids {
        keys[id as usize] = key.as_str();
    }
    keys[table.bos_id as usize] = "<s>";
    let word_of = |entry: u32| henkan::decoder::neural::NeuralDecoder::word_of(lm, entry);
    let gold = read(input)?;
    let fallback = fallback.map(read).transpose()?;
    let mut fallback_lines = fallback.as_deref().map(str::lines);
    let mut aligner = henkan::build::gold::GoldAligner::new();
    let mut text = String::new();
    let mut missed = String::new();
    let (mut aligned, mut kept, mut dropped, mut changed) = (0usize, 0usize, 0usize, 0usize);
    for line in gold.lines() {
        let fb = fallback_lines.as_mut().and_then(|l| l.next());
        let sentence = henkan::build::bias::parse_tokens(line);
        let (reading, surface) = sentence
            .as_ref()
            .map_or(("", ""), |s| (s.reading.as_str(), s.text.as_str()));
        let path = if sentence.is_some() {
            // words outside the LM's vocabulary cost more: where the gold text can be spelled
            // with known words, the LM learns those
            aligner.align(engine, reading, surface, |n| {
                henkan::build::gold::unknown_word_cost(lm, n)
            })
        } else {
            None
        };
        let words = match path {
            Some(path) => {
                aligned += 1;
                let nodes = aligner.lattice().nodes();
                let ws: Vec<&str> = path
                    .iter()
                    .map(|&i| keys[word_of(nodes[i as usize].entry) as usize])
                    .collect();
                let ws = ws.join(" ");
                if fb.is_some_and(|f| f.trim() != ws) {
                    changed += 1;
                }
                ws
            }
            None => {
                missed.push_str(&format!("{reading}\t{surface}\n"));
                match fb {
                    Some(f) => {
                        kept += 1;
                        f.trim().to_string()
                    }
                    None => {
                        dropped += 1;
                        continue;
                    }
                }
            }
        };
        text.push_str(&words);
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if let Some(m) = misses {
        std::fs::write(m, missed).map_err(|e| format!("cannot write {}: {e}", m.display()))?;
    }
    eprintln!(
        "{}: {aligned} sentences on their gold path ({changed} cut otherwise than by the analyzer), \
         {kept} kept from the fallback, {dropped} left out",
        out.display()
    );
    Ok(())
}

fn load_ngram(
    engine: &Engine,
    ngram: &Option<PathBuf>,
) -> Result<henkan::lm::ngram::NgramModel, String> {
    match ngram {
        Some(p) => {
            let b = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            henkan::lm::ngram::NgramModel::from_section(henkan::model::SectionBytes::from_vec(b))
                .map_err(|e| e.to_string())
        }
        None => engine
            .ngram
            .clone()
            .ok_or_else(|| "the model has no n-gram section: pass --ngram FILE".to_string()),
    }
}

fn predict_cmd(
    engine: &Engine,
    query: Option<String>,
    context: Option<String>,
    ngram: Option<PathBuf>,
    limit: usize,
) -> Result<(), String> {
    use henkan::predict::{complete, context_after, extend_to_phrases, Context};
    let model = load_ngram(engine, &ngram)?;
    let mut engine = engine.clone();
    engine.ngram = Some(model.clone());
    let mut session = Session::new();
    let mut ctx = Context::new();
    if let Some(c) = context {
        session.insert_str(&engine, &c);
        outln!("context: {}", session.best_text(&engine));
        ctx = context_after(&engine, &session, ctx);
        session.clear();
    }
    if let Some(q) = &query {
        session.insert_str(&engine, q);
    }
    let q = session.composer().query();
    let t0 = Instant::now();
    let preds = complete(&model, Some(&engine.lexicon), ctx, &q, &[], limit);
    let phrases = extend_to_phrases(&model, ctx, &preds[..preds.len().min(3)], -1.5, 3);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    outln!("query: {q:?} ({ms:.3} ms)");
    for p in &preds {
        outln!("  {}\t{}\t{:.2}", p.surface, p.reading, p.score);
    }
    for p in &phrases {
        outln!("  phrase: {}\t{}\t{:.2}", p.surface, p.reading, p.score);
    }
    Ok(())
}

/// `bench ime`: every reading typed kana by kana through two IMEs, suggestions on and off,
/// sentence by sentence in turn (so both see the same machine load), then Enter.
fn bench_ime(engine: &Engine, lines: &[Vec<String>]) -> serde_json::Value {
    use henkan::ime::{Ime, Key, KeyEvent};
    let mut on = Ime::new();
    let mut off = Ime::new();
    on.set_live(false);
    off.set_live(false);
    off.set_predictions(false);
    // [on, off] × [typing keys, Enter]
    let mut ms: [[Vec<f64>; 2]; 2] = Default::default();
    // Suggestions on, by the length of the query after the key: 1 kana, 2 or more.
    let mut by_query: [Vec<f64>; 2] = Default::default();
    let mut shown = 0usize;
    for line in lines {
        for (k, ime) in [&mut on, &mut off].into_iter().enumerate() {
            for reading in line {
                for c in reading.chars() {
                    let t0 = Instant::now();
                    let out = ime.key(engine, KeyEvent::plain(Key::Char(c)));
                    let t = t0.elapsed().as_secs_f64() * 1000.0;
                    ms[k][0].push(t);
                    shown += usize::from(k == 0 && !out.completions.is_empty());
                    let q = ime.session().composer().query().chars().count();
                    if k == 0 && q > 0 {
                        by_query[usize::from(q > 1)].push(t);
                    }
                }
                let t0 = Instant::now();
                ime.key(engine, KeyEvent::plain(Key::Enter));
                ms[k][1].push(t0.elapsed().as_secs_f64() * 1000.0);
            }
            ime.flush(engine);
        }
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        serde_json::json!({
            "n": v.len(),
            "p50_ms": percentile(v, 0.5),
            "p95_ms": percentile(v, 0.95),
            "max_ms": v.last().copied().unwrap_or(0.0),
            "mean_ms": mean,
        })
    };
    let [[mut on_keys, mut on_enter], [mut off_keys, mut off_enter]] = ms;
    let (a, b) = (stats(&mut on_keys), stats(&mut off_keys));
    let ratio = |x: &serde_json::Value, y: &serde_json::Value, f: &str| {
        x[f].as_f64().unwrap_or(0.0) / y[f].as_f64().unwrap_or(1.0).max(1e-9)
    };
    serde_json::json!({
        "lines": lines.len(),
        "ngram": engine.ngram.is_some(),
        "keys_with_suggestions": shown,
        "ratio_p50": ratio(&a, &b, "p50_ms"),
        "ratio_p95": ratio(&a, &b, "p95_ms"),
        "keys_on": a,
        "keys_off": b,
        "keys_on_query_1_kana": stats(&mut by_query[0]),
        "keys_on_query_2_plus_kana": stats(&mut by_query[1]),
        "enter_on": stats(&mut on_enter),
        "enter_off": stats(&mut off_enter),
    })
}

#[cfg(test)]
mod tests {
    use super::Paired;

    #[test]
    fn paired_difference_and_its_standard_error() {
        let mut p = Paired::default();
        for (this, other) in [(true, true), (true, false), (false, true), (false, false)] {
            p.add(this, other);
        }
        assert_eq!((p.n, p.both, p.only_this, p.only_other), (4, 1, 1, 1));
        assert_eq!(p.theirs(), 2);
        assert_eq!(p.diff_points(), 0.0);
        // differences 0, 1, −1, 0: mean 0, Σd² = 2, so SE = √(2 − 0) / 4
        assert!((p.se_points() - 100.0 * 2f64.sqrt() / 4.0).abs() < 1e-9);
        // kwdlc.test, session 15: hybrid 63 / 156 against classic over 2,195 sentences
        let p = Paired {
            n: 2195,
            both: 0,
            only_this: 156,
            only_other: 63,
        };
        assert!((p.diff_points() - 4.2369).abs() < 1e-3);
        assert!((p.se_points() - 0.6679).abs() < 1e-3, "{}", p.se_points());
        assert_eq!(Paired::default().se_points(), 0.0);
    }
}

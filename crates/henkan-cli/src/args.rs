//! What several commands share: the engine and decoder flags, the model file, and small
//! readers of input files.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use henkan::options::{NeuralOptions, Scoring, Softmax};
use henkan::{Engine, Session};
use std::path::{Path, PathBuf};

/// `--engine classic|neural|hybrid`: the names come from [`Scoring::name`].
pub fn engine_parser() -> impl clap::builder::TypedValueParser<Value = Scoring> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Scoring::ALL.map(Scoring::name))
        .map(|name| Scoring::from_name(&name).expect("a possible value"))
}

/// The engine to use: `--engine`, else the model's default (the hybrid when it has an LSTM).
pub fn engine_or_default(engine: &Engine, chosen: Option<Scoring>) -> Scoring {
    chosen.unwrap_or_else(|| engine.default_scoring())
}

/// How the softmax denominator is formed (benchmarks compare the variants).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum SoftmaxKind {
    /// Incremental vocabulary selection: lattice words + frequent words.
    Ivs,
    /// IVS without the frequent-word sample.
    IvsNoFrequent,
    /// Vocabulary selection from scratch for every state on every key.
    NonIncremental,
    /// The whole vocabulary.
    Full,
}

impl From<SoftmaxKind> for Softmax {
    fn from(k: SoftmaxKind) -> Self {
        match k {
            SoftmaxKind::Ivs => Softmax::Ivs,
            SoftmaxKind::IvsNoFrequent => Softmax::IvsNoFrequent,
            SoftmaxKind::NonIncremental => Softmax::NonIncremental,
            SoftmaxKind::Full => Softmax::Full,
        }
    }
}

fn defaults() -> NeuralOptions {
    NeuralOptions::default()
}

/// Settings of the neural and hybrid engines; every default is [`NeuralOptions::default`]'s.
#[derive(clap::Args, Clone, Debug)]
pub struct NeuralArgs {
    /// Hypotheses kept per position.
    #[arg(long, default_value_t = defaults().beam)]
    pub beam: usize,
    /// Weight of the classic score in the hybrid.
    #[arg(long, default_value_t = defaults().lambda)]
    pub lambda: f32,
    /// Size of the frequent-word sample of the lattice vocabulary.
    #[arg(long, default_value_t = defaults().frequent)]
    pub frequent: usize,
    /// −log within-class probability of an `<unk>` word (before its cost term).
    #[arg(long, default_value_t = defaults().unk_base, allow_hyphen_values = true)]
    pub unk_base: f32,
    /// Cost units per nat (the classic score's scale in the hybrid and in the `<unk>` class).
    #[arg(long, default_value_t = defaults().cost_scale)]
    pub cost_scale: f32,
    /// Penalty per word (nats).
    #[arg(long, default_value_t = defaults().word_penalty, allow_hyphen_values = true)]
    pub word_penalty: f32,
    /// Weight of the connection cost relative to the word cost in the hybrid.
    #[arg(long, default_value_t = defaults().conn_weight)]
    pub conn_weight: f32,
    /// Nats charged when a word starting with a digit follows one ending with a digit
    /// (a number split in two: ２０００７ for にせんなな).
    #[arg(long, default_value_t = defaults().digit_join_penalty)]
    pub digit_join_penalty: f32,
    /// Nats charged in the hybrid to a digit twin (`1度`) whose kanji word (`一度`) has no
    /// digit prior.
    #[arg(long, default_value_t = defaults().twin_penalty)]
    pub twin_penalty: f32,
    /// The LM alone only: nats per unit of ln(LM id + 10) taken off each word's logit (a Zipf
    /// prior over the LM's frequency ranks; 0: off).
    #[arg(long, default_value_t = defaults().rank_prior, allow_hyphen_values = true)]
    pub rank_prior: f32,
    /// Nats charged for a word scored as another reading of its spelling (the model's lexicon
    /// entries mapped to LM words by spelling, `henkan model remap-lm-vocab`).
    #[arg(long, default_value_t = defaults().spelling_penalty, allow_hyphen_values = true)]
    pub spelling_penalty: f32,
    /// Weight of such a word's cost above its LM word's entry (nats per cost-scale units),
    /// charged on top of --spelling-penalty.
    #[arg(long, default_value_t = defaults().spelling_cost_weight, allow_hyphen_values = true)]
    pub spelling_cost_weight: f32,
    /// The LM alone only: weight of the model's backward LM when a conversion rescores the final
    /// beam (score + β · (backward − forward log-probability); 0: off).
    #[arg(long, default_value_t = defaults().backward_weight, allow_hyphen_values = true)]
    pub backward_weight: f32,
    /// The hybrid only: weight of the topical coherence of a conversion's words (the model's
    /// word vectors) when a conversion rescores the final beam (score + w · coherence; 0: off).
    #[arg(long, default_value_t = defaults().coherence_weight, allow_hyphen_values = true)]
    pub coherence_weight: f32,
    /// The hybrid only: weight of the coherence between homophones when a conversion rescores
    /// the final beam (a candidate that differs from the best only in words of the same
    /// reading spans, each with a word vector: `w · (its coherence − the best's)`; 0: off).
    #[arg(long, default_value_t = defaults().homophone_weight, allow_hyphen_values = true)]
    pub homophone_weight: f32,
    /// The hybrid only: weight of the noun–particle–verb collocations of a conversion's words
    /// (the model's n-gram) when a conversion rescores the final beam (0: off).
    #[arg(long, default_value_t = defaults().collocation_weight, allow_hyphen_values = true)]
    pub collocation_weight: f32,
    /// The hybrid only: weight of the selectional preferences (the model's centroids of the
    /// nouns each particle and predicate take) when a conversion rescores the final beam (a
    /// candidate over the best's reading spans: `w · Σ (its nouns' fit − the best's)`; 0: off).
    #[arg(long, default_value_t = defaults().selection_weight, allow_hyphen_values = true)]
    pub selection_weight: f32,
    /// The hybrid only: weight of the recent spellings (the last words committed: in `eval
    /// conversion`, the expected text of the sentences before) when a conversion rescores the
    /// final beam (a candidate that spells a span as a recent word where the best spells it
    /// otherwise: `w` per word; 0: off, each sentence alone).
    #[arg(long, default_value_t = defaults().recent_spelling_weight, allow_hyphen_values = true)]
    pub recent_spelling_weight: f32,
    /// How the softmax denominator is formed.
    #[arg(long, value_enum, default_value = "ivs")]
    pub softmax: SoftmaxKind,
    /// Weight of the model's word biases (the digit prior) in the hybrid (0: off).
    #[arg(long, default_value_t = defaults().bias_weight, allow_hyphen_values = true)]
    pub bias_weight: f32,
}

impl NeuralArgs {
    /// The decoder options these flags give.
    pub fn options(&self) -> NeuralOptions {
        NeuralOptions {
            beam: self.beam,
            frequent: self.frequent,
            softmax: self.softmax.into(),
            lambda: self.lambda,
            cost_scale: self.cost_scale,
            unk_base: self.unk_base,
            word_penalty: self.word_penalty,
            conn_weight: self.conn_weight,
            bias_weight: self.bias_weight,
            digit_join_penalty: self.digit_join_penalty,
            twin_penalty: self.twin_penalty,
            rank_prior: self.rank_prior,
            spelling_penalty: self.spelling_penalty,
            spelling_cost_weight: self.spelling_cost_weight,
            backward_weight: self.backward_weight,
            coherence_weight: self.coherence_weight,
            homophone_weight: self.homophone_weight,
            collocation_weight: self.collocation_weight,
            selection_weight: self.selection_weight,
            recent_spelling_weight: self.recent_spelling_weight,
        }
    }
}

/// A session of `engine` scoring with `scoring` and the decoder settings of `args`.
pub fn session_for(engine: &Engine, scoring: Scoring, args: &NeuralArgs) -> Result<Session> {
    let mut session = Session::new();
    if scoring.needs_lm() {
        if engine.neural.is_none() {
            bail!(
                "--engine {} needs a model with an LSTM (henkan model attach lstm)",
                scoring.name()
            );
        }
        session.set_scoring(scoring, args.options());
    }
    Ok(session)
}

/// The sentences a conversion command reads, the engine and how it reports (`eval conversion`,
/// `bench keystroke`).
#[derive(clap::Args, Debug)]
pub struct SentencesArgs {
    /// `reading<TAB>expected` lines, e.g. ../shared/data/dev/kwdlc.test.tsv.
    #[arg(long)]
    pub input: PathBuf,
    /// Default: hybrid when the model has an LSTM LM, else classic.
    #[arg(long, value_parser = engine_parser())]
    pub engine: Option<Scoring>,
    /// Print one JSON object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Only the first N sentences.
    #[arg(long)]
    pub limit: Option<usize>,
}

impl SentencesArgs {
    /// The sentences, and the engine (the model's default unless `--engine`).
    pub fn read(&self, engine: &Engine) -> Result<(Vec<(String, String)>, Scoring)> {
        Ok((
            read_pairs(&self.input, self.limit)?,
            engine_or_default(engine, self.engine),
        ))
    }
}

/// How converted numbers write their digits.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum Digits {
    /// Full-width (１２３).
    Full,
    /// Half-width (123), the IME's default, as Google Japanese Input.
    Half,
}

impl Digits {
    /// The engine's setting.
    pub fn width(self) -> henkan::lattice::DigitWidth {
        match self {
            Digits::Full => henkan::lattice::DigitWidth::Full,
            Digits::Half => henkan::lattice::DigitWidth::Half,
        }
    }
}

/// The model file: `--model`, else `$HENKAN_MODEL`, else `models/henkan.henkan` in the working
/// directory, else the repository's shipped model.
pub fn model_path(cli: &Option<PathBuf>) -> PathBuf {
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
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/henkan.henkan"
    ))
}

/// The engine of the model file ([`model_path`]).
pub fn load(cli: &Option<PathBuf>) -> Result<Engine> {
    let path = model_path(cli);
    let bytes = read_bytes(&path)?;
    Engine::from_bytes(bytes).with_context(|| path.display().to_string())
}

/// The bytes of a file, or an error that names it.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The text of a file, or an error that names it.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes a file, or fails with an error that names it.
pub fn write_file(path: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// `reading<TAB>expected` lines (comments `#` and blank lines skipped), at most `limit`.
pub fn read_pairs(path: &Path, limit: Option<usize>) -> Result<Vec<(String, String)>> {
    let text = read_text(path)?;
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

/// The value at fraction `p` of sorted values (nearest rank); 0 when there are none.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The model's LSTM LM, or an error saying the model has none.
pub fn neural_lm(engine: &Engine) -> Result<&henkan::lm::lstm::NeuralLm> {
    engine
        .neural
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("the model has no LSTM"))
}

/// Prints a result object: on one line with `--json` (what scripts read), else indented.
pub fn print_result(result: &serde_json::Value, json: bool) {
    if json {
        outln!("{result}");
    } else {
        outln!("{result:#}");
    }
}

/// Whether typed text is romaji (has a Latin letter) rather than kana.
pub fn is_romaji(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
}

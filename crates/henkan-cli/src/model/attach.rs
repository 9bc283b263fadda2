//! `henkan model attach …`, `remap-lm-vocab`, `mozc-rules`: sections added to (or replaced in)
//! a model, each through [`EditArgs::edit`].

use super::build::VocabMatchArgs;
use super::EditArgs;
use crate::args::{read_bytes, read_text};
use crate::eval::read_predict_bias;
use anyhow::{anyhow, bail, Context, Result};
use henkan::model::SectionKind;
use henkan::Engine;
use henkan_builder::lstm::{LstmWeights, PackOptions, Quant, VocabMatch};
use std::path::{Path, PathBuf};

/// What to attach.
#[derive(clap::Subcommand)]
pub enum AttachCommand {
    /// Adds (or replaces) the LSTM LM sections of a model file.
    Lstm(LstmArgs),
    /// Adds (or replaces) the backward LM of a model file (`LstmBackward` section): a
    /// right-to-left LSTM trained on the model LM's own embedding (docs/training.md), which
    /// the neural engine's conversions rescore their final beam with (--backward-weight).
    Backward(BackwardArgs),
    /// Adds (or replaces) the word vectors of a model file (`Coherence` section): the topical
    /// coherence that re-ranks the hybrid's final beam on conversion (--coherence-weight).
    /// DIR holds `training/coherence_vectors.py`'s output.
    Coherence(CoherenceArgs),
    /// Adds (or replaces) the selectional preferences of a model file (`Selection` section):
    /// centroids of the nouns each particle and predicate take
    /// (`training/selection_centroids.py`'s output), product-quantized in a codebook fitted to
    /// them, which the hybrid's conversions weigh homophones with (--selection-weight). The
    /// model needs its `Coherence` and `Ngram` sections.
    Selection(SelectionArgs),
    /// Adds (or replaces) the homophone metric of a model file (`HomophoneMetric` section): a
    /// learned inner product between the coherence's word vectors
    /// (`training/homophone_metric.py`'s output), which the coherence between homophones
    /// weighs with in place of the cosines (--homophone-weight). The model needs its
    /// `Coherence` section.
    HomophoneMetric(HomophoneMetricArgs),
    /// Adds (or replaces) the prediction-bias section of a model file (logit offsets per LM word
    /// for next-word prediction, `training/fit_predict_bias.py` output).
    PredictBias(PredictBiasArgs),
    /// Adds (or replaces) the word-bias section of a model file (`henkan model digit-bias`
    /// output).
    Bias(BiasArgs),
    /// Adds (or replaces) the emoji of a model file (`Emoji` section): emoji by reading from
    /// the Unicode CLDR Japanese annotations (`make emoji` fetches them).
    Emoji(EmojiArgs),
}

/// Runs `henkan model attach …`.
pub fn run(model: &Option<PathBuf>, what: AttachCommand) -> Result<()> {
    match what {
        AttachCommand::Lstm(a) => lstm(model, a),
        AttachCommand::Backward(a) => backward(model, a),
        AttachCommand::Coherence(a) => coherence(model, a),
        AttachCommand::Selection(a) => selection(model, a),
        AttachCommand::HomophoneMetric(a) => homophone_metric(model, a),
        AttachCommand::PredictBias(a) => predict_bias(model, a),
        AttachCommand::Bias(a) => bias(model, a),
        AttachCommand::Emoji(a) => emoji(model, a),
    }
}

/// The LSTM weights `DIR/lstm.safetensors` (training/export.py's output).
fn read_lstm_weights(dir: &Path) -> Result<LstmWeights> {
    let st = read_bytes(&dir.join("lstm.safetensors"))?;
    Ok(henkan_builder::lstm::read_safetensors(&st)?)
}

/// The text of the `classes.tsv` beside an LM's `vocab.tsv` (an LM with `<unk>` classes), if any.
fn classes_beside(vocab: &Path) -> Result<Option<String>> {
    let p = vocab.with_file_name("classes.tsv");
    Ok(if p.exists() {
        Some(read_text(&p)?)
    } else {
        None
    })
}

/// The model with the LSTM LM of `dir` (`lstm.safetensors` + `vocab.tsv`, and `classes.tsv` for an
/// LM with `<unk>` classes) packed in.
pub fn attach_lstm(
    model: Vec<u8>,
    dir: &Path,
    opts: PackOptions,
    how: VocabMatch,
) -> Result<Vec<u8>> {
    let w = read_lstm_weights(dir)?;
    let vocab = read_text(&dir.join("vocab.tsv"))?;
    let classes = classes_beside(&dir.join("vocab.tsv"))?;
    let (bytes, r) =
        henkan_builder::lstm::attach_lstm(model, &w, &vocab, classes.as_deref(), opts, how)?;
    eprintln!(
        "lstm: vocab {} hidden {} cells {} quantization {opts:?}: lstm section {} bytes, lm vocabulary {} bytes; {} of {} lexicon entries are LM words; {} LM words have no entry",
        w.vocab, w.hidden, w.cell, r.lstm_bytes, r.vocab_bytes, r.entries_in_vocab, r.entries, r.lm_words_unmapped
    );
    note_pos_groups(&r);
    Ok(bytes)
}

/// `henkan model attach lstm`.
#[derive(clap::Args)]
pub struct LstmArgs {
    /// Directory with lstm.safetensors + vocab.tsv.
    #[arg(long, default_value = "build/lm")]
    lstm: PathBuf,
    /// LM quantization: `B` bits per embedding weight (k-means codebook, 3..=8; 32 = f32),
    /// or `H:T@K` (the K most frequent words H bits, the others T bits); `,rN` stores the
    /// recurrent matrices as N-bit codebooks instead of int8. E.g. `4`, `4:3@8192,r4`.
    #[arg(long, default_value = "4")]
    lstm_bits: PackOptions,
    #[command(flatten)]
    vocab_match: VocabMatchArgs,
    /// Keep the model's stored embedding and replace only the recurrent matrices (stored as
    /// --lstm-bits says), their bias and the output bias: for an LM trained with the model's
    /// own embedding frozen (checked). The vocabulary map, the prediction bias and the
    /// backward LM stay.
    #[arg(long)]
    keep_embedding: bool,
    #[command(flatten)]
    edit: EditArgs,
}

fn lstm(model: &Option<PathBuf>, a: LstmArgs) -> Result<()> {
    a.edit.edit(model, |m| {
        if !a.keep_embedding {
            return attach_lstm(m, &a.lstm, a.lstm_bits, a.vocab_match.how.into());
        }
        let w = read_lstm_weights(&a.lstm)?;
        let (bytes, diff) = henkan_builder::lstm::replace_recurrent(m, &w, a.lstm_bits.recurrent)?;
        eprintln!(
            "lstm: recurrent part replaced ({:?}), embedding kept (differs by up to {diff})",
            a.lstm_bits.recurrent
        );
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach backward`.
#[derive(clap::Args)]
pub struct BackwardArgs {
    /// Directory with the backward LM's `lstm.safetensors` (`training/export.py`).
    #[arg(long)]
    lstm: PathBuf,
    /// Bits of the recurrent matrices' k-means codebooks (3–8; 32: f32).
    #[arg(long, default_value_t = 4)]
    bits: u32,
    /// Bits of the output bias's k-means codebook (3–8; 32: f32).
    #[arg(long, default_value_t = 8)]
    bias_bits: u32,
    #[command(flatten)]
    edit: EditArgs,
}

fn backward(model: &Option<PathBuf>, a: BackwardArgs) -> Result<()> {
    let quant = match a.bits {
        32 => Quant::F32,
        3..=8 => Quant::Codebook(a.bits),
        b => bail!("--bits {b}: 3 to 8, or 32"),
    };
    if !(3..=8).contains(&a.bias_bits) && a.bias_bits != 32 {
        bail!("--bias-bits {}: 3 to 8, or 32", a.bias_bits);
    }
    a.edit.edit(model, |m| {
        let w = read_lstm_weights(&a.lstm)?;
        let (bytes, report) = henkan_builder::lstm::attach_backward(m, &w, quant, a.bias_bits)?;
        eprintln!(
            "backward LM: {} bytes (recurrent {} bits, output bias {} bits), embedding max diff {}",
            report.bytes, a.bits, a.bias_bits, report.embedding_max_diff
        );
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach coherence`.
#[derive(clap::Args)]
pub struct CoherenceArgs {
    /// Directory with `vectors.f32` (rows of --dims f32, little endian) and `words.tsv`
    /// (`surface<TAB>row` per line).
    #[arg(long)]
    vectors: PathBuf,
    /// Floats per vector.
    #[arg(long, default_value_t = 64)]
    dims: usize,
    /// Bits per stored component: 8 or 4 (each row scaled to its largest component).
    #[arg(long, default_value_t = 8)]
    bits: u32,
    /// Store the rows by product quantization instead, in blocks of this many components
    /// (one byte per block: 8 bytes per 64-dimensional row with 8).
    #[arg(long)]
    pq: Option<usize>,
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
    /// Give an inflected verb or adjective entry (`勝っ`) the vector of its dictionary form
    /// (`勝つ`) when its own surface has none (needs --id-def; `henkan_builder::inflection`).
    #[arg(long)]
    inflected: bool,
    #[command(flatten)]
    edit: EditArgs,
}

fn coherence(model: &Option<PathBuf>, a: CoherenceArgs) -> Result<()> {
    let mut skip = Vec::new();
    let mut conjugations = None;
    if !a.skip_pos.is_empty() || a.inflected {
        let id_def = a
            .id_def
            .as_ref()
            .ok_or_else(|| anyhow!("--skip-pos and --inflected need --id-def"))?;
        let features = henkan_builder::mozc::parse_id_def(&read_text(id_def)?)?;
        skip = features
            .iter()
            .map(|f| a.skip_pos.iter().any(|p| f.starts_with(p.as_str())))
            .collect();
        if a.inflected {
            conjugations = Some(henkan_builder::inflection::Conjugations::from_features(
                &features,
            ));
        }
    }
    let keep = |left: u16, cost: i32| {
        cost <= a.max_cost && !skip.get(left as usize).copied().unwrap_or(false)
    };
    let floats = henkan_builder::read_f32_le(&read_bytes(&a.vectors.join("vectors.f32"))?);
    let dims = a.dims;
    if dims == 0 || floats.len() % dims != 0 {
        bail!("vectors.f32 is not rows of {dims} floats");
    }
    let words = read_text(&a.vectors.join("words.tsv"))?;
    let words = henkan_builder::coherence::parse_words(&words, floats.len() / dims)?;
    use henkan_builder::coherence::RowCoding;
    let coding = match (a.pq, a.bits) {
        (Some(sub), _) => RowCoding::Product { sub },
        (None, 8) => RowCoding::Int8,
        (None, 4) => RowCoding::Int4,
        (None, b) => bail!("--bits {b}: 8 or 4"),
    };
    a.edit.edit(model, |m| {
        let (bytes, r) = henkan_builder::coherence::attach_coherence(
            m,
            &henkan_builder::coherence::EntryWords {
                words: &words,
                conjugations: conjugations.as_ref(),
            },
            &floats,
            dims,
            coding,
            keep,
        )?;
        eprintln!(
            "coherence: {} entries ({} surfaces) → {} rows of {dims}, {} bytes",
            r.entries, r.surfaces, r.rows, r.bytes
        );
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach predict-bias`.
#[derive(clap::Args)]
pub struct PredictBiasArgs {
    /// Offsets (f32 LE, one per LM word).
    #[arg(long)]
    bias: PathBuf,
    /// Quantization step (nats).
    #[arg(long, default_value_t = 0.05)]
    step: f32,
    #[command(flatten)]
    edit: EditArgs,
}

fn predict_bias(model: &Option<PathBuf>, a: PredictBiasArgs) -> Result<()> {
    a.edit.edit(model, |m| {
        let vocab = Engine::from_bytes(m.clone())?
            .neural
            .ok_or_else(|| anyhow!("the model has no LSTM"))?
            .model
            .vocab;
        let offsets = read_predict_bias(&a.bias, vocab)?;
        let section = henkan_builder::predict_bias::predict_bias_section(&offsets, a.step);
        eprintln!(
            "prediction bias: {} offsets, step {}",
            offsets.len(),
            a.step
        );
        Ok(henkan_builder::replace_section(
            m,
            SectionKind::PredictBias,
            section,
        )?)
    })?;
    Ok(())
}

/// `henkan model attach bias`.
#[derive(clap::Args)]
pub struct BiasArgs {
    /// Biases (`entry<TAB>bias<TAB>name` lines, `henkan model digit-bias` output).
    #[arg(long)]
    bias: PathBuf,
    /// Quantization step (nats; default: the largest bias / 127, at least 0.01).
    #[arg(long)]
    step: Option<f32>,
    /// Leave out biases smaller than this in magnitude (nats).
    #[arg(long, default_value_t = 0.0)]
    min: f32,
    #[command(flatten)]
    edit: EditArgs,
}

fn bias(model: &Option<PathBuf>, a: BiasArgs) -> Result<()> {
    let mut b = henkan_builder::bias::read_tsv(&read_text(&a.bias)?)
        .with_context(|| a.bias.display().to_string())?;
    for (e, w) in b.entries() {
        if w.abs() < a.min {
            b.set(e, 0.0);
        }
    }
    a.edit.edit(model, |m| {
        let (bytes, len) = henkan_builder::bias::attach_bias(m, &b, a.step)?;
        eprintln!("word bias: {} entries, section {len} bytes", b.len());
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach selection`.
#[derive(clap::Args)]
pub struct SelectionArgs {
    /// The centroids (`training/selection_centroids.py --out`).
    #[arg(long)]
    centroids: PathBuf,
    #[command(flatten)]
    edit: EditArgs,
}

fn selection(model: &Option<PathBuf>, a: SelectionArgs) -> Result<()> {
    let tsv = read_text(&a.centroids)?;
    a.edit.edit(model, |m| {
        let (bytes, r) = henkan_builder::selection::attach_selection(m, &tsv)?;
        eprintln!(
            "selection: {} of {} centroids have an n-gram word for their predicate; {} bytes",
            r.kept, r.read, r.bytes
        );
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach homophone-metric`.
#[derive(clap::Args)]
pub struct HomophoneMetricArgs {
    /// The matrix (`training/homophone_metric.py --out`: dims × dims f32, little endian).
    #[arg(long)]
    matrix: PathBuf,
    #[command(flatten)]
    edit: EditArgs,
}

fn homophone_metric(model: &Option<PathBuf>, a: HomophoneMetricArgs) -> Result<()> {
    let matrix = read_bytes(&a.matrix)?;
    a.edit.edit(model, |m| {
        let (bytes, n) = henkan_builder::homophone_metric::attach_homophone_metric(m, &matrix)?;
        eprintln!("homophone metric: {n} bytes");
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model attach emoji`.
#[derive(clap::Args)]
pub struct EmojiArgs {
    /// The CLDR Japanese annotations: `annotations/ja/annotations.json` of the npm package
    /// `cldr-annotations-full`.
    #[arg(long)]
    annotations: PathBuf,
    /// Mozc's dictionary as `make mozc` writes it (`reading<TAB>left<TAB>right<TAB>cost<TAB>surface`
    /// lines): the readings of keywords written with kanji.
    #[arg(long, default_value = "build/mozc/lex.tsv")]
    lex: PathBuf,
    #[command(flatten)]
    edit: EditArgs,
}

fn emoji(model: &Option<PathBuf>, a: EmojiArgs) -> Result<()> {
    let lex = read_text(&a.lex)?;
    // surface → (cost, reading) of its cheapest entry
    let mut cheapest: std::collections::HashMap<&str, (i32, &str)> = Default::default();
    for line in lex.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(reading), Some(cost), Some(surface)) = (f.first(), f.get(3), f.get(4)) else {
            continue;
        };
        let Ok(cost) = cost.parse::<i32>() else {
            continue;
        };
        let e = cheapest.entry(surface).or_insert((cost, reading));
        if cost < e.0 {
            *e = (cost, reading);
        }
    }
    let reading_of = |w: &str| cheapest.get(w).map(|(_, r)| r.to_string());
    let json = read_text(&a.annotations)?;
    a.edit.edit(model, |m| {
        let (section, r) = henkan_builder::emoji::build_section(&json, &reading_of)?;
        eprintln!(
            "emoji: {} emoji, {} readings, {} pairs ({} keywords left out), section {} bytes",
            r.emoji,
            r.readings,
            r.pairs,
            r.skipped,
            section.len()
        );
        Ok(henkan_builder::replace_section(
            m,
            SectionKind::Emoji,
            section,
        )?)
    })?;
    Ok(())
}

/// `henkan model remap-lm-vocab`.
#[derive(clap::Args)]
pub struct RemapArgs {
    /// The LM's vocab.tsv (`id<TAB>surface/reading/left/right<TAB>count`); a `classes.tsv`
    /// beside it replaces the model's `<unk>` classes (else they stay).
    #[arg(long)]
    vocab: PathBuf,
    #[command(flatten)]
    vocab_match: VocabMatchArgs,
    #[command(flatten)]
    edit: EditArgs,
}

/// Runs `henkan model remap-lm-vocab`.
pub fn remap(model: &Option<PathBuf>, a: RemapArgs) -> Result<()> {
    let text = read_text(&a.vocab)?;
    let classes = classes_beside(&a.vocab)?;
    a.edit.edit(model, |m| {
        let (bytes, r) = henkan_builder::lstm::remap_lm_vocab(
            m,
            &text,
            classes.as_deref(),
            a.vocab_match.how.into(),
        )?;
        eprintln!(
            "lm vocabulary {} bytes: {} of {} lexicon entries are LM words; {} LM words have no entry",
            r.vocab_bytes, r.entries_in_vocab, r.entries, r.lm_words_unmapped
        );
        note_pos_groups(&r);
        Ok(bytes)
    })?;
    Ok(())
}

/// Says when the LM vocabulary was mapped without the segmenter's POS groups.
fn note_pos_groups(r: &henkan_builder::lstm::PackReport) {
    if !r.pos_groups {
        eprintln!(
            "note: the segmenter has no POS groups yet, so common nouns of kanji numerals (二十/はたち) \
             took the LM word of their spelling; run `model remap-lm-vocab` after `model mozc-rules`"
        );
    }
}

/// `henkan model add-readings`.
#[derive(clap::Args)]
pub struct ReadingsArgs {
    /// The readings: `reading<TAB>surface<TAB>the reading the model has it under` lines.
    #[arg(long, default_value = "training/readings.tsv")]
    readings: PathBuf,
    #[command(flatten)]
    edit: EditArgs,
}

/// Runs `henkan model add-readings`.
pub fn add_readings(model: &Option<PathBuf>, a: ReadingsArgs) -> Result<()> {
    let list = henkan_builder::readings::parse_readings(&read_text(&a.readings)?)?;
    a.edit.edit(model, |m| {
        let (bytes, r) = henkan_builder::readings::add_readings(m, &list)?;
        eprintln!(
            "readings: {} entries added; {} readings were in the model already",
            r.added, r.present
        );
        Ok(bytes)
    })?;
    Ok(())
}

/// `henkan model mozc-rules`.
#[derive(clap::Args)]
pub struct MozcRulesArgs {
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
    #[command(flatten)]
    edit: EditArgs,
}

/// Runs `henkan model mozc-rules`.
pub fn mozc_rules(model: &Option<PathBuf>, a: MozcRulesArgs) -> Result<()> {
    let id_def = read_text(&a.id_def)?;
    let boundary = read_text(&a.boundary_def)?;
    let pos_matcher = read_text(&a.pos_matcher_def)?;
    a.edit.edit(model, |m| {
        Ok(henkan_builder::mozc::add_mozc_rules(
            m,
            &id_def,
            &boundary,
            &pos_matcher,
            a.suffix,
        )?)
    })?;
    Ok(())
}

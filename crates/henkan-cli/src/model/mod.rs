//! `henkan model …`: building model files and reworking them section by section.
//!
//! Every command that changes a model reads it (`--in`, else `--model`), replaces or adds
//! sections, optionally recompresses them (`--compress`) and writes `--out`: that sequence
//! is [`EditArgs::edit`], shared by all of them.

mod attach;
mod build;
mod lm;

use crate::args::{model_path, read_bytes, write_file};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Model work.
// Parsed once per run: boxing the big variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(clap::Subcommand)]
pub enum ModelCommand {
    /// Build a model container from Mozc's dictionary (see `make model`).
    Build(build::BuildArgs),
    /// Builds the n-gram prediction LM from the analyzed corpus (see docs/prediction.md);
    /// writes the section to --out and, with --attach-out, adds it to a model.
    Ngram(build::NgramArgs),
    /// Rewrites a model with its sections zstd-compressed (`--compress L`) or stored.
    Repack(build::RepackArgs),
    /// Prints a model's section table: kind, encoding, stored and decoded bytes.
    Info(build::InfoArgs),
    /// Adds (or replaces) sections of a model.
    Attach {
        #[command(subcommand)]
        what: attach::AttachCommand,
    },
    /// Rebuilds only the map lexicon entry → LM word of a model with an LSTM LM (the LM, its
    /// biases and everything else stay as they are).
    RemapLmVocab(attach::RemapArgs),
    /// Adds readings to words of a finished model (`training/readings.tsv`): each word gets an
    /// entry under the new reading with the POS ids, cost, LM word, word vector and bias of its
    /// entries under the reading it has; every other entry keeps its offset, so every section
    /// stays valid. A reading the lexicon has already moves its whole list to the end of the
    /// postings, the sections keyed by entry following it; a word the lexicon has under the
    /// reading already is left as it is.
    AddReadings(attach::ReadingsArgs),
    /// Adds (or replaces) Mozc's rules in a model: the boundary penalties (`boundary.def`: a
    /// conversion that starts with a suffix or a particle pays more; with --suffix also one that
    /// ends on a stem) in its connection section, and the POS groups of Mozc's candidate filter
    /// (`pos_matcher_rule.def`) in its segmenter section.
    MozcRules(attach::MozcRulesArgs),
    /// The digit prior (`henkan_builder::digit_prior`): word biases for the hybrid against the
    /// kanji numeral words (一年, 十円) of counters that annotated text writes after digits,
    /// from that text; writes `entry<TAB>bias<TAB>surface/reading` lines for `attach bias`.
    DigitBias(lm::DigitBiasArgs),
    /// The kana-phrase prior (`henkan_builder::kana_prior`): word biases for the hybrid against
    /// Mozc's all-kana phrases (よろしくおねがいします) that analyzed text writes with kanji more
    /// often than not; writes `entry<TAB>bias<TAB>surface/reading kana/all` lines for `attach bias`.
    KanaBias(lm::KanaBiasArgs),
    /// Write the model's LSTM LM decoded to f32 (`DIR/lstm.safetensors` as training/export.py
    /// writes it): the starting point for training it further.
    ExportLstm(lm::ExportArgs),
    /// Write what fitting a prediction bias needs, to DIR: the LSTM state before every word of
    /// analyzed text (`states.f32`, hidden floats each; lines start at `<s>`), the words' LM ids
    /// (`targets.u32`), the decoded output embedding (`emb.f32`) and bias (`out_bias.f32`).
    DumpLmStates(lm::DumpArgs),
    /// Cut hand-annotated sentences (`surface/reading/POS` tokens, one sentence per line) into
    /// the LM's words along their gold path: the cheapest lattice path over the gold reading
    /// that spells the gold text. Writes one line of `surface/reading/left/right` word keys (as
    /// in VOCAB, `<unk>` outside it) per sentence; a sentence without such a path keeps the
    /// line of --fallback (the analyzer's) or is left out.
    AlignGold(lm::AlignArgs),
}

/// Runs `henkan model …`.
pub fn run(model: &Option<PathBuf>, command: ModelCommand) -> Result<()> {
    match command {
        ModelCommand::Build(a) => build::build(a),
        ModelCommand::Ngram(a) => build::ngram(model, a),
        ModelCommand::Repack(a) => build::repack(model, a),
        ModelCommand::Info(a) => build::info(model, a),
        ModelCommand::Attach { what } => attach::run(model, what),
        ModelCommand::RemapLmVocab(a) => attach::remap(model, a),
        ModelCommand::AddReadings(a) => attach::add_readings(model, a),
        ModelCommand::MozcRules(a) => attach::mozc_rules(model, a),
        ModelCommand::DigitBias(a) => lm::digit_bias(model, a),
        ModelCommand::KanaBias(a) => lm::kana_bias(model, a),
        ModelCommand::ExportLstm(a) => lm::export(model, a),
        ModelCommand::DumpLmStates(a) => lm::dump_states(model, a),
        ModelCommand::AlignGold(a) => lm::align_gold(model, a),
    }
}

/// The model a command rewrites, and where the result goes.
#[derive(clap::Args, Debug)]
pub struct EditArgs {
    /// The model to change (default: --model).
    #[arg(long = "in")]
    input: Option<PathBuf>,
    /// zstd level for the sections (1–22); none: stored.
    #[arg(long)]
    compress: Option<i32>,
    /// Output model file.
    #[arg(long)]
    out: PathBuf,
}

impl EditArgs {
    /// Reads the model, lets `change` rewrite its bytes, compresses the sections at
    /// `--compress` (the builder writes changed files stored), writes `--out` and says how
    /// big it is. Returns the bytes written.
    pub fn edit(
        &self,
        model: &Option<PathBuf>,
        change: impl FnOnce(Vec<u8>) -> Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        let path = self.input.clone().unwrap_or_else(|| model_path(model));
        let bytes = change(read_bytes(&path)?)?;
        let bytes = match self.compress {
            Some(level) => henkan_builder::repack(bytes, Some(level))?,
            None => bytes,
        };
        write_model_file(&self.out, &bytes)?;
        Ok(bytes)
    }
}

/// Writes a model file and says how big it is.
fn write_model_file(out: &Path, bytes: &[u8]) -> Result<()> {
    write_file(out, bytes)?;
    eprintln!("{}: {} bytes", out.display(), bytes.len());
    Ok(())
}

/// The section table, a line per section: kind, encoding, stored and decoded bytes.
fn section_lines(bytes: &[u8]) -> henkan::Result<Vec<String>> {
    Ok(henkan::model::read_table(bytes)?
        .into_iter()
        .map(|e| {
            format!(
                "{:<18} {:<8} {:>10} {:>10}",
                e.kind.map(|k| k.name()).unwrap_or("unknown"),
                format!("{:?}", e.encoding).to_lowercase(),
                e.length,
                e.decoded_length
            )
        })
        .collect())
}

/// Prints the section table to stderr, after a write.
fn print_sections(bytes: &[u8]) {
    for line in section_lines(bytes).unwrap_or_default() {
        eprintln!("  {line}");
    }
}

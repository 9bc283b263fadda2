//! `henkan model build | ngram | repack | info`: whole model files.

use super::{print_sections, section_lines, write_model_file, EditArgs};
use crate::args::{model_path, read_bytes, read_text, write_file};
use anyhow::{anyhow, Context, Result};
use henkan::lm::collocation::stem_of;
use henkan::lm::ngram::NgramWord;
use henkan::model::SectionKind;
use henkan::pos::{PosGroup, Segmenter};
use henkan_builder::lstm::{PackOptions, VocabMatch};
use henkan_builder::ngram::{NgramBuilder, NgramOptions};
use henkan_builder::{build_model, BuildOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `POS=COST` of `model build --pos-max-cost`.
fn parse_pos_max_cost(s: &str) -> Result<(String, i32), String> {
    let (pos, cost) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("{s}: want POS=COST"))?;
    let cost = cost
        .parse()
        .map_err(|_| format!("{s}: COST is not a number"))?;
    Ok((pos.to_string(), cost))
}

/// How a built model's lexicon entries find their LM word.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct VocabMatchArgs {
    /// How lexicon entries find their LM word: `spelling` also maps an entry whose own key is
    /// not an LM word to the most frequent LM word with its surface and POS ids (another
    /// reading); `exact` only by the whole key.
    #[arg(long = "vocab-match", value_name = "MATCH", value_enum, default_value_t = VocabMatchArg::Spelling)]
    pub how: VocabMatchArg,
}

/// How lexicon entries find their LM word ([`VocabMatch`]).
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq, Debug)]
pub enum VocabMatchArg {
    /// Only by the whole key surface/reading/left/right.
    Exact,
    /// By the whole key, else by surface and POS ids.
    Spelling,
}

impl From<VocabMatchArg> for VocabMatch {
    fn from(a: VocabMatchArg) -> Self {
        match a {
            VocabMatchArg::Exact => Self::Exact,
            VocabMatchArg::Spelling => Self::Spelling,
        }
    }
}

/// `henkan model build`.
#[derive(clap::Args)]
pub struct BuildArgs {
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
    lstm_bits: PackOptions,
    #[command(flatten)]
    vocab_match: VocabMatchArgs,
    /// Also add this n-gram section (from `henkan model ngram`).
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
}

/// Runs `henkan model build`.
pub fn build(a: BuildArgs) -> Result<()> {
    let keep = match &a.keep {
        None => None,
        Some(p) => Some(
            read_text(p)?
                .lines()
                .filter_map(|l| {
                    let f: Vec<&str> = l.split('\t').collect();
                    let n: u64 = f.get(4)?.parse().ok()?;
                    (n >= a.keep_min_count).then(|| f[..4].join("\t"))
                })
                .collect(),
        ),
    };
    let extra_sections = match &a.ngram {
        Some(p) => vec![(SectionKind::Ngram, read_bytes(p)?)],
        None => Vec::new(),
    };
    let opts = BuildOptions {
        max_cost: a.max_cost,
        pos_max_cost: a.pos_max_cost,
        max_per_reading: a.max_per_reading,
        max_reading_chars: a.max_reading_chars,
        conn_step: a.conn_step,
        conn_width: a.conn_width,
        conn_clusters: a.conn_clusters.map(|k| (k, k)),
        keep,
        extra_sections,
        digit_penalty: a.digit_penalty,
        name: a.name,
        prune_composable: a.prune_composable,
        cost_step: a.cost_step,
    };
    let (bytes, report) = build_model(
        &read_text(&a.lex)?,
        &read_bytes(&a.matrix)?,
        &read_text(&a.id_def)?,
        &read_text(&a.segmenter_def)?,
        &opts,
    )?;
    // The LM vocabulary maps lexicon entry offsets, known only once the lexicon is
    // built: the LM sections are added to the built container.
    let bytes = match &a.lstm {
        Some(dir) => super::attach::attach_lstm(bytes, dir, a.lstm_bits, a.vocab_match.how.into())?,
        None => bytes,
    };
    let bytes = match a.compress {
        Some(level) => henkan_builder::repack(bytes, Some(level))?,
        None => bytes,
    };
    if let Some(dir) = a.out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_file(&a.out, &bytes)?;
    eprintln!(
        "{}: {} of {} entries, {} readings, {} bytes ({} bytes in the file)",
        a.out.display(),
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
    Ok(())
}

/// `henkan model ngram`.
#[derive(clap::Args)]
pub struct NgramArgs {
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
    /// Minimum weighted count of a bigram (raised further while the section is over budget).
    #[arg(long, default_value_t = 2)]
    min_bigram: u32,
    /// Minimum weighted count of a trigram (raised further while the section is over budget).
    #[arg(long, default_value_t = 2)]
    min_trigram: u32,
    /// Drop trigrams that beat their backoff estimate by less than this many bits.
    #[arg(long)]
    prune_bits: Option<f32>,
    /// Keep every noun–particle–verb trigram seen at least this many times (weighted) whose
    /// verb has a homophone (another verb whose stem reads the same), whatever the budget: the
    /// collocations the hybrid's conversion reads ([`henkan::lm::collocation`]). The POS
    /// groups come from --model's segmenter. Off unless given.
    #[arg(long)]
    collocations_min: Option<u32>,
    /// Output section file.
    #[arg(long, default_value = "build/ngram/ngram.bin")]
    out: PathBuf,
    /// Also write the model given by --model (or this file) with the section added…
    #[arg(long)]
    attach: Option<PathBuf>,
    /// …to this file.
    #[arg(long)]
    attach_out: Option<PathBuf>,
}

/// Runs `henkan model ngram`.
pub fn ngram(model: &Option<PathBuf>, a: NgramArgs) -> Result<()> {
    let opts = NgramOptions {
        vocab: a.vocab,
        top_bigram: a.top_bigram,
        top_trigram: a.top_trigram,
        min_bigram: a.min_bigram,
        min_trigram: a.min_trigram,
        prune_bits: a.prune_bits.unwrap_or(f32::NEG_INFINITY),
        budget: (a.budget_mb * 1048576.0) as usize,
        min_kept: a.collocations_min.unwrap_or(u32::MAX),
        ..Default::default()
    };
    let segmenter = match a.collocations_min {
        Some(_) => Some(crate::args::load(model)?.segmenter),
        None => None,
    };
    build_ngram(&a.corpus, &a.files, &opts, segmenter.as_ref(), &a.out)?;
    if let Some(model_out) = &a.attach_out {
        let path = a.attach.clone().unwrap_or_else(|| model_path(model));
        let bytes = henkan_builder::ngram::attach_ngram(read_bytes(&path)?, read_bytes(&a.out)?)?;
        let keyed = henkan::model::read_table(&bytes)?
            .iter()
            .any(|e| e.kind == Some(SectionKind::Selection));
        if keyed {
            eprintln!(
                "note: the model's selectional preferences are keyed by the former n-gram's words; \
                 attach them again (`model attach selection`, `make selection`)"
            );
        }
        write_model_file(model_out, &bytes)?;
    }
    Ok(())
}

fn build_ngram(
    corpus: &Path,
    files: &str,
    opts: &NgramOptions,
    segmenter: Option<&Segmenter>,
    out: &Path,
) -> Result<()> {
    let mut list = Vec::new();
    for f in files.split(',').filter(|f| !f.is_empty()) {
        let (name, w) = f.split_once(':').unwrap_or((f, "1"));
        let w: u32 = w.parse().map_err(|_| anyhow!("bad weight in {f}"))?;
        list.push((corpus.join(format!("{name}.txt")), w));
    }
    let t0 = Instant::now();
    let mut b = NgramBuilder::new();
    for (p, w) in &list {
        b.count_words(&read_text(p)?, *w);
        eprintln!(
            "words: {} ({:.0}s)",
            p.display(),
            t0.elapsed().as_secs_f64()
        );
    }
    b.freeze_vocab(opts.vocab);
    for (p, w) in &list {
        b.count_ngrams(&read_text(p)?, *w);
        eprintln!(
            "n-grams: {} ({:.0}s)",
            p.display(),
            t0.elapsed().as_secs_f64()
        );
    }
    let (bytes, r) = match segmenter {
        Some(seg) => {
            let classes = collocation_classes(&b.words(), seg);
            b.finish_keeping(opts, |u, v, w| {
                classes[u as usize] == Role::Noun
                    && classes[v as usize] == Role::Particle
                    && classes[w as usize] == Role::Verb
            })?
        }
        None => b.finish(opts)?,
    };
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_file(out, &bytes)?;
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

/// `henkan model repack`.
#[derive(clap::Args)]
pub struct RepackArgs {
    #[command(flatten)]
    edit: EditArgs,
}

/// Runs `henkan model repack`: every section stored, then compressed at `--compress`.
pub fn repack(model: &Option<PathBuf>, a: RepackArgs) -> Result<()> {
    let bytes = a
        .edit
        .edit(model, |m| Ok(henkan_builder::repack(m, None)?))?;
    print_sections(&bytes);
    Ok(())
}

/// `henkan model info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// The model (default: --model).
    #[arg(long = "in")]
    input: Option<PathBuf>,
}

/// Runs `henkan model info`: the file's size and its section table.
pub fn info(model: &Option<PathBuf>, a: InfoArgs) -> Result<()> {
    let path = a.input.unwrap_or_else(|| model_path(model));
    let bytes = read_bytes(&path)?;
    let lines = section_lines(&bytes).with_context(|| path.display().to_string())?;
    outln!(
        "{}: {} bytes, {} sections",
        path.display(),
        bytes.len(),
        lines.len()
    );
    outln!("kind               encoding     stored    decoded");
    for line in lines {
        outln!("{line}");
    }
    Ok(())
}

/// A vocabulary word's place in a noun–particle–verb collocation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Noun,
    Particle,
    /// A verb with a homophone in the vocabulary.
    Verb,
    Other,
}

/// The [`Role`] of each word (ids as [`NgramBuilder::words`] lists them): content nouns,
/// the particles a segment may begin with after a noun (and `を`), and the verbs whose stem
/// ([`henkan::lm::collocation::stem_of`]) reads as another verb's does (`履`/`吐` for `は`),
/// the ones whose spelling the collocations choose.
fn collocation_classes(words: &[Option<NgramWord<'_>>], seg: &Segmenter) -> Vec<Role> {
    use std::collections::{HashMap, HashSet};
    let is_verb = |w: &NgramWord<'_>| seg.in_group(w.left_id, PosGroup::WeakCompoundVerbSuffix);
    let mut stems: HashMap<&str, HashSet<&str>> = HashMap::new();
    for w in words.iter().flatten().filter(|w| is_verb(w)) {
        let (stem, reading) = stem_of(w.surface, w.reading);
        stems.entry(reading).or_default().insert(stem);
    }
    words
        .iter()
        .map(|w| match w {
            Some(w) if seg.in_group(w.left_id, PosGroup::ContentNoun) => Role::Noun,
            Some(w)
                if seg.in_group(w.left_id, PosGroup::AcceptableParticleAtBeginOfSegment)
                    || w.surface == "を" =>
            {
                Role::Particle
            }
            Some(w)
                if is_verb(w)
                    && stems
                        .get(stem_of(w.surface, w.reading).1)
                        .is_some_and(|s| s.len() > 1) =>
            {
                Role::Verb
            }
            _ => Role::Other,
        })
        .collect()
}

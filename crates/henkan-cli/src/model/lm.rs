//! `henkan model digit-bias | export-lstm | dump-lm-states | align-gold`: what the training
//! pipeline reads out of a model.

use super::write_model_file;
use crate::args::{load, model_path, neural_lm, read_text, write_file};
use anyhow::{bail, Context, Result};
use henkan_builder::gold::{parse_tokens, unknown_word_cost, CommittedContext, GoldAligner};
use std::path::PathBuf;

/// `henkan model digit-bias`.
#[derive(clap::Args)]
pub struct DigitBiasArgs {
    /// Annotated sentences (`surface/reading/POS` tokens, one sentence per line), e.g. the
    /// KWDLC and WAC training sets.
    #[arg(long, num_args = 1.., required = true)]
    corpus: Vec<PathBuf>,
    /// Nats per unit of ln((k + 1) / (d + 1)) (tuned on kwdlc.test and wac.dev: 1, 2 and 3
    /// within two sentences of each other).
    #[arg(long, default_value_t = 1.0)]
    weight: f32,
    /// Analyzed modern text (`surface/…` tokens, one sentence per line) in which to count the
    /// charged words whole: a word written there with kanji numerals at least --min-word-count
    /// times and more than 1.5 times as often as with digits (`一時停止`, `一時`) gets no prior.
    #[arg(long, num_args = 1..)]
    word_corpus: Vec<PathBuf>,
    /// See --word-corpus.
    #[arg(long, default_value_t = 10)]
    min_word_count: u32,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `henkan model digit-bias`.
pub fn digit_bias(model: &Option<PathBuf>, a: DigitBiasArgs) -> Result<()> {
    use henkan_builder::digit_prior::{charged_words, digit_bias, DigitCounts, WordCounts};
    use std::io::BufRead;
    let engine = load(model)?;
    let mut counts = DigitCounts::new();
    for path in &a.corpus {
        for line in read_text(path)?.lines() {
            counts.add_tokens(line);
        }
    }
    let words = if a.word_corpus.is_empty() {
        None
    } else {
        let mut words = WordCounts::new(charged_words(&engine.lexicon, &counts));
        for path in &a.word_corpus {
            let file =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            for line in std::io::BufReader::new(file).lines() {
                words.add_tokens(&line.with_context(|| format!("reading {}", path.display()))?);
            }
        }
        Some(words)
    };
    let (bias, names) = digit_bias(
        &engine.lexicon,
        &counts,
        words.as_ref(),
        a.min_word_count,
        a.weight,
    );
    eprintln!("digit prior: {} entries", bias.len());
    write_file(&a.out, henkan_builder::bias::write_tsv(&bias, &names))
}

/// `henkan model kana-bias`.
#[derive(clap::Args)]
pub struct KanaBiasArgs {
    /// Analyzed text (`surface/reading/left/right` or `surface/reading/POS` tokens, one
    /// sentence per line), e.g. the training corpora after `make corpus-tok`.
    #[arg(long, num_args = 1.., required = true)]
    corpus: Vec<PathBuf>,
    /// Nats per unit of ln(2 · (k + 1) / (n + 2)).
    #[arg(long, default_value_t = 1.0)]
    weight: f32,
    /// Runs of tokens a phrase's reading needs in the text before it gets a bias (fewer phrases
    /// keep the model within its size budget; the phrases people type most are seen thousands of
    /// times).
    #[arg(long, default_value_t = 100)]
    min_count: u32,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `henkan model kana-bias`.
pub fn kana_bias(model: &Option<PathBuf>, a: KanaBiasArgs) -> Result<()> {
    use henkan_builder::kana_prior::{kana_bias, kana_phrases, KanaCounts};
    use std::io::BufRead;
    let engine = load(model)?;
    let phrases = kana_phrases(&engine.lexicon);
    let mut counts = KanaCounts::new(phrases.iter().map(|(r, _)| r.clone()));
    for path in &a.corpus {
        let file =
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        for line in std::io::BufReader::new(file).lines() {
            counts.add_tokens(&line.with_context(|| format!("reading {}", path.display()))?);
        }
    }
    let (bias, names) = kana_bias(&phrases, &counts, a.weight, a.min_count);
    eprintln!(
        "kana-phrase prior: {} of {} phrases",
        bias.len(),
        phrases.len()
    );
    write_file(&a.out, henkan_builder::bias::write_tsv(&bias, &names))
}

/// `henkan model export-lstm`.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `henkan model export-lstm`.
pub fn export(model: &Option<PathBuf>, a: ExportArgs) -> Result<()> {
    let engine = load(model)?;
    let lm = neural_lm(&engine)?;
    let m = &lm.model;
    let w = henkan_builder::lstm::LstmWeights::from_model(m);
    let source = model_path(model).display().to_string();
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
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    write_model_file(&a.out.join("lstm.safetensors"), &bytes)
}

/// `henkan model dump-lm-states`.
#[derive(clap::Args)]
pub struct DumpArgs {
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
}

/// Runs `henkan model dump-lm-states`.
pub fn dump_states(model: &Option<PathBuf>, a: DumpArgs) -> Result<()> {
    use henkan::predict::neural::{lm_word, LstmState};
    let engine = load(model)?;
    let mut context = CommittedContext::new(1);
    let lm = neural_lm(&engine)?;
    let text = read_text(&a.tokens)?;
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
        .step_by(a.every.max(1))
        .take(a.limit.unwrap_or(usize::MAX))
    {
        let mut st = LstmState::new(lm);
        if a.gold {
            let Some(s) = parse_tokens(line) else {
                continue;
            };
            context.commit(&engine, &s.reading, &s.text);
            // [<s>, words…]: the words, then <s> (the sentence end)
            let words = context.words();
            for &id in words[1..].iter().chain(std::iter::once(&lm.model.bos_id)) {
                push(&mut st, id);
            }
            continue;
        }
        for w in henkan_builder::token::parse_line(line) {
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
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    for (name, bytes) in [
        ("states.f32", &states),
        ("targets.u32", &targets),
        ("emb.f32", &emb),
        ("out_bias.f32", &bias),
    ] {
        write_file(&a.out.join(name), bytes)?;
    }
    eprintln!(
        "{n} words, hidden {}, vocab {} -> {}",
        m.hidden,
        m.vocab,
        a.out.display()
    );
    Ok(())
}

/// `henkan model align-gold`.
#[derive(clap::Args)]
pub struct AlignArgs {
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
}

/// Runs `henkan model align-gold`.
pub fn align_gold(model: &Option<PathBuf>, a: AlignArgs) -> Result<()> {
    let engine = load(model)?;
    let lm = neural_lm(&engine)?;
    let table = henkan_builder::lstm::read_vocab_tsv(&read_text(&a.vocab)?)?;
    if table.len != lm.model.vocab {
        bail!(
            "{}: {} words, the model's LM has {}",
            a.vocab.display(),
            table.len,
            lm.model.vocab
        );
    }
    // id → key (ids the table does not name, if any, read as <unk>)
    let mut keys = vec!["<unk>"; table.len];
    for (key, &id) in &table.ids {
        keys[id as usize] = key.as_str();
    }
    keys[table.bos_id as usize] = "<s>";
    let word_of = |n: &henkan::lattice::Node| {
        henkan::decoder::neural::NeuralDecoder::word_of(lm, n.entry, n.left_id)
    };
    let gold = read_text(&a.input)?;
    let fallback = a.fallback.as_deref().map(read_text).transpose()?;
    let mut fallback_lines = fallback.as_deref().map(str::lines);
    let mut aligner = GoldAligner::new();
    let mut text = String::new();
    let mut missed = String::new();
    let (mut aligned, mut kept, mut dropped, mut changed) = (0usize, 0usize, 0usize, 0usize);
    for line in gold.lines() {
        let fb = fallback_lines.as_mut().and_then(|l| l.next());
        let sentence = parse_tokens(line);
        let (reading, surface) = sentence
            .as_ref()
            .map_or(("", ""), |s| (s.reading.as_str(), s.text.as_str()));
        let path = if sentence.is_some() {
            // words outside the LM's vocabulary cost more: where the gold text can be spelled
            // with known words, the LM learns those
            aligner.align(&engine, reading, surface, |n| unknown_word_cost(lm, n))
        } else {
            None
        };
        let words = match path {
            Some(path) => {
                aligned += 1;
                let nodes = aligner.lattice().nodes();
                let ws: Vec<&str> = path
                    .iter()
                    .map(|&i| keys[word_of(&nodes[i as usize]) as usize])
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
    write_file(&a.out, text)?;
    if let Some(m) = &a.misses {
        write_file(m, missed)?;
    }
    eprintln!(
        "{}: {aligned} sentences on their gold path ({changed} cut otherwise than by the analyzer), \
         {kept} kept from the fallback, {dropped} left out",
        a.out.display()
    );
    Ok(())
}

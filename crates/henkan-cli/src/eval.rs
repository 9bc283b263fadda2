//! `henkan eval`: conversion accuracy, prediction rates, LM perplexity.

use crate::args::{
    engine_parser, load, neural_lm, percentile, print_result, read_bytes, read_text, session_for,
    Digits, NeuralArgs, SentencesArgs,
};
use crate::predict::load_ngram;
use crate::spelling_choice;
use anyhow::{bail, Context, Result};
use henkan::options::Scoring;
use henkan::predict::eval::{Predictor, SavesKeys, Word};
use henkan::predict::suggest;
use henkan::{Engine, Session};
use henkan_builder::gold::CommittedContext;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to evaluate.
#[derive(clap::Subcommand)]
pub enum EvalCommand {
    /// Whole-sentence conversion accuracy over `reading<TAB>expected` lines.
    Conversion(ConversionArgs),
    /// Next-word prediction and completion over analyzed text: nwp top-1/top-3, keystroke
    /// saving rate, latency (see docs/prediction.md for the simulation).
    Prediction(PredictionArgs),
    /// Perplexity of the model's LSTM (full softmax) over a token file of int32 LM ids
    /// (`build/lm/dev_*.bin`, `<s>` before every sentence).
    Perplexity(PerplexityArgs),
    /// Reverse conversion (the reading reconversion gives written text) over
    /// `reading<TAB>text` lines: the share of texts read exactly as annotated, and of their
    /// characters (LCS).
    Reverse(ReverseArgs),
}

/// Runs `henkan eval …`.
pub fn run(model: &Option<PathBuf>, what: EvalCommand) -> Result<()> {
    match what {
        EvalCommand::Conversion(a) => conversion(model, a),
        EvalCommand::Prediction(a) => prediction(model, a),
        EvalCommand::Perplexity(a) => perplexity(model, a),
        EvalCommand::Reverse(a) => reverse(model, a),
    }
}

/// `henkan eval conversion`.
#[derive(clap::Args)]
pub struct ConversionArgs {
    #[command(flatten)]
    sentences: SentencesArgs,
    /// Print each wrong conversion.
    #[arg(long)]
    errors: bool,
    /// How digits of converted numbers are written (kwdlc.test writes them full width: use
    /// `--digits full` there).
    #[arg(long, value_enum, default_value = "half")]
    digits: Digits,
    /// Start each sentence's LSTM from the state after the expected text of the N lines
    /// before it (the text a user has committed just before, e.g. earlier sentences of the
    /// same document; the paper's context vector). 0: every sentence starts afresh.
    #[arg(long, default_value_t = 0)]
    context_lines: usize,
    /// The input is phrases typed and committed one by one, as the IME converts them
    /// (`reading<TAB>expected<TAB>+` goes on with the sentence of the line before): each
    /// phrase's conversion continues after the expected text of its sentence's phrases before
    /// it ([`henkan::Session::continue_sentence`]); a line without `+` begins a sentence.
    #[arg(long)]
    phrases: bool,
    /// Learn as a user of the IME does, in file order: convert the sentence, compare the
    /// result with the expected text, correct the words that are wrong and commit
    /// (`Session::learn_commit`): the expected text and the result are cut into lattice
    /// words, and the expected words the result did not have over the same reading go into
    /// the session's user history (`henkan::history`); words the result had right are only
    /// kept fresh. The sentence is scored before it is learned. Every engine.
    #[arg(long)]
    learn: bool,
    /// Readings the history keeps (with --learn; the oldest learned is forgotten first).
    #[arg(long, default_value_t = henkan::history::CAPACITY)]
    learn_capacity: usize,
    /// Also convert every sentence with this engine (afresh, same options) and report the
    /// paired comparison: sentences only one of the two gets right, the difference in
    /// exact top-1 and its standard error (points).
    #[arg(long, value_parser = engine_parser())]
    versus: Option<Scoring>,
    /// Compare with another model file: every sentence is also converted by this model (with
    /// the --versus engine, else the same engine; same options) and the paired comparison is
    /// reported as with --versus. How a changed LM, dictionary or section is judged against
    /// the shipped model.
    #[arg(long)]
    versus_model: Option<PathBuf>,
    /// The same sentences as gold words, `surface/reading/POS` per word and one line per
    /// sentence (e.g. ../shared/data/dev/kwdlc.test.tok): also report where the expected text
    /// of each segment of the first conversion stands among that segment's candidates, for
    /// the segments whose reading starts and ends at gold word boundaries.
    #[arg(long)]
    candidates: Option<PathBuf>,
    /// The same sentences as gold words (as for --candidates): where the first segment of a
    /// conversion does not end where the annotated first phrase does (the words up to the
    /// first content word after a particle), resize it there as a user does with Shift+←/→
    /// (`Session::convert_reading_with_fixed`) and score the resized conversion. Reports how
    /// many sentences were resized, how many of those come out right, and the resize's time
    /// (the conversion with the fixed segment alone).
    #[arg(long)]
    resize: Option<PathBuf>,
    #[command(flatten)]
    neural: NeuralArgs,
}

/// The reading length (characters) of the first phrase of a sentence's gold words
/// (`surface/reading/POS` separated by spaces): the words up to the first content word after a
/// particle, as `training/prefix_set.py --cut phrase` cuts. `None` when the words do not spell
/// `reading` or the sentence has no such phrase end.
fn first_phrase_len(words: &str, reading: &str) -> Option<usize> {
    const NOT_CONTENT: [&str; 4] = ["助詞", "接尾辞", "特殊", "助動詞"];
    let words: Vec<Vec<&str>> = words.split(' ').map(|w| w.split('/').collect()).collect();
    if words.iter().any(|w| w.len() < 3)
        || words.iter().map(|w| w[1]).collect::<String>() != reading
    {
        return None;
    }
    let k = (1..words.len()).find(|&k| {
        words[k - 1][2].starts_with("助詞")
            && !NOT_CONTENT.contains(&words[k][2].split('-').next().unwrap_or(""))
    })?;
    Some(words[..k].iter().map(|w| w[1].chars().count()).sum())
}

/// `conv` of `reading`, or the conversion with its first segment resized to `len` characters
/// where it has another length (`--resize`); whether it was resized.
fn resized(
    session: &mut Session,
    engine: &Engine,
    reading: &str,
    conv: henkan::Conversion,
    len: Option<usize>,
) -> (henkan::Conversion, bool) {
    match len {
        Some(len) if conv.segments.first().is_some_and(|s| s.len != len) => (
            session.convert_reading_with_fixed(engine, reading, &[len]),
            true,
        ),
        _ => (conv, false),
    }
}

/// Where the expected text of a segment stands among its candidates (`--candidates`).
#[derive(Default)]
struct CandidateRanks {
    /// Segments that start and end at gold word boundaries.
    aligned: usize,
    /// Their ranks (1 = first candidate) where the expected text is a candidate.
    ranks: Vec<usize>,
    /// Candidates per segment, all segments.
    listed: usize,
    segments: usize,
}

impl CandidateRanks {
    /// Adds the segments of `conv`, whose reading is cut into the gold words of `gold` (a
    /// `.tok` line); a sentence whose gold readings do not spell its reading is skipped.
    fn add(&mut self, conv: &henkan::Conversion, gold: &str) {
        let mut words = Vec::new();
        let mut at = 0;
        for w in gold.split_whitespace() {
            let mut f = w.split('/');
            let (surface, reading) = (f.next().unwrap_or(""), f.next().unwrap_or(""));
            let len = reading.chars().count();
            words.push((at, at + len, surface));
            at += len;
        }
        let spelled: String = conv.segments.iter().map(|s| s.reading.as_str()).collect();
        if spelled.chars().count() != at {
            return;
        }
        for seg in &conv.segments {
            self.segments += 1;
            self.listed += seg.candidates.len();
            let (a, e) = (seg.start, seg.start + seg.len);
            let (Some(i), Some(j)) = (
                words.iter().position(|w| w.0 == a),
                words.iter().position(|w| w.1 == e),
            ) else {
                continue;
            };
            self.aligned += 1;
            let want: String = words[i..=j].iter().map(|w| w.2).collect();
            if let Some(k) = seg.candidates.iter().position(|c| *c == want) {
                self.ranks.push(k + 1);
            }
        }
    }

    fn json(&self) -> serde_json::Value {
        let n = self.aligned.max(1) as f64;
        let within = |k: usize| self.ranks.iter().filter(|&&r| r <= k).count() as f64 / n;
        serde_json::json!({
            "aligned_segments": self.aligned,
            "found": self.ranks.len() as f64 / n,
            "first": within(1),
            "within_2": within(2),
            "within_3": within(3),
            "first_page": within(henkan::ime::PAGE_SIZE),
            // the mean reciprocal rank over the aligned segments (0 where not found)
            "mrr": self.ranks.iter().map(|&r| 1.0 / r as f64).sum::<f64>() / n,
            "mean_rank_found": self.ranks.iter().sum::<usize>() as f64 / self.ranks.len().max(1) as f64,
            "mean_candidates": self.listed as f64 / self.segments.max(1) as f64,
        })
    }
}

fn conversion(model: &Option<PathBuf>, a: ConversionArgs) -> Result<()> {
    let engine = load(model)?;
    let (pairs, kind) = a.sentences.read(&engine)?;
    let json = a.sentences.json;
    let mut session = session_for(&engine, kind, &a.neural)?;
    session.set_digit_width(a.digits.width());
    let (mut top1, mut top10, mut same_words) = (0usize, 0usize, 0usize);
    let (mut sum_lcs, mut sum_got, mut sum_exp) = (0usize, 0usize, 0usize);
    let mut times = Vec::with_capacity(pairs.len());
    let mut context = CommittedContext::new(a.context_lines);
    let continues: Vec<bool> = if a.phrases {
        read_text(&a.sentences.input)?
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split('\t').nth(2) == Some("+"))
            .collect()
    } else {
        Vec::new()
    };
    session.set_history(henkan::history::History::new(a.learn_capacity));
    let mut learned_sentences = 0usize;
    let digit_width = session.lattice().digits;
    let versus_engine = a
        .versus_model
        .as_ref()
        .map(|p| load(&Some(p.clone())))
        .transpose()?;
    let other_engine = versus_engine.as_ref().unwrap_or(&engine);
    let versus_kind = a.versus.or(a.versus_model.as_ref().map(|_| kind));
    let mut other = versus_kind
        .map(|k| {
            session_for(other_engine, k, &a.neural).map(|mut s| {
                s.set_digit_width(digit_width);
                (k, s)
            })
        })
        .transpose()?;
    let with_context = a.context_lines > 0 && kind != Scoring::Classic;
    let mut paired = Paired::default();
    let mut paired_words = Paired::default();
    let gold = a.candidates.as_deref().map(read_text).transpose()?;
    let mut gold_lines = gold.as_deref().map(|t| t.lines());
    let mut ranks = CandidateRanks::default();
    let resize = a.resize.as_deref().map(read_text).transpose()?;
    let mut resize_lines = resize.as_deref().map(|t| t.lines());
    let (mut resized_n, mut resized_right) = (0usize, 0usize);
    let mut resize_times = Vec::new();
    for (i, (reading, expected)) in pairs.iter().enumerate() {
        let goes_on = continues.get(i).copied().unwrap_or(false);
        let phrase = resize_lines
            .as_mut()
            .and_then(|l| l.next())
            .and_then(|w| first_phrase_len(w, reading));
        if with_context {
            session.set_context_words(&engine, &context.words());
        } else if a.phrases && !goes_on {
            session.end_sentence();
        }
        session.clear();
        let t0 = Instant::now();
        let conv = session.convert_reading(&engine, reading);
        let t1 = Instant::now();
        let (conv, was_resized) = resized(&mut session, &engine, reading, conv, phrase);
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        if was_resized {
            resize_times.push(t1.elapsed().as_secs_f64() * 1000.0);
            resized_n += 1;
            resized_right += usize::from(conv.text() == *expected);
        }
        if let Some(line) = gold_lines.as_mut().and_then(|l| l.next()) {
            ranks.add(&conv, line);
        }
        let got = conv.text();
        let words_right = spelling_choice::same_words(expected, &got);
        same_words += usize::from(words_right);
        if got == *expected {
            top1 += 1;
        } else if a.errors {
            outln!("{reading}\n  want {expected}\n  got  {got}");
        }
        if conv.nbest.iter().any(|s| s == expected) {
            top10 += 1;
        }
        if let Some((_, o)) = other.as_mut() {
            o.clear();
            let conv = o.convert_reading(other_engine, reading);
            let text = resized(o, other_engine, reading, conv, phrase).0.text();
            paired.add(got == *expected, text == *expected);
            paired_words.add(words_right, spelling_choice::same_words(expected, &text));
            o.remember_spellings(other_engine, &[(reading, expected)]);
        }
        // the sentence is committed as expected, as the user would after correcting it
        session.remember_spellings(&engine, &[(reading, expected)]);
        if a.phrases {
            // over the phrase's lattice, as the IME commits it
            session.continue_sentence(&engine, &[(reading, expected)]);
        }
        if with_context {
            context.commit(&engine, reading, expected);
        }
        if a.learn && session.learn_commit(&engine, &[(reading, expected)], &[(reading, &got)]) > 0
        {
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
    let lm = engine.neural.as_ref();
    let rounded = |v: f32| (f64::from(v) * 1e4).round() / 1e4;
    let neural = &a.neural;
    let mut result = serde_json::json!({
        "engine": kind.name(),
        "lambda": if kind == Scoring::Hybrid { neural.lambda } else { 0.0 },
        "rank_prior": if kind == Scoring::Neural { rounded(neural.rank_prior) } else { 0.0 },
        "backward_weight": if kind == Scoring::Neural && lm.is_some_and(|l| l.backward.is_some()) { rounded(neural.backward_weight) } else { 0.0 },
        "coherence_weight": if kind == Scoring::Hybrid && lm.is_some_and(|l| l.coherence.is_some()) { rounded(neural.coherence_weight) } else { 0.0 },
        "homophone_weight": if kind == Scoring::Hybrid && lm.is_some_and(|l| l.coherence.is_some()) { rounded(neural.homophone_weight) } else { 0.0 },
        "recent_spelling_weight": if kind == Scoring::Hybrid { rounded(neural.recent_spelling_weight) } else { 0.0 },
        "collocation_weight": if kind == Scoring::Hybrid && engine.ngram.is_some() { rounded(neural.collocation_weight) } else { 0.0 },
        "selection_weight": if kind == Scoring::Hybrid && lm.is_some_and(|l| l.selection.is_some()) { rounded(neural.selection_weight) } else { 0.0 },
        "beam": neural.beam,
        "digits": format!("{:?}", a.digits).to_lowercase(),
        "context_lines": a.context_lines,
        "learn": a.learn,
        "learn_capacity": if a.learn { a.learn_capacity } else { 0 },
        "learned_sentences": learned_sentences,
        "learned_readings": session.history().len(),
        "sentences": pairs.len(),
        "exact_top1": top1 as f64 / n,
        "exact_top10": top10 as f64 / n,
        "same_words_top1": same_words as f64 / n,
        "char_f1": f1,
        "mean_ms": mean,
        "p95_ms": percentile(&times, 0.95),
    });
    if let Some((k, _)) = other {
        result["versus"] = serde_json::json!({
            "engine": k.name(),
            "model": a.versus_model.as_ref().map(|p| p.display().to_string()),
            "exact_top1": paired.theirs() as f64 / n,
            "only_this": paired.only_this,
            "only_other": paired.only_other,
            "diff_points": paired.diff_points(),
            "se_points": paired.se_points(),
            "same_words": {
                "top1": paired_words.theirs() as f64 / n,
                "only_this": paired_words.only_this,
                "only_other": paired_words.only_other,
                "diff_points": paired_words.diff_points(),
                "se_points": paired_words.se_points(),
            },
        });
        if !json {
            outln!(
                "versus {}{}: exact top-1 {:.2}%; right only here {}, only there {}; difference {:+.2} ± {:.2} points (standard error)",
                k.name(),
                a.versus_model
                    .as_ref()
                    .map(|p| format!(" of {}", p.display()))
                    .unwrap_or_default(),
                100.0 * paired.theirs() as f64 / n,
                paired.only_this,
                paired.only_other,
                paired.diff_points(),
                paired.se_points()
            );
            outln!(
                "versus, up to spelling choices: {:.2}%; right only here {}, only there {}; difference {:+.2} ± {:.2} points",
                100.0 * paired_words.theirs() as f64 / n,
                paired_words.only_this,
                paired_words.only_other,
                paired_words.diff_points(),
                paired_words.se_points()
            );
        }
    }
    if resize.is_some() {
        let resize_mean = resize_times.iter().sum::<f64>() / resized_n.max(1) as f64;
        resize_times.sort_by(|a, b| a.total_cmp(b));
        let resize_p95 = percentile(&resize_times, 0.95);
        result["resized"] = serde_json::json!({
            "sentences": resized_n,
            "exact_top1": resized_right as f64 / resized_n.max(1) as f64,
            "mean_ms": resize_mean,
            "p95_ms": resize_p95,
        });
        if !json {
            outln!(
                "resized: {resized_n} sentences, exact top-1 {:.2}% of them; the resize mean {resize_mean:.2} ms, p95 {resize_p95:.2} ms",
                100.0 * resized_right as f64 / resized_n.max(1) as f64
            );
        }
    }
    if gold.is_some() {
        let r = ranks.json();
        if !json {
            outln!(
                "candidates: {} aligned segments; expected text among the candidates {:.2}%, first {:.2}%, within 2 {:.2}%, within 3 {:.2}%, on the first page {:.2}%; mean reciprocal rank {:.4}; mean rank where found {:.3}; {:.2} candidates per segment",
                r["aligned_segments"],
                100.0 * r["found"].as_f64().unwrap_or(0.0),
                100.0 * r["first"].as_f64().unwrap_or(0.0),
                100.0 * r["within_2"].as_f64().unwrap_or(0.0),
                100.0 * r["within_3"].as_f64().unwrap_or(0.0),
                100.0 * r["first_page"].as_f64().unwrap_or(0.0),
                r["mrr"].as_f64().unwrap_or(0.0),
                r["mean_rank_found"].as_f64().unwrap_or(0.0),
                r["mean_candidates"].as_f64().unwrap_or(0.0),
            );
        }
        result["candidates"] = r;
    }
    if json {
        outln!("{result}");
    } else {
        outln!(
            "{} sentences: exact top-1 {:.1}%, top-10 {:.1}%, top-1 up to spelling choices {:.1}%, char F1 {:.1}%, mean {:.2} ms, p95 {:.2} ms",
            pairs.len(),
            100.0 * top1 as f64 / n,
            100.0 * top10 as f64 / n,
            100.0 * same_words as f64 / n,
            100.0 * f1,
            mean,
            percentile(&times, 0.95)
        );
    }
    Ok(())
}

/// Length of the longest common subsequence of two strings.
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

/// The LM that ranks predictions.
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq, Debug)]
pub enum PredictLm {
    /// The n-gram alone.
    Ngram,
    /// The n-gram's candidates re-ranked by the LSTM.
    Lstm,
}

/// `henkan eval prediction`.
#[derive(clap::Args)]
pub struct PredictionArgs {
    /// Plain text lines (e.g. ../shared/data/dev/chat.dev.txt), analyzed into words by the
    /// training pipeline's analyzer (`--analyzer`, `--lex`, `--matrix`; `make corpus-tok`
    /// builds them).
    #[arg(long)]
    input: Option<PathBuf>,
    /// The training pipeline's analyzer binary (for --input).
    #[arg(long, default_value = "target/release/henkan-tokenize")]
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
    /// Only predictions whose reading has at least this many kana count, as the IME shows
    /// only words that save keystrokes (`henkan::predict::MIN_READING_CHARS`); 1: every
    /// prediction.
    #[arg(long, default_value_t = henkan::predict::MIN_READING_CHARS)]
    min_reading: usize,
    /// Next words as the IME offers them after a commit, the context recovered from the
    /// committed text (`predict::eval::evaluate_committed`; lines in kana only); prints
    /// `committed_top3`.
    #[arg(long)]
    committed: bool,
    /// With --lm lstm: rank the words alone, without the IME's phrases (by default the
    /// list is the IME's, words and phrases: `henkan::predict::suggest::list_items`).
    #[arg(long)]
    no_phrases: bool,
    /// With --lm lstm: the best N words lead to phrases.
    #[arg(long, default_value_t = suggest::PHRASE_WORDS)]
    phrase_words: usize,
    /// With --lm lstm: phrases per word.
    #[arg(long, default_value_t = suggest::PHRASES_PER_WORD)]
    phrases_per_word: usize,
    /// With --lm lstm: lowest log2 score of a phrase's second word.
    #[arg(long, default_value_t = suggest::PHRASE_FIRST_MIN_LOG2, allow_hyphen_values = true)]
    phrase_first_min_log2: f32,
    /// With --lm lstm: lowest log2 score of each later word of a phrase.
    #[arg(long, default_value_t = suggest::PHRASE_MIN_LOG2, allow_hyphen_values = true)]
    phrase_min_log2: f32,
    /// With --lm lstm: the same after a commit (next words).
    #[arg(long, default_value_t = suggest::NEXT_PHRASE_MIN_LOG2, allow_hyphen_values = true)]
    next_phrase_min_log2: f32,
    /// With --lm lstm: words in a phrase at most.
    #[arg(long, default_value_t = suggest::PHRASE_MAX_WORDS)]
    phrase_max_words: usize,
    /// With --lm lstm: weight of log2 of the reading's length in the list's ranking.
    #[arg(long, default_value_t = suggest::LENGTH_WEIGHT, allow_hyphen_values = true)]
    length_weight: f32,
    /// With --lm lstm: after a commit, a word's phrase replaces the word from this log2 score
    /// of its second word.
    #[arg(long, default_value_t = suggest::REPLACE_MIN_LOG2, allow_hyphen_values = true)]
    replace_min_log2: f32,
    /// With --lm lstm: the user's recent words raise their predictions, as in the IME: this
    /// many, learned from the lines as they are typed, in order (`henkan::predict::recent`);
    /// 0: each line is predicted on its own.
    #[arg(long, default_value_t = henkan::predict::recent::RECENT_CAPACITY)]
    recent: usize,
    /// With --recent: weight of the cache probability (λ).
    #[arg(long, default_value_t = henkan::predict::recent::RECENT_WEIGHT)]
    recent_weight: f32,
    /// With --recent: share of the bigram in the cache probability (μ).
    #[arg(long, default_value_t = henkan::predict::recent::RECENT_BIGRAM_WEIGHT)]
    recent_bigram_weight: f32,
    /// With --recent: the recent words' share is λ · n / (n + this) for n recent words.
    #[arg(long, default_value_t = henkan::predict::recent::RECENT_WARMUP)]
    recent_warmup: f32,
    #[arg(long)]
    json: bool,
}

/// Prediction logit offsets from a `training/fit_predict_bias.py` file (`none`: no offsets).
pub fn read_predict_bias(p: &Path, vocab: usize) -> Result<Vec<f32>> {
    if p.as_os_str() == "none" {
        return Ok(Vec::new());
    }
    let v = henkan_builder::read_f32_le(&read_bytes(p)?);
    if v.len() != vocab {
        bail!("{}: not {vocab} f32 values", p.display());
    }
    Ok(v)
}

fn prediction(model: &Option<PathBuf>, a: PredictionArgs) -> Result<()> {
    let mut engine = load(model)?;
    if let (Some(p), Some(lm)) = (&a.predict_bias, engine.neural.as_mut()) {
        lm.predict_bias = read_predict_bias(p, lm.model.vocab)?;
    }
    let (tokens, analyzed) = match (&a.tokens, &a.input) {
        (Some(t), _) => (t.clone(), false),
        (None, Some(input)) => (analyze(input, &a.analyzer, &a.lex, &a.matrix)?, true),
        (None, None) => bail!("give --input FILE (plain text) or --tokens FILE"),
    };
    let result = evaluate_predictions(&engine, &tokens, &a);
    if analyzed {
        // the analyzer also writes its unknown words beside the output
        let _ = std::fs::remove_file(format!("{}.unk", tokens.display()));
        let _ = std::fs::remove_file(&tokens);
    }
    result
}

/// Times every call of the wrapped predictor.
struct Timed<P> {
    inner: P,
    ms: Vec<f64>,
}

impl<P: Predictor> Predictor for Timed<P> {
    fn predict(
        &mut self,
        history: &[Option<Word>],
        query: &str,
        limit: usize,
    ) -> Vec<henkan::predict::Prediction> {
        let t0 = Instant::now();
        let p = self.inner.predict(history, query, limit);
        self.ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        p
    }

    fn end_line(&mut self, words: &[Option<Word>]) {
        self.inner.end_line(words);
    }
}

/// Analyzes plain text `input` into words (`surface/reading/left/right` tokens) with the
/// training pipeline's analyzer, as `make corpus-tok` does for the dev sets; returns the
/// analyzed file (in the temporary directory).
fn analyze(input: &Path, analyzer: &Path, lex: &Path, matrix: &Path) -> Result<PathBuf> {
    for (p, what) in [
        (analyzer, "analyzer"),
        (lex, "dictionary"),
        (matrix, "matrix"),
    ] {
        if !p.exists() {
            bail!(
                "plain-text input needs the training analyzer: {what} {} not found \
                 (`make corpus-tok` builds it; or pass analyzed text with --tokens)",
                p.display()
            );
        }
    }
    if !input.exists() {
        bail!("cannot read {}: no such file", input.display());
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
        .with_context(|| format!("cannot run {}", analyzer.display()))?;
    if !run.status.success() {
        bail!(
            "{} failed: {}",
            analyzer.display(),
            String::from_utf8_lossy(&run.stderr).trim()
        );
    }
    Ok(out)
}

fn evaluate_predictions(engine: &Engine, tokens: &Path, a: &PredictionArgs) -> Result<()> {
    let ngram = &load_ngram(engine, &a.ngram)?;
    let lines: Vec<Vec<Option<Word>>> = read_text(tokens)?
        .lines()
        .take(a.limit.unwrap_or(usize::MAX))
        .map(henkan_builder::token::parse_line)
        .collect();
    let t0 = Instant::now();
    if a.committed {
        let n = henkan::predict::eval::evaluate_committed(engine, &lines);
        let result = serde_json::json!({
            "lines": n.lines,
            "positions": n.positions,
            "committed_top3": n.top3 as f64 / n.positions.max(1) as f64,
            "seconds": t0.elapsed().as_secs_f64(),
        });
        print_result(&result, a.json);
        return Ok(());
    }
    let ngram_predictor = henkan::predict::NgramPredictor {
        model: ngram,
        lexicon: Some(&engine.lexicon),
    };
    let (n, mut ms) = match a.lm {
        PredictLm::Ngram => {
            let mut p = Timed {
                inner: SavesKeys {
                    inner: ngram_predictor,
                    min_reading: a.min_reading,
                },
                ms: Vec::new(),
            };
            (henkan::predict::eval::evaluate(&lines, &mut p), p.ms)
        }
        PredictLm::Lstm => {
            let neural = neural_lm(engine)?;
            let mut inner = henkan::predict::neural::LstmPredictor::new(
                ngram_predictor,
                neural,
                &engine.lexicon,
            );
            inner.weight = a.lstm_weight;
            inner.candidates = a.lstm_candidates;
            if a.recent > 0 {
                let mut r = henkan::predict::recent::RecentWords::new(a.recent);
                r.weight = a.recent_weight;
                r.bigram_weight = a.recent_bigram_weight;
                r.warmup = a.recent_warmup;
                inner.recent = Some(r);
            }
            if !a.no_phrases {
                inner.list = Some(suggest::ListRules {
                    phrase_words: a.phrase_words,
                    phrases_per_word: a.phrases_per_word,
                    phrase_first_min_log2: a.phrase_first_min_log2,
                    phrase_min_log2: a.phrase_min_log2,
                    next_phrase_min_log2: a.next_phrase_min_log2,
                    phrase_max_words: a.phrase_max_words,
                    length_weight: a.length_weight,
                    replace_min_log2: a.replace_min_log2,
                });
                inner.short_words = a.min_reading <= 1;
            }
            let inner = inner.with_full_vocabulary(a.lstm_full_vocabulary);
            let mut p = Timed {
                inner: SavesKeys {
                    inner,
                    // the IME's list has filtered its words already
                    min_reading: if a.no_phrases { a.min_reading } else { 1 },
                },
                ms: Vec::new(),
            };
            let n = henkan::predict::eval::evaluate(&lines, &mut p);
            eprintln!(
                "lstm: {} of {} candidates scored as <unk>",
                p.inner.inner.unk_candidates, p.inner.inner.scored_candidates
            );
            (n, p.ms)
        }
    };
    ms.sort_by(|a, b| a.total_cmp(b));
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let p95 = ms.get(ms.len() * 95 / 100).copied().unwrap_or(0.0);
    let (nb, nm) = ngram.ngram_counts();
    let w = n.words.max(1) as f64;
    let result = serde_json::json!({
        "model": match a.lm {
            PredictLm::Ngram => "ngram",
            PredictLm::Lstm => "lstm",
        },
        "min_reading": a.min_reading,
        "recent": if matches!(a.lm, PredictLm::Lstm) { a.recent } else { 0 },
        "phrases": matches!(a.lm, PredictLm::Lstm) && !a.no_phrases,
        "words": n.words,
        "nwp_top1": n.top1 as f64 / w,
        "nwp_top3": n.top3 as f64 / w,
        "long_words": n.long_words,
        "long_top1": n.long_top1 as f64 / n.long_words.max(1) as f64,
        "long_top3": n.long_top3 as f64 / n.long_words.max(1) as f64,
        "ksr": n.ksr(),
        "mean_ms": mean,
        "p95_ms": p95,
        "calls": n.calls,
        "keys_full": n.keys_full,
        "keys_typed": n.keys_typed,
        "ngram_bytes": ngram.byte_len(),
        "ngram_vocab": ngram.vocab_len(),
        "bigrams": nb,
        "trigrams": nm,
        "seconds": t0.elapsed().as_secs_f64(),
    });
    print_result(&result, a.json);
    Ok(())
}

/// `henkan eval reverse`.
#[derive(clap::Args)]
pub struct ReverseArgs {
    /// `reading<TAB>text` lines, e.g. ../shared/data/dev/kwdlc.test.tsv.
    #[arg(long)]
    input: PathBuf,
    /// Only the first N lines.
    #[arg(long)]
    limit: Option<usize>,
    /// Print each text read otherwise than annotated, with the words it was read as
    /// (`written/reading`, a word in kana alone).
    #[arg(long)]
    errors: bool,
    /// Also count the texts given back unchanged by the default engine's conversion of the
    /// reading found (`engine_round_trip`) and by the IME's reconversion then Enter
    /// (`round_trip`, a fresh IME for each text).
    #[arg(long)]
    round_trip: bool,
    #[arg(long)]
    json: bool,
}

fn reverse(model: &Option<PathBuf>, a: ReverseArgs) -> Result<()> {
    let engine = load(model)?;
    let text = read_text(&a.input)?;
    let (mut n, mut exact, mut same_chars, mut want_chars, mut got_chars) = (0usize, 0, 0, 0, 0);
    let (mut kept, mut engine_kept) = (0, 0);
    let mut session = henkan::Session::new();
    session.set_scoring(engine.default_scoring(), Default::default());
    let t0 = Instant::now();
    for line in text.lines().take(a.limit.unwrap_or(usize::MAX)) {
        let Some((reading, written)) = line.split_once('\t') else {
            continue;
        };
        let got = engine.reading_of(written);
        n += 1;
        if a.round_trip {
            let back = session.convert_reading(&engine, &got).text();
            session.end_sentence();
            engine_kept += usize::from(back == written);
            let mut ime = henkan::ime::Ime::new();
            ime.reconvert(&engine, written);
            let enter = henkan::ime::KeyEvent::from_dom("Enter", 0);
            let committed = ime.key(&engine, enter).committed;
            if committed == written {
                kept += 1;
            } else if a.errors {
                outln!("{written}\n  back {committed}");
            }
        }
        if got == reading {
            exact += 1;
        } else if a.errors {
            let words: Vec<String> = engine
                .reading_pieces(written)
                .into_iter()
                .map(|(w, r)| if w == r { w } else { format!("{w}/{r}") })
                .collect();
            outln!(
                "{written}\n  want {reading}\n  got  {got}\n  words {}",
                words.join(" ")
            );
        }
        let (w, g): (Vec<char>, Vec<char>) = (reading.chars().collect(), got.chars().collect());
        same_chars += lcs(&w, &g);
        want_chars += w.len();
        got_chars += g.len();
    }
    let f1 = if want_chars + got_chars == 0 {
        0.0
    } else {
        2.0 * same_chars as f64 / (want_chars + got_chars) as f64
    };
    print_result(
        &serde_json::json!({
            "texts": n,
            "exact": exact as f64 / n.max(1) as f64,
            "char_f1": f1,
            "ms_per_text": t0.elapsed().as_secs_f64() * 1e3 / n.max(1) as f64,
            "engine_round_trip": a.round_trip.then(|| engine_kept as f64 / n.max(1) as f64),
            "round_trip": a.round_trip.then(|| kept as f64 / n.max(1) as f64),
        }),
        a.json,
    );
    Ok(())
}

/// `henkan eval perplexity`.
#[derive(clap::Args)]
pub struct PerplexityArgs {
    #[arg(long)]
    input: PathBuf,
    /// Only the first N tokens.
    #[arg(long, default_value_t = 5000)]
    limit: usize,
    #[arg(long)]
    json: bool,
}

fn perplexity(model: &Option<PathBuf>, a: PerplexityArgs) -> Result<()> {
    let engine = load(model)?;
    let lm = neural_lm(&engine)?;
    let m = &lm.model;
    let raw = read_bytes(&a.input)?;
    let ids: Vec<u32> = raw
        .chunks_exact(4)
        .take(a.limit + 1)
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
    print_result(&result, a.json);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{lcs, Paired};

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
        // 2,195 sentences, 156 right only here and 63 only there
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

    #[test]
    fn longest_common_subsequence() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(lcs(&c("今日はいい天気"), &c("今日は良い天気")), 6);
        assert_eq!(lcs(&c(""), &c("あ")), 0);
        assert_eq!(lcs(&c("abc"), &c("abc")), 3);
    }
}

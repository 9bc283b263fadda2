//! `henkan predict`: next words after a context, or completions of what is being typed.

use crate::args::{load, read_bytes};
use anyhow::{anyhow, Result};
use henkan::lm::ngram::NgramModel;
use henkan::model::SectionBytes;
use henkan::{Engine, Session};
use std::path::PathBuf;
use std::time::Instant;

/// Predictions: next words after --context (converted with the classic engine, as if
/// committed), or completions of QUERY (romaji or kana) in that context: the n-gram's words
/// and phrases, then the list the IME shows.
#[derive(clap::Args)]
pub struct PredictArgs {
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
}

/// The n-gram of the section file `ngram`, else the model's.
pub fn load_ngram(engine: &Engine, ngram: &Option<PathBuf>) -> Result<NgramModel> {
    match ngram {
        Some(p) => Ok(NgramModel::from_section(SectionBytes::from_vec(
            read_bytes(p)?,
        ))?),
        None => engine
            .ngram
            .clone()
            .ok_or_else(|| anyhow!("the model has no n-gram section: pass --ngram FILE")),
    }
}

/// Runs `henkan predict`.
pub fn run(model: &Option<PathBuf>, args: PredictArgs) -> Result<()> {
    use henkan::predict::{complete, context_after, extend_to_phrases, Context};
    let mut engine = load(model)?;
    let ngram = load_ngram(&engine, &args.ngram)?;
    engine.ngram = Some(ngram.clone());
    let mut session = Session::new();
    let mut ctx = Context::new();
    let mut suggester = henkan::predict::suggest::Suggester::new();
    if let Some(c) = args.context {
        session.insert_str(&engine, &c);
        let best = session.best_text(&engine);
        outln!("context: {best}");
        ctx = context_after(&engine, &session, ctx);
        let lattice = session.lattice();
        let reading = lattice.span(0, lattice.len()).to_string();
        suggester.commit_text(&engine, lattice, &[(reading.as_str(), best.as_str())]);
        session.clear();
    }
    if let Some(q) = &args.query {
        session.insert_str(&engine, q);
    }
    let q = session.composer().query();
    let t0 = Instant::now();
    let preds = complete(&ngram, Some(&engine.lexicon), ctx, &q, &[], args.limit);
    let phrases = extend_to_phrases(&ngram, ctx, &preds[..preds.len().min(3)], -1.5, 3);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    outln!("query: {q:?} ({ms:.3} ms)");
    for p in &preds {
        outln!("  {}\t{}\t{:.2}", p.surface, p.reading, p.score);
    }
    for p in &phrases {
        outln!("  phrase: {}\t{}\t{:.2}", p.surface, p.reading, p.score);
    }
    // What the IME lists (the LSTM's ranking when the model has one, its phrases).
    let list = suggester.suggest(&engine, &q, &[], henkan::predict::suggest::MAX_SUGGESTIONS);
    let shown: Vec<&str> = list.iter().map(|s| s.surface.as_str()).collect();
    outln!("list: {}", shown.join(" / "));
    Ok(())
}

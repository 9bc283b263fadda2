//! `henkan convert`: the best conversion of romaji or kana, its segments and n-best.

use crate::args::{
    engine_or_default, engine_parser, is_romaji, load, session_for, Digits, NeuralArgs,
};
use anyhow::Result;
use henkan::composer::Composer;
use henkan::options::Scoring;
use henkan::{Engine, Session};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// Convert TEXT (romaji or kana) and print the best conversion, segments and n-best.
/// Without TEXT, reads one input per line from stdin (an interactive loop).
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// Romaji (e.g. kyouhaiitenkidesune) or kana.
    text: Option<String>,
    /// Default: hybrid when the model has an LSTM LM, else classic.
    #[arg(long, value_parser = engine_parser())]
    engine: Option<Scoring>,
    /// Print each segment's candidates, and the best path's words with their POS ids and
    /// costs.
    #[arg(long)]
    debug: bool,
    /// Previously committed text (kana or romaji) the LSTM starts from.
    #[arg(long)]
    context: Option<String>,
    /// How digits of converted numbers are written.
    #[arg(long, value_enum, default_value = "half")]
    digits: Digits,
    #[command(flatten)]
    neural: NeuralArgs,
}

/// Runs `henkan convert`.
pub fn run(model: &Option<PathBuf>, args: ConvertArgs) -> Result<()> {
    let engine = load(model)?;
    let scoring = engine_or_default(&engine, args.engine);
    let mut session = session_for(&engine, scoring, &args.neural)?;
    session.set_digit_width(args.digits.width());
    if let Some(ctx) = args.context {
        let reading = if is_romaji(&ctx) {
            session.clear();
            session.insert_str(&engine, &ctx);
            session.composer().submission()
        } else {
            ctx
        };
        session.set_context(&engine, &reading);
    }
    match args.text {
        Some(t) => print_conversion(&engine, &mut session, &t, args.debug),
        None => {
            eprintln!("henkan: type romaji or kana, one line per conversion (Ctrl-D ends)");
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                let t = line.trim();
                if !t.is_empty() {
                    print_conversion(&engine, &mut session, t, args.debug);
                    std::io::stdout().flush().ok();
                }
            }
        }
    }
    Ok(())
}

fn print_conversion(engine: &Engine, session: &mut Session, text: &str, debug: bool) {
    session.clear();
    // Romaji are composed first and the kana converted at once (not key by key), so that a
    // long text is converted in pieces ([`Session::convert_reading`]).
    let conv = if is_romaji(text) {
        let mut composer = Composer::new();
        composer.insert_str(text);
        session.convert_reading(engine, &composer.submission())
    } else {
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
        print_path(engine, session);
    }
}

/// The best path's words: span, surface, POS ids, costs and LM word.
fn print_path(engine: &Engine, session: &Session) {
    let path = session
        .neural_best(engine)
        .or_else(|| session.best_path(engine).map(|p| p.nodes));
    let Some(path) = path else { return };
    let lat = session.lattice();
    let mut prev = 0u16;
    for &i in &path {
        let n = lat.nodes()[i as usize];
        let lm = engine.neural.as_ref().map_or(u32::MAX, |lm| {
            henkan::decoder::neural::NeuralDecoder::word_of(lm, n.entry, n.left_id)
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

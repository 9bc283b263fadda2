//! `henkan`: the native command line of the henkan IME engine.
//!
//! User commands first — `convert`, `predict`, `eval`, `bench`, `fuzz` — then the model work under
//! `henkan model …` (building a model file and reworking it section by section). One file per
//! command group; the flags several commands share are in [`args`].

/// `println!` that ignores a closed stdout (e.g. `henkan convert … | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod args;
mod bench;
mod convert;
mod eval;
mod fuzz;
mod heap;
mod model;
mod predict;
mod spelling_choice;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Every allocation counted, for `henkan bench memory` (two relaxed atomic adds each).
#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

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

#[derive(Subcommand)]
enum Command {
    /// Convert TEXT (romaji or kana) and print the best conversion, segments and n-best.
    /// Without TEXT, reads one input per line from stdin (an interactive loop).
    Convert(convert::ConvertArgs),
    /// Predictions: next words after --context (converted with the classic engine, as if
    /// committed), or completions of QUERY (romaji or kana) in that context.
    Predict(predict::PredictArgs),
    /// Evaluate.
    Eval {
        #[command(subcommand)]
        what: eval::EvalCommand,
    },
    /// Benchmark.
    Bench {
        #[command(subcommand)]
        what: bench::BenchCommand,
    },
    /// Fuzz the model readers, the IME or the streaming loader (`henkan fuzz --help`).
    Fuzz {
        #[command(subcommand)]
        what: fuzz::FuzzCommand,
    },
    /// Build and rework model files (`henkan model --help`).
    Model {
        #[command(subcommand)]
        command: model::ModelCommand,
    },
}

fn main() {
    let cli = Cli::parse();
    let model = &cli.model;
    let result = match cli.command {
        Command::Convert(a) => convert::run(model, a),
        Command::Predict(a) => predict::run(model, a),
        Command::Eval { what } => eval::run(model, what),
        Command::Bench { what } => bench::run(model, what),
        Command::Fuzz { what } => fuzz::run(model, what),
        Command::Model { command } => model::run(model, command),
    };
    if let Err(e) = result {
        eprintln!("henkan: {e:#}");
        std::process::exit(1);
    }
}

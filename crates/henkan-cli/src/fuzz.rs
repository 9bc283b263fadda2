//! `henkan fuzz`: long fuzzing runs of the model readers, the IME state machine and the
//! streaming loader (the drivers are [`henkan::fuzz`]'s; `make test` runs a short
//! fixed-seed slice of each). Runs split the cases over threads, each with its own seed
//! (`seed + thread`), print what they saw and fail when anything panicked.

use crate::args::{model_path, read_bytes};
use anyhow::{bail, Result};
use henkan::fuzz::{key_storm, model_mutations, stream_chunkings, ProbeRate, Report};
use henkan::Engine;
use std::path::PathBuf;
use std::time::Instant;

/// What to fuzz.
#[derive(clap::Subcommand, Debug)]
pub enum FuzzCommand {
    /// Sections of the model changed inside (valid CRC), loaded and probed in every engine.
    Model {
        #[command(flatten)]
        run: RunArgs,
        /// Exercise one engine that loads in N (conversions in every engine, the IME, the
        /// predictions); loading alone runs every section reader.
        #[arg(long, default_value_t = 1)]
        probe_every: u32,
        /// The reverse conversion (it reads the whole lexicon) one time in N probes after a
        /// change to the lexicon.
        #[arg(long, default_value_t = 50)]
        reverse_every: u32,
    },
    /// Random key events through the IME on the model, in each of its engines.
    Keys {
        #[command(flatten)]
        run: RunArgs,
    },
    /// The model's download cut into random chunks, through the streaming loader.
    Stream {
        #[command(flatten)]
        run: RunArgs,
    },
}

/// Flags every fuzzing run takes.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Cases in all (model mutations, key events, downloads).
    #[arg(long, default_value_t = 1000)]
    cases: u64,
    /// Seed of the first thread.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    threads: u64,
}

pub fn run(model: &Option<PathBuf>, what: FuzzCommand) -> Result<()> {
    let path = model_path(model);
    let bytes = read_bytes(&path)?;
    // Panics are caught and counted; the default hook would print each one.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let (name, run, report) = match what {
        FuzzCommand::Model {
            run,
            probe_every,
            reverse_every,
        } => {
            let base = Engine::from_bytes(bytes)?;
            let rate = ProbeRate {
                probe_every,
                reverse_every,
            };
            let report = threads(&run, |seed, cases| {
                model_mutations(&base, seed, cases, rate)
            });
            ("model mutations", run, report)
        }
        FuzzCommand::Keys { run } => {
            let engine = Engine::from_bytes(bytes)?;
            let report = threads(&run, |seed, cases| key_storm(&engine, seed, cases));
            ("key events", run, report)
        }
        FuzzCommand::Stream { run } => {
            let report = threads(&run, |seed, cases| stream_chunkings(&bytes, seed, cases));
            ("chunked downloads", run, report)
        }
    };
    let _ = std::panic::take_hook();
    outln!(
        "{}: {} {name} (seeds {}..{}), {} refused, {} panics, {:.0} s",
        path.display(),
        report.cases,
        run.seed,
        run.seed + run.threads,
        report.refused,
        report.panic_count,
        started.elapsed().as_secs_f64()
    );
    for (case, msg) in &report.panics {
        outln!("  panic: {case}\n    {msg}");
    }
    if report.panic_count > 0 {
        bail!("{} panics", report.panic_count);
    }
    Ok(())
}

/// Runs `f(seed, cases)` on `run.threads` threads and adds up their reports.
fn threads(run: &RunArgs, f: impl Fn(u64, u64) -> Report + Sync) -> Report {
    let per = run.cases.div_ceil(run.threads.max(1));
    let reports: Vec<Report> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..run.threads.max(1))
            .map(|t| {
                let f = &f;
                s.spawn(move || f(run.seed + t, per))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all = Report::default();
    for r in reports {
        all.cases += r.cases;
        all.refused += r.refused;
        all.panic_count += r.panic_count;
        all.panics.extend(r.panics);
    }
    all.panics.truncate(20);
    all
}

//! `henkan bench`: per-key latency of the engine and of the IME key machine.

use crate::args::{
    engine_or_default, engine_parser, load, percentile, print_result, read_pairs, read_text,
    session_for, NeuralArgs, SentencesArgs, SoftmaxKind,
};
use crate::heap;
use anyhow::{bail, Result};
use henkan::options::Scoring;
use henkan::Engine;
use std::path::PathBuf;
use std::time::Instant;

/// What to benchmark.
#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// Types each reading one kana at a time through the IME (key state machine, no live
    /// conversion), then Enter, with suggestions on and off side by side; per-key latency.
    /// With --tokens (analyzed corpus lines), each word's reading is typed and committed
    /// with Enter in turn (word by word: every key has a short completion query).
    Ime(ImeArgs),
    /// Types each reading one kana at a time through a Session; per-key latency.
    Keystroke(KeystrokeArgs),
    /// The heap of long inputs: one composition typed key by key through the IME, sentences
    /// typed and committed one after another, and one long reading converted at once (a
    /// paste), each with its peak and what stays allocated after it.
    Memory(MemoryArgs),
}

/// Runs `henkan bench …`.
pub fn run(model: &Option<PathBuf>, what: BenchCommand) -> Result<()> {
    match what {
        BenchCommand::Ime(a) => ime(model, a),
        BenchCommand::Keystroke(a) => keystroke(model, a),
        BenchCommand::Memory(a) => memory(model, a),
    }
}

/// `henkan bench ime`.
#[derive(clap::Args)]
pub struct ImeArgs {
    #[arg(long, required_unless_present = "tokens")]
    input: Option<PathBuf>,
    #[arg(long)]
    tokens: Option<PathBuf>,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    limit: Option<usize>,
}

fn ime(model: &Option<PathBuf>, a: ImeArgs) -> Result<()> {
    let engine = load(model)?;
    let lines: Vec<Vec<String>> = match (&a.tokens, &a.input) {
        (Some(t), _) => read_text(t)?
            .lines()
            .take(a.limit.unwrap_or(usize::MAX))
            .map(|l| {
                l.split_whitespace()
                    .filter_map(henkan_builder::token::parse_token)
                    .map(|(_, r, _, _)| r)
                    .collect()
            })
            .collect(),
        (None, Some(i)) => read_pairs(i, a.limit)?
            .into_iter()
            .map(|(r, _)| vec![r])
            .collect(),
        (None, None) => bail!("--input or --tokens"),
    };
    let result = bench_ime(&engine, &lines);
    print_result(&result, a.json);
    Ok(())
}

/// `henkan bench keystroke`.
#[derive(clap::Args)]
pub struct KeystrokeArgs {
    #[command(flatten)]
    sentences: SentencesArgs,
    #[command(flatten)]
    neural: NeuralArgs,
    /// Also run the neural engine with every softmax variant (IVS, no frequent words,
    /// non-incremental, full) and report the speedups of IVS.
    #[arg(long)]
    compare: bool,
}

fn keystroke(model: &Option<PathBuf>, a: KeystrokeArgs) -> Result<()> {
    let engine = load(model)?;
    let (pairs, kind) = a.sentences.read(&engine)?;
    let mut sink = 0usize;
    let mut result = bench_keystroke(&engine, &pairs, kind, &a.neural, &mut sink)?;
    if a.compare && engine.neural.is_some() {
        let mut engines = serde_json::Map::new();
        let mut runs: Vec<(String, Scoring, NeuralArgs)> = vec![
            ("classic".into(), Scoring::Classic, a.neural.clone()),
            ("hybrid".into(), Scoring::Hybrid, a.neural.clone()),
        ];
        for (name, sm) in [
            ("neural", SoftmaxKind::Ivs),
            ("neural_ivs_no_frequent", SoftmaxKind::IvsNoFrequent),
            ("neural_non_incremental", SoftmaxKind::NonIncremental),
            ("neural_full_softmax", SoftmaxKind::Full),
        ] {
            let mut n = a.neural.clone();
            n.softmax = sm;
            runs.push((name.into(), Scoring::Neural, n));
        }
        for (name, k, n) in &runs {
            engines.insert(
                name.clone(),
                bench_keystroke(&engine, &pairs, *k, n, &mut sink)?,
            );
        }
        let get = |n: &str, f: &str| engines[n][f].as_f64().unwrap_or(0.0);
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        result["ivs_speedup_softmax"] = ratio(
            get("neural_full_softmax", "softmax_ms_per_key"),
            get("neural", "softmax_ms_per_key"),
        )
        .into();
        result["ivs_speedup_total"] = ratio(
            get("neural_full_softmax", "per_key_mean_ms"),
            get("neural", "per_key_mean_ms"),
        )
        .into();
        result["engines"] = serde_json::Value::Object(engines);
    }
    if !a.sentences.json {
        eprintln!("(checksum {sink})");
    }
    outln!("{result}");
    Ok(())
}

fn bench_keystroke(
    engine: &Engine,
    pairs: &[(String, String)],
    kind: Scoring,
    neural: &NeuralArgs,
    sink: &mut usize,
) -> Result<serde_json::Value> {
    let mut session = session_for(engine, kind, neural)?;
    let mut keys = Vec::new();
    let mut convs = Vec::new();
    // HENKAN_SLOW_KEY_MS=N prints the keys slower than N ms (to find the tail).
    let slow: Option<f64> = std::env::var("HENKAN_SLOW_KEY_MS")
        .ok()
        .and_then(|v| v.parse().ok());
    for (reading, _) in pairs {
        session.clear();
        for c in reading.chars() {
            let t0 = Instant::now();
            session.insert(engine, c);
            *sink += session.best_text(engine).len();
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            if slow.is_some_and(|l| ms > l) {
                eprintln!(
                    "slow key {ms:.2} ms at {} of {reading}",
                    session.lattice().len()
                );
            }
            keys.push(ms);
        }
        let t0 = Instant::now();
        let conv = session.convert(engine);
        convs.push(t0.elapsed().as_secs_f64() * 1000.0);
        *sink += conv.nbest.len();
    }
    let stats = session.neural_decoder().stats();
    let nk = keys.len().max(1) as f64;
    keys.sort_by(|a, b| a.total_cmp(b));
    convs.sort_by(|a, b| a.total_cmp(b));
    Ok(serde_json::json!({
        "engine": kind.name(),
        "softmax": format!("{:?}", neural.softmax).to_lowercase(),
        "beam": neural.beam,
        "kernels": henkan::kernels::implementation(),
        "sentences": pairs.len(),
        "keys": keys.len(),
        "per_key_p50_ms": percentile(&keys, 0.5),
        "per_key_p95_ms": percentile(&keys, 0.95),
        "per_key_max_ms": keys.last().copied().unwrap_or(0.0),
        "per_key_mean_ms": keys.iter().sum::<f64>() / nk,
        "softmax_ms_per_key": stats.softmax_ns as f64 / 1e6 / nk,
        "lstm_ms_per_key": stats.lstm_ns as f64 / 1e6 / nk,
        "conversion_p50_ms": percentile(&convs, 0.5),
        "conversion_p95_ms": percentile(&convs, 0.95),
        "conversion_mean_ms": convs.iter().sum::<f64>() / convs.len().max(1) as f64,
    }))
}

/// `bench ime`: every reading typed kana by kana through two IMEs, suggestions on and off,
/// sentence by sentence in turn (so both see the same machine load), then Enter.
fn bench_ime(engine: &Engine, lines: &[Vec<String>]) -> serde_json::Value {
    use henkan::ime::{Ime, Key, KeyEvent};
    let mut on = Ime::new();
    let mut off = Ime::new();
    on.set_live(false);
    off.set_live(false);
    off.set_predictions(false);
    // [on, off] × [typing keys, Enter]
    let mut ms: [[Vec<f64>; 2]; 2] = Default::default();
    // Suggestions on, by the length of the query after the key: 1 kana, 2 or more.
    let mut by_query: [Vec<f64>; 2] = Default::default();
    let mut shown = 0usize;
    for line in lines {
        for (k, ime) in [&mut on, &mut off].into_iter().enumerate() {
            for reading in line {
                for c in reading.chars() {
                    let t0 = Instant::now();
                    let out = ime.key(engine, KeyEvent::plain(Key::Char(c)));
                    let t = t0.elapsed().as_secs_f64() * 1000.0;
                    ms[k][0].push(t);
                    shown += usize::from(k == 0 && !out.completions.is_empty());
                    let q = ime.session().composer().query().chars().count();
                    if k == 0 && q > 0 {
                        by_query[usize::from(q > 1)].push(t);
                    }
                }
                let t0 = Instant::now();
                ime.key(engine, KeyEvent::plain(Key::Enter));
                ms[k][1].push(t0.elapsed().as_secs_f64() * 1000.0);
            }
            ime.flush(engine);
        }
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        serde_json::json!({
            "n": v.len(),
            "p50_ms": percentile(v, 0.5),
            "p95_ms": percentile(v, 0.95),
            "max_ms": v.last().copied().unwrap_or(0.0),
            "mean_ms": mean,
        })
    };
    let [[mut on_keys, mut on_enter], [mut off_keys, mut off_enter]] = ms;
    let (a, b) = (stats(&mut on_keys), stats(&mut off_keys));
    let ratio = |x: &serde_json::Value, y: &serde_json::Value, f: &str| {
        x[f].as_f64().unwrap_or(0.0) / y[f].as_f64().unwrap_or(1.0).max(1e-9)
    };
    serde_json::json!({
        "lines": lines.len(),
        "ngram": engine.ngram.is_some(),
        "keys_with_suggestions": shown,
        "ratio_p50": ratio(&a, &b, "p50_ms"),
        "ratio_p95": ratio(&a, &b, "p95_ms"),
        "keys_on": a,
        "keys_off": b,
        "keys_on_query_1_kana": stats(&mut by_query[0]),
        "keys_on_query_2_plus_kana": stats(&mut by_query[1]),
        "enter_on": stats(&mut on_enter),
        "enter_off": stats(&mut off_enter),
    })
}

/// `henkan bench memory`.
#[derive(clap::Args)]
pub struct MemoryArgs {
    /// `reading<TAB>expected` lines; their readings, in order and repeated as needed, are
    /// the text typed and converted.
    #[arg(long)]
    input: PathBuf,
    /// Default: hybrid when the model has an LSTM LM, else classic.
    #[arg(long, value_parser = engine_parser())]
    engine: Option<Scoring>,
    /// Kana typed key by key into one composition (never converted, then Enter), after the
    /// sentences.
    #[arg(long, default_value_t = 5000)]
    typed: usize,
    /// Kana typed sentence by sentence (each converted with Space, committed with Enter),
    /// first.
    #[arg(long, default_value_t = 100_000)]
    keys: usize,
    /// Kana converted at once (`Session::convert_reading`, as `henkan convert` does).
    #[arg(long, default_value_t = 5000)]
    paste: usize,
    #[arg(long)]
    json: bool,
}

fn memory(model: &Option<PathBuf>, a: MemoryArgs) -> Result<()> {
    use henkan::ime::{Ime, Key, KeyEvent};
    let engine = load(model)?;
    let scoring = engine_or_default(&engine, a.engine);
    let readings: Vec<String> = read_pairs(&a.input, None)?
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| !r.is_empty())
        .collect();
    if readings.is_empty() {
        bail!("no readings in {}", a.input.display());
    }
    // The first `n` kana of the readings, repeated as needed.
    let text = |n: usize| -> String {
        readings
            .iter()
            .cycle()
            .flat_map(|r| r.chars())
            .take(n)
            .collect()
    };
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    // Live and peak heap of one phase, relative to the live heap before it.
    let phase = |f: &mut dyn FnMut() -> serde_json::Value| {
        let before = heap::live();
        heap::reset_peak();
        let t0 = Instant::now();
        let mut out = f();
        out["seconds"] = t0.elapsed().as_secs_f64().into();
        out["peak_mib"] = mib(heap::peak() - before).into();
        out["kept_mib"] = (mib(heap::live()) - mib(before)).into();
        out
    };
    let new_ime = || {
        let mut ime = Ime::new();
        ime.set_live(false);
        ime.session_mut().set_scoring(scoring, Default::default());
        ime
    };
    let base = heap::live();
    let mut ime = new_ime();
    let sentences = phase(&mut || {
        let (mut keys, mut lines) = (0, 0);
        for r in readings.iter().cycle() {
            if keys >= a.keys {
                break;
            }
            for c in r.chars() {
                ime.key(&engine, KeyEvent::plain(Key::Char(c)));
            }
            ime.key(&engine, KeyEvent::plain(Key::Space));
            ime.key(&engine, KeyEvent::plain(Key::Enter));
            keys += r.chars().count() + 2;
            lines += 1;
        }
        serde_json::json!({ "keys": keys, "sentences": lines })
    });
    let typed = phase(&mut || {
        let mut committed = String::new();
        let mut heads = 0;
        let reading = text(a.typed);
        for c in reading.chars() {
            let out = ime.key(&engine, KeyEvent::plain(Key::Char(c)));
            heads += usize::from(!out.committed.is_empty());
            committed.push_str(&out.committed);
        }
        let preedit = ime.session().composer().submission();
        let out = ime.key(&engine, KeyEvent::plain(Key::Enter));
        committed.push_str(&out.committed);
        serde_json::json!({
            "kana": a.typed,
            "heads_committed": heads,
            "preedit_at_enter": preedit.chars().count(),
            "committed_chars": committed.chars().count(),
        })
    });
    let mut session = henkan::Session::new();
    session.set_scoring(scoring, Default::default());
    let paste = phase(&mut || {
        let conv = session.convert_reading(&engine, &text(a.paste));
        serde_json::json!({ "kana": a.paste, "segments": conv.segments.len() })
    });
    // The first reconversion builds reverse conversion's index (`Engine::reverse_index`).
    let written: Vec<String> = read_pairs(&a.input, None)?
        .into_iter()
        .map(|(_, w)| w)
        .take(100)
        .collect();
    let reconversion = phase(&mut || {
        let mut ime = Ime::new();
        for w in &written {
            ime.reconvert(&engine, w);
            ime.key(&engine, KeyEvent::plain(Key::Escape));
            ime.key(&engine, KeyEvent::plain(Key::Escape));
        }
        serde_json::json!({ "texts": written.len(), "index_entries": engine.reverse_index().len() })
    });
    let result = serde_json::json!({
        "engine": scoring.name(),
        "heap_after_load_mib": mib(base),
        "typed": typed,
        "sentences": sentences,
        "paste": paste,
        "reconversion": reconversion,
    });
    print_result(&result, a.json);
    Ok(())
}

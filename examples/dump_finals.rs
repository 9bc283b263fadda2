//! The final beam of the hybrid or neural engine for each `reading<TAB>text` line, as JSON lines
//! (`want`, `cands`: score, text, LM ids) — the input of `training/rescore_beam.py` (BENCHMARKS.md
//! "Session 9"). Usage: `cargo run --release --example dump_finals -- FILE hybrid|neural full|half BEAM`.
mod common;

use henkan::Engine;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (input, engine_name, half, beam) = (
        &args[1],
        &args[2],
        args[3] == "half",
        args[4].parse::<usize>().unwrap(),
    );
    let bytes = std::fs::read("models/henkan.henkan").unwrap();
    let engine = Engine::from_bytes(bytes).unwrap();
    let mut s = common::session(engine_name, half, beam);
    let text = std::fs::read_to_string(input).unwrap();
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in text.lines() {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        let cands: Vec<serde_json::Value> = common::final_beam(&engine, &mut s, reading)
            .into_iter()
            .map(|f| serde_json::json!({"score": f.score, "text": f.text, "ids": f.ids}))
            .collect();
        writeln!(out, "{}", serde_json::json!({"want": want, "cands": cands})).unwrap();
    }
}

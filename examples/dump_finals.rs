//! The final beam of the hybrid or neural engine for each `reading<TAB>text` line, as JSON lines
//! (`want`, `cands`: score, text, LM ids) — the input of `training/rescore_beam.py` (BENCHMARKS.md
//! "Session 9"). Usage: `cargo run --release --example dump_finals -- FILE hybrid|neural full|half BEAM`.
use henkan::decoder::neural::{NeuralDecoder, NeuralOptions, Scoring};
use henkan::{Engine, Session};
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
    let lm = engine.neural.as_ref().unwrap();
    let mut s = Session::new();
    let scoring = if engine_name == "neural" {
        Scoring::Neural
    } else {
        Scoring::Hybrid
    };
    s.set_scoring(
        scoring,
        NeuralOptions {
            beam,
            ..NeuralOptions::default()
        },
    );
    if half {
        s.set_digit_width(henkan::lattice::DigitWidth::Half);
    }
    let text = std::fs::read_to_string(input).unwrap();
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in text.lines() {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        s.clear();
        let _ = s.convert_reading(&engine, reading);
        let lat = s.lattice();
        let finals = s.neural_decoder().finals(&engine.connection, lm);
        let cands: Vec<serde_json::Value> = finals
            .iter()
            .map(|(score, path)| {
                let text: String = path
                    .iter()
                    .map(|&i| lat.surface(&engine.lexicon, &lat.nodes()[i as usize]))
                    .collect();
                let ids = NeuralDecoder::words(lat, lm, path);
                serde_json::json!({"score": score, "text": text, "ids": ids})
            })
            .collect();
        writeln!(out, "{}", serde_json::json!({"want": want, "cands": cands})).unwrap();
    }
}

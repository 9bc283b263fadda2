//! Exact top-1 of the neural or hybrid engine's final beam re-ranked by
//! `score + β · (backward − φ · forward)` for a grid of β and φ, from one decoding per sentence
//! ([`NeuralDecoder::directions`]; φ = 1 is what the engine does: part of the forward LM's weight
//! moved to the backward LM; φ = 0 adds the backward LM on top). Tunes
//! [`henkan::decoder::neural::NeuralOptions::backward_weight`] on the dev sets (BENCHMARKS.md
//! "Session 12").
//!
//! Usage: `cargo run --release --example sweep_backward -- MODEL FILE neural|hybrid full|half
//! [LIMIT [LAMBDA [BEAM]]]` (LAMBDA: the hybrid's λ, default 1; BEAM default 10).
mod common;

use henkan::Engine;

const BETAS: [f32; 9] = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0];
const PHIS: [f32; 3] = [1.0, 0.5, 0.0];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (model, input, engine_name, half) = (&args[1], &args[2], &args[3], args[4] == "half");
    let limit = args.get(5).map_or(usize::MAX, |a| a.parse().unwrap());
    let engine = Engine::from_bytes(std::fs::read(model).unwrap()).unwrap();
    let lm = engine.neural.as_ref().expect("the model has an LSTM");
    assert!(lm.backward.is_some(), "the model has no backward LM");
    let beam = args.get(7).map_or(10, |a| a.parse().unwrap());
    let mut s = common::session(engine_name, half, beam);
    if let Some(lambda) = args.get(6).map(|a| a.parse::<f32>().unwrap()) {
        let scoring = s.scoring();
        let mut opts = s.neural_decoder().options();
        opts.lambda = lambda;
        s.set_scoring(scoring, opts);
    }
    let text = std::fs::read_to_string(input).unwrap();
    let mut ok = [[0usize; BETAS.len()]; PHIS.len()];
    let (mut n, mut oracle) = (0, 0);
    for line in text.lines().take(limit) {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        n += 1;
        s.clear();
        let _ = s.convert_reading(&engine, reading);
        let finals = s.neural_decoder().directions(&engine.connection, lm);
        let lat = s.lattice();
        let texts: Vec<String> = finals
            .iter()
            .map(|f| {
                f.path
                    .iter()
                    .map(|&i| lat.surface(&engine.lexicon, &lat.nodes()[i as usize]))
                    .collect()
            })
            .collect();
        oracle += usize::from(texts.iter().any(|t| t == want));
        for (p, &phi) in PHIS.iter().enumerate() {
            for (b, &beta) in BETAS.iter().enumerate() {
                let best = finals
                    .iter()
                    .enumerate()
                    .max_by(|(i, x), (j, y)| {
                        let vx = x.score + beta * (x.backward - phi * x.forward);
                        let vy = y.score + beta * (y.backward - phi * y.forward);
                        // ties: the earlier candidate
                        vx.total_cmp(&vy).then(j.cmp(i))
                    })
                    .map(|(i, _)| i);
                ok[p][b] += usize::from(best.is_some_and(|i| texts[i] == *want));
            }
        }
    }
    let pct = |a: usize| 100.0 * a as f64 / n.max(1) as f64;
    println!("{n} sentences, beam oracle {:.2}", pct(oracle));
    for (p, phi) in PHIS.iter().enumerate() {
        let row: Vec<String> = BETAS
            .iter()
            .zip(ok[p])
            .map(|(b, k)| format!("{b}: {:.2}", pct(k)))
            .collect();
        println!("phi {phi}: {}", row.join("  "));
    }
}

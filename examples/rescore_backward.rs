//! Re-ranks the final beam of the neural or hybrid engine with a backward (right-to-left) LSTM LM
//! in Rust, as `training/rescore_beam.py` does in PyTorch, and prints exact top-1 for
//! `score + β · (bwd − fwd)` with both directions normalised two ways: by the full softmax, and
//! over the decoder's lattice vocabulary (the lattice's LM words, the 400 most frequent, `<s>`,
//! `<unk>`: what an IVS-style rescoring in the engine would compute). Also prints the time the
//! lattice-vocabulary rescoring takes per sentence. An experiment for issue 3 (BENCHMARKS.md
//! "Session 11"), not part of the engine.
//!
//! Usage: `cargo run --release --example rescore_backward --features build -- FILE
//! neural|hybrid full|half BWD_DIR [LIMIT [FULL_LIMIT]]` where `BWD_DIR` holds the backward LM's
//! `lstm.safetensors` and `vocab.tsv` (training/README.md §9) and the first `FULL_LIMIT`
//! sentences (default 200) are also scored with the full softmax (slow).
//!
//! With `fwd:DIR[,DIR…]` instead of `BWD_DIR`, the other LMs are *forward* LMs of the same
//! vocabulary whose log-probabilities are averaged: `score + β · (mean other − fwd)` is then a
//! log-linear ensemble with the shipped LM (β = 0.5 with one other LM; BENCHMARKS.md "Session 17").
mod common;

use henkan::build::lstm::{pack_lstm, read_safetensors, read_vocab_tsv, PackOptions};
use henkan::decoder::neural::NeuralDecoder;
use henkan::lm::lstm::{log_sum_exp, LstmModel, StepScratch};
use henkan::model::SectionBytes;
use henkan::Engine;
use std::time::Instant;

const BETAS: [f32; 6] = [0.2, 0.3, 0.4, 0.5, 0.6, 0.8];

/// Sum of log p over `ids` and the closing `<s>`, from `<s>` and a zero state; normalised over
/// `support` (sorted LM ids) or, when `None`, over the whole vocabulary.
fn log_prob(m: &LstmModel, ids: &[u32], bos: u32, support: Option<&[u32]>) -> f32 {
    let hd = m.hidden;
    let (mut h, mut c) = (vec![0.0; hd], vec![0.0; m.cell]);
    let mut x = vec![0.0; hd];
    let mut scratch = StepScratch::default();
    let (mut out, mut row) = (Vec::new(), Vec::new());
    let mut total = 0.0;
    let mut prev = bos;
    for &next in ids.iter().chain(std::iter::once(&bos)) {
        m.embed(prev, &mut x);
        m.step(&x, &mut h, &mut c, &mut scratch);
        total += match support {
            None => {
                m.log_softmax_full(&h, &mut out, &mut row);
                out[next as usize]
            }
            Some(v) => {
                out.resize(v.len(), 0.0);
                m.logits(v, &h, &mut out, &mut row);
                let at = v.binary_search(&next).expect("the word is in the support");
                out[at] - log_sum_exp(&out)
            }
        };
        prev = next;
    }
    total
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (input, engine_name, half, dir) = (&args[1], &args[2], args[3] == "half", &args[4]);
    let limit = args.get(5).map_or(usize::MAX, |a| a.parse().unwrap());
    let full_limit = args.get(6).map_or(200, |a| a.parse().unwrap());
    let engine = Engine::from_bytes(std::fs::read("models/henkan.henkan").unwrap()).unwrap();
    let lm = engine.neural.as_ref().unwrap();
    let (forward, dirs) = match dir.strip_prefix("fwd:") {
        Some(list) => (true, list.split(',').collect::<Vec<_>>()),
        None => (false, vec![dir.as_str()]),
    };
    let others: Vec<LstmModel> = dirs
        .iter()
        .map(|dir| {
            let vocab =
                read_vocab_tsv(&std::fs::read_to_string(format!("{dir}/vocab.tsv")).unwrap())
                    .unwrap();
            let w = read_safetensors(&std::fs::read(format!("{dir}/lstm.safetensors")).unwrap())
                .unwrap();
            LstmModel::from_section(SectionBytes::from_vec(pack_lstm(
                &w,
                &vocab,
                PackOptions::bits(32),
            )))
            .unwrap()
        })
        .collect();
    let fwd = &lm.model;
    let (bos, unk) = (fwd.bos_id, fwd.unk_id);
    let mut s = common::session(engine_name, half, 10);
    let text = std::fs::read_to_string(input).unwrap();
    let (mut n, mut n_full, mut beam_ok, mut beam_ok_full) = (0, 0, 0, 0);
    let mut ok_v = [0usize; BETAS.len()];
    let mut ok_full = [0usize; BETAS.len()];
    let mut rescore_ns = 0u128;
    for line in text.lines().take(limit) {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        let finals = common::final_beam(&engine, &mut s, reading);
        let lat = s.lattice();
        n += 1;
        if finals.is_empty() {
            continue;
        }
        let t0 = Instant::now();
        // the lattice vocabulary of this conversion
        let mut support: Vec<u32> = (0..400u32.min(fwd.vocab as u32)).collect();
        support.extend(
            lat.nodes()
                .iter()
                .map(|node| NeuralDecoder::word_of(lm, node.entry)),
        );
        support.extend([bos, unk]);
        support.sort_unstable();
        support.dedup();
        let mix = |norm: Option<&[u32]>| -> Vec<(f32, f32)> {
            finals
                .iter()
                .map(|f| {
                    let ids: Vec<u32> = if forward {
                        f.ids.clone()
                    } else {
                        f.ids.iter().rev().copied().collect()
                    };
                    let other = others
                        .iter()
                        .map(|m| log_prob(m, &ids, bos, norm))
                        .sum::<f32>()
                        / others.len() as f32;
                    (log_prob(fwd, &f.ids, bos, norm), other)
                })
                .collect()
        };
        let pick = |scores: &[(f32, f32)], beta: f32| -> usize {
            let mut best = 0;
            let mut best_v = f32::NEG_INFINITY;
            for (k, (fin, (f, b))) in finals.iter().zip(scores).enumerate() {
                let v = fin.score + beta * (b - f);
                if v > best_v {
                    best_v = v;
                    best = k;
                }
            }
            best
        };
        let by_v = mix(Some(&support));
        rescore_ns += t0.elapsed().as_nanos();
        beam_ok += usize::from(finals[0].text == want);
        for (k, &beta) in BETAS.iter().enumerate() {
            ok_v[k] += usize::from(finals[pick(&by_v, beta)].text == want);
        }
        if n <= full_limit {
            n_full += 1;
            beam_ok_full += usize::from(finals[0].text == want);
            let by_full = mix(None);
            for (k, &beta) in BETAS.iter().enumerate() {
                ok_full[k] += usize::from(finals[pick(&by_full, beta)].text == want);
            }
        }
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "{n} sentences: beam {:.2}; lattice-vocabulary rescoring {:.2} ms per sentence",
        pct(beam_ok, n),
        rescore_ns as f64 / 1e6 / n.max(1) as f64
    );
    for (k, beta) in BETAS.iter().enumerate() {
        println!("beta {beta}: lattice vocabulary {:.2}", pct(ok_v[k], n));
    }
    println!(
        "first {n_full} sentences: beam {:.2}",
        pct(beam_ok_full, n_full)
    );
    for (k, beta) in BETAS.iter().enumerate() {
        println!("beta {beta}: full softmax {:.2}", pct(ok_full[k], n_full));
    }
}

//! `henkan model attach lstm --keep-embedding` (`henkan_builder::lstm::replace_recurrent`): a new recurrent part
//! for the shipped LM, its stored embedding and the sections that depend on it kept.
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use henkan::lm::lstm::LstmModel;
use henkan::model::{Container, SectionKind};
use henkan::Engine;
use henkan_builder::lstm::{replace_recurrent, LstmWeights, Quant};

fn section(bytes: &[u8], kind: SectionKind) -> Vec<u8> {
    let c = Container::from_bytes(bytes.to_vec()).unwrap();
    c.section(kind)
        .map(|s| s.as_ref().to_vec())
        .unwrap_or_default()
}

/// The shipped model's bytes and its LSTM LM.
fn shipped_lstm() -> (Vec<u8>, LstmModel) {
    let model = std::fs::read(shipped_path()).unwrap();
    let c = Container::from_bytes(model.clone()).unwrap();
    let lm = LstmModel::from_section(c.require(SectionKind::Lstm).unwrap()).unwrap();
    (model, lm)
}

#[test]
fn the_recurrent_part_is_replaced_and_the_rest_kept() {
    let (model, old) = shipped_lstm();
    let mut w = LstmWeights::from_model(&old);
    // a new recurrent part: the matrices scaled, one bias and one output bias moved
    for v in w.w_hh.iter_mut() {
        *v *= 0.5;
    }
    w.b[7] += 1.0;
    w.out_bias[42] -= 3.0;
    let (bytes, diff) = replace_recurrent(model.clone(), &w, Quant::Codebook(4)).unwrap();
    assert_eq!(diff, 0.0);
    let engine = Engine::from_bytes(bytes.clone()).unwrap();
    let lm = engine.neural.as_ref().unwrap();
    let new = &lm.model;
    // the embedding decodes exactly as before, row for row
    let h = old.hidden;
    let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
    for r in (0..old.vocab).step_by(97) {
        old.embedding.decode_row(r, h, &mut a);
        new.embedding.decode_row(r, h, &mut b);
        assert_eq!(a, b, "row {r}");
    }
    // the new recurrent part is what was given (the matrices through a 4-bit codebook)
    let got = LstmWeights::from_model(new);
    assert_eq!(got.b, w.b);
    assert_eq!(got.out_bias, w.out_bias);
    // mean error of a 4-bit codebook: a small part of the mean magnitude
    let n = w.w_hh.len() as f32;
    let err: f32 = got
        .w_hh
        .iter()
        .zip(&w.w_hh)
        .map(|(x, y)| (x - y).abs())
        .sum::<f32>()
        / n;
    let mean: f32 = w.w_hh.iter().map(|v| v.abs()).sum::<f32>() / n;
    assert!(
        err < 0.2 * mean,
        "w_hh off by {err} on average (mean magnitude {mean})"
    );
    let before = LstmWeights::from_model(&old);
    assert!(got.w_hh.iter().zip(&before.w_hh).any(|(x, y)| x != y));
    // the sections that depend on the embedding, the word ids or the entries stay, byte for
    // byte, in their places
    let order = |b: &[u8]| -> Vec<SectionKind> {
        let c = Container::from_bytes(b.to_vec()).unwrap();
        c.entries().iter().filter_map(|e| e.kind).collect()
    };
    assert_eq!(order(&bytes), order(&model));
    for kind in [
        SectionKind::LstmBackward,
        SectionKind::LmVocab,
        SectionKind::PredictBias,
        SectionKind::WordBias,
        SectionKind::LexiconIndex,
    ] {
        assert_eq!(section(&bytes, kind), section(&model, kind), "{kind:?}");
    }
    assert!(lm.backward.is_some());
    // and the engine converts with it
    let mut s = henkan::Session::new();
    s.set_scoring(
        henkan::decoder::neural::Scoring::Hybrid,
        henkan::decoder::neural::NeuralOptions::default(),
    );
    assert!(!s
        .convert_reading(&engine, "きょうはいいてんきです")
        .text()
        .is_empty());
}

#[test]
fn another_embedding_or_shape_is_refused() {
    let (model, old) = shipped_lstm();
    let mut w = LstmWeights::from_model(&old);
    w.embedding[1000] += 0.01;
    let e = replace_recurrent(model.clone(), &w, Quant::Codebook(4)).unwrap_err();
    assert!(e.to_string().contains("embedding differs"), "{e}");
    let mut w = LstmWeights::from_model(&old);
    w.vocab -= 1;
    w.embedding.truncate(w.vocab * w.hidden);
    w.out_bias.pop();
    assert!(replace_recurrent(model, &w, Quant::Codebook(4)).is_err());
}

#[test]
fn a_wider_recurrent_part_with_a_projection_replaces_the_old() {
    // The shipped LM widened to 512 cells with a projection back to its 256 outputs, as
    // `train_lstm.py --cell 512 --init-from` starts: the old cells first in every gate block,
    // the new ones silent (zero weights, their columns of w_hr zero), so the widened LM
    // computes what the old one did.
    let (model, old) = shipped_lstm();
    let w0 = LstmWeights::from_model(&old);
    let (h, c0, c) = (old.hidden, old.cell, 2 * old.cell);
    let mut w = LstmWeights {
        cell: c,
        w_ih: vec![0.0; 4 * c * h],
        w_hh: vec![0.0; 4 * c * h],
        w_hr: vec![0.0; h * c],
        b: vec![0.0; 4 * c],
        ..w0.clone()
    };
    for g in 0..4 {
        let (from, to) = (g * c0 * h, g * c * h);
        w.w_ih[to..to + c0 * h].copy_from_slice(&w0.w_ih[from..from + c0 * h]);
        w.w_hh[to..to + c0 * h].copy_from_slice(&w0.w_hh[from..from + c0 * h]);
        w.b[g * c..g * c + c0].copy_from_slice(&w0.b[g * c0..(g + 1) * c0]);
    }
    for r in 0..h {
        w.w_hr[r * c + r] = 1.0;
    }
    let (bytes, diff) = replace_recurrent(model.clone(), &w, Quant::Codebook(4)).unwrap();
    assert_eq!(diff, 0.0);
    let engine = Engine::from_bytes(bytes).unwrap();
    let new = &engine.neural.as_ref().unwrap().model;
    assert_eq!((new.cell, new.hidden, new.vocab), (c, h, old.vocab));
    // The projection is zeros and a few ones: its 4-bit codebook keeps both exactly (k-means
    // started from the quantiles alone, all zero, averaged the ones away).
    let packed = LstmWeights::from_model(new);
    assert_eq!(packed.w_hr, w.w_hr);
    // the old cells' weights come back as close as the shipped 4-bit packing keeps them
    let err = |a: &[f32], b: &[f32]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max)
    };
    let old_cells = |m: &[f32]| -> Vec<f32> {
        (0..4)
            .flat_map(|g| m[g * c * h..g * c * h + c0 * h].to_vec())
            .collect()
    };
    assert!(err(&old_cells(&packed.w_hh), &w0.w_hh) < 0.1);
    // it converts as the old LM did on a plain sentence
    let convert = |engine: &Engine| {
        let mut s = henkan::Session::new();
        s.set_scoring(
            henkan::decoder::neural::Scoring::Hybrid,
            henkan::decoder::neural::NeuralOptions::default(),
        );
        s.convert_reading(engine, "きょうはいいてんきです").text()
    };
    assert_eq!(convert(&engine), convert(&shipped_engine()));
}

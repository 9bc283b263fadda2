//! The backward LM (`LstmBackward` section): packing checks, the section format, and the neural
//! engine's rescoring of its final beam, checked against a direct computation (both directions
//! run word by word from `<s>` and normalised over the lattice vocabulary). Built on the shipped
//! dictionary with the tiny CI LSTM (`tests/data/lm-tiny`); the backward LM
//! is the tiny LM's own decoded weights with other recurrent weights (it must share the model
//! LM's embedding, as a trained one does: docs/training.md).

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::lm::lstm::format::read_backward;
use henkan::lm::lstm::{log_sum_exp, LstmModel, StepScratch};
use henkan::model::{Container, SectionBytes, SectionKind};
use henkan::{Engine, Session};
use henkan_builder::lstm::{
    attach_backward, attach_lstm, pack_backward, read_safetensors, LstmWeights, PackOptions, Quant,
    VocabMatch,
};

const READINGS: &[&str] = &[
    "きょうはいいてんきですね",
    "わたしはにほんごをべんきょうしています",
    "きしゃのきしゃがきしゃできしゃした",
    "さんじゅうにんがきた",
];

/// The shipped model's bytes with the tiny LM attached (no backward LM yet).
fn tiny_model() -> Vec<u8> {
    common::shipped_with_tiny_lm("lm-tiny", VocabMatch::default()).0
}

/// A backward LM for `bytes`' LM: its decoded weights with the recurrent matrices permuted
/// (rows reversed within each gate), so it scores differently but shares the embedding.
fn backward_weights(bytes: &[u8]) -> LstmWeights {
    let e = Engine::from_bytes(bytes.to_vec()).unwrap();
    let mut w = LstmWeights::from_model(&e.neural.as_ref().unwrap().model);
    let h = w.hidden;
    for m in [&mut w.w_ih, &mut w.w_hh] {
        for gate in m.chunks_exact_mut(h * h) {
            let rows: Vec<f32> = gate.chunks_exact(h).rev().flatten().copied().collect();
            gate.copy_from_slice(&rows);
        }
    }
    w.out_bias.reverse();
    w
}

/// The tiny model with its backward LM (recurrent matrices `recurrent`, bias at `bias_bits`).
fn engines() -> (Engine, Engine) {
    let bytes = tiny_model();
    let w = backward_weights(&bytes);
    let (with, report) = attach_backward(bytes.clone(), &w, Quant::Codebook(8), 8).unwrap();
    assert_eq!(report.embedding_max_diff, 0.0);
    let with = Engine::from_bytes(with).unwrap();
    assert!(with.neural.as_ref().unwrap().backward.is_some());
    (Engine::from_bytes(bytes).unwrap(), with)
}

fn session(scoring: Scoring, backward_weight: f32) -> Session {
    let mut s = Session::new();
    s.set_scoring(
        scoring,
        NeuralOptions {
            backward_weight,
            // the shipped dictionary's word vectors re-rank too: off, to check the backward LM alone
            coherence_weight: 0.0,
            ..NeuralOptions::default()
        },
    );
    s
}

/// Sum of log p over `ids` and the closing `<s>`, from `<s>` and a zero state, normalised over
/// `support` (sorted LM ids): the direct computation the decoder's rescoring must equal.
fn log_prob(m: &LstmModel, ids: &[u32], bos: u32, support: &[u32]) -> f32 {
    let hd = m.hidden;
    let (mut h, mut c) = (vec![0.0; hd], vec![0.0; m.cell]);
    let mut x = vec![0.0; hd];
    let mut scratch = StepScratch::default();
    let (mut out, mut row) = (vec![0.0; support.len()], Vec::new());
    let mut total = 0.0;
    let mut prev = bos;
    for &next in ids.iter().chain(std::iter::once(&bos)) {
        m.embed(prev, &mut x);
        m.step(&x, &mut h, &mut c, &mut scratch);
        m.logits(support, &h, &mut out, &mut row);
        let at = support.binary_search(&next).expect("the word is in V");
        total += out[at] - log_sum_exp(&out);
        prev = next;
    }
    total
}

/// The rescored beam is the beam's scores plus β · (backward − forward), both computed
/// directly over the lattice vocabulary, sorted best first.
#[test]
fn rescoring_adds_the_backward_minus_forward_log_probability() {
    let (_, e) = engines();
    let lm = e.neural.as_ref().unwrap();
    let (fwd, bwd) = (&lm.model, lm.backward.as_ref().unwrap());
    let beta = 0.7;
    let mut changed = 0;
    for r in READINGS {
        let mut s = session(Scoring::Neural, beta);
        let _ = s.convert_reading(&e, r);
        let lat = s.lattice();
        let dec = s.neural_decoder();
        let finals = dec.finals(&e.connection, lm);
        assert!(finals.len() > 1, "{r}");
        let mut support: Vec<u32> = (0..400u32.min(fwd.vocab as u32)).collect();
        support.extend(
            lat.nodes()
                .iter()
                .map(|n| dec.scored_word(lm, n.entry, n.left_id)),
        );
        support.extend([fwd.bos_id, fwd.unk_id]);
        support.sort_unstable();
        support.dedup();
        assert_eq!(support.len(), dec.vocabulary_len(), "{r}");
        let mut want: Vec<(f32, Vec<u32>)> = finals
            .iter()
            .map(|(score, path)| {
                let ids = dec.words(lat, &e.lexicon, &e.connection, lm, path);
                let rev: Vec<u32> = ids.iter().rev().copied().collect();
                let f = log_prob(fwd, &ids, fwd.bos_id, &support);
                let b = log_prob(bwd, &rev, fwd.bos_id, &support);
                (score + beta * (b - f), path.clone())
            })
            .collect();
        want.sort_by(|a, b| b.0.total_cmp(&a.0));
        let got = dec.rescored_finals(&e.connection, lm, lat);
        assert_eq!(got.len(), want.len());
        for ((gs, gp), (ws, wp)) in got.iter().zip(&want) {
            assert!((gs - ws).abs() < 2e-3, "{r}: {gs} vs {ws}");
            assert_eq!(gp, wp, "{r}");
        }
        changed += usize::from(got[0].1 != finals[0].1);
    }
    eprintln!("{changed} of {} best sentences changed", READINGS.len());
}

/// Rescoring happens on conversion for the LM alone; the preview (best text per key) and the
/// hybrid keep the beam's order; β = 0 or a model without the section change nothing.
#[test]
fn only_the_lm_alone_converts_with_the_backward_lm() {
    let (plain, e) = engines();
    let lm = e.neural.as_ref().unwrap();
    for r in READINGS {
        let hybrid = |e: &Engine| session(Scoring::Hybrid, 0.7).convert_reading(e, r);
        assert_eq!(hybrid(&e), hybrid(&plain), "{r}");
        let off = session(Scoring::Neural, 0.0).convert_reading(&e, r);
        assert_eq!(
            off,
            session(Scoring::Neural, 0.7).convert_reading(&plain, r),
            "{r}"
        );
        let mut s = session(Scoring::Neural, 0.7);
        let conv = s.convert_reading(&e, r);
        let best = s
            .neural_decoder()
            .rescored_finals(&e.connection, lm, s.lattice())[0]
            .1
            .clone();
        let lat = s.lattice();
        let text: String = best
            .iter()
            .map(|&i| lat.surface(&e.lexicon, &lat.nodes()[i as usize]))
            .collect();
        assert_eq!(conv.text(), text, "{r}");
        assert_eq!(conv.nbest[0], text, "{r}");
        // typing key by key, then converting, gives the same conversion
        let mut typed = session(Scoring::Neural, 0.7);
        typed.insert_str(&e, r);
        assert_eq!(typed.convert(&e).nbest, conv.nbest, "{r}");
        // the preview is the beam's best
        let beam_best = &s.neural_decoder().finals(&e.connection, lm)[0].1;
        let preview: String = beam_best
            .iter()
            .map(|&i| lat.surface(&e.lexicon, &lat.nodes()[i as usize]))
            .collect();
        assert_eq!(s.best_text(&e), preview, "{r}");
    }
}

/// The section round-trips (f32 exactly, codebooks as decoded), every truncation is an error,
/// and a section of another LM's size is refused.
#[test]
fn the_section_reads_back_and_rejects_damage() {
    let bytes = tiny_model();
    let e = Engine::from_bytes(bytes.clone()).unwrap();
    let fwd = &e.neural.as_ref().unwrap().model;
    let w = backward_weights(&bytes);
    let section = pack_backward(&w, Quant::F32, 32);
    let m = read_backward(SectionBytes::from_vec(section.clone()), fwd).unwrap();
    let back = LstmWeights::from_model(&m);
    assert_eq!(back.w_ih, w.w_ih);
    assert_eq!(back.w_hh, w.w_hh);
    assert_eq!(back.b, w.b);
    assert_eq!(back.out_bias, w.out_bias);
    assert_eq!(back.embedding, w.embedding, "the forward LM's embedding");
    for cut in (0..section.len()).step_by(97) {
        assert!(
            read_backward(SectionBytes::from_vec(section[..cut].to_vec()), fwd).is_err(),
            "cut at {cut}"
        );
    }
    let q = pack_backward(&w, Quant::Codebook(4), 8);
    assert!(
        q.len() * 5 < section.len(),
        "{} vs {}",
        q.len(),
        section.len()
    );
    let m = read_backward(SectionBytes::from_vec(q), fwd).unwrap();
    assert_eq!(m.recurrent_bits, 4);
    let distinct: std::collections::BTreeSet<u32> =
        m.out_bias.iter().map(|v| v.to_bits()).collect();
    assert!(distinct.len() <= 256);
    let mut other = w.clone();
    other.vocab -= 1;
    other.out_bias.pop();
    other.embedding.truncate(other.vocab * other.hidden);
    let wrong = pack_backward(&other, Quant::F32, 32);
    assert!(read_backward(SectionBytes::from_vec(wrong), fwd).is_err());
}

/// attach-backward refuses an LM trained on another embedding and one of another size, and
/// `model attach lstm` drops the backward LM of the LM it replaces.
#[test]
fn attaching_checks_the_embedding_and_a_new_lm_drops_it() {
    let bytes = tiny_model();
    let mut w = backward_weights(&bytes);
    w.embedding[5] += 0.01;
    let err = attach_backward(bytes.clone(), &w, Quant::Codebook(4), 8).unwrap_err();
    assert!(err.to_string().contains("embedding"), "{err}");
    let w = backward_weights(&bytes);
    let (with, _) = attach_backward(bytes.clone(), &w, Quant::Codebook(4), 8).unwrap();
    let c = Container::from_bytes(with.clone()).unwrap();
    assert!(c.section(SectionKind::LstmBackward).is_some());
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/lm-tiny/");
    let st = std::fs::read(format!("{data}lstm.safetensors")).unwrap();
    let vocab = std::fs::read_to_string(format!("{data}vocab.tsv")).unwrap();
    let (replaced, _) = attach_lstm(
        with,
        &read_safetensors(&st).unwrap(),
        &vocab,
        None,
        PackOptions::bits(8),
        VocabMatch::default(),
    )
    .unwrap();
    let c = Container::from_bytes(replaced).unwrap();
    assert!(c.section(SectionKind::LstmBackward).is_none());
}

/// A long reading (a paste as long as one piece, [`henkan::MAX_PIECE_CHARS`]) converts with
/// the rescoring and gives what the direct computation's order gives.
#[test]
fn a_long_reading_is_rescored() {
    let (_, e) = engines();
    let reading = "きょうはいいてんきですね".repeat(20);
    assert!(reading.chars().count() <= henkan::MAX_PIECE_CHARS);
    let mut s = session(Scoring::Neural, 0.7);
    let conv = s.convert_reading(&e, &reading);
    assert!(conv.text().chars().count() >= 120, "{}", conv.text());
    let lm = e.neural.as_ref().unwrap();
    let d = s.neural_decoder().directions(&e.connection, lm);
    assert!(d.len() > 1);
    assert!(d.iter().all(|f| f.forward.is_finite()
        && f.backward.is_finite()
        && f.forward < 0.0
        && f.backward < 0.0));
}

//! The hybrid's word bias (`henkan::decoder::bias`, `henkan_builder::bias`) on the shipped
//! model: a bias moves the hybrid to an annotation's spelling, the model section carries it,
//! and the neural engine ignores it. Also the committed-text context of `eval conversion
//! --context-lines` (`henkan_builder::gold::CommittedContext`).

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::bias::WordBias;
use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::lattice::{NUMBER_ENTRY, UNKNOWN_ENTRY};
use henkan::{Engine, Session};
use henkan_builder::bias::{attach_bias, read_tsv, write_tsv};
use henkan_builder::gold::{parse_tokens, GoldAligner};

fn convert(engine: &Engine, scoring: Scoring, reading: &str) -> String {
    let mut s = Session::new();
    s.set_scoring(scoring, NeuralOptions::default());
    s.convert_reading(engine, reading).text()
}

fn with_bias(engine: &Engine, bias: WordBias) -> Engine {
    let mut e = engine.clone();
    e.neural
        .as_mut()
        .expect("the shipped model has an LSTM")
        .bias = bias;
    e
}

/// A bias of `weight` for every dictionary entry on the gold path of `reading` → `text`.
fn bias_for(engine: &Engine, reading: &str, text: &str, weight: f32) -> WordBias {
    let mut aligner = GoldAligner::new();
    let path = aligner
        .align(engine, reading, text, |_| 0)
        .expect("the text spells the reading");
    let mut w = WordBias::new();
    for i in path {
        let n = aligner.lattice().nodes()[i as usize];
        if n.entry != UNKNOWN_ENTRY && n.entry != NUMBER_ENTRY {
            w.set(n.entry, weight);
        }
    }
    assert!(!w.is_empty());
    w
}

#[test]
fn a_word_bias_moves_the_hybrid_and_the_model_keeps_it() {
    let engine = common::shipped_engine();
    assert!(engine.neural.is_some());
    // the annotation writes 下さい where the hybrid writes ください
    let s = parse_tokens("見て/みて/動詞 下さい/ください/接尾辞-動詞性接尾辞").unwrap();
    let before = convert(&engine, Scoring::Hybrid, &s.reading);
    assert_ne!(before, s.text);
    let w = bias_for(&engine, &s.reading, &s.text, 10.0);
    let biased = with_bias(&engine, w.clone());
    assert_eq!(convert(&biased, Scoring::Hybrid, &s.reading), s.text);
    // the neural engine does not use the bias
    assert_eq!(
        convert(&biased, Scoring::Neural, &s.reading),
        convert(&engine, Scoring::Neural, &s.reading)
    );
    // through the text file and the model section
    let back = read_tsv(&write_tsv(&w, &Default::default())).unwrap();
    assert_eq!(back.entries(), w.entries());
    let (bytes, len) = attach_bias(common::shipped_bytes(), &w, None).unwrap();
    assert!(len > 16);
    let loaded = Engine::from_bytes(bytes).unwrap();
    assert_eq!(loaded.neural.as_ref().unwrap().bias.len(), w.len());
    assert_eq!(convert(&loaded, Scoring::Hybrid, &s.reading), s.text);
    // weight 0 turns it off
    let mut off = Session::new();
    off.set_scoring(
        Scoring::Hybrid,
        NeuralOptions {
            bias_weight: 0.0,
            ..NeuralOptions::default()
        },
    );
    assert_eq!(off.convert_reading(&loaded, &s.reading).text(), before);
}

#[test]
fn committed_context_keeps_the_gold_words_of_the_last_lines() {
    use henkan_builder::gold::CommittedContext;
    let engine = common::shipped_engine();
    let lm = engine.neural.as_ref().unwrap();
    let mut ctx = CommittedContext::new(2);
    assert!(ctx.words().is_empty());
    ctx.commit(&engine, "きょうはいいてんきですね", "今日はいい天気ですね");
    let one = ctx.words();
    assert_eq!(one[0], lm.model.bos_id);
    assert!(one.len() >= 5, "{one:?}");
    assert!(one[1..].iter().all(|&w| w != lm.model.bos_id));
    // without a gold path (the text does not spell the reading): the hybrid's best path
    ctx.commit(&engine, "あめ", "晴れ");
    ctx.commit(&engine, "あめ", "雨");
    let two = ctx.words();
    assert_eq!(two.iter().filter(|&&w| w == lm.model.bos_id).count(), 2);
    assert!(!two.starts_with(&one), "the oldest line is dropped");
    // a session started from it still converts
    let mut s = Session::new();
    s.set_scoring(Scoring::Hybrid, NeuralOptions::default());
    s.set_context_words(&engine, &two);
    assert_eq!(
        s.convert_reading(&engine, "きょうはいいてんきですね")
            .text(),
        "今日はいい天気ですね"
    );
}

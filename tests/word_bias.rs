//! The hybrid's word bias (`henkan::decoder::bias`, `henkan::build::bias`) on the shipped
//! model: the perceptron learns an annotation's spelling, the model section carries it, and
//! the neural engine ignores it. Also the committed-text context of `eval conversion
//! --context-lines` (`henkan::build::gold::CommittedContext`).
#![cfg(feature = "build")]

mod common;

use henkan::build::bias::{
    attach_bias, parse_tokens, read_tsv, train_epoch, write_tsv, BiasOptions,
};
use henkan::decoder::bias::WordBias;
use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::{Engine, Session};

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

#[test]
fn the_perceptron_learns_the_annotated_spelling_and_the_model_keeps_it() {
    let engine = common::shipped_engine();
    assert!(engine.neural.is_some());
    // the annotation writes 下さい where the hybrid writes ください
    let s = parse_tokens("見て/みて/動詞 下さい/ください/接尾辞-動詞性接尾辞").unwrap();
    let before = convert(&engine, Scoring::Hybrid, &s.reading);
    assert_ne!(before, s.text);
    let opts = BiasOptions {
        rate: 0.5,
        threads: 1,
        decoder: NeuralOptions::default(),
    };
    let mut w = WordBias::new();
    let mut first = None;
    for _ in 0..20 {
        let e = train_epoch(&engine, &w, std::slice::from_ref(&s), &opts);
        first.get_or_insert(e.report);
        w = e.current;
        if e.report.correct == 1 {
            break;
        }
    }
    let first = first.unwrap();
    assert_eq!((first.sentences, first.correct, first.updates), (1, 0, 1));
    assert!(!w.is_empty());
    let learned = with_bias(&engine, w.clone());
    assert_eq!(convert(&learned, Scoring::Hybrid, &s.reading), s.text);
    // the neural engine does not use the bias
    assert_eq!(
        convert(&learned, Scoring::Neural, &s.reading),
        convert(&engine, Scoring::Neural, &s.reading)
    );
    // through the text file and the model section
    let back = read_tsv(&write_tsv(&w, &Default::default())).unwrap();
    assert_eq!(back.len(), w.len());
    let file = std::fs::read(common::shipped_path()).unwrap();
    let (bytes, len) = attach_bias(file, &w, None).unwrap();
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
fn a_sentence_without_a_gold_path_changes_nothing() {
    let engine = common::shipped_engine();
    // the text cannot be spelled from this reading
    let s = parse_tokens("犬/ねこ/名詞").unwrap();
    let opts = BiasOptions::default();
    let e = train_epoch(&engine, &WordBias::new(), &[s], &opts);
    assert_eq!((e.report.no_gold, e.report.updates), (1, 0));
    assert!(e.current.is_empty() && e.averaged.is_empty());
}

#[test]
fn committed_context_keeps_the_gold_words_of_the_last_lines() {
    use henkan::build::gold::CommittedContext;
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

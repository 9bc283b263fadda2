//! Gold paths (`henkan_builder::gold`) on the tiny hand-made model, and the f32 export of a
//! packed LM (`LstmWeights::from_model`, `henkan model export-lstm`) read back.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::Engine;
use henkan_builder::gold::{fold, GoldAligner};
use henkan_builder::lstm::{attach_lstm, read_safetensors, LstmWeights, PackOptions, VocabMatch};

/// The surfaces along a gold path.
fn spelled(
    engine: &Engine,
    a: &mut GoldAligner,
    reading: &str,
    surface: &str,
) -> Option<Vec<String>> {
    let path = a.align(engine, reading, surface, |_| 0)?;
    let l = a.lattice();
    Some(
        path.iter()
            .map(|&i| l.surface(&engine.lexicon, &l.nodes()[i as usize]))
            .collect(),
    )
}

#[test]
fn the_gold_path_spells_the_text_even_when_it_is_not_the_cheapest() {
    let e = common::tiny_engine();
    let mut a = GoldAligner::new();
    // 今日 (100) is cheaper than 京 (300); the text says 京
    assert_eq!(
        spelled(&e, &mut a, "きょうは", "京は").unwrap(),
        ["京", "は"]
    );
    assert_eq!(
        spelled(&e, &mut a, "きょうは", "今日は").unwrap(),
        ["今日", "は"]
    );
    // the particle は (50) or the noun 葉 (400): the text decides
    assert_eq!(
        spelled(&e, &mut a, "きょうは", "今日葉").unwrap(),
        ["今日", "葉"]
    );
    // 木 + 用 only when the text has them
    assert_eq!(
        spelled(&e, &mut a, "きょうは", "木用は").unwrap(),
        ["木", "用", "は"]
    );
    // no lattice path spells it
    assert_eq!(spelled(&e, &mut a, "きょうは", "明日は"), None);
    assert_eq!(spelled(&e, &mut a, "きょうは", "今日は!"), None);
    assert_eq!(spelled(&e, &mut a, "きょうは", "今日"), None);
    // an unknown node (its reading as it is) matches in either width
    assert_eq!(
        spelled(&e, &mut a, "ａきょう", "a今日").unwrap(),
        ["ａ", "今日"]
    );
}

#[test]
fn extra_costs_choose_between_paths_with_the_same_text() {
    // the tiny dictionary plus a compound 今日は (one entry, cheaper than 今日 + は)
    let lex = format!("{}きょうは\t1\t1\t120\t今日は\n", common::TINY_LEX);
    let bytes = henkan_builder::build_model(
        &lex,
        &common::tiny_matrix(),
        common::TINY_ID_DEF,
        common::TINY_SEGMENTER,
        &henkan_builder::BuildOptions::default(),
    )
    .unwrap()
    .0;
    let e = Engine::from_bytes(bytes).unwrap();
    let mut a = GoldAligner::new();
    assert_eq!(
        spelled(&e, &mut a, "きょうは", "今日は").unwrap(),
        ["今日は"]
    );
    // a penalty on the compound (say, a word the LM does not know): its parts win
    let compound = a.align(&e, "きょうは", "今日は", |_| 0).unwrap()[0];
    let entry = a.lattice().nodes()[compound as usize].entry;
    let path = a
        .align(&e, "きょうは", "今日は", |x| {
            if x.entry == entry {
                10_000
            } else {
                0
            }
        })
        .unwrap();
    let l = a.lattice();
    let words: Vec<String> = path
        .iter()
        .map(|&i| l.surface(&e.lexicon, &l.nodes()[i as usize]))
        .collect();
    assert_eq!(words, ["今日", "は"]);
}

#[test]
fn fold_maps_full_width_ascii_and_the_ideographic_space() {
    assert_eq!(
        "１２ＡＢｃ！　".chars().map(fold).collect::<String>(),
        "12ABc! "
    );
    assert_eq!(
        "今日はいい天気".chars().map(fold).collect::<String>(),
        "今日はいい天気"
    );
}

#[test]
fn the_f32_export_of_a_packed_lm_reads_back_as_the_same_weights() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/lm-tiny/");
    let st = std::fs::read(format!("{data}lstm.safetensors")).unwrap();
    let vocab = std::fs::read_to_string(format!("{data}vocab.tsv")).unwrap();
    let w = read_safetensors(&st).unwrap();
    let model = std::fs::read(common::shipped_path()).unwrap();
    // f32: the export is the trained weights exactly
    let (bytes, _) = attach_lstm(
        model.clone(),
        &w,
        &vocab,
        None,
        PackOptions::bits(32),
        VocabMatch::Exact,
    )
    .unwrap();
    let e = Engine::from_bytes(bytes).unwrap();
    let back = LstmWeights::from_model(&e.neural.as_ref().unwrap().model);
    assert_eq!(back.embedding, w.embedding);
    assert_eq!(back.w_ih, w.w_ih);
    assert_eq!(back.w_hh, w.w_hh);
    assert_eq!(back.b, w.b);
    assert_eq!(back.out_bias, w.out_bias);
    // 4 bits: the export is what the quantized model computes, and survives a file round trip
    let (bytes, _) = attach_lstm(
        model,
        &w,
        &vocab,
        None,
        PackOptions::bits(4),
        VocabMatch::Exact,
    )
    .unwrap();
    let e = Engine::from_bytes(bytes).unwrap();
    let m = &e.neural.as_ref().unwrap().model;
    let q = LstmWeights::from_model(m);
    assert_ne!(q.embedding, w.embedding);
    let mut row = vec![0.0; m.hidden];
    m.embedding.decode_row(7, m.hidden, &mut row);
    assert_eq!(&q.embedding[7 * m.hidden..8 * m.hidden], &row[..]);
    let file = q.to_safetensors(&[("vocab_size", m.vocab.to_string())]);
    let r = read_safetensors(&file).unwrap();
    assert_eq!((r.vocab, r.hidden, r.cell), (q.vocab, q.hidden, q.cell));
    assert_eq!(r.embedding, q.embedding);
    assert_eq!(r.w_ih, q.w_ih);
    assert_eq!(r.w_hh, q.w_hh);
    assert_eq!(r.b, q.b);
    assert_eq!(r.out_bias, q.out_bias);
}

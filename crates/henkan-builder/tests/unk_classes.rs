//! An LM with `<unk>` classes (`training/unk_classes.py`) in the shipped model: `attach lstm`
//! stores the table left POS id → class, the decoders score an entry without an LM word as its
//! class, and `remap-lm-vocab` keeps the table.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::{Engine, Session};
use henkan_builder::lstm::{
    attach_lstm, read_safetensors, remap_lm_vocab, LstmWeights, PackOptions, VocabMatch,
};

/// 名詞,サ変接続 (`帰社`) and 名詞,一般 (`記者`, `汽車`, `貴社`): none is a word of the tiny LM.
const SAHEN: u16 = 1841;
const NOUN: u16 = 1851;

fn convert(engine: &Engine, reading: &str) -> String {
    let mut s = Session::new();
    s.set_scoring(Scoring::Hybrid, NeuralOptions::default());
    s.convert_reading(engine, reading).text()
}

/// The tiny CI LM with two class words appended (ids 2000 and 2001: サ変 nouns, common nouns),
/// the サ変 class given an output bias far above every other word, and its vocab.tsv.
fn tiny_lm_with_classes() -> (LstmWeights, String) {
    let st = std::fs::read(format!("{}lm-tiny/lstm.safetensors", common::DATA)).unwrap();
    let mut w = read_safetensors(&st).unwrap();
    let mut vocab = std::fs::read_to_string(format!("{}lm-tiny/vocab.tsv", common::DATA)).unwrap();
    assert_eq!(w.vocab, 2000);
    for (key, bias) in [("<unk:名詞,サ変接続>", 30.0), ("<unk:名詞,一般>", -30.0)] {
        vocab.push_str(&format!("{}\t{key}\t1\n", w.vocab));
        w.embedding.extend(std::iter::repeat_n(0.0, w.hidden));
        w.out_bias.push(bias);
        w.vocab += 1;
    }
    (w, vocab)
}

#[test]
fn entries_without_an_lm_word_are_scored_as_their_class() {
    let (w, vocab) = tiny_lm_with_classes();
    let classes = format!("{SAHEN}\t2000\n{NOUN}\t2001\n");
    let how = VocabMatch::Spelling;
    let (with, _) = attach_lstm(
        common::shipped_bytes(),
        &w,
        &vocab,
        Some(&classes),
        PackOptions::bits(8),
        how,
    )
    .unwrap();
    let (without, _) = attach_lstm(
        common::shipped_bytes(),
        &w,
        &vocab,
        None,
        PackOptions::bits(8),
        how,
    )
    .unwrap();
    let engine = Engine::from_bytes(with.clone()).unwrap();
    let lm = engine.neural.as_ref().unwrap();
    assert_eq!(lm.vocab.class_of(SAHEN), 2000);
    assert_eq!(lm.vocab.class_of(NOUN), 2001);
    assert_eq!(lm.vocab.class_of(2), lm.vocab.unk_id);
    let kisha = engine
        .lexicon
        .get("きしゃ")
        .find(|e| e.left_id == SAHEN)
        .unwrap();
    assert_eq!(lm.vocab.lm_word(kisha.offset).0, lm.vocab.unk_id);
    assert_eq!(lm.vocab.lm_word_or_class(kisha.offset, SAHEN).0, 2000);
    // the サ変 class outweighs everything: its cheapest entry wins, which no other score favours
    assert_eq!(convert(&engine, "きしゃ"), "帰社");
    assert_ne!(
        convert(&Engine::from_bytes(without).unwrap(), "きしゃ"),
        "帰社"
    );
    // remapping keeps the classes
    let (remapped, _) = remap_lm_vocab(with, &vocab, None, how).unwrap();
    let engine = Engine::from_bytes(remapped).unwrap();
    assert_eq!(engine.neural.as_ref().unwrap().vocab.class_of(SAHEN), 2000);
    assert_eq!(convert(&engine, "きしゃ"), "帰社");
}

#[test]
fn a_class_table_naming_ids_past_the_vocabulary_is_refused() {
    let (w, vocab) = tiny_lm_with_classes();
    for bad in ["1841\t2002\n", "1841\n", "x\t2000\n", "70000\t2000\n"] {
        let r = attach_lstm(
            common::shipped_bytes(),
            &w,
            &vocab,
            Some(bad),
            PackOptions::bits(8),
            VocabMatch::Spelling,
        );
        assert!(r.is_err(), "{bad:?}");
    }
}

//! The `Selection` section (which nouns a predicate takes after a particle) end to end: the
//! shipped model's centroids turning the hybrid's homophones, the n-gram's counts taking
//! precedence over them, and damaged sections refused.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::lm::selection::Selection;
use henkan::model::{Container, SectionKind};
use henkan::{Engine, Session};

fn convert(engine: &Engine, reading: &str, weight: f32) -> String {
    let mut s = Session::new();
    s.set_scoring(
        Scoring::Hybrid,
        NeuralOptions {
            selection_weight: weight,
            ..NeuralOptions::default()
        },
    );
    s.convert_reading(engine, reading).text()
}

#[test]
fn a_noun_goes_with_the_predicates_that_take_nouns_like_it() {
    let engine = common::shipped_engine();
    let weight = NeuralOptions::default().selection_weight;
    for (reading, without, with) in [
        // 故障 is said of 車, エンジン, パソコン: 機械 (machine), not 機会 (chance)
        ("きかいがこしょうした", "機会が故障した", "機械が故障した"),
        // 熱い is said of お湯 and スープ, 暑い of 部屋 and 夏
        (
            "このなべはあついのできをつけて",
            "この鍋は暑いので気をつけて",
            "この鍋は熱いので気をつけて",
        ),
        ("こうかをはらう", "効果を払う", "硬貨を払う"),
    ] {
        assert_eq!(convert(&engine, reading, 0.0), without, "{reading}");
        assert_eq!(convert(&engine, reading, weight), with, "{reading}");
    }
}

#[test]
fn counted_triples_are_left_to_the_collocations() {
    // the n-gram has counted 夢 を 見 and 映画 を 見: the narrow centroid of 観る, which fits
    // 映画 and nouns near it better than the wide one of 見る, does not decide them
    let engine = common::shipped_engine();
    for (reading, want) in [("ゆめをみた", "夢を見た"), ("えいがをみる", "映画を見る")]
    {
        assert_eq!(convert(&engine, reading, 10.0), want);
    }
}

/// The shipped model's `Selection` section.
fn shipped_section() -> (Container, Vec<u8>) {
    let c = Container::from_bytes(std::fs::read(common::shipped_path()).unwrap()).unwrap();
    let b = c.section(SectionKind::Selection).unwrap().as_ref().to_vec();
    (c, b)
}

#[test]
fn the_shipped_section_reads() {
    let (_, b) = shipped_section();
    let s = Selection::from_section(&b, 64).unwrap();
    assert!(s.len() > 3000, "{}", s.len());
    assert_eq!(s.particles().len(), 8);
    // the centroids are for the coherence's vectors: other dimensions are refused
    assert!(Selection::from_section(&b, 32).is_err());
}

#[test]
fn a_damaged_section_is_an_error_not_a_panic() {
    let (c, b) = shipped_section();
    for cut in [0, 7, 8, 31, 40, 200, 1500, b.len() / 2, b.len() - 1] {
        assert!(
            Selection::from_section(&b[..cut], 64).is_err(),
            "cut at {cut}"
        );
    }
    let mut longer = b.clone();
    longer.push(0);
    assert!(Selection::from_section(&longer, 64).is_err());
    // every byte of the header and the particles changed: an error or a section, never a panic
    for i in 0..300.min(b.len()) {
        for x in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut m = b.clone();
            m[i] = x;
            let _ = Selection::from_section(&m, 64);
        }
    }
    // a truncated section is refused when the LMs attach
    let cut = henkan_builder::container::with_section(
        &c,
        SectionKind::Selection,
        b[..b.len() / 2].to_vec(),
    );
    assert!(Engine::from_bytes(cut).is_err());
}

#[test]
fn the_centroids_need_the_word_vectors() {
    let (c, _) = shipped_section();
    let without = henkan_builder::container::without_sections(&c, &[SectionKind::Coherence]);
    assert!(Engine::from_bytes(without).is_err());
    // replacing the word vectors drops the centroids made in them
    let words: std::collections::HashMap<String, u32> = [("機械".to_string(), 0)].into();
    let (bytes, _) = henkan_builder::coherence::attach_coherence(
        std::fs::read(common::shipped_path()).unwrap(),
        &henkan_builder::coherence::EntryWords {
            words: &words,
            conjugations: None,
        },
        &[1.0, 0.0],
        2,
        henkan_builder::coherence::RowCoding::Int8,
        |_, _| true,
    )
    .unwrap();
    let engine = Engine::from_bytes(bytes).unwrap();
    let lm = engine.neural.as_ref().unwrap();
    assert!(lm.coherence.is_some() && lm.selection.is_none());
}

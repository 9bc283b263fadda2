//! The `Coherence` section (word vectors per lexicon entry) end to end: built over the shipped
//! dictionary with hand-made vectors, loaded with the model, and re-ranking the hybrid's final
//! beam on conversion by the topical coherence of its words.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::model::{Container, SectionKind};
use henkan::{Engine, Session};
use henkan_builder::coherence::{attach_coherence, EntryWords, RowCoding};
use std::collections::HashMap;

/// がんばんよく… "Those who find the sauna hard can sweat a lot at a low temperature in a
/// bedrock bath": 低温 (low temperature) and 低音 (low tone) share the reading ていおん.
const READING: &str = "がんばんよくならさうながにがてなかたもていおんでもたりょうのあせがでます";

fn convert(engine: &Engine, weight: f32) -> String {
    convert_with(engine, READING, weight, 0.0)
}

/// The hybrid's conversion of `reading` with these weights of the coherence and of the
/// coherence between homophones.
fn convert_with(engine: &Engine, reading: &str, coherence: f32, homophones: f32) -> String {
    let mut s = Session::new();
    s.set_scoring(
        Scoring::Hybrid,
        NeuralOptions {
            coherence_weight: coherence,
            homophone_weight: homophones,
            ..NeuralOptions::default()
        },
    );
    s.convert_reading(engine, reading).text()
}

/// The shipped model with vectors that put the bath words and one of the two homophones on
/// one axis and the other homophone on another.
fn model_with(
    on_topic: &str,
    off_topic: &str,
) -> (Vec<u8>, henkan_builder::coherence::CoherenceReport) {
    attached(&[
        ("岩盤浴", 0),
        ("サウナ", 0),
        ("汗", 0),
        (on_topic, 0),
        (off_topic, 1),
    ])
}

/// The shipped model with these words on vector rows (0 or 1 of two orthogonal ones), and
/// what the attaching did.
fn attached(rows: &[(&str, u32)]) -> (Vec<u8>, henkan_builder::coherence::CoherenceReport) {
    let bytes = std::fs::read(common::shipped_path()).unwrap();
    let words: HashMap<String, u32> = rows.iter().map(|&(w, r)| (w.to_string(), r)).collect();
    let words = EntryWords {
        words: &words,
        conjugations: None,
    };
    attach_coherence(
        bytes,
        &words,
        &[1.0, 0.0, 0.0, 1.0],
        2,
        RowCoding::Int8,
        |_, _| true,
    )
    .unwrap()
}

#[test]
fn coherent_homophones_win_the_conversion() {
    let plain = common::shipped_engine();
    for (on, off) in [("低温", "低音"), ("低音", "低温")] {
        let (bytes, report) = model_with(on, off);
        assert!(report.entries >= 5 && report.rows == 2, "{report:?}");
        let engine = Engine::from_bytes(bytes).unwrap();
        assert_eq!(
            engine
                .neural
                .as_ref()
                .unwrap()
                .coherence
                .as_ref()
                .unwrap()
                .len(),
            report.entries
        );
        // the weight 0 is the model without vectors
        assert_eq!(convert(&engine, 0.0), convert(&plain, 0.0));
        let text = convert(&engine, 10.0);
        assert!(text.contains(on) && !text.contains(off), "{on}: {text}");
    }
}

#[test]
fn a_homophone_follows_the_topic_of_the_words_beside_it() {
    // きかいがこしょうした: the LM writes 機会 (chance), and 機械 (machine) breaks down
    const READING: &str = "きかいがこしょうした";
    for (on, off) in [("機械", "機会"), ("機会", "機械")] {
        let engine = Engine::from_bytes(attached(&[("故障", 0), (on, 0), (off, 1)]).0).unwrap();
        assert_eq!(convert_with(&engine, READING, 0.0, 0.0), "機会が故障した");
        assert_eq!(
            convert_with(&engine, READING, 0.0, 10.0),
            format!("{on}が故障した")
        );
    }
    // a word without a vector is no homophone the vectors can judge: the LM's choice stays
    let engine = Engine::from_bytes(attached(&[("故障", 0), ("機械", 0)]).0).unwrap();
    assert_eq!(convert_with(&engine, READING, 0.0, 10.0), "機会が故障した");
}

#[test]
fn a_damaged_section_is_an_error() {
    let (bytes, _) = model_with("低温", "低音");
    let c = Container::from_bytes(bytes.clone()).unwrap();
    let section = c.section(SectionKind::Coherence).unwrap().as_ref().to_vec();
    // a truncated section is refused when the LMs attach
    let cut = henkan_builder::container::with_section(
        &c,
        SectionKind::Coherence,
        section[..section.len() / 2].to_vec(),
    );
    assert!(Engine::from_bytes(cut).is_err());
    let engine = Engine::from_bytes(bytes).unwrap();
    assert!(engine.neural.unwrap().coherence.is_some());
}

/// The lexicon entries over `reading` spelled `surface`, and the coherence row of each.
fn rows_of(engine: &Engine, reading: &str, surface: &str) -> Vec<Option<u16>> {
    let coherence = engine.neural.as_ref().unwrap().coherence.as_ref().unwrap();
    engine
        .lexicon
        .get(reading)
        .filter(|e| engine.lexicon.surface_text(&e.surface, reading) == surface)
        .map(|e| coherence.row(e.offset))
        .collect()
}

#[test]
fn inflected_words_take_their_dictionary_forms_vector() {
    let id_def = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/mozc/id.def"
    ))
    .unwrap();
    let features = henkan_builder::mozc::parse_id_def(&id_def).unwrap();
    let conjugations = henkan_builder::inflection::Conjugations::from_features(&features);
    for (won, bought) in [(0u32, 1u32), (1, 0)] {
        // 試合 (a match) on the axis of 勝つ (to win) or of 買う (to buy)
        let words: HashMap<String, u32> =
            [("試合", 0), ("勝つ", won), ("買う", bought), ("色々", 1)]
                .into_iter()
                .map(|(w, r)| (w.to_string(), r))
                .collect();
        let entry_words = EntryWords {
            words: &words,
            conjugations: Some(&conjugations),
        };
        let bytes = std::fs::read(common::shipped_path()).unwrap();
        let (bytes, _) = attach_coherence(
            bytes,
            &entry_words,
            &[1.0, 0.0, 0.0, 1.0],
            2,
            RowCoding::Int4,
            |_, _| true,
        )
        .unwrap();
        let engine = Engine::from_bytes(bytes).unwrap();
        // rows are renumbered by use: compare them with 試合's
        let one = |reading: &str, surface: &str| {
            let rows = rows_of(&engine, reading, surface);
            assert!(!rows.is_empty() && rows.iter().all(|r| r.is_some() && *r == rows[0]));
            rows[0]
        };
        let topic = one("しあい", "試合");
        assert_eq!(one("かっ", "勝っ") == topic, won == 0);
        assert_eq!(one("かた", "勝た") == topic, won == 0);
        assert_eq!(one("かっ", "買っ") == topic, bought == 0);
        let mut s = Session::new();
        s.set_scoring(
            Scoring::Hybrid,
            NeuralOptions {
                coherence_weight: 10.0,
                ..NeuralOptions::default()
            },
        );
        let text = s.convert_reading(&engine, "しあいにかった").text();
        let want = if won == 0 {
            "試合に勝った"
        } else {
            "試合に買った"
        };
        assert_eq!(text, want);
    }
}

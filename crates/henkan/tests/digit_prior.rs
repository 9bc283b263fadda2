//! The hybrid's digit prior in the shipped model (`build::digit_prior`, `make digit-bias`).
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use henkan::decoder::bias::WordBias;
use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::Session;

fn bias_of(engine: &henkan::Engine, reading: &str, surface: &str) -> Vec<f32> {
    let lm = engine.neural.as_ref().unwrap();
    engine
        .lexicon
        .get(reading)
        .filter(|e| engine.lexicon.surface_text(&e.surface, reading) == surface)
        .map(|e| lm.bias.get(e.offset))
        .collect()
}

fn convert(engine: &henkan::Engine, scoring: Scoring, reading: &str) -> String {
    let mut s = Session::new();
    s.set_scoring(scoring, NeuralOptions::default());
    s.convert_reading(engine, reading).text()
}

#[test]
fn kanji_numerals_before_counters_written_in_digits_are_charged() {
    let engine = shipped_engine();
    let year = bias_of(&engine, "いちねん", "一年");
    assert!(
        !year.is_empty() && year.iter().all(|&b| b < -2.0),
        "{year:?}"
    );
    // words the annotated text writes with kanji numerals keep no bias
    for (r, s) in [
        ("いっしょ", "一緒"),
        ("いっぱん", "一般"),
        ("ひとつ", "一つ"),
    ] {
        let b = bias_of(&engine, r, s);
        assert!(!b.is_empty() && b.iter().all(|&b| b == 0.0), "{s}: {b:?}");
    }
}

#[test]
fn only_the_hybrid_reads_it() {
    let engine = shipped_engine();
    let mut without = shipped_engine();
    without.neural.as_mut().unwrap().bias = WordBias::new();
    let r = "へいしゃではいちねんをとおして、りぞーとばいとをぼしゅうしております。";
    let with_prior = convert(&engine, Scoring::Hybrid, r);
    assert!(with_prior.contains("1年"), "{with_prior}");
    assert!(convert(&without, Scoring::Hybrid, r).contains("一年"));
    for scoring in [Scoring::Classic, Scoring::Neural] {
        assert_eq!(convert(&engine, scoring, r), convert(&without, scoring, r));
    }
}

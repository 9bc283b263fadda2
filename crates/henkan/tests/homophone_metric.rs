//! The `HomophoneMetric` section (a learned inner product for the coherence between homophones)
//! end to end: the identity metric is the cosines, the shipped metric turns homophones the
//! cosines leave wrong, and a section for other vectors is refused.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::lm::coherence::Coherence;
use henkan::lm::homophone_metric::HomophoneMetric;
use henkan::model::{Container, SectionKind};
use henkan::Session;

fn shipped_coherence() -> Coherence {
    let c = Container::from_bytes(std::fs::read(common::shipped_path()).unwrap()).unwrap();
    Coherence::from_section(c.section(SectionKind::Coherence).unwrap().as_ref()).unwrap()
}

#[test]
fn the_identity_metric_is_the_cosines() {
    let c = shipped_coherence();
    let d = c.dims();
    let mut eye = vec![0f32; d * d];
    for i in 0..d {
        eye[i * d + i] = 1.0;
    }
    let m = HomophoneMetric::from_section(&HomophoneMetric::to_section(&eye, d), d).unwrap();
    let rows: Vec<u16> = c
        .entry_rows()
        .map(|(_, r)| r)
        .step_by(997)
        .take(40)
        .collect();
    for n in [0, 1, 2, 5, 17, 40] {
        let r = &rows[..n];
        let (metric, cosines) = (m.score(&m.sum(&c, r)), c.score(r));
        assert!(
            (metric - cosines).abs() < 1e-3,
            "{n} words: {metric} {cosines}"
        );
    }
    // one word replaced by another: the same as summing the new words afresh
    let mut s = m.sum(&c, &rows[..10]);
    m.replace(&c, &mut s, rows[3], rows[20]);
    let mut fresh = rows[..10].to_vec();
    fresh[3] = rows[20];
    assert!((m.score(&s) - m.score(&m.sum(&c, &fresh))).abs() < 1e-4);
}

#[test]
fn the_shipped_metric_turns_homophones_by_the_sentence() {
    let engine = common::shipped_engine();
    assert!(engine.neural.as_ref().unwrap().homophone_metric.is_some());
    for (reading, want) in [
        // 長い is said of 髪 as of a 上 (upper part), but 髪 comes with the words of hair
        ("かみがながい", "髪が長い"),
        ("てんきがいいからせんたくする", "天気がいいから洗濯する"),
    ] {
        let mut s = Session::new();
        s.set_scoring(Scoring::Hybrid, NeuralOptions::default());
        assert_eq!(s.convert_reading(&engine, reading).text(), want);
    }
}

#[test]
fn a_metric_for_other_vectors_is_refused() {
    let c = shipped_coherence();
    let d = c.dims() / 2;
    let b = HomophoneMetric::to_section(&vec![0.5; d * d], d);
    assert!(HomophoneMetric::from_section(&b, c.dims()).is_err());
}

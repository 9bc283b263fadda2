//! The decoder on a tiny hand-made dictionary, with path costs computed by hand.
//!
//! ```text
//!  reading:  き ょ う は
//!  BOS ─5─ 今日(100) ─1─ は(50) ─2─ EOS        = 5+100+1+50+2     = 158  ← best
//!  BOS ─5─ 京(300)   ─1─ は(50) ─2─ EOS        = 5+300+1+50+2     = 358
//!  BOS ─5─ 今日(100) ─40─ 葉(400) ─30─ EOS     = 5+100+40+400+30  = 575
//!  BOS ─5─ 木(200) ─40─ 用(50) ─1─ は(50) ─2─ EOS = 5+200+40+50+1+50+2 = 348
//! ```
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use henkan::decoder::{Decoder, Span, Within, MAX_POPS};
use henkan::lattice::Node;
use henkan::lm::cost::path_cost;
use henkan::Session;

#[test]
fn best_path_and_its_cost() {
    let engine = tiny_engine();
    let mut s = Session::new();
    let conv = s.convert_reading(&engine, "きょうは");
    assert_eq!(conv.text(), "今日は");
    let best = s.best_path(&engine).unwrap();
    assert_eq!(best.cost, 158);
    let span = Span::whole(s.lattice());
    assert_eq!(
        path_cost(s.lattice(), &engine.connection, span, &best.nodes),
        158
    );
}

/// The texts and costs of the n-best paths of きょうは among those `within` allows.
fn kyouha_n_best(within: Within<impl Fn(&Node, &Node) -> bool>) -> Vec<(String, i32)> {
    let engine = tiny_engine();
    let mut s = Session::new();
    s.convert_reading(&engine, "きょうは");
    let lattice = s.lattice();
    let text = |p: &[u32]| {
        p.iter()
            .map(|&i| lattice.surface(&engine.lexicon, &lattice.nodes()[i as usize]))
            .collect::<String>()
    };
    let span = Span::whole(lattice);
    Decoder::new()
        .n_best(
            lattice,
            &engine.connection,
            span,
            &[],
            10,
            MAX_POPS,
            within,
            text,
        )
        .into_iter()
        .map(|(p, k)| (k, p.cost))
        .collect()
}

#[test]
fn n_best_in_cost_order() {
    let got = kyouha_n_best(Within::ALL);
    assert_eq!(got[0], ("今日は".to_string(), 158));
    assert_eq!(got[1], ("木用は".to_string(), 348));
    assert_eq!(got[2], ("京は".to_string(), 358));
    assert!(got.contains(&("今日葉".to_string(), 575)));
    for w in got.windows(2) {
        assert!(w[0].1 <= w[1].1, "not in cost order: {got:?}");
    }
}

#[test]
fn n_best_within_skips_pairs_that_do_not_join_and_dear_paths() {
    // 用 may not follow 木 (by their costs in the tiny dictionary: 木 200, 用 50): 木用は (348)
    // is not searched for, the rest keep their order
    let got = kyouha_n_best(Within {
        join: |a: &Node, b: &Node| !(a.cost == 200 && b.cost == 50),
        max_extra: i32::MAX,
    });
    assert_eq!(got[0], ("今日は".to_string(), 158));
    assert_eq!(got[1], ("京は".to_string(), 358));
    assert!(!got.iter().any(|(t, _)| t == "木用は"), "{got:?}");
    assert!(got.contains(&("今日葉".to_string(), 575)));
    // nothing dearer than the first (158) by more than 300: 木用は (348) and 京は (358) are
    // searched for, 今日葉 (575) is not
    let got = kyouha_n_best(Within {
        join: |_: &Node, _: &Node| true,
        max_extra: 300,
    });
    let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(texts[..3], ["今日は", "木用は", "京は"]);
    assert!(!texts.contains(&"今日葉"), "{got:?}");
}

#[test]
fn segments_and_candidates() {
    let engine = tiny_engine();
    let mut s = Session::new();
    let conv = s.convert_reading(&engine, "きょうはきょう");
    // は attaches to the noun before it; the second きょう starts a new segment
    let segs: Vec<(&str, &str)> = conv
        .segments
        .iter()
        .map(|g| (g.reading.as_str(), g.candidates[0].as_str()))
        .collect();
    assert_eq!(segs, vec![("きょうは", "今日は"), ("きょう", "今日")]);
    let c = &conv.segments[1].candidates;
    assert_eq!(c[0], "今日");
    assert!(c.contains(&"京".to_string()));
    assert!(
        c.contains(&"きょう".to_string()),
        "hiragana is a candidate: {c:?}"
    );
    assert!(
        c.contains(&"キョウ".to_string()),
        "katakana is a candidate: {c:?}"
    );
    assert_eq!(conv.segments[1].start, 4);
    assert_eq!(conv.segments[1].len, 3);
}

#[test]
fn resize_forces_a_boundary() {
    let engine = tiny_engine();
    let mut s = Session::new();
    // first segment forced to "き": then ょうは is converted on its own
    let conv = s.convert_reading_with_fixed(&engine, "きょうは", &[1]);
    assert_eq!(conv.segments[0].reading, "き");
    assert_eq!(conv.segments[0].candidates[0], "木");
    assert_eq!(conv.text(), "木用は");
    // the free conversion is back afterwards
    assert_eq!(s.convert_reading(&engine, "きょうは").text(), "今日は");
}

#[test]
fn unknown_input_falls_back_to_itself() {
    let engine = tiny_engine();
    let mut s = Session::new();
    assert_eq!(s.convert_reading(&engine, "ぬ").text(), "ぬ");
    assert_eq!(s.convert_reading(&engine, "abcきょう").text(), "abc今日");
    assert_eq!(s.convert_reading(&engine, "").text(), "");
}

#[test]
fn typing_extends_incrementally_and_backspace_restores() {
    let engine = tiny_engine();
    let mut a = Session::new();
    a.insert_str(&engine, "kyouha");
    assert_eq!(a.composer().preedit(), "きょうは");
    assert_eq!(a.best_text(&engine), "今日は");
    a.backspace(&engine);
    assert_eq!(a.best_text(&engine), "今日");
    a.insert_str(&engine, "ha");
    let mut b = Session::new();
    b.insert_str(&engine, "kyouha");
    assert_eq!(a.lattice().nodes(), b.lattice().nodes());
    assert_eq!(a.convert(&engine), b.convert(&engine));
}

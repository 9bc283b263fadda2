//! Any input converts to something, and nothing panics.
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_unicode_reading_converts(s in "\\PC{0,40}") {
        let engine = tiny_engine();
        let mut session = henkan::Session::new();
        let conv = session.convert_reading(&engine, &s);
        if !s.is_empty() {
            prop_assert!(!conv.text().is_empty());
            prop_assert!(!conv.nbest.is_empty());
            // segments cover the reading exactly
            let covered: usize = conv.segments.iter().map(|g| g.len).sum();
            prop_assert_eq!(covered, s.chars().count());
        }
    }

    #[test]
    fn any_key_sequence_is_safe(keys in proptest::collection::vec(prop_oneof![
        "[a-z'\\-,.\\[\\]]".prop_map(|s| Some(s.chars().next().unwrap())),
        any::<char>().prop_map(Some),
        Just(None), // backspace
    ], 0..60)) {
        let engine = tiny_engine();
        let mut session = henkan::Session::new();
        for k in keys {
            match k {
                Some(c) => session.insert(&engine, c),
                None => session.backspace(&engine),
            }
            let _ = session.best_text(&engine);
        }
        let conv = session.convert(&engine);
        if !session.composer().submission().is_empty() {
            prop_assert!(!conv.text().is_empty());
        }
        let _ = session.convert_with_fixed(&engine, &[1, 2]);
    }

    #[test]
    fn learning_any_committed_pieces_is_safe(
        reading in prop_oneof!["[きょうは]{0,12}", "\\PC{0,12}"],
        pieces in proptest::collection::vec(("\\PC{0,6}", "\\PC{0,6}"), 0..4),
    ) {
        let engine = tiny_engine();
        let mut session = henkan::Session::new();
        session.convert_reading(&engine, &reading);
        let pieces: Vec<(&str, &str)> = pieces.iter().map(|(r, s)| (r.as_str(), s.as_str())).collect();
        session.learn_pieces(&engine, &pieces);
        // the whole reading committed as converted, then converted again
        let text = session.convert_reading(&engine, &reading).text();
        session.learn_pieces(&engine, &[(reading.as_str(), text.as_str())]);
        let again = session.convert_reading(&engine, &reading);
        if !reading.is_empty() {
            prop_assert!(!again.text().is_empty());
        }
    }
}

#[test]
fn a_huge_paste_converts() {
    let engine = tiny_engine();
    let mut s = henkan::Session::new();
    let text = "きょうは".repeat(5000);
    let conv = s.convert_reading(&engine, &text);
    assert!(conv.text().starts_with("今日は今日は"));
}

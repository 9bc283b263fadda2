//! Recent spellings with the shipped model: a word committed in the field is preferred over
//! another spelling of its reading in the next conversion (the hybrid's final beam), through the
//! session and key by key through the IME; it is forgotten after [`RECENT_SPELLINGS`] words and
//! with learning off.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::ime::{Ime, KeyEvent, State};
use henkan::recent_spellings::RECENT_SPELLINGS;
use henkan::{Engine, Session};

const FIRST: (&str, &str) = ("きょうかいでけっこんしきをあげた", "教会で結婚式を挙げた");
const NEXT: &str = "きょうかいにおこしのさいには";
const NEXT_ALONE: &str = "協会にお越しの際には";
const NEXT_AFTER: &str = "教会にお越しの際には";

fn hybrid(weight: f32) -> Session {
    let mut s = Session::new();
    s.set_scoring(
        Scoring::Hybrid,
        NeuralOptions {
            recent_spelling_weight: weight,
            ..NeuralOptions::default()
        },
    );
    s
}

/// Converts `reading` and commits it as `text` (as the user would after correcting it).
fn commit(engine: &Engine, s: &mut Session, reading: &str, text: &str) {
    s.clear();
    s.convert_reading(engine, reading);
    s.remember_spellings(engine, &[(reading, text)]);
}

fn convert(engine: &Engine, s: &mut Session, reading: &str) -> String {
    s.clear();
    s.convert_reading(engine, reading).text()
}

#[test]
fn a_committed_spelling_is_preferred_in_the_next_conversion() {
    let engine = common::shipped_engine();
    let weight = NeuralOptions::default().recent_spelling_weight;
    assert_eq!(convert(&engine, &mut hybrid(weight), NEXT), NEXT_ALONE);

    let mut s = hybrid(weight);
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    assert!(s.recent_spellings().contains("教会"));
    // particles and other one-kana words are not kept
    assert!(!s.recent_spellings().contains("で"));
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_AFTER);

    // weight 0: each sentence alone
    let mut off = hybrid(0.0);
    commit(&engine, &mut off, FIRST.0, FIRST.1);
    assert_eq!(convert(&engine, &mut off, NEXT), NEXT_ALONE);
}

#[test]
fn later_words_push_a_spelling_out() {
    let engine = common::shipped_engine();
    let mut s = hybrid(NeuralOptions::default().recent_spelling_weight);
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    let mut sentences = 0;
    while s.recent_spellings().contains("教会") {
        commit(
            &engine,
            &mut s,
            "あしたはとうきょうえきでともだちとあいます",
            "明日は東京駅で友達と会います",
        );
        sentences += 1;
        assert!(sentences <= RECENT_SPELLINGS, "never forgotten");
    }
    assert_eq!(s.recent_spellings().words().count(), RECENT_SPELLINGS);
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);
}

#[test]
fn learning_off_remembers_nothing() {
    let engine = common::shipped_engine();
    let mut s = hybrid(NeuralOptions::default().recent_spelling_weight);
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    s.set_learning(false);
    assert!(s.recent_spellings().is_empty());
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    assert!(s.recent_spellings().is_empty());
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);
}

#[test]
fn the_classic_and_neural_engines_are_unchanged() {
    let engine = common::shipped_engine();
    for scoring in [Scoring::Classic, Scoring::Neural] {
        let mut alone = Session::new();
        alone.set_scoring(scoring, NeuralOptions::default());
        let want = convert(&engine, &mut alone, NEXT);
        let mut s = Session::new();
        s.set_scoring(scoring, NeuralOptions::default());
        commit(&engine, &mut s, FIRST.0, FIRST.1);
        assert_eq!(convert(&engine, &mut s, NEXT), want, "{scoring:?}");
    }
}

fn typed_and_converted(ime: &mut Ime, engine: &Engine, romaji: &str) -> String {
    for c in romaji.chars() {
        assert!(
            ime.key(engine, KeyEvent::from_dom(&c.to_string(), 0))
                .consumed
        );
    }
    let out = ime.key(engine, KeyEvent::from_dom(" ", 0));
    assert_eq!(out.state, State::Converting);
    out.preedit.text
}

#[test]
fn the_ime_remembers_what_it_commits() {
    let engine = common::shipped_engine();
    let mut fresh = Ime::new();
    fresh
        .session_mut()
        .set_scoring(Scoring::Hybrid, NeuralOptions::default());
    assert_eq!(
        typed_and_converted(&mut fresh, &engine, "kyoukainiokoshinosainiha"),
        NEXT_ALONE
    );

    let mut ime = Ime::new();
    ime.session_mut()
        .set_scoring(Scoring::Hybrid, NeuralOptions::default());
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kyoukaidekekkonnshikiwoageta"),
        "教会で結婚式をあげた"
    );
    let out = ime.key(&engine, KeyEvent::from_dom("Enter", 0));
    assert_eq!(out.committed, "教会で結婚式をあげた");
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kyoukainiokoshinosainiha"),
        NEXT_AFTER
    );
}

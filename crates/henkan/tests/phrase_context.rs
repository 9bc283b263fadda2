//! Phrases typed one at a time, with the shipped model: a conversion goes on after the phrases
//! committed before it in the same sentence ([`Session::continue_sentence`]: the LSTM's state and
//! the final beam's rescoring), through the session
//! and key by key through the IME; a sentence end, a caret move or another scorer forget them.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::ime::{Ime, KeyEvent, State};
use henkan::{Engine, Session};

/// `こうじょうの` `きかいが`: alone the second is `機会が`, after `工場の` it is `機械が`.
const FIRST: (&str, &str) = ("こうじょうの", "工場の");
const NEXT: &str = "きかいが";
const NEXT_ALONE: &str = "機会が";
const NEXT_AFTER: &str = "機械が";

fn session(scoring: Scoring) -> Session {
    let mut s = Session::new();
    s.set_scoring(scoring, NeuralOptions::default());
    s
}

/// Converts `reading` and commits it as `text`, as the IME does.
fn commit(engine: &Engine, s: &mut Session, reading: &str, text: &str) {
    s.clear();
    s.convert_reading(engine, reading);
    s.continue_sentence(engine, &[(reading, text)]);
}

fn convert(engine: &Engine, s: &mut Session, reading: &str) -> String {
    s.clear();
    s.convert_reading(engine, reading).text()
}

#[test]
fn a_phrase_goes_on_after_the_phrases_committed_before_it() {
    let engine = common::shipped_engine();
    let mut s = session(Scoring::Hybrid);
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_AFTER);
    // the same conversion again, and with the LM as it is after more phrases
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_AFTER);
    commit(&engine, &mut s, NEXT, NEXT_AFTER);
    assert_eq!(convert(&engine, &mut s, "こしょうした"), "故障した");

    // the final beam's rescoring reads the committed words before each candidate: the
    // collocation of the committed object and the verb (the 写真を撮る, ホテルに泊まった)
    for (object, verb, alone, after) in [
        (("しゃしんを", "写真を"), "とる", "取る", "撮る"),
        (("ほてるに", "ホテルに"), "とまった", "止まった", "泊まった"),
    ] {
        let mut s = session(Scoring::Hybrid);
        assert_eq!(convert(&engine, &mut s, verb), alone);
        commit(&engine, &mut s, object.0, object.1);
        assert_eq!(
            convert(&engine, &mut s, verb),
            after,
            "{verb} after {}",
            object.1
        );
    }
}

/// More words than the rescoring keeps: the oldest go, and the sentence still converts.
#[test]
fn a_long_sentence_keeps_its_last_words() {
    let engine = common::shipped_engine();
    let mut s = session(Scoring::Hybrid);
    for _ in 0..12 {
        commit(&engine, &mut s, "こうじょうの", "工場の");
    }
    commit(&engine, &mut s, "しゃしんを", "写真を");
    assert_eq!(convert(&engine, &mut s, "とる"), "撮る");
}

#[test]
fn a_sentence_end_or_end_sentence_forgets_the_phrases() {
    let engine = common::shipped_engine();
    let mut s = session(Scoring::Hybrid);
    commit(&engine, &mut s, "こうじょうです。", "工場です。");
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);

    commit(&engine, &mut s, FIRST.0, FIRST.1);
    s.end_sentence();
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);

    // text the lattice cannot spell ends the sentence too
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    commit(&engine, &mut s, "こうじょう", "ABC");
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);

    // another scorer starts afresh
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    s.set_scoring(Scoring::Hybrid, NeuralOptions::default());
    assert_eq!(convert(&engine, &mut s, NEXT), NEXT_ALONE);
}

#[test]
fn the_classic_engine_is_unchanged() {
    let engine = common::shipped_engine();
    let want = convert(&engine, &mut session(Scoring::Classic), NEXT);
    let mut s = session(Scoring::Classic);
    commit(&engine, &mut s, FIRST.0, FIRST.1);
    assert_eq!(convert(&engine, &mut s, NEXT), want);
}

fn keys(ime: &mut Ime, engine: &Engine, romaji: &str) {
    for c in romaji.chars() {
        assert!(
            ime.key(engine, KeyEvent::from_dom(&c.to_string(), 0))
                .consumed
        );
    }
}

fn typed_and_converted(ime: &mut Ime, engine: &Engine, romaji: &str) -> String {
    keys(ime, engine, romaji);
    let out = ime.key(engine, KeyEvent::from_dom(" ", 0));
    assert_eq!(out.state, State::Converting);
    out.preedit.text
}

fn hybrid_ime() -> Ime {
    let mut ime = Ime::new();
    ime.session_mut()
        .set_scoring(Scoring::Hybrid, NeuralOptions::default());
    ime
}

#[test]
fn the_ime_converts_a_phrase_after_the_one_it_committed() {
    let engine = common::shipped_engine();
    let mut ime = hybrid_ime();
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kikaiga"),
        NEXT_ALONE
    );

    // Enter commits, and the next phrase goes on after it
    let mut ime = hybrid_ime();
    assert_eq!(typed_and_converted(&mut ime, &engine, "koujouno"), FIRST.1);
    let out = ime.key(&engine, KeyEvent::from_dom("Enter", 0));
    assert_eq!(out.committed, FIRST.1);
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kikaiga"),
        NEXT_AFTER
    );

    // a letter typed after a conversion commits it, as Enter does
    let mut ime = hybrid_ime();
    assert_eq!(typed_and_converted(&mut ime, &engine, "koujouno"), FIRST.1);
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kikaiga"),
        NEXT_AFTER
    );

    // the caret moved (a key the field takes): the next phrase begins a sentence
    let mut ime = hybrid_ime();
    assert_eq!(typed_and_converted(&mut ime, &engine, "koujouno"), FIRST.1);
    ime.key(&engine, KeyEvent::from_dom("Enter", 0));
    assert!(
        !ime.key(&engine, KeyEvent::from_dom("ArrowLeft", 0))
            .consumed
    );
    assert_eq!(
        typed_and_converted(&mut ime, &engine, "kikaiga"),
        NEXT_ALONE
    );
}

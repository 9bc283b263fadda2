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

/// The classic engine's first word connects from the last committed word's POS, as Mozc's
/// does: `した` alone is the noun `下`, after the noun `勉強` it is the verb.
#[test]
fn the_classic_engine_connects_from_the_committed_words() {
    let engine = common::shipped_engine();
    let mut s = session(Scoring::Classic);
    assert_eq!(convert(&engine, &mut s, "した"), "下");
    commit(&engine, &mut s, "べんきょう", "勉強");
    assert_eq!(convert(&engine, &mut s, "した"), "した");
    // the best path's explanation agrees
    let words = s.best_path_words(&engine).words;
    let text: String = words.iter().map(|w| w.surface.as_str()).collect();
    assert_eq!(text, "した");
    // so do the segments a resize fixes
    s.clear();
    let conv = s.convert_reading_with_fixed(&engine, "したあと", &[2]);
    assert_eq!(conv.segments[0].candidates[0], "した");
    s.end_sentence();
    assert_eq!(convert(&engine, &mut s, "した"), "下");
    s.clear();
    let conv = s.convert_reading_with_fixed(&engine, "したあと", &[2]);
    assert_eq!(conv.segments[0].candidates[0], "下");

    // a paste longer than one piece: its first sentence goes on after 勉強, the others begin
    // sentences of their own
    let sentence = "したにおく。";
    let reading = sentence.repeat(henkan::MAX_PIECE_CHARS / sentence.chars().count() + 2);
    let alone = convert(&engine, &mut s, sentence);
    assert_eq!(alone, "下に置く。");
    commit(&engine, &mut s, "べんきょう", "勉強");
    let after = convert(&engine, &mut s, sentence);
    assert_ne!(after, alone);
    let long = convert(&engine, &mut s, &reading);
    assert!(long.starts_with(&format!("{after}{alone}")), "{long}");
    assert!(long.ends_with(&alone.repeat(3)), "{long}");
    // the context is still there for the next conversion
    assert_eq!(convert(&engine, &mut s, "した"), "した");
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

/// A prediction picked goes on with the sentence as a conversion committed there does:
/// `shashin` → the pick `写真を`, then `とる` is `撮る`; alone it is `取る`.
#[test]
fn a_picked_prediction_goes_on_with_the_sentence() {
    let engine = common::shipped_engine();
    assert_eq!(
        typed_and_converted(&mut hybrid_ime(), &engine, "toru"),
        "取る"
    );
    let mut ime = hybrid_ime();
    keys(&mut ime, &engine, "shashin");
    let out = ime.key(&engine, KeyEvent::from_dom("n", 0));
    let i = out
        .completions
        .iter()
        .position(|s| s == "写真を")
        .expect("写真を among the completions");
    assert_eq!(ime.select_candidate(&engine, i).committed, "写真を");
    assert_eq!(typed_and_converted(&mut ime, &engine, "toru"), "撮る");
}

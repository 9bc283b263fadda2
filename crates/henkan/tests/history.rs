//! User history (学習) over a tiny model: a committed spelling comes first next time, in a
//! `Session` and through the IME's keys; learning off forgets it.
//!
//! The lexicon reads きょう as 今日 (cost 100), 京 (300) or きょう (400), and はは as 母 (100)
//! or はは (300). A learned spelling costs the margin (500) below the cheapest other kanji
//! spelling converted alone, and the kana forms of the reading are written as it.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::history::History;
use henkan::ime::{Ime, KeyEvent};
use henkan::{Engine, Session};
use henkan_builder::{build_model, BuildOptions};

const LEX: &str = "きょう\t1\t1\t100\t今日
きょう\t1\t1\t300\t京
きょう\t1\t1\t400\tきょう
はは\t1\t1\t100\t母
はは\t1\t1\t300\tはは
は\t6\t6\t50\tは
は\t1\t1\t400\t葉
";

fn engine() -> Engine {
    let bytes = build_model(
        LEX,
        &common::tiny_matrix(),
        common::TINY_ID_DEF,
        common::TINY_SEGMENTER,
        &BuildOptions::default(),
    )
    .unwrap()
    .0;
    Engine::from_bytes(bytes).unwrap()
}

fn best(session: &mut Session, engine: &Engine, reading: &str) -> String {
    session.clear();
    session.convert_reading(engine, reading).text()
}

fn offset(engine: &Engine, reading: &str, cost: i32) -> u32 {
    engine
        .lexicon
        .get(reading)
        .find(|e| e.cost == cost)
        .expect("entry")
        .offset
}

#[test]
fn a_committed_spelling_wins_next_time() {
    let engine = engine();
    let mut s = Session::new();
    assert_eq!(best(&mut s, &engine, "きょうは"), "今日は");
    // committing the kana learns きょう for きょう (は is one kana: not learned)
    assert_eq!(s.learn_pieces(&engine, &[("きょうは", "きょうは")]), 1);
    assert_eq!(s.history().len(), 1);
    assert_eq!(best(&mut s, &engine, "きょうは"), "きょうは");
    // the last choice wins, a homophone too
    s.convert_reading(&engine, "きょう");
    assert_eq!(s.learn_pieces(&engine, &[("きょう", "京")]), 1);
    assert_eq!(best(&mut s, &engine, "きょう"), "京");
    assert_eq!(best(&mut s, &engine, "きょうは"), "京は");
    s.convert_reading(&engine, "きょう");
    assert_eq!(s.learn_pieces(&engine, &[("きょう", "今日")]), 1);
    assert_eq!(best(&mut s, &engine, "きょう"), "今日");
    // off forgets, and learns nothing
    s.convert_reading(&engine, "きょう");
    s.learn_pieces(&engine, &[("きょう", "きょう")]);
    assert_eq!(best(&mut s, &engine, "きょう"), "きょう");
    s.set_learning(false);
    assert!(!s.learning());
    assert!(s.history().is_empty());
    assert_eq!(best(&mut s, &engine, "きょう"), "今日");
    s.convert_reading(&engine, "きょう");
    assert_eq!(s.learn_pieces(&engine, &[("きょう", "きょう")]), 0);
    assert_eq!(best(&mut s, &engine, "きょう"), "今日");
}

#[test]
fn pieces_that_do_not_match_the_lattice_are_skipped() {
    let engine = engine();
    let mut s = Session::new();
    s.convert_reading(&engine, "きょう");
    // a reading that is not the lattice's, a surface no words spell
    assert_eq!(s.learn_pieces(&engine, &[("はは", "母")]), 0);
    assert_eq!(s.learn_pieces(&engine, &[("きょう", "強")]), 0);
    assert!(s.history().is_empty());
    // the first piece is learned, the one past the end is not
    assert_eq!(
        s.learn_pieces(&engine, &[("きょう", "京"), ("はは", "はは")]),
        1
    );
    assert_eq!(s.history().len(), 1);
}

#[test]
fn the_history_respells_variants_and_nudges_homophones_and_forgets_the_oldest() {
    let engine = engine();
    let lex = &engine;
    let (today, capital, kana) = (
        offset(&engine, "きょう", 100),
        offset(&engine, "きょう", 300),
        offset(&engine, "きょう", 400),
    );
    let mother_kana = offset(&engine, "はは", 300);
    let mut h = History::new(1);
    // the kana form: the kanji words may be other words, so they keep their spelling; the
    // kana form costs the margin below the cheapest of them (all have the same POS, so the
    // connections to the sentence start and end are the same)
    assert!(h.learn(lex, "きょう", "きょう"));
    assert_eq!(h.respelling(today), None);
    assert_eq!(h.respelling(capital), None);
    assert_eq!(h.adjustment(kana), 100 - 500 - 400);
    // a kanji word: the kana form is written as it, the other kanji word (a homophone) is not;
    // the learned word costs the margin below it
    assert!(h.learn(lex, "きょう", "京"));
    assert_eq!(h.respelling(kana), Some("京"));
    assert_eq!(h.respelling(today), None);
    assert_eq!(h.adjustment(capital), 100 - 500 - 300);
    assert_eq!(h.adjustment(today), 0);
    // not learned: a text no entry has, a one-kana reading
    assert!(!h.learn(lex, "はは", "強"));
    assert!(!h.learn(lex, "は", "は"));
    assert_eq!(h.len(), 1);
    // capacity 1: learning はは forgets きょう
    assert!(h.learn(lex, "はは", "母"));
    assert_eq!(h.len(), 1);
    assert_eq!(h.respelling(mother_kana), Some("母"));
    assert_eq!(h.respelling(kana), None);
    assert_eq!(h.adjustment(capital), 0);
    h.clear();
    assert!(h.is_empty());
    assert_eq!(h.respelling(mother_kana), None);
}

#[test]
fn the_ime_learns_the_candidate_the_user_picked() {
    let engine = engine();
    let mut ime = Ime::new();
    ime.set_live(false);
    let key = |ime: &mut Ime, k: &str| ime.key(&engine, KeyEvent::from_dom(k, 0));
    let type_kyou = |ime: &mut Ime| {
        for c in "kyou".chars() {
            ime.key(&engine, KeyEvent::from_dom(&c.to_string(), 0));
        }
    };
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    let items = out.candidates.expect("a segment").items;
    assert_eq!(items[0], "今日");
    let pick = items
        .iter()
        .position(|c| c == "京")
        .expect("京 is a candidate");
    ime.select_candidate(&engine, pick);
    assert_eq!(key(&mut ime, "Enter").committed, "京");
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "京");
    assert_eq!(key(&mut ime, "Enter").committed, "京");
    // a kana commit (Enter without converting) is no correction: nothing is learned
    type_kyou(&mut ime);
    assert_eq!(key(&mut ime, "Enter").committed, "きょう");
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "京");
    // the kana picked in a conversion (F6: the segment in hiragana) is a spelling variant of
    // 京: learned when picked a second time
    assert_eq!(key(&mut ime, "F6").preedit.text, "きょう");
    key(&mut ime, "Enter");
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "京");
    assert_eq!(key(&mut ime, "F6").preedit.text, "きょう");
    key(&mut ime, "Enter");
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "きょう");
    key(&mut ime, "Enter");
    ime.set_learning(false);
    assert!(!ime.learning());
    type_kyou(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "今日");
}

//! User history (学習) over a tiny model: a committed spelling comes first next time, in a
//! `Session` and through the IME's keys; learning off forgets it.
//!
//! The lexicon reads きしゃ as 記者 (cost 100), 汽車 (300) or きしゃ (400), and ははおや as 母親 (100)
//! or ははおや (300), and とりあつかい as 取り扱い (100) or its spelling variant 取扱い (300). A learned
//! kanji spelling costs the margin (500) below the cheapest other kanji spelling converted
//! alone, and the kana forms of the reading are written as it.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::history::History;
use henkan::ime::{Ime, KeyEvent};
use henkan::{Engine, Session};
use henkan_builder::{build_model, BuildOptions};

const LEX: &str = "とりあつかい\t1\t1\t100\t取り扱い
とりあつかい\t1\t1\t300\t取扱い
きしゃ\t1\t1\t100\t記者
きしゃ\t1\t1\t300\t汽車
きしゃ\t1\t1\t400\tきしゃ
ははおや\t1\t1\t100\t母親
ははおや\t1\t1\t300\tははおや
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
    assert_eq!(best(&mut s, &engine, "きしゃは"), "記者は");
    // committing the kana learns きしゃ for きしゃ (は is one kana: not learned)
    assert_eq!(s.learn_pieces(&engine, &[("きしゃは", "きしゃは")]), 1);
    assert_eq!(s.history().len(), 1);
    // a kana text is written as learned where its reading is the whole input only
    assert_eq!(best(&mut s, &engine, "きしゃ"), "きしゃ");
    assert_eq!(best(&mut s, &engine, "きしゃは"), "記者は");
    // the last choice wins, a homophone too
    s.convert_reading(&engine, "きしゃ");
    assert_eq!(s.learn_pieces(&engine, &[("きしゃ", "汽車")]), 1);
    assert_eq!(best(&mut s, &engine, "きしゃ"), "汽車");
    assert_eq!(best(&mut s, &engine, "きしゃは"), "汽車は");
    s.convert_reading(&engine, "きしゃ");
    assert_eq!(s.learn_pieces(&engine, &[("きしゃ", "記者")]), 1);
    assert_eq!(best(&mut s, &engine, "きしゃ"), "記者");
    // off forgets, and learns nothing
    s.convert_reading(&engine, "きしゃ");
    s.learn_pieces(&engine, &[("きしゃ", "きしゃ")]);
    assert_eq!(best(&mut s, &engine, "きしゃ"), "きしゃ");
    s.set_learning(false);
    assert!(!s.learning());
    assert!(s.history().is_empty());
    assert_eq!(best(&mut s, &engine, "きしゃ"), "記者");
    s.convert_reading(&engine, "きしゃ");
    assert_eq!(s.learn_pieces(&engine, &[("きしゃ", "きしゃ")]), 0);
    assert_eq!(best(&mut s, &engine, "きしゃ"), "記者");
}

#[test]
fn pieces_that_do_not_match_the_lattice_are_skipped() {
    let engine = engine();
    let mut s = Session::new();
    s.convert_reading(&engine, "きしゃ");
    // a reading that is not the lattice's, a surface no words spell
    assert_eq!(s.learn_pieces(&engine, &[("ははおや", "母親")]), 0);
    assert_eq!(s.learn_pieces(&engine, &[("きしゃ", "強")]), 0);
    assert!(s.history().is_empty());
    // the first piece is learned, the one past the end is not
    assert_eq!(
        s.learn_pieces(&engine, &[("きしゃ", "汽車"), ("ははおや", "ははおや")]),
        1
    );
    assert_eq!(s.history().len(), 1);
}

#[test]
fn the_history_respells_variants_and_nudges_homophones_and_forgets_the_oldest() {
    let engine = engine();
    let lex = &engine;
    let (today, capital, kana) = (
        offset(&engine, "きしゃ", 100),
        offset(&engine, "きしゃ", 300),
        offset(&engine, "きしゃ", 400),
    );
    let mother_kana = offset(&engine, "ははおや", 300);
    let mut h = History::new(1);
    // the kana form: learned, but a kana text changes no costs (it acts where its reading is
    // the whole input only)
    assert!(h.learn(lex, "きしゃ", "きしゃ"));
    assert_eq!(h.learned("きしゃ"), Some("きしゃ"));
    assert_eq!(h.respelling(today), None);
    assert_eq!(h.respelling(capital), None);
    assert_eq!(h.adjustment(kana), 0);
    // a kanji word: the kana form is written as it, the other kanji word (a homophone) is not;
    // the learned word costs the margin below it
    assert!(h.learn(lex, "きしゃ", "汽車"));
    assert_eq!(h.respelling(kana), Some("汽車"));
    assert_eq!(h.respelling(today), None);
    assert_eq!(h.adjustment(capital), 100 - 500 - 300);
    assert_eq!(h.adjustment(today), 0);
    // not learned: a text no entry has, a one-kana reading
    assert!(!h.learn(lex, "ははおや", "強"));
    assert!(!h.learn(lex, "は", "は"));
    assert_eq!(h.len(), 1);
    // capacity 1: learning ははおや forgets きしゃ
    assert!(h.learn(lex, "ははおや", "母親"));
    assert_eq!(h.len(), 1);
    assert_eq!(h.respelling(mother_kana), Some("母親"));
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
    let type_kisha = |ime: &mut Ime| {
        for c in "kisha".chars() {
            ime.key(&engine, KeyEvent::from_dom(&c.to_string(), 0));
        }
    };
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    let items = out.candidates.expect("a segment").items;
    assert_eq!(items[0], "記者");
    let pick = items
        .iter()
        .position(|c| c == "汽車")
        .expect("汽車 is a candidate");
    ime.select_candidate(&engine, pick);
    assert_eq!(key(&mut ime, "Enter").committed, "汽車");
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "汽車");
    assert_eq!(key(&mut ime, "Enter").committed, "汽車");
    // a kana commit (Enter without converting) is no correction: nothing is learned
    type_kisha(&mut ime);
    assert_eq!(key(&mut ime, "Enter").committed, "きしゃ");
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "汽車");
    // the kana picked in a conversion (F6: the segment in hiragana) is a spelling variant of
    // 汽車: learned when picked a second time
    assert_eq!(key(&mut ime, "F6").preedit.text, "きしゃ");
    key(&mut ime, "Enter");
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "汽車");
    assert_eq!(key(&mut ime, "F6").preedit.text, "きしゃ");
    key(&mut ime, "Enter");
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "きしゃ");
    key(&mut ime, "Enter");
    ime.set_learning(false);
    assert!(!ime.learning());
    type_kisha(&mut ime);
    let out = key(&mut ime, " ");
    assert_eq!(out.candidates.expect("a segment").items[0], "記者");
}

/// Converts `reading` and commits `committed` where the engine showed `shown` (one piece each).
fn commit(s: &mut Session, engine: &Engine, reading: &str, shown: &str, committed: &str) -> usize {
    s.clear();
    assert_eq!(s.convert_reading(engine, reading).text(), shown);
    s.learn_commit(engine, &[(reading, committed)], &[(reading, shown)])
}

#[test]
fn a_correction_acts_inside_sentences_for_a_few_commits_and_alone_for_good() {
    let engine = engine();
    let mut s = Session::new();
    assert_eq!(commit(&mut s, &engine, "きしゃは", "記者は", "汽車は"), 1);
    assert_eq!(best(&mut s, &engine, "きしゃは"), "汽車は");
    // other text committed as shown: the correction keeps acting for ACTIVE_COMMITS commits
    for _ in 1..henkan::history::ACTIVE_COMMITS {
        assert_eq!(commit(&mut s, &engine, "ははおや", "母親", "母親"), 0);
        assert_eq!(best(&mut s, &engine, "きしゃは"), "汽車は");
    }
    assert_eq!(commit(&mut s, &engine, "ははおや", "母親", "母親"), 0);
    assert_eq!(best(&mut s, &engine, "きしゃは"), "記者は");
    // converted alone it is still written as learned, and accepting it there makes it act
    // inside sentences again
    assert_eq!(commit(&mut s, &engine, "きしゃ", "汽車", "汽車"), 0);
    assert_eq!(best(&mut s, &engine, "きしゃは"), "汽車は");
}

#[test]
fn a_spelling_variant_is_learned_the_second_time_and_acts_where_it_is_typed_alone() {
    let engine = engine();
    let mut s = Session::new();
    let (r, engine_writes, user_writes) = ("とりあつかい", "取り扱い", "取扱い");
    assert_eq!(commit(&mut s, &engine, r, engine_writes, user_writes), 0);
    assert_eq!(best(&mut s, &engine, r), engine_writes);
    assert_eq!(commit(&mut s, &engine, r, engine_writes, user_writes), 1);
    assert_eq!(best(&mut s, &engine, r), user_writes);
    // inside sentences a matter of style stays the engine's
    assert_eq!(best(&mut s, &engine, "とりあつかいは"), "取り扱いは");
}

#[test]
fn an_acronym_picked_over_the_dictionarys_katakana_is_learned_and_kept_in_the_export() {
    use henkan::decoder::neural::Scoring;
    let engine = common::shipped_engine();
    for scoring in [Scoring::Classic, Scoring::Hybrid] {
        let mut s = common::session_for(scoring);
        // the lattice writes `OK` (lattice::acronym), no entry of the dictionary does; another
        // spelling of the same word, it is learned the second time and acts where it is typed
        // alone, as every spelling variant
        assert_eq!(
            commit(&mut s, &engine, "おーけー", "オーケー", "OK"),
            0,
            "{scoring:?}"
        );
        assert_eq!(
            commit(&mut s, &engine, "おーけー", "オーケー", "OK"),
            1,
            "{scoring:?}"
        );
        assert_eq!(best(&mut s, &engine, "おーけー"), "OK", "{scoring:?}");
        assert_eq!(
            best(&mut s, &engine, "おーけーです"),
            "オーケーです",
            "{scoring:?}"
        );
        let mut history = History::new(henkan::history::CAPACITY);
        history.import(&engine, &s.history().export()).unwrap();
        let mut t = common::session_for(scoring);
        t.set_history(history);
        assert_eq!(best(&mut t, &engine, "おーけー"), "OK", "{scoring:?}");
    }
}

//! Learning and the user dictionary over the shipped model, in every engine, through the IME's
//! keys as a user types.
//!
//! The story: a user typed `kisha`, pressed Space until `汽車` came up and Enter; typing
//! `kisha` Space again still gave `記者` in the hybrid engine (the LM overruled the small cost
//! change of the learned word), while the classic engine learned it. A choice the user made
//! now comes first for its reading in every engine; so does a word of the user dictionary.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::history::History;
use henkan::ime::{Ime, KeyEvent};
use henkan::user_dictionary::{DictionaryFormat, UserDictionary, UserPos};
use henkan::{Engine, NeuralOptions, Scoring};
use std::sync::Arc;

const ENGINES: [Scoring; 3] = [Scoring::Classic, Scoring::Neural, Scoring::Hybrid];

fn ime(engine: &Engine, scoring: Scoring) -> Ime {
    let mut ime = Ime::new();
    ime.set_live(false);
    ime.session_mut()
        .set_scoring(scoring, NeuralOptions::default());
    let _ = engine;
    ime
}

fn press(ime: &mut Ime, engine: &Engine, key: &str) -> henkan::ime::ImeOutput {
    ime.key(engine, KeyEvent::from_dom(key, 0))
}

fn type_keys(ime: &mut Ime, engine: &Engine, keys: &str) {
    for c in keys.chars() {
        press(ime, engine, &c.to_string());
    }
}

/// Types `keys` and Space: the first conversion's text.
fn convert(ime: &mut Ime, engine: &Engine, keys: &str) -> String {
    type_keys(ime, engine, keys);
    press(ime, engine, " ").preedit.text
}

/// Types `keys`, presses Space until the preedit is `want` and commits it with Enter.
fn choose(ime: &mut Ime, engine: &Engine, keys: &str, want: &str) {
    type_keys(ime, engine, keys);
    for _ in 0..40 {
        let out = press(ime, engine, " ");
        if out.preedit.text == want {
            assert_eq!(press(ime, engine, "Enter").committed, want);
            return;
        }
    }
    panic!("{want} is not among the candidates of {keys}");
}

/// A session of `scoring` with `history`.
fn session(scoring: Scoring, history: History) -> henkan::Session {
    let mut s = henkan::Session::new();
    s.set_scoring(scoring, NeuralOptions::default());
    s.set_history(history);
    s
}

/// The best conversion of `reading` on its own.
fn text(s: &mut henkan::Session, engine: &Engine, reading: &str) -> String {
    s.clear();
    s.convert_reading(engine, reading).text()
}

#[test]
fn a_chosen_word_comes_first_next_time_in_every_engine() {
    let engine = common::shipped_engine();
    for scoring in ENGINES {
        // (keys, the word chosen, a word typed before it): a one-character word (端) comes
        // first where its reading is the whole input; within sentences it is as often a piece
        // of a compound, and is left to the context
        for (keys, chosen, before_it) in [
            ("kisha", "汽車", Some("ashita")),
            ("kaeru", "買える", Some("ashita")),
            ("hashi", "端", None),
        ] {
            let mut ime = ime(&engine, scoring);
            let before = convert(&mut ime, &engine, keys);
            ime.cancel();
            assert_ne!(before, chosen, "{scoring:?} {keys}");
            choose(&mut ime, &engine, keys, chosen);
            assert_eq!(
                convert(&mut ime, &engine, keys),
                chosen,
                "{scoring:?} {keys}"
            );
            press(&mut ime, &engine, "Enter");
            // after another word too
            if let Some(before_it) = before_it {
                let text = convert(&mut ime, &engine, &format!("{before_it}{keys}"));
                assert!(text.contains(chosen), "{scoring:?} {keys}: {text}");
                press(&mut ime, &engine, "Escape");
            }
        }
    }
}

/// A digit twin (`4人` for `よにん`, beside the dictionary's `四人`) is learned as a spelling
/// variant, chosen twice in a row, in the engines that show the kanji word first, and the kanji
/// word so in the hybrid, which shows the twin first.
#[test]
fn a_chosen_digit_twin_or_its_kanji_word_comes_first_next_time() {
    let engine = common::shipped_engine();
    for scoring in ENGINES {
        let mut ime = ime(&engine, scoring);
        let before = convert(&mut ime, &engine, "yonin");
        ime.cancel();
        let chosen = if before == "4人" { "四人" } else { "4人" };
        for _ in 0..2 {
            choose(&mut ime, &engine, "yonin", chosen);
            press(&mut ime, &engine, "Enter");
        }
        assert_eq!(convert(&mut ime, &engine, "yonin"), chosen, "{scoring:?}");
        ime.cancel();
        // a variant acts only where its reading is the whole input
        assert_eq!(
            convert(&mut ime, &engine, "yonindeiku"),
            format!("{before}で行く"),
            "{scoring:?}"
        );
    }
}

/// A phrase with a digit twin in it (`4人で`) becomes one lattice word like any learned phrase:
/// the twin's word is its kanji word's (`四人`).
#[test]
fn a_phrase_with_a_digit_twin_becomes_one_lattice_word() {
    let engine = common::shipped_engine();
    let mut h = History::default();
    assert!(h.learn_phrase(
        &engine,
        "よにんで",
        "4人で",
        &[("よにん", "4人"), ("で", "で")]
    ));
    assert_eq!(h.phrases().len(), 1);
}

/// A corrected one-kanji suffix (`強` for `橋` in `2強`) is learned with the word it follows, as
/// one phrase: alone its reading is mostly another word (`きょう`: 今日), and a one-character
/// word acts only where it is the whole input. The phrase comes first in the next sentence,
/// also where the engine had cut its reading otherwise (`に` `今日`).
#[test]
fn a_corrected_suffix_is_learned_with_the_word_before_it_in_every_engine() {
    let engine = common::shipped_engine();
    let first = "こくないいんさつぎょうかいにきょうのいっかく。";
    let next = "こくないいんさつぎょうかいにきょうのいっかくで、せかいさいだいきぼのそうごういんさつがいしゃである。";
    for scoring in ENGINES {
        let mut s = session(scoring, History::default());
        let shown = text(&mut s, &engine, first);
        assert!(!shown.contains("2強"), "{scoring:?} {shown}");
        let committed = "国内印刷業界2強の一角。";
        assert_eq!(
            s.learn_commit(&engine, &[(first, committed)], &[(first, &shown)]),
            1
        );
        assert_eq!(s.history().learned("にきょう"), Some("2強"), "{scoring:?}");
        assert_eq!(s.history().learned("きょう"), None, "{scoring:?}");
        let got = text(&mut s, &engine, next);
        assert!(
            got.starts_with("国内印刷業界2強の一角で"),
            "{scoring:?} {got}"
        );
        assert_eq!(text(&mut s, &engine, "きょうは"), "今日は");
    }
}

/// The same through the IME's keys, as a user corrects it: Space, → to the segment `橋の`,
/// Space until `強の`, Enter; the next sentence with the same words comes out right. (The
/// classic engine first shows `に` `今日の` there, a cut the user would resize.)
#[test]
fn a_suffix_picked_in_its_segment_comes_first_in_the_next_sentence() {
    let engine = common::shipped_engine();
    for scoring in [Scoring::Neural, Scoring::Hybrid] {
        let mut ime = ime(&engine, scoring);
        type_keys(&mut ime, &engine, "kokunaiinsatsugyoukainikyounoikkaku.");
        let mut out = press(&mut ime, &engine, " ");
        let text = out.preedit.text.clone();
        let Some(at) = text.find("2橋の") else {
            panic!("{scoring:?}: {text}");
        };
        let target = text[..at + "2".len()].chars().count();
        // focus the segment that starts after `2`
        for _ in 0..out.preedit.segments.len() {
            let focused = out
                .preedit
                .segments
                .iter()
                .find(|s| s.focused)
                .expect("focus");
            if focused.start == target {
                break;
            }
            out = press(&mut ime, &engine, "ArrowRight");
        }
        for _ in 0..40 {
            if out.preedit.text.contains("2強の") {
                break;
            }
            out = press(&mut ime, &engine, " ");
        }
        assert!(
            out.preedit.text.contains("2強の"),
            "{scoring:?}: {}",
            out.preedit.text
        );
        let committed = press(&mut ime, &engine, "Enter").committed;
        assert_eq!(committed, "国内印刷業界2強の一角。", "{scoring:?}");
        let next = convert(
            &mut ime,
            &engine,
            "kokunaiinsatsugyoukainikyounoikkakude,sekaisaidaikibonosougouinsatsugaishadearu.",
        );
        assert!(
            next.starts_with("国内印刷業界2強の一角で"),
            "{scoring:?}: {next}"
        );
        ime.cancel();
        assert_eq!(
            convert(&mut ime, &engine, "kyouha"),
            "今日は",
            "{scoring:?}"
        );
    }
}

/// A learned verb stem (`折り` for `おり`, from `折り込まれ`) leaves the kana words of another part
/// of speech alone: `としております` keeps its auxiliary `おり`, in every engine.
#[test]
fn a_learned_word_leaves_kana_words_of_another_part_of_speech_alone() {
    let engine = common::shipped_engine();
    let mut h = History::default();
    assert!(h.learn(&engine, "おり", "折り"));
    learned_and_left_alone(
        &engine,
        &h,
        ("おり", "折り"),
        ("とくいとしております", "得意としております"),
    );
}

/// A phrase's words in kana are not preferred on their own: `子ども` learned (`子` + `ども`)
/// leaves `年度も` as it is, in every engine.
#[test]
fn a_learned_phrase_leaves_its_kana_words_alone_elsewhere() {
    let engine = common::shipped_engine();
    let mut h = History::default();
    let words = [("こ", "子"), ("ども", "ども")];
    assert!(h.learn_phrase(&engine, "こども", "子ども", &words));
    learned_and_left_alone(
        &engine,
        &h,
        ("こども", "子ども"),
        (
            "きょうでにじゅうねんどもおわりです。",
            "今日で20年度も終わりです。",
        ),
    );
}

/// In every engine with history `h`: `sentence` converts to its text untouched by what was
/// learned, and the `learned` reading alone still to its learned text.
fn learned_and_left_alone(
    engine: &henkan::Engine,
    h: &History,
    learned: (&str, &str),
    sentence: (&str, &str),
) {
    for scoring in ENGINES {
        let mut s = session(scoring, h.clone());
        assert_eq!(text(&mut s, engine, sentence.0), sentence.1, "{scoring:?}");
        assert_eq!(text(&mut s, engine, learned.0), learned.1, "{scoring:?}");
    }
}

#[test]
fn accepting_the_first_candidate_learns_nothing() {
    let engine = common::shipped_engine();
    let mut ime = ime(&engine, Scoring::Hybrid);
    let first = convert(&mut ime, &engine, "kisha");
    press(&mut ime, &engine, "Enter");
    assert!(ime.session().history().is_empty());
    assert_eq!(convert(&mut ime, &engine, "kisha"), first);
}

#[test]
fn the_history_survives_export_and_import_by_reading_and_text() {
    let engine = common::shipped_engine();
    let mut ime = ime(&engine, Scoring::Hybrid);
    choose(&mut ime, &engine, "kisha", "汽車");
    let blob = ime.session().history().export();
    assert!(blob.starts_with(henkan::history::EXPORT_HEADER));
    assert!(blob.contains("きしゃ\t汽車"));
    let mut history = History::default();
    assert_eq!(history.import(&engine, &blob), Ok(1));
    let mut fresh = self::ime(&engine, Scoring::Neural);
    fresh.session_mut().set_history(history);
    assert_eq!(convert(&mut fresh, &engine, "kisha"), "汽車");
    // garbage is an error and changes nothing
    let mut h = History::default();
    h.import(&engine, &blob).unwrap();
    for bad in [
        "",
        "henkan-history\t2\nきしゃ\t汽車\n",
        "henkan-history\t1\nきしゃ汽車\n",
        "\u{0}\u{1}garbage",
    ] {
        assert!(h.import(&engine, bad).is_err(), "{bad:?}");
        assert_eq!(h.learned("きしゃ"), Some("汽車"));
    }
    // readings the model has no such word for are skipped
    assert_eq!(
        h.import(&engine, "henkan-history\t1\nきしゃ\t存在しない語\n"),
        Ok(0)
    );
    let long = format!("henkan-history\t1\n{}\tx\n", "あ".repeat(100));
    assert!(h.import(&engine, &long).is_err());
}

#[test]
fn user_data_round_trips_as_one_text() {
    let engine = common::shipped_engine();
    let mut h = History::default();
    h.learn(&engine, "きしゃ", "汽車");
    let text = henkan::user_data::export(&h, &dictionary());
    let got = henkan::user_data::import(&engine, &text, 100).unwrap();
    assert_eq!(got.history.entries(), vec![("きしゃ", "汽車")]);
    assert_eq!(got.dictionary.words(), dictionary().words());
    assert_eq!(
        henkan::user_data::export(&got.history, &got.dictionary),
        text
    );
    for bad in [
        String::new(),
        text.replace("history\t2", "history\t9"),
        text.replace("dictionary\t", "dictionary\tx"),
        format!("{text}more\n"),
        text.replace("henkan-user-data\t1", "henkan-user-data\t2"),
    ] {
        assert!(
            henkan::user_data::import(&engine, &bad, 100).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn the_history_is_bounded() {
    let engine = common::shipped_engine();
    let mut h = History::new(2);
    assert!(h.learn(&engine, "きしゃ", "汽車"));
    assert!(h.learn(&engine, "はし", "端"));
    assert!(h.learn(&engine, "かえる", "買える"));
    assert_eq!(h.len(), 2);
    assert_eq!(h.learned("きしゃ"), None);
    assert_eq!(h.entries(), vec![("はし", "端"), ("かえる", "買える")]);
}

fn dictionary() -> Arc<UserDictionary> {
    let mut d = UserDictionary::new();
    d.add("へんかんたろう", "辺環太朗", UserPos::PersonName, "")
        .unwrap();
    d.add("よろ", "よろしくお願いします", UserPos::SuggestionOnly, "")
        .unwrap();
    Arc::new(d)
}

#[test]
fn a_user_word_converts_in_every_engine_and_completes() {
    let engine = common::shipped_engine();
    for scoring in ENGINES {
        let mut ime = ime(&engine, scoring);
        assert_ne!(convert(&mut ime, &engine, "henkantarou"), "辺環太朗");
        press(&mut ime, &engine, "Escape");
        ime.cancel();
        ime.set_user_dictionary(Some(dictionary()));
        assert_eq!(
            convert(&mut ime, &engine, "henkantarou"),
            "辺環太朗",
            "{scoring:?}"
        );
        press(&mut ime, &engine, "Enter");
        let text = convert(&mut ime, &engine, "henkantarouga");
        assert!(text.starts_with("辺環太朗"), "{scoring:?}: {text}");
        press(&mut ime, &engine, "Enter");
        // completions: the user word, and a suggestion-only word that never converts
        type_keys(&mut ime, &engine, "henkanta");
        let out = press(&mut ime, &engine, "r");
        assert_eq!(
            out.completions.first().map(String::as_str),
            Some("辺環太朗")
        );
        ime.cancel();
        type_keys(&mut ime, &engine, "yor");
        let out = press(&mut ime, &engine, "o");
        assert!(out.completions.iter().any(|c| c == "よろしくお願いします"));
        assert_ne!(
            press(&mut ime, &engine, " ").preedit.text,
            "よろしくお願いします"
        );
        ime.cancel();
    }
}

#[test]
fn user_dictionary_files_round_trip_in_both_formats() {
    let mut d = UserDictionary::new();
    let report = d.import_text(
        "# Mozc\nへんかんたろう\t辺環太朗\t人名\tテスト\nとうきょうとちょう\t東京都庁\t地名\t\nきかく\t企画\t名詞サ変\n",
    );
    assert_eq!((report.added, report.skipped), (3, 0));
    for format in [DictionaryFormat::Mozc, DictionaryFormat::MsIme] {
        let bytes = d.export(format);
        let mut back = UserDictionary::new();
        let report = back.import(&bytes).unwrap();
        assert_eq!(report.added, 3, "{format:?}");
        let words: Vec<_> = back
            .words()
            .iter()
            .map(|w| (&w.reading, &w.word, w.pos))
            .collect();
        let want: Vec<_> = d
            .words()
            .iter()
            .map(|w| (&w.reading, &w.word, w.pos))
            .collect();
        assert_eq!(words, want, "{format:?}");
    }
    let ms = d.export(DictionaryFormat::MsIme);
    assert_eq!(&ms[..2], &[0xFF, 0xFE]);
    let text = String::from_utf16(
        &ms[2..]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(text.starts_with("!Microsoft IME Dictionary Tool\r\n"));
    assert!(text.contains("へんかんたろう\t辺環太朗\t人名\r\n"));
    assert_eq!(
        String::from_utf8(d.export(DictionaryFormat::Mozc))
            .unwrap()
            .lines()
            .next(),
        Some("へんかんたろう\t辺環太朗\t人名\tテスト")
    );
}

#[test]
fn bad_user_dictionary_lines_are_reported_not_fatal() {
    let mut d = UserDictionary::new();
    let long = "あ".repeat(65);
    let text = format!(
        "ただしい\t正しい\t形容詞\nno tabs here\nよみ\t語\t動詞ワ行五段\n\t空\t名詞\n{long}\t長い\t名詞\nよし\t良し\t感動詞\n"
    );
    let report = d.import_text(&text);
    assert_eq!(report.added, 2);
    assert_eq!(report.skipped, 4);
    let lines: Vec<usize> = report.bad_lines.iter().map(|b| b.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5]);
    // bytes that are no text at all: an error, nothing added
    assert!(d.import(&[0xFF, 0xFE, 0x00]).is_err());
    assert!(d.import(&[0xC3, 0x28, 0xA0]).is_err());
    assert_eq!(d.len(), 2);
    // bounded
    let mut full = UserDictionary::new();
    for i in 0..henkan::user_dictionary::MAX_ENTRIES {
        full.add(&format!("よみ{i}"), "語", UserPos::Noun, "")
            .unwrap();
    }
    assert!(full.add("もういっこ", "語", UserPos::Noun, "").is_err());
    let report = full.import_text("もういっこ\t語\t名詞\n");
    assert_eq!((report.added, report.skipped), (0, 1));
}

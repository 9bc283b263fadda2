//! Editing inside the composition with the shipped model, key by key through [`Ime`]: the
//! caret in the kana (←/→/Home/End, Backspace and Delete at it) and alphanumeric input after
//! a Shift+letter. The lattice follows every edit, so what Space converts is what is shown.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::ime::{Ime, ImeOutput, KeyEvent, State, SHIFT};
use henkan::Engine;

fn engine() -> Engine {
    common::shipped_engine()
}

fn press(ime: &mut Ime, engine: &Engine, key: &str, mods: u32) -> ImeOutput {
    ime.key(engine, KeyEvent::from_dom(key, mods))
}

/// Types characters one by one, each with Shift when it is an upper-case letter (as a
/// keyboard sends it); returns the last output.
fn typed(ime: &mut Ime, engine: &Engine, text: &str) -> ImeOutput {
    let mut last = None;
    for c in text.chars() {
        let mods = if c.is_ascii_uppercase() { SHIFT } else { 0 };
        let out = press(ime, engine, &c.to_string(), mods);
        assert!(out.consumed, "{c}");
        last = Some(out);
    }
    last.expect("some text")
}

#[test]
fn a_stray_letter_is_fixed_in_place() {
    let engine = engine();
    let mut ime = Ime::new();
    let out = typed(&mut ime, &engine, "arigatougozaimsu");
    assert_eq!(out.preedit.text, "ありがとうございmす");
    let out = press(&mut ime, &engine, "ArrowLeft", 0);
    assert!(out.consumed);
    assert_eq!(out.preedit.cursor, 9);
    let out = press(&mut ime, &engine, "Backspace", 0);
    assert_eq!(out.preedit.text, "ありがとうございす");
    let out = typed(&mut ime, &engine, "ma");
    assert_eq!(out.preedit.text, "ありがとうございます");
    assert_eq!(out.preedit.cursor, 9);
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, "ありがとうございます");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "ありがとうございます");
}

#[test]
fn home_delete_and_end_edit_the_kana() {
    let engine = engine();
    let mut ime = Ime::new();
    typed(&mut ime, &engine, "watashiha");
    press(&mut ime, &engine, "Home", 0);
    let out = press(&mut ime, &engine, "Delete", 0);
    assert_eq!(
        (out.preedit.text.as_str(), out.preedit.cursor),
        ("たしは", 0)
    );
    let out = typed(&mut ime, &engine, "wa");
    assert_eq!(
        (out.preedit.text.as_str(), out.preedit.cursor),
        ("わたしは", 1)
    );
    let out = press(&mut ime, &engine, "End", 0);
    assert_eq!(out.preedit.cursor, 4);
    let out = typed(&mut ime, &engine, "gakusei");
    assert_eq!(out.preedit.text, "わたしはがくせい");
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.preedit.text, "私は学生");
}

#[test]
fn capitals_start_alphanumeric_input() {
    let engine = engine();
    let mut ime = Ime::new();
    let out = typed(&mut ime, &engine, "Google");
    assert_eq!(out.preedit.text, "Google");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "Google");
    // after the commit, romaji again
    let out = typed(&mut ime, &engine, "iPhone");
    assert_eq!(out.preedit.text, "いPhone");
    let out = press(&mut ime, &engine, " ", 0);
    assert!(out.preedit.text.ends_with("Phone"), "{:?}", out.preedit);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert!(out.committed.ends_with("Phone"));
    let out = typed(&mut ime, &engine, "wo");
    assert_eq!(out.preedit.text, "を");
}

#[test]
fn keys_before_the_model_compose_and_convert_once_it_is_in() {
    let mut ime = Ime::new();
    let mut out = None;
    for c in "kyouha".chars() {
        out = Some(ime.key_without_model(KeyEvent::from_dom(&c.to_string(), 0)));
    }
    let out = out.expect("keys");
    assert!(out.consumed);
    assert_eq!(out.preedit.text, "きょうは");
    // Space before the model: the kana, katakana, the keys as typed
    let out = ime.key_without_model(KeyEvent::from_dom(" ", 0));
    assert_eq!(out.state, State::Converting);
    let items = out.candidates.expect("one segment").items;
    assert_eq!(items, ["きょうは", "キョウハ", "ｋｙｏｕｈａ"]);
    let out = ime.key_without_model(KeyEvent::from_dom("Escape", 0));
    assert_eq!(out.state, State::Composing);
    // the model arrives: the same composition converts with it
    let engine = engine();
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.preedit.text, "今日は");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "今日は");
    // typing goes on with the engine, and Enter before the model commits the kana
    let mut early = Ime::new();
    for c in "desu".chars() {
        early.key_without_model(KeyEvent::from_dom(&c.to_string(), 0));
    }
    let out = early.key_without_model(KeyEvent::from_dom("Enter", 0));
    assert_eq!(out.committed, "です");
}

#[test]
fn live_conversion_shows_the_best_conversion_and_commits_it() {
    let engine = engine();
    let mut ime = Ime::new();
    ime.set_live(false);
    ime.set_live_conversion(true);
    let out = typed(&mut ime, &engine, "kyouhaiitenkidesune");
    assert_eq!(out.state, State::Composing);
    assert_eq!(out.preedit.text, "今日はいい天気ですね");
    assert_eq!(out.preedit.cursor, out.preedit.text.encode_utf16().count());
    // pending romaji stay at the end
    let out = typed(&mut ime, &engine, "k");
    assert_eq!(out.preedit.text, "今日はいい天気ですねk");
    let out = press(&mut ime, &engine, "Backspace", 0);
    assert_eq!(out.preedit.text, "今日はいい天気ですね");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "今日はいい天気ですね");
    // Space opens the conversion as without it; with the caret inside the kana, kana are shown
    typed(&mut ime, &engine, "kisha");
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.state, State::Converting);
    press(&mut ime, &engine, "Escape", 0);
    let out = press(&mut ime, &engine, "ArrowLeft", 0);
    assert_eq!(out.preedit.text, "きしゃ");
}

#[test]
fn emoji_come_after_the_candidates_of_their_reading() {
    let engine = engine();
    let mut ime = Ime::new();
    for (romaji, emoji) in [
        ("neko", "🐱"),
        ("ha-to", "❤"),
        ("egao", "😀"),
        ("sushi", "🍣"),
    ] {
        typed(&mut ime, &engine, romaji);
        let out = press(&mut ime, &engine, " ", 0);
        let items = out.candidates.expect("one segment").items;
        let at = items.iter().position(|c| c == emoji);
        assert!(at.is_some_and(|i| i > 0), "{romaji}: {emoji} in {items:?}");
        press(&mut ime, &engine, "Escape", 0);
        press(&mut ime, &engine, "Escape", 0);
    }
}

#[test]
fn reconversion_offers_the_conversions_of_text_again() {
    let engine = engine();
    let mut ime = Ime::new();
    // text committed here: read back exactly
    typed(&mut ime, &engine, "kisha");
    let out = press(&mut ime, &engine, " ", 0);
    let first = out.preedit.text.clone();
    press(&mut ime, &engine, "Enter", 0);
    let out = ime.reconvert(&engine, &first);
    assert!(out.consumed);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.segments[0].reading, "きしゃ");
    let out = press(&mut ime, &engine, " ", 0);
    assert!(out.candidates.expect("open").items.len() > 2);
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    // a commit of segments picked and resized: undone, it comes back as it was cut and spelled
    typed(&mut ime, &engine, "kishanokishagakishadekishashita");
    let out = press(&mut ime, &engine, " ", 0);
    let cut: Vec<String> = out.segments.iter().map(|s| s.reading.clone()).collect();
    press(&mut ime, &engine, "ArrowRight", SHIFT);
    let out = press(&mut ime, &engine, " ", 0);
    let resized: Vec<String> = out.segments.iter().map(|s| s.reading.clone()).collect();
    assert_ne!(resized, cut, "the first segment took a kana more");
    let spelled: Vec<String> = out.segments.iter().map(|s| s.surface.clone()).collect();
    let out = press(&mut ime, &engine, "Enter", 0);
    let committed = out.committed.clone();
    let out = ime.reconvert(&engine, &committed);
    let again: Vec<String> = out.segments.iter().map(|s| s.reading.clone()).collect();
    assert_eq!(again, resized);
    let surfaces: Vec<String> = out.segments.iter().map(|s| s.surface.clone()).collect();
    assert_eq!(surfaces, spelled);
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    // text from elsewhere: the lexicon's reading
    for (text, reading) in [
        ("汽車で帰る", "きしゃでかえる"),
        ("学校", "がっこう"),
        ("東京タワー", "とうきょうたわー"),
        // a word the lexicon writes so under several readings: the one the LM knows as the
        // more common word (by word cost alone `ふみ`, `おきゃくよう`, `うた`)
        ("文", "ぶん"),
        ("お客様", "おきゃくさま"),
        ("詩が好き", "しがすき"),
        // words the kanji's readings do not spell (guessed from them: `しょく`, `だいひと`,
        // `したさい`), and words whose parts are cheaper alone (`出` で and `発` はつ are
        // affixes of cost 64 and 192, `出発` 3,968): found by their written form, read as the
        // best path through the words with the connection costs between them
        ("書く", "かく"),
        ("大人", "おとな"),
        ("体感下さい", "たいかんください"),
        ("北海道へ出発した", "ほっかいどうへしゅっぱつした"),
        ("話す", "はなす"),
        ("３試合", "３しあい"),
        // a counter after digits as text reads it after that number (the LM's `日` is ひ)
        ("５月２８日", "５がつ２８にち"),
        ("３分", "３ぷん"),
        ("１本", "１ぽん"),
        // `何` before d, t, n: なん (its two readings share one LM word)
        ("何の話", "なんのはなし"),
        ("何だろう", "なんだろう"),
        ("何がいい", "なにがいい"),
        ("何を食べる", "なにをたべる"),
    ] {
        assert_eq!(engine.reading_of(text), reading, "{text}");
    }
    let out = ime.reconvert(&engine, "汽車で帰る");
    let readings: String = out.segments.iter().map(|s| s.reading.as_str()).collect();
    assert_eq!(readings, "きしゃでかえる");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert!(!out.committed.is_empty());
    // not while composing
    typed(&mut ime, &engine, "a");
    assert!(!ime.reconvert(&engine, "汽車").consumed);
}

/// A suffix after another word is read as the lexicon's compounds ending in its kanji read it
/// (word costs and the LM's reading alone give `上` うえ, `者` もの, `中` なか), and a word with
/// kana is read with rendaku only where it can join the word before it (the LM's reading alone
/// gives `作り` づくり, `勝ち` がち; the suffix `黒い` ぐろい costs 0).
#[test]
fn reverse_conversion_reads_a_kanji_after_a_word_as_compounds_do() {
    let engine = engine();
    for (text, reading) in [
        ("道路法上の道路", "どうろほうじょうのどうろ"),
        ("入学者および在学者", "にゅうがくしゃおよびざいがくしゃ"),
        ("契約中のお客", "けいやくちゅうのおきゃく"),
        // a noun of its own after a noun keeps its reading (compounds end in `朝` ちょう, `雨` う)
        ("日曜日朝", "にちようびあさ"),
        ("時々雨", "ときどきあめ"),
        ("から、作りたい", "から、つくりたい"),
        ("不思議の勝ち", "ふしぎのかち"),
        ("切れない黒い猫", "きれないくろいねこ"),
        // after a word it can join, rendaku stays (`人形` + `作り`, no entry of its own)
        ("人形作り", "にんぎょうづくり"),
    ] {
        assert_eq!(engine.reading_of(text), reading, "{text}");
    }
}

/// A number in kanji numerals is read as a number, and a counter after it as after that number
/// (the lexicon alone reads `二十八` にそはち, `二十五日` as `二十` + `五日` いつか, `二〇二四` as
/// ふた, 〇, ふた); words that go on past the numerals keep their own reading.
#[test]
fn reverse_conversion_reads_kanji_numerals_as_numbers() {
    let engine = engine();
    for (text, reading) in [
        ("二十八日", "にじゅうはちにち"),
        ("二十五日", "にじゅうごにち"),
        ("二〇二四年", "にせんにじゅうよんねん"),
        (
            "一万九七六〇円",
            "いちまんきゅうせんななひゃくろくじゅうえん",
        ),
        ("三千本", "さんぜんぼん"),
        ("百十番", "ひゃくじゅうばん"),
        // the lexicon's words
        ("二十日", "はつか"),
        ("二十歳", "はたち"),
        ("十一月", "じゅういちがつ"),
        ("一人", "ひとり"),
        ("統一", "とういつ"),
        ("万一", "まんいち"),
        // digits alone without a zero are mostly words read digit by digit
        ("七五三", "しちごさん"),
        ("三三五五", "さんさんごご"),
        ("一二を争う", "いちにをあらそう"),
    ] {
        assert_eq!(engine.reading_of(text), reading, "{text}");
    }
}

/// 無変換 on a converted segment cycles its kana types from whatever it shows, as Mozc's
/// SwitchKanaType does (`感じを` → `かんじを` → `カンジヲ` → `ｶﾝｼﾞｦ` → `かんじを`); Shift+無変換 gives the
/// keys typed for it in full width.
#[test]
fn nonconvert_cycles_the_focused_segments_kana() {
    let engine = engine();
    let mut ime = Ime::new();
    typed(&mut ime, &engine, "kanjiwokaku");
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.preedit.text, "感じを書く");
    let mut seen = Vec::new();
    for _ in 0..4 {
        let out = press(&mut ime, &engine, "NonConvert", 0);
        assert!(out.consumed);
        assert_eq!(out.state, State::Converting);
        seen.push(out.preedit.text);
    }
    // the segment is `感じを`
    assert_eq!(
        seen,
        ["かんじを書く", "カンジヲ書く", "ｶﾝｼﾞｦ書く", "かんじを書く"]
    );
    let out = press(&mut ime, &engine, "NonConvert", SHIFT);
    assert_eq!(out.preedit.text, "ｋａｎｊｉｗｏ書く");
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "ｋａｎｊｉｗｏ書く");
    // while composing: the whole input as katakana, one segment
    typed(&mut ime, &engine, "ra-mennwotaberu");
    let out = press(&mut ime, &engine, "NonConvert", 0);
    assert_eq!(out.preedit.text, "ラーメンヲタベル");
    assert_eq!(out.preedit.segments.len(), 1);
}

/// Katakana input (a フリガナ field): the composition is shown and committed in katakana, with no
/// completions or next-word predictions, and nothing is learned: the reading converts as before.
#[test]
fn katakana_input_commits_katakana_and_learns_nothing() {
    let engine = engine();
    let mut ime = Ime::new();
    typed(&mut ime, &engine, "kirei");
    let before = press(&mut ime, &engine, " ", 0).preedit.text;
    assert_eq!(before, "きれい");
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    ime.set_katakana(true);
    let out = typed(&mut ime, &engine, "kirei");
    assert_eq!(out.preedit.text, "キレイ");
    assert!(out.completions.is_empty(), "{:?}", out.completions);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "キレイ");
    assert!(out.completions.is_empty(), "{:?}", out.completions);
    ime.set_katakana(false);
    typed(&mut ime, &engine, "kirei");
    assert_eq!(press(&mut ime, &engine, " ", 0).preedit.text, before);
}

/// A key of a JIS keyboard in kana input: its place (`KeyboardEvent.code`), the character it
/// types without the IME, and Shift.
fn kana_press(ime: &mut Ime, engine: &Engine, code: &str, key: &str, mods: u32) -> ImeOutput {
    let ev = ime.kana_key(KeyEvent::from_dom(key, mods), code);
    ime.key(engine, ev)
}

/// Kana input (かな入力): each key types its kana, `゛` joins the kana before it, Space converts
/// what is shown, F10 gives back the keys, a digit key picks from the window, Shift types the
/// small kana, `を` and the punctuation setting's marks, and Alt+カタカナひらがな goes back to
/// romaji input.
#[test]
fn kana_input_types_the_layouts_kana() {
    let engine = engine();
    let mut ime = Ime::new();
    ime.set_kana_input(true);
    // か ん し ゛ (the `@` key of a JIS keyboard)
    let keys = [
        ("KeyT", "t"),
        ("KeyY", "y"),
        ("KeyD", "d"),
        ("BracketLeft", "@"),
    ];
    let mut out = None;
    for (code, key) in keys {
        let o = kana_press(&mut ime, &engine, code, key, 0);
        assert!(o.consumed, "{code}");
        out = Some(o);
    }
    let out = out.unwrap();
    assert_eq!(out.preedit.text, "かんじ");
    assert!(out.kana_input);
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.state, State::Converting);
    assert_ne!(out.preedit.text, "かんじ");
    // the window open, the `3` key (あ) picks the third candidate of the page
    let out = press(&mut ime, &engine, " ", 0);
    let third = out.candidates.as_ref().unwrap().items[2].clone();
    let out = kana_press(&mut ime, &engine, "Digit3", "3", 0);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, third);
    press(&mut ime, &engine, "Escape", 0);
    let out = press(&mut ime, &engine, "F10", 0);
    assert_eq!(out.preedit.text, "tyd@");
    press(&mut ime, &engine, "Escape", 0);
    // じ is one unit: one Backspace takes it whole
    let out = press(&mut ime, &engine, "Backspace", 0);
    assert_eq!(out.preedit.text, "かん");
    press(&mut ime, &engine, "Escape", 0);
    // Shift: を, っ and the comma of the punctuation setting; a mark after a kana that takes
    // none stays a mark
    for (code, key, mods) in [
        ("Digit0", ")", SHIFT),
        ("KeyZ", "Z", SHIFT),
        ("Comma", "<", SHIFT),
        ("KeyE", "e", 0),
        ("BracketRight", "[", 0),
    ] {
        assert!(kana_press(&mut ime, &engine, code, key, mods).consumed);
    }
    let out = press(&mut ime, &engine, "F6", 0);
    assert_eq!(out.preedit.text, "をっ、い゜");
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    // the number pad types digits
    let out = kana_press(&mut ime, &engine, "Numpad1", "1", 0);
    assert_eq!(out.preedit.text, "１");
    press(&mut ime, &engine, "Escape", 0);
    // Alt+カタカナひらがな: romaji input again
    let out = press(&mut ime, &engine, "KanaMode", henkan::ime::ALT);
    assert!(out.consumed);
    assert!(!out.kana_input);
    let out = kana_press(&mut ime, &engine, "KeyK", "k", 0);
    let out2 = kana_press(&mut ime, &engine, "KeyA", "a", 0);
    assert_eq!(
        (out.preedit.text, out2.preedit.text.as_str()),
        ("k".to_string(), "か")
    );
}

/// Reconversion shows the text as it was, segment by segment, where the engine would convert its
/// reading otherwise (`洗髪と先発` → `洗髪と洗髪`): 変換 then Enter changes nothing, and Space on a
/// segment gives the engine's choice next; segments that split a word are joined. Text of
/// hiragana alone is converted.
#[test]
fn reconversion_shows_the_text_as_it_was_first() {
    let engine = engine();
    let mut session = henkan::Session::new();
    session.set_scoring(engine.default_scoring(), Default::default());
    let text = "洗髪と先発";
    let fresh = session.convert_reading(&engine, &engine.reading_of(text));
    assert_eq!(
        fresh.text(),
        "洗髪と洗髪",
        "the engine alone converts the reading otherwise"
    );
    let mut ime = Ime::new();
    let out = ime.reconvert(&engine, text);
    assert!(out.consumed);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, text);
    assert_eq!(out.nbest.first().map(String::as_str), Some(text));
    let segments: Vec<&str> = out.segments.iter().map(|s| s.surface.as_str()).collect();
    assert_eq!(segments, ["洗髪と", "先発"]);
    press(&mut ime, &engine, "ArrowRight", 0);
    let out = press(&mut ime, &engine, " ", 0);
    let list = out.candidates.expect("open");
    assert_eq!(list.items[0], "先発", "the text first in the window");
    assert_eq!(
        out.preedit.text, "洗髪と洗髪",
        "Space takes the engine's choice"
    );
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    let out = ime.reconvert(&engine, text);
    assert_eq!(out.preedit.text, text);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, text, "変換 then Enter changes nothing");
    // a word the conversion splits (`いち`|`びき`, `1匹`): its segments joined, the word first
    let out = ime.reconvert(&engine, "一匹");
    assert_eq!(out.preedit.text, "一匹");
    assert_eq!(out.segments.len(), 1);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "一匹");
    // hiragana alone, left unconverted: converted
    let out = ime.reconvert(&engine, "きしゃでかえる");
    assert_eq!(out.state, State::Converting);
    assert!(
        out.preedit.text.chars().any(|c| c > '\u{4e00}'),
        "{}",
        out.preedit.text
    );
    press(&mut ime, &engine, "Escape", 0);
}

/// Reverse conversion finds an entry's reading from its offset by reading the lexicon's index
/// backwards: every entry of the shipped lexicon is found so, but for the lists appended to a
/// finished model (`training/readings.tsv`), which reverse conversion then reads otherwise.
#[test]
fn every_entry_is_found_again_by_its_offset() {
    let engine = engine();
    let lexicon = &engine.lexicon;
    let added = include_str!("../../../training/readings.tsv");
    let (mut found, mut missed) = (0, Vec::new());
    lexicon.for_each_entry(|reading, e| match lexicon.reading_at(e.offset) {
        Some(r) => {
            assert_eq!(r, reading);
            found += 1;
        }
        None => missed.push(reading.to_string()),
    });
    assert!(found > 500_000, "{found}");
    for reading in &missed {
        assert!(
            added
                .lines()
                .any(|l| l.starts_with(&format!("{reading}\t"))),
            "{reading}"
        );
    }
    assert_eq!(lexicon.reading_at(u32::MAX), None);
    // a list starts with its count, not an entry
    assert_eq!(lexicon.reading_at(0), None);
}

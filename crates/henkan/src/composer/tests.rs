//! Unit tests: keystroke scenarios from `scenarios.tsv`, and the composer's bookkeeping.

use super::*;

/// One key of a scenario.
#[derive(Clone, Copy, Debug)]
enum Op {
    Char(char),
    Backspace,
    Delete,
    Move(CaretMove),
}

/// The keys of a scenario: `\b` is backspace, `\d` delete, `\<` `\>` `\^` `\$` move the
/// caret left, right, to the start and to the end, `\t` is a tab, `\\` a backslash.
fn keys(field: &str) -> Vec<Op> {
    let mut keys = Vec::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        keys.push(match c {
            '\\' => match chars.next() {
                Some('b') => Op::Backspace,
                Some('d') => Op::Delete,
                Some('<') => Op::Move(CaretMove::Left),
                Some('>') => Op::Move(CaretMove::Right),
                Some('^') => Op::Move(CaretMove::Start),
                Some('$') => Op::Move(CaretMove::End),
                Some('t') => Op::Char('\t'),
                Some('\\') => Op::Char('\\'),
                other => panic!("unknown escape \\{other:?} in {field:?}"),
            },
            c => Op::Char(c),
        });
    }
    keys
}

/// A field with `\t` and `\\` escapes expanded.
fn text(field: &str) -> String {
    keys(field)
        .into_iter()
        .map(|k| match k {
            Op::Char(c) => c,
            other => panic!("{other:?} outside keys"),
        })
        .collect()
}

fn type_keys(keys: &[Op]) -> Composer {
    let mut composer = Composer::new();
    for key in keys {
        match *key {
            Op::Char(c) => composer.insert(c),
            Op::Backspace => composer.backspace(),
            Op::Delete => composer.delete(),
            Op::Move(to) => composer.move_caret(to),
        }
        composer.check_invariants();
    }
    composer
}

impl Composer {
    /// Units tile the kana and the raw keys; one raw key per pending letter.
    fn check_invariants(&self) {
        let mut kana_start = 0;
        let mut raw_start = 0;
        for unit in &self.units {
            assert!(unit.kana_len > 0, "empty unit in {self:?}");
            kana_start += unit.kana_len;
            raw_start += unit.raw_len;
            assert!(self.kana.is_char_boundary(kana_start), "{self:?}");
            assert!(self.raw.is_char_boundary(raw_start), "{self:?}");
        }
        assert_eq!(kana_start, self.kana.len(), "{self:?}");
        assert_eq!(raw_start, self.raw.len(), "{self:?}");
        assert!(self.caret <= self.units.len(), "{self:?}");
        let raw_pending = self.pending_raw.chars().count();
        assert_eq!(raw_pending, self.pending.chars().count(), "{self:?}");
    }
}

#[test]
fn scenarios() {
    let mut count = 0;
    for (index, line) in include_str!("scenarios.tsv").lines().enumerate() {
        if line.is_empty() || (line.starts_with('#') && !line.contains('\t')) {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(
            (3..=4).contains(&fields.len()),
            "scenarios.tsv:{}: {line:?}",
            index + 1
        );
        let composer = type_keys(&keys(fields[0]));
        let at = format!("scenarios.tsv:{}: keys {:?}", index + 1, fields[0]);
        assert_eq!(composer.preedit(), text(fields[1]), "{at}: preedit");
        assert_eq!(composer.submission(), text(fields[2]), "{at}: submission");
        if let Some(raw) = fields.get(3) {
            assert_eq!(composer.raw(), text(raw), "{at}: raw");
        }
        assert_eq!(composer.is_empty(), composer.preedit().is_empty(), "{at}");
        count += 1;
    }
    assert!(count > 50, "only {count} scenarios");
}

#[test]
fn views_of_a_trailing_n() {
    let mut composer = Composer::new();
    composer.insert_str("kan");
    assert_eq!(composer.kana(), "か");
    assert_eq!(composer.pending(), "n");
    assert_eq!(composer.preedit(), "かn");
    assert_eq!(composer.submission(), "かん");
    assert_eq!(composer.query(), "かん");
}

#[test]
fn query_drops_pending_consonants() {
    let mut composer = Composer::new();
    composer.insert_str("kyouky");
    assert_eq!(composer.query(), "きょう");
    assert_eq!(composer.submission(), "きょうky");
    composer.clear();
    composer.insert_str("ww");
    assert_eq!(composer.query(), "");
    assert_eq!(composer.submission(), "ww");
}

#[test]
fn clear_and_default() {
    let mut composer = Composer::default();
    assert!(composer.is_empty());
    composer.insert_str("kyouk");
    assert!(!composer.is_empty());
    composer.clear();
    assert!(composer.is_empty());
    assert_eq!(composer.raw(), "");
    assert_eq!(composer.preedit(), "");
    composer.backspace();
    assert!(composer.is_empty());
}

#[test]
fn backspace_keeps_raw_in_step_with_kana() {
    let mut composer = Composer::new();
    composer.insert_str("Gakkou");
    assert_eq!(composer.raw(), "Gakkou");
    composer.backspace(); // う
    assert_eq!(
        (composer.kana(), composer.raw().as_str()),
        ("がっこ", "Gakko")
    );
    composer.backspace(); // こ
    assert_eq!((composer.kana(), composer.raw().as_str()), ("がっ", "Gak"));
    composer.backspace(); // っ
    assert_eq!((composer.kana(), composer.raw().as_str()), ("が", "Ga"));
    composer.insert_str("ppa");
    assert_eq!(
        (composer.kana(), composer.raw().as_str()),
        ("がっぱ", "Gappa")
    );
}

#[test]
fn transliterations_of_pending_letters() {
    let mut composer = Composer::new();
    composer.insert_str("kyouh");
    let t = |t| composer.transliterate(t);
    assert_eq!(t(Transliteration::Hiragana), "きょうｈ");
    assert_eq!(t(Transliteration::Katakana), "キョウｈ");
    assert_eq!(t(Transliteration::HalfKatakana), "ｷｮｳh");
    assert_eq!(t(Transliteration::FullAscii), "ｋｙｏｕｈ");
    assert_eq!(t(Transliteration::HalfAscii), "kyouh");
}

#[test]
fn debug_shows_the_state() {
    let mut composer = Composer::new();
    composer.insert_str("kak");
    let debug = format!("{composer:?}");
    assert!(
        debug.contains("\"か\"") && debug.contains("\"k\""),
        "{debug}"
    );
}

#[test]
fn the_caret_moves_by_unit_and_keys_go_in_at_it() {
    let mut composer = Composer::new();
    composer.insert_str("arigatougozaimsu");
    assert_eq!(composer.preedit(), "ありがとうございmす");
    assert_eq!(composer.caret(), 10);
    composer.move_caret(CaretMove::Left);
    assert_eq!(composer.caret(), 9);
    composer.backspace(); // the stray m, not す
    assert_eq!(composer.preedit(), "ありがとうございす");
    composer.insert('m');
    assert_eq!(composer.preedit(), "ありがとうございmす");
    assert_eq!(composer.caret(), 9);
    composer.insert('a');
    assert_eq!(composer.preedit(), "ありがとうございます");
    assert_eq!(composer.raw(), "arigatougozaimasu");
    assert_eq!(composer.caret(), 9);
    assert!(!composer.caret_at_end());
    composer.move_caret(CaretMove::End);
    assert!(composer.caret_at_end());
    composer.check_invariants();
}

#[test]
fn moving_the_caret_settles_pending_letters() {
    let mut composer = Composer::new();
    composer.insert_str("kan");
    composer.move_caret(CaretMove::Left);
    assert_eq!(composer.preedit(), "かん");
    assert_eq!(composer.caret(), 1);
    composer.insert_str("k");
    assert_eq!(composer.preedit(), "かkん");
    assert_eq!(composer.submission(), "かkん");
    assert_eq!(composer.query(), "かん");
    composer.move_caret(CaretMove::Right);
    assert_eq!(composer.preedit(), "かkん");
    assert_eq!(composer.caret(), 3);
    composer.check_invariants();
}

#[test]
fn delete_and_backspace_at_the_ends_do_nothing() {
    let mut composer = Composer::new();
    composer.insert_str("kyouha");
    composer.delete();
    assert_eq!(composer.preedit(), "きょうは");
    composer.move_caret(CaretMove::Start);
    composer.backspace();
    assert_eq!(composer.preedit(), "きょうは");
    composer.move_caret(CaretMove::Left);
    assert_eq!(composer.caret(), 0);
    composer.delete(); // きょ → ょ is left, re-spelt
    assert_eq!(composer.preedit(), "ょうは");
    assert_eq!(composer.raw(), "lyouha");
    composer.check_invariants();
}

#[test]
fn raw_range_with_pending_letters_inside() {
    let mut composer = Composer::new();
    composer.insert_str("Kaisha");
    composer.move_caret(CaretMove::Left);
    composer.insert('K');
    assert_eq!(composer.submission(), "かいkしゃ");
    assert_eq!(composer.raw_range(0..2), "Kai");
    assert_eq!(composer.raw_range(2..3), "K");
    assert_eq!(composer.raw_range(3..5), "sha");
}

#[test]
fn alphanumeric_input_passes_keys_through() {
    let mut composer = Composer::new();
    composer.insert_str("ik");
    composer.set_ascii(true);
    composer.insert_str("Phone-3.1");
    assert_eq!(composer.preedit(), "いkPhone-3.1");
    assert_eq!(composer.raw(), "ikPhone-3.1");
    composer.backspace();
    assert_eq!(composer.preedit(), "いkPhone-3.");
    composer.set_ascii(false);
    composer.insert_str("wo");
    assert_eq!(composer.preedit(), "いkPhone-3.を");
    composer.clear();
    assert!(!composer.ascii());
    composer.check_invariants();
}

#[test]
fn punctuation_setting_types_its_marks() {
    let mut composer = Composer::new();
    assert_eq!(composer.punctuation(), Punctuation::default());
    composer.set_punctuation(Punctuation::parse("、．").unwrap());
    composer.insert_str("hai,sou.");
    assert_eq!(composer.kana(), "はい、そう．");
    // After a digit the marks are the number's, whatever the setting; F9 gives the keys back.
    composer.set_punctuation(Punctuation::parse("，。").unwrap());
    composer.insert_str("3.14,");
    assert_eq!(composer.kana(), "はい、そう．３．１４，");
    assert_eq!(
        composer.transliterate(Transliteration::FullAscii),
        "ｈａｉ，ｓｏｕ．３．１４，"
    );
    // Backspace takes a mark and its key; typed again it follows the setting now; clear keeps it.
    composer.backspace();
    composer.insert_str("de,");
    assert_eq!(composer.kana(), "はい、そう．３．１４で，");
    composer.clear();
    composer.insert(',');
    assert_eq!(composer.kana(), "，");
    for bad in ["", "、", "。、", ",.", "、。。", "，,"] {
        assert!(Punctuation::parse(bad).is_none(), "{bad}");
    }
    composer.check_invariants();
}

#[test]
fn a_voiced_mark_typed_or_pasted_after_a_kana_makes_one_kana() {
    // NFD text (macOS file names) and spacing marks: the kana and its mark are one unit
    let mut composer = Composer::new();
    composer.insert_str("ka\u{3099}");
    composer.insert_str("ウ゛");
    composer.insert_str("ha゜");
    assert_eq!(composer.kana(), "がヴぱ");
    assert_eq!(composer.raw(), "ka\u{3099}ウ゛ha゜");
    composer.backspace();
    assert_eq!(composer.kana(), "がヴ");
    assert_eq!(composer.raw(), "ka\u{3099}ウ゛");
    // after a kana that takes no mark, after a pending letter or at the start it stays a mark
    let mut composer = Composer::new();
    composer.insert_str("゛n\u{3099}a゜");
    assert_eq!(composer.kana(), "゛ん\u{3099}あ゜");
}

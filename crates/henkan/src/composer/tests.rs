//! Unit tests: keystroke scenarios from `scenarios.tsv`, and the composer's bookkeeping.

use super::*;

/// The keys of a scenario: `\b` is backspace (`None`), `\t` a tab, `\\` a backslash.
fn keys(field: &str) -> Vec<Option<char>> {
    let mut keys = Vec::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        keys.push(match c {
            '\\' => match chars.next() {
                Some('b') => None,
                Some('t') => Some('\t'),
                Some('\\') => Some('\\'),
                other => panic!("unknown escape \\{other:?} in {field:?}"),
            },
            c => Some(c),
        });
    }
    keys
}

/// A field with `\t` and `\\` escapes expanded.
fn text(field: &str) -> String {
    keys(field)
        .into_iter()
        .map(|k| k.expect("no backspace outside keys"))
        .collect()
}

fn type_keys(keys: &[Option<char>]) -> Composer {
    let mut composer = Composer::new();
    for key in keys {
        match key {
            Some(c) => composer.insert(*c),
            None => composer.backspace(),
        }
        composer.check_invariants();
    }
    composer
}

impl Composer {
    /// Units tile the kana and the raw keys; one raw key per pending letter follows.
    fn check_invariants(&self) {
        let mut kana_start = 0;
        let mut raw_start = 0;
        for unit in &self.units {
            assert!(unit.kana_end > kana_start, "empty unit in {self:?}");
            assert!(unit.raw_end >= raw_start, "{self:?}");
            assert!(self.kana.is_char_boundary(unit.kana_end), "{self:?}");
            assert!(self.raw.is_char_boundary(unit.raw_end), "{self:?}");
            kana_start = unit.kana_end;
            raw_start = unit.raw_end;
        }
        assert_eq!(kana_start, self.kana.len(), "{self:?}");
        let raw_pending = self.raw[raw_start..].chars().count();
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
    assert_eq!((composer.kana(), composer.raw()), ("がっこ", "Gakko"));
    composer.backspace(); // こ
    assert_eq!((composer.kana(), composer.raw()), ("がっ", "Gak"));
    composer.backspace(); // っ
    assert_eq!((composer.kana(), composer.raw()), ("が", "Ga"));
    composer.insert_str("ppa");
    assert_eq!((composer.kana(), composer.raw()), ("がっぱ", "Gappa"));
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

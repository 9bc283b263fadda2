#![cfg(not(target_arch = "wasm32"))]
//! Table-driven tests of the romaji composer through its public API: every rule of our
//! table, every rule of Mozc's table (when the data file is present), the F6–F10
//! transliterations, and a property test over arbitrary Unicode input.

use henkan::composer::{Composer, RomajiTable, Transliteration};
use proptest::prelude::*;

/// Our table, as the composer embeds it.
const OUR_TABLE: &str = include_str!("../src/composer/romaji.tsv");

/// Mozc's standard romaji table, read at run time when present (CI may not have it).
const MOZC_TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/mozc/romanji-hiragana.tsv"
);

/// Inputs that are a complete rule *and* the start of a longer one, so typing them alone
/// leaves them pending: `n` (before `na`, `nn`, `n'`…) and `ww` (before `www`).
const WAITING_INPUTS: [&str; 2] = ["n", "ww"];

/// One rule: (input, output, pending).
type Row<'a> = (&'a str, &'a str, &'a str);

/// The rules of a table in our format (which is Mozc's, plus `#` comment lines).
fn rows(text: &str) -> Vec<Row<'_>> {
    text.lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.is_empty() && (!line.starts_with('#') || line.contains('\t')))
        .map(|line| {
            let mut fields = line.split('\t');
            let input = fields.next().unwrap();
            let output = fields
                .next()
                .unwrap_or_else(|| panic!("no output: {line:?}"));
            (input, output, fields.next().unwrap_or(""))
        })
        .collect()
}

/// Types `input` and checks that the composer emits `output` and leaves `pending`. An
/// input that a longer rule extends waits instead; then one more key that no rule
/// continues (`あ`) must settle it to `output`, then `pending`, then `あ`. Returns whether
/// the input waited.
fn check_row((input, output, pending): Row<'_>, table: &str) -> bool {
    check_row_with(Composer::new(), (input, output, pending), table)
}

/// [`check_row`] with `composer`.
fn check_row_with(mut composer: Composer, (input, output, pending): Row<'_>, table: &str) -> bool {
    composer.insert_str(input);
    if (composer.kana(), composer.pending()) == (output, pending) {
        return false;
    }
    assert_eq!(
        (composer.kana(), composer.pending()),
        ("", input),
        "{table}: typing {input:?} should give {output:?} pending {pending:?}"
    );
    composer.insert('あ');
    assert_eq!(
        composer.kana(),
        format!("{output}{pending}あ"),
        "{table}: typing {input:?} then あ"
    );
    true
}

#[test]
fn every_rule_of_our_table() {
    let rows = rows(OUR_TABLE);
    assert!(rows.len() > 350, "only {} rules", rows.len());
    let waiting: Vec<&str> = rows
        .iter()
        .filter(|&&row| check_row(row, "romaji.tsv"))
        .map(|row| row.0)
        .collect();
    assert_eq!(waiting, WAITING_INPUTS);
}

#[test]
fn upper_case_rules_give_the_same_kana() {
    for (input, output, pending) in rows(OUR_TABLE) {
        if WAITING_INPUTS.contains(&input) {
            continue;
        }
        let mut composer = Composer::new();
        composer.insert_str(&input.to_ascii_uppercase());
        assert_eq!(
            (composer.kana(), composer.pending()),
            (output, pending),
            "{input}"
        );
        assert_eq!(composer.raw(), input.to_ascii_uppercase());
    }
}

#[test]
fn every_rule_of_mozc_table() {
    let text = match std::fs::read_to_string(MOZC_TABLE) {
        Ok(text) => text,
        Err(err) => {
            println!("skipped: Mozc's table is not at {MOZC_TABLE} ({err})");
            return;
        }
    };
    let rows = rows(&text);
    assert!(
        rows.len() > 300,
        "only {} rules in {MOZC_TABLE}",
        rows.len()
    );
    for &row in &rows {
        check_row(row, "Mozc's romanji-hiragana.tsv");
    }
    // the same table given as a user's (as Mozc exports it): every rule types as it says
    let table = RomajiTable::parse(&text).expect("Mozc's table as a user's table");
    let mut inputs: Vec<&str> = rows.iter().map(|r| r.0).collect();
    inputs.sort_unstable();
    inputs.dedup(); // Mozc's own table has `fu` twice
    assert_eq!(table.rules(), inputs.len());
    for row in rows {
        let mut composer = Composer::new();
        composer.set_table(table.clone());
        check_row_with(composer, row, "Mozc's table as a user's");
    }
}

/// A user's table replaces the built-in one whole: AZIK-style rules type, and keys the
/// built-in table has (`shi`) no longer do.
#[test]
fn a_users_table_replaces_the_builtin_one() {
    let table = RomajiTable::parse("# AZIK, in part\nka\tか\nkz\tかん\nsi\tし\nq\tん\nxx\tっ\tx\n")
        .unwrap();
    assert_eq!(table.rules(), 5);
    let mut composer = Composer::new();
    composer.set_table(table);
    composer.insert_str("kzsiq");
    assert_eq!(composer.kana(), "かんしん");
    composer.insert_str("shi");
    assert_eq!(composer.submission(), "かんしんshi");
    // and back to the built-in one
    composer.set_table(RomajiTable::builtin());
    composer.insert_str("ka");
    assert!(composer.submission().ends_with("か"));
}

#[test]
fn printable_ascii_never_stays_pending_alone() {
    // Letters start rules; every other printable ASCII key settles at once.
    for c in (' '..='~').filter(|c| !c.is_ascii_alphabetic()) {
        let mut composer = Composer::new();
        composer.insert(c);
        assert_eq!(composer.pending(), "", "{c:?}");
        assert_eq!(composer.kana().chars().count(), 1, "{c:?}");
        assert!(!composer.kana().is_ascii(), "{c:?} → {}", composer.kana());
    }
}

#[test]
fn transliterations_f6_to_f10() {
    let cases = [
        (
            "kyouha",
            ["きょうは", "キョウハ", "ｷｮｳﾊ", "ｋｙｏｕｈａ", "kyouha"],
        ),
        (
            "gakkou",
            ["がっこう", "ガッコウ", "ｶﾞｯｺｳ", "ｇａｋｋｏｕ", "gakkou"],
        ),
        ("pan", ["ぱん", "パン", "ﾊﾟﾝ", "ｐａｎ", "pan"]),
        (
            "Tokyo-",
            ["ときょー", "トキョー", "ﾄｷｮｰ", "Ｔｏｋｙｏ－", "Tokyo-"],
        ),
        ("vu,.", ["ゔ、。", "ヴ、。", "ｳﾞ､｡", "ｖｕ，．", "vu,."]),
        (
            "kyouh",
            ["きょうｈ", "キョウｈ", "ｷｮｳh", "ｋｙｏｕｈ", "kyouh"],
        ),
    ];
    let all = [
        Transliteration::Hiragana,
        Transliteration::Katakana,
        Transliteration::HalfKatakana,
        Transliteration::FullAscii,
        Transliteration::HalfAscii,
    ];
    for (keys, expected) in cases {
        let mut composer = Composer::new();
        composer.insert_str(keys);
        for (t, want) in all.into_iter().zip(expected) {
            assert_eq!(composer.transliterate(t), want, "{keys:?} {t:?}");
        }
    }
}

#[test]
fn transliterations_follow_backspace() {
    let mut composer = Composer::new();
    composer.insert_str("kyouha");
    composer.backspace();
    assert_eq!(composer.transliterate(Transliteration::HalfAscii), "kyou");
    composer.backspace();
    composer.backspace();
    assert_eq!(composer.transliterate(Transliteration::Katakana), "キ");
    assert_eq!(composer.transliterate(Transliteration::HalfAscii), "ki");
}

proptest! {
    /// A user's table of arbitrary rules (any characters, tabs and line breaks among them):
    /// it parses or is refused with an error, never a panic; one that parses composes any keys
    /// drawn from its own inputs and backspaces back to empty.
    #[test]
    fn any_users_table_parses_or_is_refused(
        text in "([a-zあ-ん\\t\\n#,.-]{0,6}){0,40}",
        keys in "[a-zあ-ん,.-]{0,30}",
    ) {
        let Ok(table) = RomajiTable::parse(&text) else { return Ok(()) };
        prop_assert!(table.rules() > 0);
        let mut composer = Composer::new();
        composer.set_table(table);
        composer.insert_str(&keys);
        let _ = (composer.submission(), composer.query(), composer.raw());
        let mut steps = 0;
        while !composer.is_empty() {
            composer.backspace();
            steps += 1;
            prop_assert!(steps <= 4 * keys.chars().count() + 4);
        }
        prop_assert_eq!(composer.preedit(), "");
    }

    /// Any input, one char at a time: no panic, something to show, and backspace
    /// always gets back to empty.
    #[test]
    fn any_input_composes_and_backspaces_to_empty(input in any::<String>()) {
        let mut composer = Composer::new();
        for c in input.chars() {
            composer.insert(c);
            prop_assert!(!composer.preedit().is_empty());
            prop_assert!(composer.preedit().starts_with(composer.kana()));
        }
        prop_assert_eq!(composer.is_empty(), input.is_empty());
        let _ = (composer.submission(), composer.query(), composer.raw());
        let mut steps = 0;
        while !composer.is_empty() {
            let before = composer.preedit().chars().count();
            composer.backspace();
            prop_assert_eq!(composer.preedit().chars().count(), before - 1);
            steps += 1;
            prop_assert!(steps <= 4 * input.chars().count());
        }
        prop_assert_eq!(composer.raw(), "");
        prop_assert_eq!(composer.preedit(), "");
    }

    /// Romaji-like input (letters and the symbols rules use): the same properties, and
    /// raw is exactly what was typed until the first backspace.
    #[test]
    fn romaji_input_keeps_raw(input in "[a-zA-Z',./\\-\\[\\]~!1 ]{0,24}") {
        let mut composer = Composer::new();
        composer.insert_str(&input);
        prop_assert_eq!(composer.raw(), input.as_str());
        prop_assert_eq!(composer.transliterate(Transliteration::HalfAscii), input.as_str());
        prop_assert!(composer.submission().starts_with(&composer.query()));
        while !composer.is_empty() {
            composer.backspace();
        }
        prop_assert_eq!(composer.raw(), "");
    }
}

//! Whether a conversion differs from the annotated text only in spelling choices: the words the
//! writer meant, written with another choice of kana or kanji (`下さい`/`ください`,
//! `事`/`こと`, `お話させて`/`お話しさせて`, `ダメ`/`だめ`) or of numerals (`１５`/`一五`).
//!
//! The two texts are aligned character by character (a longest common subsequence), and each
//! run where they differ must be one of:
//! - hiragana alone on one side and kana or kanji on the other (`頂き`/`いただき`, `ナ`/`な`);
//! - hiragana alone on one side and nothing on the other (okurigana: `話`+`し`);
//! - numerals on both sides (`１`/`一`, `２０`/`二十`).
//!
//! Anything else is an error of meaning or of cutting (`機能`/`昨日`, `公演`/`講演`,
//! `２強`/`に今日`), or of symbols, letters or digits typed (`特殊-空白`, `１１：００`/`１１時`).
//! `training/error_kinds.py` sorts wrong sentences by the same rule and alignment; both test
//! against `tests/golden/spelling-choices.tsv`.

use henkan::composer::is_hiragana;
use henkan::lattice::is_digit;

/// Texts longer than this (characters) are compared exactly: the alignment's table is
/// quadratic.
const MAX_ALIGNED_CHARS: usize = 2_000;

/// Whether `got` is `want` up to spelling choices (see the module docs); true when they are
/// equal.
pub fn same_words(want: &str, got: &str) -> bool {
    if want == got {
        return true;
    }
    let w: Vec<char> = want.chars().collect();
    let g: Vec<char> = got.chars().collect();
    if w.len() > MAX_ALIGNED_CHARS || g.len() > MAX_ALIGNED_CHARS {
        return false;
    }
    differences(&w, &g)
        .iter()
        .all(|(a, b)| is_spelling_choice(a, b))
}

/// The runs where `a` and `b` differ, between the characters a longest common subsequence
/// matches.
fn differences(a: &[char], b: &[char]) -> Vec<(Vec<char>, Vec<char>)> {
    // suffix table: len[i][j] = LCS of a[i..] and b[j..]
    let cols = b.len() + 1;
    let mut len = vec![0u32; (a.len() + 1) * cols];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * cols + j] = if a[i] == b[j] {
                len[(i + 1) * cols + j + 1] + 1
            } else {
                len[(i + 1) * cols + j].max(len[i * cols + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    let (mut da, mut db) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            if !da.is_empty() || !db.is_empty() {
                out.push((std::mem::take(&mut da), std::mem::take(&mut db)));
            }
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && len[(i + 1) * cols + j] >= len[i * cols + j + 1])
        {
            da.push(a[i]);
            i += 1;
        } else {
            db.push(b[j]);
            j += 1;
        }
    }
    if !da.is_empty() || !db.is_empty() {
        out.push((da, db));
    }
    out
}

fn is_kana_or_kanji(c: char) -> bool {
    is_hiragana(c)
        || ('\u{30a0}'..='\u{30ff}').contains(&c)
        || ('\u{4e00}'..='\u{9fff}').contains(&c)
        || c == '々'
}

fn is_numeral(c: char) -> bool {
    is_digit(c) || "〇一二三四五六七八九十百千万億".contains(c)
}

/// Whether one differing run is a spelling choice (see the module docs).
fn is_spelling_choice(a: &[char], b: &[char]) -> bool {
    let hiragana = |s: &[char]| s.iter().all(|&c| is_hiragana(c));
    let written = |s: &[char]| s.iter().all(|&c| is_kana_or_kanji(c));
    let numerals = |s: &[char]| s.iter().all(|&c| is_numeral(c));
    match (a.is_empty(), b.is_empty()) {
        (true, _) => hiragana(b),
        (_, true) => hiragana(a),
        _ => {
            (hiragana(a) && written(b))
                || (hiragana(b) && written(a))
                || (numerals(a) && numerals(b))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{differences, same_words};

    fn runs(a: &str, b: &str) -> Vec<(String, String)> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        differences(&a, &b)
            .into_iter()
            .map(|(x, y)| (x.into_iter().collect(), y.into_iter().collect()))
            .collect()
    }

    #[test]
    fn runs_lie_between_the_common_characters() {
        // as training/error_kinds.py's difference_spans cuts them
        assert_eq!(
            runs("お話させて", "お話しさせて"),
            [("".into(), "し".into())]
        );
        assert_eq!(
            runs("下さいね", "くださいね"),
            [("下".into(), "くだ".into())]
        );
        assert!(runs("同じ", "同じ").is_empty());
    }

    #[test]
    fn the_golden_pairs() {
        // shared with tests/training/test_error_kinds.py
        let golden = include_str!("../../../tests/golden/spelling-choices.tsv");
        let mut n = 0;
        for line in golden.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 3, "{line}");
            assert_eq!(same_words(f[0], f[1]), f[2] == "yes", "{line}");
            n += 1;
        }
        assert!(n >= 10);
    }

    #[test]
    fn very_long_texts_are_compared_exactly() {
        let long = "あ".repeat(3_000);
        assert!(same_words(&long, &long));
        assert!(!same_words(&long, &format!("{long}い")));
    }
}

//! Reverse conversion (Mozc's 再変換): the reading of written text, so that text already in the
//! field can be converted again.
//!
//! The lexicon is indexed by reading, not by written form, so a word's reading is found by
//! guessing and checking: each kanji's readings come from the lexicon's one-kanji entries
//! (`車` → `しゃ`, `くるま`, …, built once, on first use), a run of kanji with its kana is read
//! as the combinations of its kanji's readings (with rendaku and gemination: `学校` =
//! `がく`+`こう` → `がっこう`), and a combination counts when the lexicon has an entry of that
//! reading written exactly so. A word written so under several readings is read by the one the
//! LM knows as the most common word, else the cheapest ([`reading_of_ranked`]); the cheapest
//! cover of the text by such words (kana read as they are) wins; a kanji no word covers takes its
//! cheapest reading. Measured with `henkan eval reverse` (BENCHMARKS.md, "Reconversion").

use crate::composer::{is_kana, to_hiragana};
use crate::lexicon::{Lexicon, Surface};
use std::collections::HashMap;

/// Readings kept per kanji (the cheapest).
const READINGS_PER_KANJI: usize = 8;
/// Longest word tried, in chars.
const MAX_WORD_CHARS: usize = 6;
/// Combinations of kanji readings checked per word at most.
const MAX_GUESSES: usize = 512;
/// Added per word, so that fewer, longer words win over many short ones.
const WORD_PENALTY: i64 = 2000;
/// The cost of a kanji read alone by its cheapest reading (no word covers it).
const LONE_KANJI: i64 = 20000;
/// Added to a kanji reading inferred from a two-kanji word.
const INFERRED: i64 = 3000;

/// The kana of a written word before and after its one kanji, when it has exactly one.
fn split_one(text: &str) -> Option<(&str, char, &str)> {
    let at = text.find(is_kanji)?;
    let k = text[at..].chars().next()?;
    let (before, after) = (&text[..at], &text[at + k.len_utf8()..]);
    (before.chars().all(is_kana) && after.chars().all(is_kana)).then_some((before, k, after))
}

/// The kanji of a word with one kanji among kana, and its reading there (`帰る` かえる → 帰
/// かえ), when the kana match the reading's ends.
fn one_kanji(text: &str, reading: &str) -> Option<(char, String)> {
    let (before, k, after) = split_one(text)?;
    let (before, after) = (to_hiragana(before), to_hiragana(after));
    let r = reading
        .strip_prefix(before.as_str())?
        .strip_suffix(after.as_str())?;
    (!r.is_empty() && r.chars().count() <= 4).then(|| (k, r.to_string()))
}

/// For a word of two kanji (and kana after them) one of which has a known reading that
/// starts or ends the word's reading: the other kanji and the rest of the reading.
fn two_kanji(known: &KanjiReadings, text: &str, reading: &str) -> Vec<(char, String)> {
    let mut chars = text.chars();
    let (Some(a), Some(b)) = (chars.next(), chars.next()) else {
        return Vec::new();
    };
    let rest: String = chars.collect();
    if !is_kanji(a) || !is_kanji(b) || !rest.chars().all(is_kana) {
        return Vec::new();
    }
    let Some(r) = reading.strip_suffix(to_hiragana(&rest).as_str()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let fits = |s: &str| !s.is_empty() && s.chars().count() <= 4;
    for ka in known.of(a) {
        if let Some(tail) = r.strip_prefix(ka.as_str()).filter(|t| fits(t)) {
            out.push((b, tail.to_string()));
        }
    }
    for kb in known.of(b) {
        if let Some(head) = r.strip_suffix(kb.as_str()).filter(|h| fits(h)) {
            out.push((a, head.to_string()));
        }
    }
    out
}

/// Each kanji's readings, cheapest first (from the lexicon's one-kanji entries).
#[derive(Debug, Clone, Default)]
pub struct KanjiReadings {
    readings: HashMap<char, Vec<String>>,
}

fn is_kanji(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '々' | '〆' | '\u{F900}'..='\u{FAFF}')
}

impl KanjiReadings {
    /// Collects each kanji's readings from the lexicon, in two passes: words of one kanji,
    /// with kana before or after it (`車` くるま, `帰る` かえる → `帰` かえ, `お茶` おちゃ → `茶`
    /// ちゃ); then words of two kanji one of which is known (`汽車` きしゃ with `車` しゃ →
    /// `汽` き), at a higher cost. One pass over the lexicon.
    pub fn new(lexicon: &Lexicon) -> Self {
        let mut all: HashMap<char, Vec<(i64, String)>> = HashMap::new();
        // (cost, text, reading) of the words with two written characters, for the second pass
        let mut pairs: Vec<(i64, String, String)> = Vec::new();
        lexicon.for_each_entry(|reading, e| {
            // Only written forms of a few coded characters can be one- or two-kanji words:
            // the others are not decoded at all (most of the lexicon).
            let Surface::Coded { count, .. } = e.surface else {
                return;
            };
            if count > 3 {
                return;
            }
            let text = lexicon.surface_text(&e.surface, reading);
            if let Some((k, r)) = one_kanji(&text, reading) {
                all.entry(k).or_default().push((i64::from(e.cost), r));
            } else if count == 2 {
                pairs.push((i64::from(e.cost), text, reading.to_string()));
            }
        });
        let known = KanjiReadings::keep(all.clone());
        for (cost, text, reading) in &pairs {
            for (k, r) in two_kanji(&known, text, reading) {
                all.entry(k).or_default().push((cost + INFERRED, r));
            }
        }
        KanjiReadings::keep(all)
    }

    /// The cheapest distinct readings of each kanji.
    fn keep(all: HashMap<char, Vec<(i64, String)>>) -> Self {
        let readings = all
            .into_iter()
            .map(|(c, mut list)| {
                list.sort();
                let mut seen: Vec<String> = Vec::new();
                for (_, r) in list {
                    if !seen.contains(&r) {
                        seen.push(r);
                    }
                    if seen.len() == READINGS_PER_KANJI {
                        break;
                    }
                }
                (c, seen)
            })
            .collect();
        KanjiReadings { readings }
    }

    /// The readings of a kanji, cheapest first.
    pub fn of(&self, c: char) -> &[String] {
        self.readings.get(&c).map_or(&[], Vec::as_slice)
    }
}

/// The voiced kana of `c` (rendaku: `か` → `が`, `は` → `ば`/`ぱ`), none for others.
fn voiced(c: char) -> Vec<char> {
    // In the hiragana block the voiced (and for は-row, half-voiced) kana follow the plain one.
    let next = |k: u32| char::from_u32(c as u32 + k);
    match c {
        'か' | 'き' | 'く' | 'け' | 'こ' | 'さ' | 'し' | 'す' | 'せ' | 'そ' | 'た' | 'ち'
        | 'つ' | 'て' | 'と' => next(1).into_iter().collect(),
        'は' | 'ひ' | 'ふ' | 'へ' | 'ほ' => [next(1), next(2)].into_iter().flatten().collect(),
        _ => Vec::new(),
    }
}

/// The ways a kanji is read at position `at` of a word of `len` chars: its readings, voiced
/// when not first, with a final く/つ/ち/き doubled (っ) when not last.
fn variants(readings: &[String], at: usize, len: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in readings {
        let mut forms = vec![r.clone()];
        if at > 0 {
            if let Some(first) = r.chars().next() {
                for v in voiced(first) {
                    forms.push(std::iter::once(v).chain(r.chars().skip(1)).collect());
                }
            }
        }
        if at + 1 < len {
            for f in forms.clone() {
                if let Some(last) = f.chars().next_back() {
                    if matches!(last, 'く' | 'つ' | 'ち' | 'き') && f.chars().count() > 1 {
                        let mut g: String = f.chars().take(f.chars().count() - 1).collect();
                        g.push('っ');
                        forms.push(g);
                    }
                }
            }
        }
        for f in forms {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The reading of `text`: kana as they are (in hiragana), words with kanji read as the
/// lexicon writes them; other characters (letters, digits, symbols) as they are.
///
/// ```no_run
/// let engine = henkan::Engine::from_bytes(std::fs::read("models/henkan.henkan").unwrap()).unwrap();
/// let kanji = henkan::reverse::KanjiReadings::new(&engine.lexicon);
/// assert_eq!(henkan::reverse::reading_of(&engine.lexicon, &kanji, "汽車で帰る"), "きしゃでかえる");
/// ```
pub fn reading_of(lexicon: &Lexicon, kanji: &KanjiReadings, text: &str) -> String {
    reading_of_ranked(lexicon, kanji, text, &|_| None)
}

/// [`reading_of`], where a word the lexicon writes so under several readings is read by the one
/// text uses most: `rank(entry)` is how common the entry is as a word of its own (the LM's id of
/// it, ids being frequency ranks; `None` for a word the LM does not know as itself), the most
/// common first, then the cheapest. By word cost alone `文` read `ふみ` (4,497, against `ぶん`
/// 4,520), which converts back to `踏み`.
pub fn reading_of_ranked(
    lexicon: &Lexicon,
    kanji: &KanjiReadings,
    text: &str,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    // best[i]: the cheapest reading of chars[..i]
    let mut best: Vec<Option<(i64, String)>> = vec![None; n + 1];
    best[0] = Some((0, String::new()));
    for i in 0..n {
        let Some((cost, reading)) = best[i].clone() else {
            continue;
        };
        let mut relax = |j: usize, add: i64, piece: &str| {
            let c = cost + add;
            if best[j].as_ref().is_none_or(|(b, _)| c < *b) {
                best[j] = Some((c, format!("{reading}{piece}")));
            }
        };
        let c = chars[i];
        if !is_kanji(c) {
            let piece = if is_kana(c) {
                to_hiragana(&c.to_string())
            } else {
                c.to_string()
            };
            relax(i + 1, 0, &piece);
            continue;
        }
        if let Some(r) = kanji.of(c).first() {
            relax(i + 1, LONE_KANJI, r);
        }
        for len in 1..=MAX_WORD_CHARS.min(n - i) {
            let word: String = chars[i..i + len].iter().collect();
            if let Some((word_cost, r)) =
                word_reading(lexicon, kanji, &chars[i..i + len], &word, rank)
            {
                relax(i + len, i64::from(word_cost) + WORD_PENALTY, &r);
            }
        }
    }
    best[n]
        .take()
        .map(|(_, r)| r)
        .unwrap_or_else(|| to_hiragana(text))
}

/// A reading under which the lexicon writes `word` exactly so, with that entry's cost: the most
/// common by `rank`, then the cheapest.
fn word_reading(
    lexicon: &Lexicon,
    kanji: &KanjiReadings,
    chars: &[char],
    word: &str,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> Option<(i32, String)> {
    let len = chars.len();
    let mut guesses = vec![String::new()];
    for (at, &c) in chars.iter().enumerate() {
        let options: Vec<String> = if is_kanji(c) {
            variants(kanji.of(c), at, len)
        } else if is_kana(c) {
            vec![to_hiragana(&c.to_string())]
        } else {
            return None;
        };
        if options.is_empty() {
            return None;
        }
        let mut next = Vec::new();
        for g in &guesses {
            for o in &options {
                if next.len() == MAX_GUESSES {
                    break;
                }
                next.push(format!("{g}{o}"));
            }
        }
        guesses = next;
    }
    // (rank, cost, reading) of the reading chosen
    let mut best: Option<(u32, i32, String)> = None;
    for g in guesses {
        for e in lexicon.get(&g) {
            if lexicon.surface_text(&e.surface, &g) != word {
                continue;
            }
            let r = rank(e.offset).unwrap_or(u32::MAX);
            if best
                .as_ref()
                .is_none_or(|(br, bc, _)| (r, e.cost) < (*br, *bc))
            {
                best = Some((r, e.cost, g.clone()));
            }
        }
    }
    best.map(|(_, cost, reading)| (cost, reading))
}

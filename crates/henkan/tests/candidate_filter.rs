//! Mozc's candidate-filter rules (`henkan::candidate_filter`) on a toy segmenter section with
//! POS groups.

use henkan::candidate_filter::{
    digit_for_kana, garbles_number, is_noise, recut, recuts_number, Placed, Recut, Word,
};
use henkan::model::SectionBytes;
use henkan::pos::{PosGroup, Segmenter};
use henkan_builder::segmenter::{with_pos_groups, write_segmenter};

// POS ids of a toy segmenter: 0 BOS/EOS, 1 noun, 2 noun prefix, 3 verb (ka-row ta-form),
// 4 verb (wa-row renyō), 5 ending ます, 6 te-form て, 7 particle が, 8 symbol, 9 verb prefix,
// 10 verb (independent), 11 suffix noun
fn toy() -> Segmenter {
    use PosGroup::*;
    let n = 12;
    let sig: Vec<usize> = (0..n).collect();
    let section = write_segmenter(&sig, &sig, |_, _| true);
    let mut masks = vec![0u32; n];
    let mut set = |id: usize, gs: &[PosGroup]| {
        for &g in gs {
            masks[id] |= 1 << (g as u32);
        }
    };
    set(1, &[ContentNoun, WeakCompoundNounSuffix]);
    set(2, &[WeakCompoundNounPrefix]);
    set(3, &[KagyoTaConnectionVerb]);
    set(4, &[WagyoRenyoConnectionVerb]);
    set(5, &[VerbSuffix]);
    set(6, &[VerbSuffix, TeSuffix]);
    set(7, &[AcceptableParticleAtBeginOfSegment]);
    set(8, &[GeneralSymbol]);
    set(9, &[WeakCompoundVerbPrefix]);
    set(10, &[WeakCompoundVerbSuffix]);
    set(11, &[NounSuffix]);
    let section = with_pos_groups(&section, &masks).unwrap();
    Segmenter::new(SectionBytes::from_vec(section)).unwrap()
}

/// A word as `(left id, right id, surface)`.
type W = (u16, u16, &'static str);

/// One case: words, rank, at the start of the input, noise?
type Case = (&'static [W], usize, bool, bool);

fn words(ws: &[W]) -> Vec<Word> {
    ws.iter()
        .map(|&(left, right, surface)| Word {
            left,
            right,
            surface: surface.to_string(),
            len: surface.chars().count(),
        })
        .collect()
}

#[test]
fn mozc_noise_rules() {
    let seg = toy();
    let cases: &[Case] = &[
        // 書い + ます, 買い + て: not how the verbs are written; in hiragana they pass
        (&[(3, 3, "書い"), (5, 5, "ます")], 3, false, true),
        (&[(3, 3, "書い"), (6, 6, "て")], 3, false, false),
        (&[(4, 4, "買い"), (6, 6, "て")], 3, false, true),
        (&[(4, 4, "かい"), (6, 6, "て")], 3, false, false),
        (&[(4, 4, "買い"), (5, 5, "ます")], 3, false, false),
        // the same inside one compound entry (left id the stem's, right id the ending's)
        (&[(4, 6, "買いて")], 3, false, true),
        // a noun prefix before a verb: noise after the first candidate
        (&[(2, 2, "御"), (10, 10, "聞き")], 1, false, true),
        (&[(2, 2, "御"), (10, 10, "聞き")], 0, false, false),
        // a verb prefix before a verb, a noun prefix before a noun: connected, fine up to 10
        (&[(9, 9, "お"), (10, 10, "聞き")], 3, false, false),
        (&[(2, 2, "お"), (1, 1, "危機")], 9, false, false),
        (&[(2, 2, "お"), (1, 1, "危機")], 10, false, true),
        // a compound entry second: noise, unless a noun then a particle that may begin a
        // segment
        (&[(1, 1, "海"), (4, 6, "買いて")], 2, false, true),
        (&[(1, 1, "紙"), (7, 5, "に書く")], 2, false, false),
        // a symbol among several words
        (&[(1, 1, "星"), (8, 8, "★")], 2, false, true),
        // two numbers, but not one number written in two words of one kind
        (&[(1, 1, "２"), (1, 5, "十三重")], 2, false, true),
        (
            &[(1, 1, "２"), (5, 5, "ます"), (1, 1, "３")],
            2,
            false,
            true,
        ),
        (&[(1, 1, "１"), (1, 1, "０")], 2, false, false),
        // a single plain word
        (&[(1, 1, "変換")], 5, false, false),
        // a suffix noun first: noise at the start of the input only
        (&[(11, 11, "篇"), (11, 11, "感")], 3, true, true),
        (&[(11, 11, "篇"), (11, 11, "感")], 3, false, false),
        (&[(11, 11, "様")], 3, true, false),
        (&[(1, 1, "日本"), (11, 11, "的")], 3, true, false),
    ];
    for &(ws, rank, at_start, want) in cases {
        assert_eq!(
            is_noise(&words(ws), &seg, rank, at_start),
            want,
            "{ws:?} rank {rank} at start {at_start}"
        );
    }
    // a model without groups: nothing to say
    let bare = Segmenter::new(SectionBytes::from_vec(write_segmenter(
        &[0, 1, 2, 3, 4, 5, 6],
        &[0, 1, 2, 3, 4, 5, 6],
        |_, _| true,
    )))
    .unwrap();
    let ws = words(&[(4, 4, "買い"), (6, 6, "て")]);
    assert!(!is_noise(&ws, &bare, 3, false));
}

/// A word of a re-cut case: left id (= right id), surface, reading length.
type R = (u16, &'static str, usize);

#[test]
fn recuts_of_the_top_candidates_first_word() {
    let seg = toy();
    let recut_of = |ws: &[R], top_head: usize| {
        let words: Vec<Word> = ws
            .iter()
            .map(|&(id, surface, len)| Word {
                left: id,
                right: id,
                surface: surface.to_string(),
                len,
            })
            .collect();
        recut(&words, &seg, top_head)
    };
    // (words, reading length of the top candidate's first word, verdict)
    let cases: &[(&[R], usize, Recut)] = &[
        // ことし, top 今年 (3 characters): 子 + と + し makes a verb of kana: never offered
        (
            &[(1, "子", 1), (7, "と", 1), (10, "し", 1)],
            3,
            Recut::Fragments,
        ),
        // きごう, top 記号: a prefix and a noun of one kanji, offered only near the top's cost
        (&[(2, "生", 1), (1, "合", 2)], 3, Recut::Composition),
        // つかいました, top 使い (3): the stem 付か with an ending
        (
            &[(10, "付か", 2), (5, "い", 1), (5, "ました", 3)],
            3,
            Recut::Composition,
        ),
        // きたい, top 期待: 来 + たい, a verb and its ending
        (&[(10, "来", 1), (5, "たい", 2)], 3, Recut::Composition),
        // きが, top 気 (1): 木 + が ends where the top's first word ends: not a re-cut
        (&[(1, "木", 1), (7, "が", 1)], 1, Recut::No),
        // one word, two kanji first, a numeral first, a kana word first: not re-cuts
        (&[(1, "木郷", 3)], 3, Recut::No),
        (&[(1, "古都", 2), (10, "し", 1)], 3, Recut::No),
        (&[(1, "二", 1), (11, "人", 1)], 3, Recut::No),
        (&[(1, "こと", 2), (11, "氏", 1)], 3, Recut::No),
        // a suffix in hiragana ends a word: 分かりやす + さ is no fragment
        (
            &[(10, "分かりやす", 5), (11, "さ", 1)],
            6,
            Recut::Composition,
        ),
    ];
    for &(ws, top_head, want) in cases {
        assert_eq!(recut_of(ws, top_head), want, "{ws:?} top {top_head}");
    }
}

#[test]
fn a_sentence_garbles_a_number_cut_in_two_or_cut_off() {
    for bad in [
        &["10", "二月"][..],
        &["10", "2月"],
        &["302", "ン"],
        &["二十二", "ん"],
        &["今日", "は", "１０", "２", "日"],
        &["28", "に", "血"],
        &["２８", "に", "地"],
    ] {
        assert!(garbles_number(bad.iter().copied()), "{bad:?}");
    }
    for good in [
        &["20", "人"][..],
        &["二十", "人"],
        &["12月"],
        &["2", "住人"],
        &["100", "万円"],
        &["5", "千円"],
        &["3", "百人"],
        &["2026", "年", "12", "月"],
        &["一つ", "二つ"],
        &["そう", "ん"],
        &["統一", "感"],
        &["28", "日"],
        &["3", "人", "に", "1", "人"],
        &["10", "に", "分ける"],
        &["会議", "に", "血"],
    ] {
        assert!(!garbles_number(good.iter().copied()), "{good:?}");
    }
}

/// A sentence as `(left id, right id, surface, reading length)`, each word placed after the
/// one before.
fn placed(ws: &[(u16, u16, &str, usize)]) -> Vec<Placed> {
    let mut at = 0;
    ws.iter()
        .map(|&(left, right, surface, len)| {
            let w = Word {
                left,
                right,
                surface: surface.to_string(),
                len,
            };
            at += len;
            (at - len, w)
        })
        .collect()
}

#[test]
fn a_sentence_recuts_a_number_the_best_reads_whole() {
    let seg = toy();
    // にじゅうにねん: 22 + 年 (0 is a number, 7 the particle に, 1 a noun, 11 a suffix)
    let best = placed(&[(0, 0, "22", 5), (11, 11, "年", 2)]);
    let recut = [
        placed(&[(7, 7, "に", 1), (0, 0, "12", 4), (11, 11, "年", 2)]),
        placed(&[(0, 0, "20", 4), (7, 7, "に", 1), (11, 11, "年", 2)]),
        placed(&[(1, 1, "二重", 4), (0, 0, "2", 1), (11, 11, "年", 2)]),
        placed(&[(1, 1, "似", 1), (0, 0, "12", 4), (11, 11, "年", 2)]),
    ];
    for r in &recut {
        assert!(recuts_number(&best, r, &seg), "{r:?}");
    }
    let kept = [
        placed(&[(0, 0, "22", 5), (1, 1, "念", 2)]),
        placed(&[(0, 0, "二十二", 5), (11, 11, "年", 2)]),
        placed(&[(1, 1, "二重", 4), (1, 1, "に", 1), (11, 11, "年", 2)]),
    ];
    for k in &kept {
        assert!(!recuts_number(&best, k, &seg), "{k:?}");
    }
    // さんにんにじゅうえん: 3 + 人 + 20 + 円 and 3 + 人 + に + 10 + 円 are both sentences, either
    // way round; after a particle, or at the start, the に is a piece of the number
    let twenty = placed(&[
        (0, 0, "3", 2),
        (11, 11, "人", 2),
        (0, 0, "20", 3),
        (11, 11, "円", 2),
    ]);
    let ten = placed(&[
        (0, 0, "3", 2),
        (11, 11, "人", 2),
        (7, 7, "に", 1),
        (0, 0, "10", 2),
        (11, 11, "円", 2),
    ]);
    assert!(!recuts_number(&twenty, &ten, &seg));
    assert!(!recuts_number(&ten, &twenty, &seg));
    let after_particle = placed(&[
        (7, 7, "が", 2),
        (7, 7, "に", 1),
        (0, 0, "10", 2),
        (11, 11, "円", 2),
    ]);
    let whole = placed(&[(7, 7, "が", 2), (0, 0, "20", 3), (11, 11, "円", 2)]);
    assert!(recuts_number(&whole, &after_particle, &seg));
    // a number that goes on past the best's: with its counter it takes in the best's counter
    // (問題 + 25問 beside 問題 + に + 15 + 問), digits alone take a piece of the next word
    // (32 + 地 beside 30 + 日 for さんじゅうにち)
    let fifteen = placed(&[
        (1, 1, "問題", 4),
        (7, 7, "に", 1),
        (0, 0, "15", 3),
        (11, 11, "問", 2),
    ]);
    let counted = placed(&[(1, 1, "問題", 4), (11, 11, "25問", 6)]);
    assert!(!recuts_number(&fifteen, &counted, &seg));
    let thirty = placed(&[(0, 0, "30", 4), (11, 11, "日", 2)]);
    let piece = placed(&[(0, 0, "32", 5), (1, 1, "地", 1)]);
    assert!(recuts_number(&thirty, &piece, &seg));
    // a number written with its unit (2 + 千円 beside 2000 + 円) is not a piece
    let digits = placed(&[(0, 0, "2000", 3), (11, 11, "円", 2)]);
    let unit = placed(&[(0, 0, "2", 1), (11, 11, "千円", 4)]);
    assert!(!recuts_number(&digits, &unit, &seg));
    assert!(!recuts_number(&unit, &digits, &seg));
    // the best's number in kanji leaves the others' digits alone
    let kanji = placed(&[(1, 1, "一日中", 7)]);
    let split = placed(&[(0, 0, "1日", 4), (11, 11, "中", 3)]);
    assert!(!recuts_number(&kanji, &split, &seg));
}

#[test]
fn a_sentence_writes_a_lone_digit_for_the_best_s_kana() {
    // とうきょうにいきます: 東京 + に + 行きます
    let best = placed(&[(1, 1, "東京", 5), (7, 7, "に", 1), (10, 10, "行きます", 4)]);
    let digit = placed(&[(1, 1, "東京", 5), (0, 0, "2", 1), (10, 10, "行きます", 4)]);
    let full = placed(&[(1, 1, "東京", 5), (0, 0, "２", 1), (10, 10, "生きます", 4)]);
    assert!(digit_for_kana(&best, &digit));
    assert!(digit_for_kana(&best, &full));
    // over a kanji word, or as more than one digit, it is the other sentences' business
    let kanji = placed(&[(1, 1, "東京", 5), (1, 1, "荷", 1), (10, 10, "行きます", 4)]);
    assert!(!digit_for_kana(&kanji, &digit));
    let best_ni = placed(&[(7, 7, "に", 1), (11, 11, "年", 2)]);
    let twelve = placed(&[(0, 0, "2", 1), (11, 11, "年", 2)]);
    assert!(digit_for_kana(&best_ni, &twelve));
    let two_digits = placed(&[(0, 0, "20", 1), (11, 11, "年", 2)]);
    assert!(!digit_for_kana(&best_ni, &two_digits));
}

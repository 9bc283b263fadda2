//! The word lattice over a tiny lexicon: extended key by key it equals the lattice built at
//! once, and runs of unknown characters still get nodes.

use henkan::lattice::Lattice;
use henkan::lexicon::Lexicon;
use henkan::model::SectionBytes;
use henkan::pos::SpecialIds;
use henkan_builder::lexicon::LexiconWriter;

fn lex() -> Lexicon {
    let mut w = LexiconWriter::new();
    w.add("き", 1, 1, 100, "木");
    w.add("きょう", 1, 1, 100, "今日");
    w.add("ょう", 1, 1, 100, "X");
    w.add("う", 1, 1, 100, "鵜");
    let (i, p) = w.finish().unwrap();
    Lexicon::new(SectionBytes::from_vec(i), SectionBytes::from_vec(p)).unwrap()
}

/// A lexicon of these (reading, surface) words, all of POS 1 and cost 100.
fn lexicon_of(words: &[(&str, &str)]) -> Lexicon {
    let mut w = LexiconWriter::new();
    for &(reading, surface) in words {
        w.add(reading, 1, 1, 100, surface);
    }
    let (i, p) = w.finish().unwrap();
    Lexicon::new(SectionBytes::from_vec(i), SectionBytes::from_vec(p)).unwrap()
}

fn spans(l: &Lattice, lex: &Lexicon) -> Vec<(u16, u16, String)> {
    let mut v: Vec<_> = l
        .nodes()
        .iter()
        .map(|n| (n.begin, n.end, l.surface(lex, n)))
        .collect();
    v.sort();
    v
}

#[test]
fn incremental_equals_from_scratch() {
    let lex = lex();
    let sp = SpecialIds::default();
    let mut a = Lattice::new();
    for c in "きょう".chars() {
        a.push(&lex, &sp, c);
    }
    let got = spans(&a, &lex);
    assert!(got.contains(&(0, 3, "今日".into())));
    assert!(got.contains(&(1, 3, "X".into())));
    assert!(got.contains(&(2, 3, "鵜".into())));
    assert!(got.contains(&(0, 1, "木".into())));
    // backspace and retype gives the same lattice
    a.truncate(&lex, 1);
    assert_eq!(a.reading(), "き");
    a.sync(&lex, &sp, "きょう");
    assert_eq!(spans(&a, &lex), got);
    let mut b = Lattice::new();
    b.sync(&lex, &sp, "きょう");
    assert_eq!(spans(&b, &lex), got);
}

#[test]
fn unknown_runs() {
    let lex = lex();
    let sp = SpecialIds::default();
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "ab12");
    let s = spans(&l, &lex);
    assert!(s.contains(&(0, 2, "ab".into())));
    assert!(s.contains(&(2, 4, "12".into())));
    // every position has a node ending there
    for p in 1..=l.len() {
        assert!(!l.ending_at(p).is_empty());
    }
}

#[test]
fn a_kanji_numeral_with_its_counter_read_with_a_one_kana_digit_has_a_digit_twin() {
    let mut w = LexiconWriter::new();
    w.add("よにん", 7, 8, 4039, "四人");
    w.add("よにん", 1, 1, 6698, "余人");
    w.add("くじ", 1, 1, 5000, "籤");
    w.add("よじはん", 7, 8, 6074, "四時半");
    w.add("くねんあん", 9, 9, 6266, "九年庵");
    let (i, p) = w.finish().unwrap();
    let lex = Lexicon::new(SectionBytes::from_vec(i), SectionBytes::from_vec(p)).unwrap();
    let sp = SpecialIds::default();
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "よにんくじよじはんくねんあん");
    let twins: Vec<_> = l
        .nodes()
        .iter()
        .filter(|n| henkan::lattice::twin_of(n.entry).is_some())
        .collect();
    // 四人 has one, with its POS and cost, and so has 四時半, which goes on after its counter;
    // 余人 is no numeral, くじ has no 九時 here, and the place 九年庵 keeps its kanji
    assert_eq!(twins.len(), 2, "{:?}", spans(&l, &lex));
    assert_eq!(l.surface(&lex, twins[1]), "4時半");
    let twin = twins[0];
    let kanji = l
        .nodes()
        .iter()
        .find(|n| Some(n.entry) == henkan::lattice::twin_of(twin.entry))
        .unwrap();
    assert_eq!(l.surface(&lex, kanji), "四人");
    assert_eq!(l.surface(&lex, twin), "4人");
    assert_eq!(
        (twin.begin, twin.end, twin.left_id, twin.right_id, twin.cost),
        (
            kanji.begin,
            kanji.end,
            kanji.left_id,
            kanji.right_id,
            kanji.cost
        )
    );
}

#[test]
fn a_word_beginning_on_the_small_kana_of_a_foreign_mora_pays_for_it() {
    let lex = lexicon_of(&[
        ("ぐらん", "グラン"),
        ("ぐらんじ", "グランジ"),
        ("ぇ", "ぇ"),
        ("ねぇ", "ねぇ"),
    ]);
    let sp = SpecialIds::default();
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "ぐらんじぇ");
    let s = spans(&l, &lex);
    // じぇ is one mora: what begins on its ぇ pays for it, and a katakana node keeps it whole
    let inside: Vec<_> = l.nodes().iter().filter(|n| n.begin == 4).collect();
    assert_eq!(inside.len(), 2, "{s:?}"); // the dictionary's ぇ and the unknown one
    assert!(inside
        .iter()
        .all(|n| n.cost >= henkan::lattice::INSIDE_MORA_COST));
    assert!(s.contains(&(3, 5, "ジェ".into())), "{s:?}");
    assert!(s.contains(&(0, 4, "グランジ".into())));
    let loanword = l
        .nodes()
        .iter()
        .find(|n| n.begin == 3 && n.end == 5)
        .unwrap();
    assert!(henkan::lattice::is_unknown(loanword.entry));
    // backspace into the mora and retype: the same lattice
    let whole = s.clone();
    l.truncate(&lex, 4);
    l.sync(&lex, &sp, "ぐらんじぇ");
    assert_eq!(spans(&l, &lex), whole);
    // a lengthening small vowel (ねぇ) and one alone are not foreign morae: they begin words
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "ねぇぇ");
    let s = spans(&l, &lex);
    assert!(s.contains(&(0, 2, "ねぇ".into())));
    assert!(s.contains(&(1, 2, "ぇ".into())));
    assert!(s.contains(&(2, 3, "ぇ".into())));
    assert!(s.iter().all(|(.., t)| t != "ェ" && t != "ネェ"), "{s:?}");
    assert!(l
        .nodes()
        .iter()
        .all(|n| n.cost < henkan::lattice::INSIDE_MORA_COST));
}

#[test]
fn foreign_morae() {
    use henkan::lattice::foreign_mora;
    for (a, b) in [
        ('じ', 'ぇ'),
        ('ふ', 'ぃ'),
        ('う', 'ぃ'),
        ('て', 'ぃ'),
        ('ゔ', 'ぁ'),
        ('で', 'ゅ'),
        ('ふ', 'ゅ'),
    ] {
        assert!(foreign_mora(a, b), "{a}{b}");
    }
    for (a, b) in [
        ('ね', 'ぇ'),
        ('ご', 'ぉ'),
        ('い', 'ぃ'),
        ('き', 'ゃ'),
        ('ん', 'ぇ'),
        ('っ', 'ぇ'),
        ('ぇ', 'ぇ'),
        ('ー', 'ぃ'),
        ('a', 'ぃ'),
        ('じ', 'え'),
    ] {
        assert!(!foreign_mora(a, b), "{a}{b}");
    }
}

#[test]
fn after_words_puts_the_committed_path_before_the_lattice() {
    let lex = lex();
    let sp = SpecialIds::default();
    let mut committed = Lattice::new();
    committed.sync(&lex, &sp, "きょう");
    let path: Vec<_> = committed
        .nodes()
        .iter()
        .filter(|n| committed.surface(&lex, n) == "今日")
        .copied()
        .collect();
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "きう");
    let joined = l.after_words("きょう", &path);
    assert_eq!(joined.reading(), "きょうきう");
    assert_eq!(joined.len(), 5);
    // the words first, then the lattice's nodes moved past them
    assert_eq!(joined.surface(&lex, &joined.nodes()[0]), "今日");
    assert_eq!(joined.nodes().len(), 1 + l.nodes().len());
    for (a, b) in joined.nodes()[1..].iter().zip(l.nodes()) {
        assert_eq!((a.begin, a.end), (b.begin + 3, b.end + 3));
        assert_eq!(joined.surface(&lex, a), l.surface(&lex, b));
    }
    // nodes by end: each position's range holds the nodes ending there
    for p in 1..=joined.len() {
        for i in joined.ending_at(p) {
            assert_eq!(joined.nodes()[i].end as usize, p);
        }
    }
    let ending: usize = (1..=joined.len()).map(|p| joined.ending_at(p).len()).sum();
    assert_eq!(ending, joined.nodes().len());
}

#[test]
fn a_long_vowel_mark_after_hiragana_ends_loanword_nodes_in_katakana() {
    let lex = lexicon_of(&[("らず", "ラズ"), ("な", "な")]);
    let sp = SpecialIds::default();
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "ららずなーと");
    let s = spans(&l, &lex);
    // the hiragana before ー and ー itself, up to LENGTHENED_CHARS long
    for (begin, text) in [
        (3, "ナー"),
        (2, "ズナー"),
        (1, "ラズナー"),
        (0, "ララズナー"),
    ] {
        assert!(s.contains(&(begin, 5, text.into())), "{text}: {s:?}");
    }
    let lengthened: Vec<_> = l
        .nodes()
        .iter()
        .filter(|n| n.cost == henkan::lattice::LENGTHENED_COST)
        .collect();
    assert_eq!(lengthened.len(), 4);
    assert!(lengthened
        .iter()
        .all(|n| n.end == 5 && henkan::lattice::is_unknown(n.entry)));
    // no node begins on the small kana of a foreign mora, and a run stops at katakana
    let mut l = Lattice::new();
    l.sync(&lex, &sp, "カふぃー");
    let s = spans(&l, &lex);
    assert!(s.contains(&(1, 4, "フィー".into())), "{s:?}");
    assert!(
        !s.iter().any(|(b, e, _)| *e == 4 && (*b == 2 || *b == 0)),
        "{s:?}"
    );
    // retyped after a backspace: the same lattice
    let whole = s.clone();
    l.truncate(&lex, 3);
    l.sync(&lex, &sp, "カふぃー");
    assert_eq!(spans(&l, &lex), whole);
}

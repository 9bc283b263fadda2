//! The map lexicon entry → LM word (`henkan_builder::lstm::vocab_pairs`) on the shipped model's
//! lexicon: a common noun of kanji numerals read as another word than its number keeps no LM
//! word, which only the segmenter's POS groups (`model mozc-rules`) can tell.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::lm::lstm::WordMatch;
use henkan::model::{Container, SectionBytes, SectionKind};
use henkan::pos::Segmenter;
use henkan_builder::lstm::{read_vocab_tsv, vocab_pairs, VocabMatch};

/// The entry offset and key of the lexicon's `surface` under `reading` with left id `pos`.
fn entry(engine: &henkan::Engine, reading: &str, surface: &str, pos: u16) -> (u32, String) {
    let e = engine
        .lexicon
        .get(reading)
        .find(|e| e.left_id == pos && engine.lexicon.surface_text(&e.surface, reading) == surface)
        .unwrap_or_else(|| panic!("{surface}/{reading}/{pos} is not in the lexicon"));
    (
        e.offset,
        format!("{surface}/{reading}/{}/{}", e.left_id, e.right_id),
    )
}

#[test]
fn a_kanji_numeral_read_as_another_word_takes_no_lm_word_once_the_pos_groups_are_in() {
    let engine = common::shipped_engine();
    let container = Container::from_bytes(common::shipped_bytes()).unwrap();
    let section = container.require(SectionKind::Segmenter).unwrap();
    let with_groups = Segmenter::new(section.clone()).unwrap();
    // the same boundary table without the groups' trailer, as `model build` writes it
    let table = section.as_ref()[..with_groups.table_end()].to_vec();
    let without_groups = Segmenter::new(SectionBytes::from_vec(table)).unwrap();
    assert!(with_groups.has_groups() && !without_groups.has_groups());

    // the LM knows the noun 二十 (名詞,一般) only as 20, as the analyzed text reads it
    let (_, number) = entry(&engine, "にじゅう", "二十", 1851);
    let (hatachi, _) = entry(&engine, "はたち", "二十", 1851);
    let vocab = read_vocab_tsv(&format!("0\t<s>\t9\n1\t<unk>\t9\n2\t{number}\t9\n")).unwrap();
    let word_of = |seg: &Segmenter| {
        let (pairs, _) = vocab_pairs(&engine.lexicon, seg, &vocab, VocabMatch::Spelling);
        pairs
            .into_iter()
            .find(|&(offset, _, _)| offset == hatachi)
            .map(|(_, id, how)| (id, how))
    };
    assert_eq!(word_of(&with_groups), None);
    assert!(matches!(
        word_of(&without_groups),
        Some((2, WordMatch::Spelling { .. }))
    ));
}

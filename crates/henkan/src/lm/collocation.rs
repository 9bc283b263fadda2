//! Noun–particle–verb collocations from the predictions' word trigram ([`super::ngram`]), a
//! term of the hybrid's conversion when it rescores the final beam
//! ([`crate::options::NeuralOptions::collocation_weight`]).
//!
//! Verb–object agreement is what a small LSTM misses most often among the errors people meet
//! first (`写真を取る` for `写真を撮る`, `ホテルに止まった` for `ホテルに泊まった`): the LM
//! sees the noun two words back and both verbs read the same. The trigram has counted those
//! triples. A candidate earns, for each verb (`動詞,自立`) after a content noun (`名詞,一般`,
//! `固有名詞`, `副詞可能`, `サ変接続`) and one word that is not a content noun (the particle),
//! how much likelier the trigram makes the verb after those two words than on its own:
//! `max(0, log2 P_trigram(v | noun, particle) − log2 (α² P(v)))`, for the best `v` among the
//! trigram's own followers of the pair (not a backoff) that are the verb: the verb itself, or
//! another plain form of it when the verb is plain too ([`stem_of`], [`is_plain_form`]: `履い`
//! counts for `履く`, `泊っ` for `泊まる`, the irrealis `言わ` of `医者に言われた` not for
//! `医者に言った`, `食べ` not for the fused `食べにいこ`), and the verb's form must take the word
//! after it ([`MAX_ONWARD_CONNECTION`]). The noun must be in the trigram's vocabulary, not too
//! rare there ([`MIN_NOUN_LOG2_UNIGRAM`]) and not a kanji numeral with its counter
//! (`一年を通して` would favour `一年` over `1年`); the verb need not be. The n-gram keeps these
//! trigrams for verbs with a homophone whatever its budget (`henkan model ngram
//! --collocations-min`, docs/prediction.md).
//!
//! Casual speech leaves the particle out (`猫飼ってる`, `ご飯行こう`): a verb written with kanji
//! right after a noun of [`PosGroup::BareObjectNoun`] earns what the bigram makes of it after
//! the noun, `max(0, log2 P_bigram(v | noun) − log2 (α P(v)))`, by the same rules, except the
//! verbs that follow a サ変 noun as its grammar (`SURU_AUXILIARIES`: `対応できる`). A verb in
//! kana earns nothing there: right after such a noun in the analyzed training text, 97% of the
//! 258K verbs in kana are forms of `する` and `できる` (`勉強し`, `確認でき`; 2026-12-04).
//!
//! Measured 2026-11-27 (hybrid, weight 0.5, BENCHMARKS.md): kwdlc 1 sentence fixed, none
//! broken; wac none either way; chat 2 fixed, 1 broken. Any trigram word (not only verbs after
//! nouns), or backoff scores counted too, broke more written text than they fixed. Counting the
//! verb's other forms changes no sentence of the three sets and gives `靴を履く` (without them,
//! `靴を吐く`). Leaving out the irrealis and the longer fused forms among them (2026-12-03,
//! paired by sentence) changes no sentence of the three sets either, and gives `医者に行った`;
//! so does the onward connection's limit, which gives `予定が空いたら`. Counting other forms
//! only for a plain verb, and only nouns of log2 unigram −17 or more (2026-12-03, paired by
//! sentence): kwdlc +0.14 ± 0.08 (3 fixed, none broken), wac +0.23 ± 0.23 (1 / 0), chat
//! +0.15 ± 0.11 (4 / 1); `魚を焼く`, `国を治める`, `ラーメンを食べに行こう`. The bare noun's
//! bigram (2026-12-04, paired by sentence): no sentence of the three sets changes; of 422
//! everyday phrases, 4 do: `今度ご飯行こう` (was `以降`), `写真撮ろう`, `お風呂入った`, and
//! `エアコン付けた` for `つけた`.

use crate::history::has_kanji;
use crate::lattice::number::{digit_twin, is_kanji_numeral};
use crate::lattice::{Lattice, Node};
use crate::lexicon::Lexicon;
use crate::lm::ngram::{NgramModel, UNK};
use crate::pos::{Connection, PosGroup, Segmenter};
use crate::predict::{node_word, Context};

/// A verb form followed by a word it connects to at this cost or more (Mozc's connection
/// costs) earns no collocation: the n-gram's counts are evidence for the verb, not for a form
/// the next word does not take, such as the continuative `合い` before `たら` (5,120; `合っ`
/// takes it), which the collocation `予定が合う` would otherwise put in `予定が合いたら` for
/// `よていがあいたら` over `空いたら`. The verbs of the hybrid's best paths connect onwards at
/// 896 (median) and 4,288 (99th percentile) on the first 400 sentences of kwdlc.test; the
/// continuative `会い` costs 4,032 before `て` and 4,480 before `た` (`空い` before `た`: 704).
pub const MAX_ONWARD_CONNECTION: i32 = 4000;

/// A content noun rarer than this in the n-gram (log2 of its unigram probability) is no
/// collocation's noun: its few trigrams make one follower look certain. The kana `さかな`
/// (−19.25) has one, `焼く` at probability 0.92, a bonus of 17 bits that put `さかなを焼く`
/// over `魚を焼く`; Aozora's old form `國` (−18.75) keeps `國を治め`, which `国` (−13.25) lost
/// to pruning. The good collocations' nouns are commoner: `写真` −13.62, `事故` −16.00,
/// `漢字` −16.12, `咳` and `約束` −16.50 (a limit of −16 loses `咳が出る` and `漢字が読めない`).
pub const MIN_NOUN_LOG2_UNIGRAM: f32 = -17.0;

/// The collocation bonus of a path (`nodes`, lattice node indices in order), in log2 units.
pub fn bonus(
    ngram: &NgramModel,
    lexicon: &Lexicon,
    segmenter: &Segmenter,
    connection: &Connection,
    lattice: &Lattice,
    nodes: &[u32],
) -> f32 {
    let all = lattice.nodes();
    let mut ctx = Context::new();
    // the three words before: [before the noun, the noun, the particle]
    let mut before: [Option<&Node>; 3] = [None, None, None];
    let mut sum = 0.0;
    for (k, &i) in nodes.iter().enumerate() {
        let Some(node) = all.get(i as usize) else {
            continue;
        };
        let id = node_word(ngram, lexicon, lattice, node);
        let noun = if segmenter.in_group(node.left_id, PosGroup::WeakCompoundVerbSuffix)
            && before[2].is_some_and(|p| !segmenter.in_group(p.left_id, PosGroup::ContentNoun))
        {
            before[1]
                .and_then(|n| noun_word(ngram, lexicon, segmenter, lattice, before[0], n, ctx.u))
        } else {
            None
        };
        // the connection from this verb to the next word (0 at the end)
        let onward = || {
            nodes
                .get(k + 1)
                .and_then(|&j| all.get(j as usize))
                .map_or(0, |next| connection.cost(node.right_id, next.left_id))
        };
        // or a noun right before the verb, the particle left out (`猫飼ってる`): its bigram
        let bare = if noun.is_none() {
            before[2]
                .filter(|n| {
                    segmenter.in_group(node.left_id, PosGroup::WeakCompoundVerbSuffix)
                        && segmenter.in_group(n.left_id, PosGroup::BareObjectNoun)
                })
                .and_then(|n| noun_word(ngram, lexicon, segmenter, lattice, before[1], n, ctx.v))
        } else {
            None
        };
        if (noun.is_some() || bare.is_some()) && onward() < MAX_ONWARD_CONNECTION {
            let surface = lattice.surface(lexicon, node);
            let reading = lattice.span(node.begin as usize, node.end as usize);
            let stem = stem_of(&surface, reading);
            // the best of the followers that are this verb in any form (履い for 履く), over
            // the unigram backed off to `backoffs` times
            let best = |followers: &mut dyn Iterator<Item = (u16, f32)>, backoffs: f32| {
                followers
                    .filter(|&(w, _)| {
                        ngram.word(w).is_some_and(|f| {
                            segmenter.in_group(f.left_id, PosGroup::WeakCompoundVerbSuffix)
                                && counts_for(f.surface, f.reading, &surface, stem)
                        })
                    })
                    .map(|(w, s)| s - (backoffs * ngram.alpha_log2() + ngram.unigram(w)))
                    .fold(f32::NEG_INFINITY, f32::max)
            };
            let gain = match (noun, bare) {
                (Some(noun), _) => best(&mut ngram.trigram_followers(noun, ctx.v), 2.0),
                (None, Some(noun)) if has_kanji(&surface) && !is_suru_auxiliary(stem) => {
                    best(&mut ngram.bigram_followers(noun), 1.0)
                }
                _ => 0.0,
            };
            sum += gain.max(0.0);
        }
        ctx.push_id(id);
        before = [before[1], before[2], Some(node)];
    }
    sum
}

/// Verbs that follow a サ変 noun straight in written text as its grammar, not as a verb taking
/// it (stems as [`stem_of`] cuts them): the potential `対応できる`, the humble `対応いたします`,
/// `ご確認いただく`, `ご確認ください`. A bare noun's bigram would pull them to their kanji
/// spellings (`対応出来る`), which the annotated text mostly does not use.
const SURU_AUXILIARIES: [(&str, &str); 5] = [
    ("出来", "でき"),
    ("致", "いた"),
    ("頂", "いただ"),
    ("戴", "いただ"),
    ("下", "くだ"),
];

/// Whether a verb's stem ([`stem_of`]) is one of [`SURU_AUXILIARIES`].
fn is_suru_auxiliary(stem: (&str, &str)) -> bool {
    SURU_AUXILIARIES.contains(&stem)
}

/// The n-gram word that stands for `noun` (the word before the particle) as a collocation's
/// noun, given the word before it, `prev`, and its own n-gram id `id`: a content noun that is
/// not a kanji numeral with its counter (`一年`: its digit form `1` `年` is two words, and the
/// term would favour the kanji); or a counter after a number (`2` `点`), as the content noun of
/// the same spelling (`点を取った`), so that `2点を取った` earns what `に点を取った` would.
fn noun_word(
    ngram: &NgramModel,
    lexicon: &Lexicon,
    segmenter: &Segmenter,
    lattice: &Lattice,
    prev: Option<&Node>,
    noun: &Node,
    id: u16,
) -> Option<u16> {
    if segmenter.in_group(noun.left_id, PosGroup::ContentNoun) {
        return (id != UNK
            && ngram.unigram(id) >= MIN_NOUN_LOG2_UNIGRAM
            && digit_twin(&lattice.surface(lexicon, noun)).is_none())
        .then_some(id);
    }
    if !segmenter.in_group(noun.left_id, PosGroup::NounSuffix) {
        return None;
    }
    let after_number = prev.is_some_and(|p| {
        let text = lattice.surface(lexicon, p);
        !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c) || is_kanji_numeral(c))
    });
    if !after_number {
        return None;
    }
    let surface = lattice.surface(lexicon, noun);
    let reading = lattice.span(noun.begin as usize, noun.end as usize);
    // the words of this reading and spelling, one per POS ([`crate::lm::ngram::word_key`])
    ngram
        .words_with_prefix(&format!("{reading}\0{surface}\0"), 64)
        .find(|&w| {
            ngram
                .word(w)
                .is_some_and(|f| segmenter.in_group(f.left_id, PosGroup::ContentNoun))
        })
}

/// Whether the n-gram's word `surface`/`reading` counts for the predicate written `predicate`
/// with the stem `stem` ([`stem_of`]): the same form, or another form of the same verb
/// ([`same_verb`]) when both are plain ([`is_plain_form`]). A predicate that is not plain
/// counts only itself: Mozc's fused `食べにいこ` (`たべにいこう`) shares its stem `食`/`た`
/// with `食べ`, and would earn `ラーメンを食べ` for the kana spelling over `食べに行こ`.
fn counts_for(surface: &str, reading: &str, predicate: &str, stem: (&str, &str)) -> bool {
    same_verb(stem_of(surface, reading), stem)
        && (surface == predicate || is_plain_form(surface) && is_plain_form(predicate))
}

/// Whether a verb form written with kanji says what its dictionary form says, so that it
/// counts for the verb's other forms: not a godan verb's irrealis, which ends in an a-row kana
/// (`言わ`, `書か`, `泊まら`: the stem of the passive, the causative and the negative, after
/// which `医者に` is the agent, not the place; not `た`, which ends the past `来た` and `見た`
/// far more often than the irrealis `持た`), and no longer fused form of more than three kana
/// after the kanji (`会えなくなっ`: potential and negative).
///
/// ```
/// use henkan::lm::collocation::is_plain_form;
/// assert!(is_plain_form("履い") && is_plain_form("泊まっ") && is_plain_form("来"));
/// assert!(is_plain_form("来ました") && is_plain_form("見た"));
/// assert!(!is_plain_form("言わ") && !is_plain_form("泊まら"));
/// assert!(!is_plain_form("会えなくなっ") && !is_plain_form("はく"));
/// ```
pub fn is_plain_form(surface: &str) -> bool {
    let (stem, tail) = kana_ending(surface);
    !stem.is_empty()
        && tail.chars().count() <= 3
        && !tail.ends_with(|c| "わかがさなばまら".contains(c))
}

/// Whether two verb stems ([`stem_of`]) are one verb: the same kanji, one reading starting
/// the other (`泊`/`と` of `泊まる` and `泊`/`とま` of `泊る`, written with less kana).
pub(crate) fn same_verb(a: (&str, &str), b: (&str, &str)) -> bool {
    a.0 == b.0 && (a.1.starts_with(b.1) || b.1.starts_with(a.1))
}

/// A verb's written form and reading without their common kana ending (`履`/`は` for `履く`
/// and for `履い`), so that two forms of one verb share it and 着る (`着`/`き`) and 着く
/// (`着`/`つ`) do not; a verb written in kana alone is its whole form.
///
/// ```
/// use henkan::lm::collocation::stem_of;
/// assert_eq!(stem_of("履く", "はく"), ("履", "は"));
/// assert_eq!(stem_of("履い", "はい"), ("履", "は"));
/// assert_eq!(stem_of("泊る", "とまる"), ("泊", "とま"));
/// assert_eq!(stem_of("はく", "はく"), ("はく", "はく"));
/// ```
pub fn stem_of<'a>(surface: &'a str, reading: &'a str) -> (&'a str, &'a str) {
    let (stem, tail) = kana_ending(surface);
    match reading.strip_suffix(tail) {
        Some(r) if !stem.is_empty() => (stem, r),
        _ => (surface, reading),
    }
}

/// A written form cut before its hiragana ending: `履` and `い` for `履い`; nothing and `はく`
/// for `はく`.
fn kana_ending(surface: &str) -> (&str, &str) {
    let stem = surface.trim_end_matches(crate::composer::is_hiragana);
    (stem, &surface[stem.len()..])
}

//! Mozc's POS rules for a segment's candidates (`converter/candidate_filter.cc`): paths of
//! several words that no writer would mean, told by the parts of speech of their first two
//! words ([`PosGroup`], from Mozc's `pos_matcher_rule.def`):
//!
//! - a godan ka-row stem in its ta-connective form before an ending other than the te-form
//!   (`書い` + `ます`), a godan wa-row renyō stem before the te-form (`買い` + `て`; the verb is
//!   `買って`), unless the stem is written in hiragana;
//! - a *noisy weak compound*: a prefix before a word of the wrong kind (`御` + `聞き`, a noun
//!   prefix before a verb), a filler first, or a compound dictionary entry second (except a
//!   noun followed by a particle that may begin a segment);
//! - a *connected weak compound* (`お` + `危機`: a noun prefix before a noun) past the tenth
//!   candidate;
//! - a symbol or an abbreviation reading among several words;
//! - two or more numbers (`２` + `十三重`);
//! - henkan's own: at the start of the input, a suffix noun before more words (`篇` + `感`,
//!   `編` + `間` for `へんかん`; a suffix cannot begin what the user types).
//!
//! For whole sentences (the input's n-best, not one segment's candidates) henkan drops a path
//! that garbles a number ([`garbles_number`]): a number written as two numbers (`10` +
//! `二月` for `じゅうにがつ`) or followed by a lone `ん` (`22` + `ン` for `にじゅうにん`); a
//! path that writes in digits part of a number the best sentence writes in digits
//! ([`recuts_number`]: `に` + `12` + `年` and `20` + `に` + `年` beside `22` + `年` for
//! `にじゅうにねん`); and one that writes a lone digit where the best has a word in hiragana
//! ([`digit_for_kana`]: `東京` + `2` + `行きます` beside `東京` + `に` + `行きます`).
//!
//! Besides, henkan's own rule for *re-cuts* ([`recut`]): a candidate whose first word is one
//! kanji (with its okurigana) that ends inside the first word of the segment's top candidate
//! cuts that word's reading differently, and mostly makes up a word from a rare one-kanji
//! reading and kana fragments: `子` + `と` + `し` beside `今年` for `ことし`, `生` + `合` beside
//! `記号` for `きごう`, `付か` + `い` + `まし` + `た` beside `使いました` for `つかいました`. A
//! re-cut with another content word in hiragana (`し`, a verb) is never offered; any other
//! re-cut only when it is within 1000 times the probability of the top candidate (`来` +
//! `たい` beside `期待` for `きたい` is, `入` + `刀` beside `乳糖` for `にゅうとう` is, `付か` +
//! `い` + … is not), judged with the costs in `Session`.
//!
//! The cost filter (in `Session`'s candidates, [`crate::Session`]) runs besides these. Without the groups in the model
//! ([`Segmenter::has_groups`]) nothing is filtered here.

use crate::pos::{PosGroup, Segmenter};

/// A word of a candidate path, as the filter sees it.
#[derive(Debug, Clone)]
pub struct Word {
    /// Left POS id.
    pub left: u16,
    /// Right POS id.
    pub right: u16,
    /// Its surface.
    pub surface: String,
    /// The length of its reading, in characters.
    pub len: usize,
}

/// Candidates after this many are no longer offered when they are connected weak compounds
/// (Mozc's `kSizeThresholdForWeakCompound`).
const WEAK_COMPOUND_RANK: usize = 10;

fn hiragana(s: &str) -> bool {
    s.chars().all(crate::composer::is_hiragana)
}

/// Whether the first character starts a number: a digit or a kanji numeral.
fn numeral(s: &str) -> bool {
    s.chars().next().is_some_and(numeral_char)
}

/// A digit or a numeral below a hundred (`〇`–`十`).
fn small_numeral_char(c: char) -> bool {
    c.is_ascii_digit() || ('０'..='９').contains(&c) || "〇一二三四五六七八九十".contains(c)
}

/// A digit or a kanji numeral, units up to `兆` included.
fn numeral_char(c: char) -> bool {
    small_numeral_char(c) || "百千万億兆".contains(c)
}

fn kanji(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{3134f}' | '々')
}

/// One kanji, then hiragana only (`子`, `付か`, `来`); not a numeral (`二人` is a number and
/// its counter).
fn one_kanji(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(kanji) && hiragana(cs.as_str()) && !numeral(s)
}

/// How a candidate cuts the reading of the segment's top candidate ([`recut`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recut {
    /// It does not re-cut the top's first word: the other rules judge it.
    No,
    /// A one-kanji word ending inside the top's first word, then other words (`来` + `たい`
    /// beside `期待`): offered only near the top's cost.
    Composition,
    /// The same with another content word in hiragana (`子` + `と` + `し` beside `今年`): never
    /// offered.
    Fragments,
}

/// Whether the candidate of `words` re-cuts the first word of the segment's top candidate,
/// whose reading is `top_head` characters long (see the module's doc).
pub fn recut(words: &[Word], seg: &Segmenter, top_head: usize) -> Recut {
    use PosGroup::*;
    let [w0, rest @ ..] = words else {
        return Recut::No;
    };
    if rest.is_empty() || !one_kanji(&w0.surface) || w0.len >= top_head {
        return Recut::No;
    }
    // a noun or an independent verb; suffixes in hiragana (`さ`, `たち`) end a word
    let content = |w: &Word| {
        [ContentNoun, WeakCompoundNounSuffix, WeakCompoundVerbSuffix]
            .iter()
            .any(|&g| seg.in_group(w.left, g))
    };
    if rest.iter().any(|w| content(w) && hiragana(&w.surface)) {
        Recut::Fragments
    } else {
        Recut::Composition
    }
}

/// Whether a candidate of `words` (in order) is noise by Mozc's POS rules when it would be the
/// candidate at `rank` (0 = first) of its segment; `at_start`: the segment begins the input.
pub fn is_noise(words: &[Word], seg: &Segmenter, rank: usize, at_start: bool) -> bool {
    use PosGroup::*;
    if !seg.has_groups() || words.is_empty() {
        return false;
    }
    let g = |id: u16, group: PosGroup| seg.in_group(id, group);
    let w0 = &words[0];
    let bad_stem = |stem: u16, next: u16| {
        (g(stem, KagyoTaConnectionVerb) && g(next, VerbSuffix) && !g(next, TeSuffix))
            || (g(stem, WagyoRenyoConnectionVerb) && g(next, TeSuffix))
    };
    if !hiragana(&w0.surface) {
        if words.len() >= 2 && bad_stem(w0.right, words[1].left) {
            return true;
        }
        // a compound entry holds both: its left id is the stem's, its right id the ending's
        if w0.left != w0.right && bad_stem(w0.left, w0.right) {
            return true;
        }
    }
    if words.len() < 2 {
        return false;
    }
    if words
        .iter()
        .any(|w| g(w.left, IsolatedWord) || g(w.left, GeneralSymbol))
    {
        return true;
    }
    if at_start && rank >= 1 && g(w0.left, NounSuffix) {
        return true;
    }
    let w1 = &words[1];
    if w0.left == w0.right {
        let noisy = g(w0.left, WeakCompoundFillerPrefix)
            || (w1.left != w1.right
                && !(g(w0.right, ContentNoun) && g(w1.left, AcceptableParticleAtBeginOfSegment)))
            || (g(w0.left, WeakCompoundNounPrefix) && !g(w1.left, WeakCompoundNounSuffix))
            || (g(w0.left, WeakCompoundVerbPrefix) && !g(w1.left, WeakCompoundVerbSuffix));
        if noisy && rank >= 1 {
            return true;
        }
        let connected = w1.left == w1.right
            && ((g(w0.left, WeakCompoundNounPrefix) && g(w1.left, WeakCompoundNounSuffix))
                || (g(w0.left, WeakCompoundVerbPrefix) && g(w1.left, WeakCompoundVerbSuffix)));
        if connected && !noisy && rank >= WEAK_COMPOUND_RANK {
            return true;
        }
    }
    // numbers: a run of words with the same left id counts once
    let mut numbers = 0;
    let mut prev = None;
    for w in words {
        if numeral(&w.surface) && prev != Some(w.left) {
            numbers += 1;
        }
        prev = Some(w.left);
    }
    numbers >= 2
}

/// Whether a word of a sentence is written with digits (`12`, `１２`, `4人`).
fn has_digit(s: &str) -> bool {
    s.chars()
        .any(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
}

/// Whether a word written with digits has more than digits (`25問`, `4人`; not `12`, `2.5`).
fn has_counter(s: &str) -> bool {
    s.chars()
        .any(|c| !(c.is_ascii_digit() || ('０'..='９').contains(&c) || ".,．，".contains(c)))
}

/// A word of a sentence and where its reading begins (in characters).
pub type Placed = (usize, Word);

/// Whether a sentence of the input's n-best writes in digits a different stretch of the
/// reading than a word in digits of the best sentence that it overlaps: the number the best
/// reads (`22` over `にじゅうに`) cut into another number and a word (`に` + `12`, `20` + `に`,
/// `二重` + `2` for `にじゅうにねん`), which no writer means once the best has read the number
/// whole. Where one of the two numbers is shorter by a lone particle that may begin a segment,
/// between a noun and the number (`人` + `に` + `10` against `人` + `20`), both readings are
/// sentences (`3人に10円` and `3人20円`) and the path is kept; a number cut short at its end
/// (`20` + `に` + `年`) never is, and one that goes on past the best's only with its counter
/// (`25問` beside `に` + `15` + `問`, not `32` + `地` beside `30` + `日`). A number followed by a unit of a thousand or more (`2` + `千円`) is how
/// numbers are written and is not compared. A number the best does not write in digits
/// (`一日中`) leaves the others' digits alone (`1日` + `中`). Without Mozc's POS groups in the
/// model nothing is dropped.
pub fn recuts_number(best: &[Placed], sentence: &[Placed], segmenter: &Segmenter) -> bool {
    if !segmenter.has_groups() {
        return false;
    }
    let numbers = |words: &[Placed]| -> Vec<(usize, std::ops::Range<usize>)> {
        (0..words.len())
            .filter(|&i| {
                has_digit(&words[i].1.surface)
                    && !words
                        .get(i + 1)
                        .is_some_and(|(_, w)| w.surface.starts_with(['百', '千', '万', '億', '兆']))
            })
            .map(|i| (i, words[i].0..words[i].0 + words[i].1.len))
            .collect()
    };
    let theirs = numbers(best);
    numbers(sentence).into_iter().any(|(i, r)| {
        theirs.iter().any(|(k, n)| {
            let overlaps = n.start < r.end && r.start < n.end;
            let start_ok = match r.start.cmp(&n.start) {
                std::cmp::Ordering::Equal => true,
                std::cmp::Ordering::Greater => particle_before(sentence, i, n.start, segmenter),
                std::cmp::Ordering::Less => particle_before(best, *k, r.start, segmenter),
            };
            // ending past the best's number, a word with its counter takes in what the best
            // wrote after the number (`25問` beside `15` + `問`); digits alone take a piece of
            // the next word (`32` + `地` beside `30` + `日`)
            let end_ok = r.end == n.end || (r.end > n.end && has_counter(&sentence[i].1.surface));
            overlaps && *n != r && !(start_ok && end_ok)
        })
    })
}

/// Whether a sentence of the input's n-best writes a lone digit where the best sentence has a
/// word in hiragana over the same stretch of the reading: Mozc's one-kana number entries
/// (`２`/`に`, `５`/`ご`) in place of a particle or an ending (`東京` + `2` + `行きます` beside
/// `東京` + `に` + `行きます`), which no writer means once the best has read the kana as a word.
pub fn digit_for_kana(best: &[Placed], sentence: &[Placed]) -> bool {
    let lone_digit = |s: &str| {
        let mut cs = s.chars();
        cs.next()
            .is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
            && cs.next().is_none()
    };
    sentence.iter().any(|(at, w)| {
        lone_digit(&w.surface)
            && best.iter().any(|(b, v)| {
                b == at && v.len == w.len && v.surface.chars().all(crate::composer::is_hiragana)
            })
    })
}

/// Whether the word before `words[i]` is a lone particle that may begin a segment, beginning at
/// `from`, after a noun (`人` + `に`, `問題` + `に`): a content noun, a suffix, or a noun a
/// prefix may join (`名詞,ナイ形容詞語幹` and `形容詞語幹` too).
fn particle_before(words: &[Placed], i: usize, from: usize, segmenter: &Segmenter) -> bool {
    let g = |id, group| segmenter.in_group(id, group);
    i >= 2 && {
        let (at, p) = &words[i - 1];
        let noun = &words[i - 2].1;
        *at == from
            && g(p.left, PosGroup::AcceptableParticleAtBeginOfSegment)
            && [
                PosGroup::ContentNoun,
                PosGroup::WeakCompoundNounSuffix,
                PosGroup::NounSuffix,
            ]
            .iter()
            .any(|&group| g(noun.right, group))
    }
}

/// Whether a word is a number by itself: numerals only (`20`, `二十`, `２`), no counter.
fn all_numerals(s: &str) -> bool {
    !s.is_empty() && s.chars().all(numeral_char)
}

/// Whether a sentence of words (their surfaces, in order) writes a number as no writer would:
/// a number right before a word that begins with a digit or a numeral below a hundred (`10` +
/// `二月`, `10` + `2月`: one number read as two), right before a lone `ん`/`ン` (`22` + `ン`,
/// the `ん` of `にん` or `えん` cut off), or right before `に` and a word of one kanji (`28` +
/// `に` + `血`, the counter `にち` cut in two). A unit of a hundred or more after it is how numbers
/// are written (`100` + `万円`, `5` + `千円`).
pub fn garbles_number<'a>(surfaces: impl IntoIterator<Item = &'a str>) -> bool {
    let mut after_number = false;
    let mut after_number_ni = false;
    for s in surfaces {
        let digit_first = s.chars().next().is_some_and(small_numeral_char);
        if after_number && (digit_first || s == "ん" || s == "ン") {
            return true;
        }
        let one_kanji = {
            let mut cs = s.chars();
            cs.next().is_some_and(kanji) && cs.next().is_none()
        };
        if after_number_ni && one_kanji {
            return true;
        }
        after_number_ni = after_number && s == "に";
        after_number = all_numerals(s);
    }
    false
}

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
//! The cost filter ([`crate::session`]) runs besides these. Without the groups in the model
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
}

/// Candidates after this many are no longer offered when they are connected weak compounds
/// (Mozc's `kSizeThresholdForWeakCompound`).
const WEAK_COMPOUND_RANK: usize = 10;

fn hiragana(s: &str) -> bool {
    s.chars().all(|c| ('\u{3041}'..='\u{309f}').contains(&c))
}

/// Whether the first character starts a number: a digit or a kanji numeral.
fn numeral(s: &str) -> bool {
    s.chars().next().is_some_and(|c| {
        c.is_ascii_digit()
            || ('０'..='９').contains(&c)
            || "〇一二三四五六七八九十百千万億兆".contains(c)
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SectionBytes;
    use crate::pos::{with_pos_groups, write_segmenter};

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
}

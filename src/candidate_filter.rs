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
#[derive(Debug, Clone, Copy)]
pub struct Word<'a> {
    /// Left POS id.
    pub left: u16,
    /// Right POS id.
    pub right: u16,
    /// Its surface.
    pub surface: &'a str,
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
    let w0 = words[0];
    let bad_stem = |stem: u16, next: u16| {
        (g(stem, KagyoTaConnectionVerb) && g(next, VerbSuffix) && !g(next, TeSuffix))
            || (g(stem, WagyoRenyoConnectionVerb) && g(next, TeSuffix))
    };
    if !hiragana(w0.surface) {
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
    let w1 = words[1];
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
        if numeral(w.surface) && prev != Some(w.left) {
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

    fn w(left: u16, right: u16, surface: &str) -> Word<'_> {
        Word {
            left,
            right,
            surface,
        }
    }

    #[test]
    fn mozc_noise_rules() {
        let seg = toy();
        // 書い + ます, 買い + て: not how the verbs are written; in hiragana they pass
        assert!(is_noise(
            &[w(3, 3, "書い"), w(5, 5, "ます")],
            &seg,
            3,
            false
        ));
        assert!(!is_noise(&[w(3, 3, "書い"), w(6, 6, "て")], &seg, 3, false));
        assert!(is_noise(&[w(4, 4, "買い"), w(6, 6, "て")], &seg, 3, false));
        assert!(!is_noise(&[w(4, 4, "かい"), w(6, 6, "て")], &seg, 3, false));
        assert!(!is_noise(
            &[w(4, 4, "買い"), w(5, 5, "ます")],
            &seg,
            3,
            false
        ));
        // the same inside one compound entry (left id the stem's, right id the ending's)
        assert!(is_noise(&[w(4, 6, "買いて")], &seg, 3, false));
        // a noun prefix before a verb: noise after the first candidate
        assert!(is_noise(
            &[w(2, 2, "御"), w(10, 10, "聞き")],
            &seg,
            1,
            false
        ));
        assert!(!is_noise(
            &[w(2, 2, "御"), w(10, 10, "聞き")],
            &seg,
            0,
            false
        ));
        // a verb prefix before a verb, a noun prefix before a noun: connected, fine up to 10
        assert!(!is_noise(
            &[w(9, 9, "お"), w(10, 10, "聞き")],
            &seg,
            3,
            false
        ));
        assert!(!is_noise(&[w(2, 2, "お"), w(1, 1, "危機")], &seg, 9, false));
        assert!(is_noise(&[w(2, 2, "お"), w(1, 1, "危機")], &seg, 10, false));
        // a compound entry second: noise, unless a noun then a particle that may begin a segment
        assert!(is_noise(
            &[w(1, 1, "海"), w(4, 6, "買いて")],
            &seg,
            2,
            false
        ));
        assert!(!is_noise(
            &[w(1, 1, "紙"), w(7, 5, "に書く")],
            &seg,
            2,
            false
        ));
        // a symbol among several words
        assert!(is_noise(&[w(1, 1, "星"), w(8, 8, "★")], &seg, 2, false));
        // two numbers, but not one number written in two words of one kind
        assert!(is_noise(
            &[w(1, 1, "２"), w(1, 5, "十三重")],
            &seg,
            2,
            false
        ));
        assert!(is_noise(
            &[w(1, 1, "２"), w(5, 5, "ます"), w(1, 1, "３")],
            &seg,
            2,
            false
        ));
        assert!(!is_noise(&[w(1, 1, "１"), w(1, 1, "０")], &seg, 2, false));
        // single plain words and a model without groups: nothing to say
        assert!(!is_noise(&[w(1, 1, "変換")], &seg, 5, false));
        let bare = Segmenter::new(SectionBytes::from_vec(write_segmenter(
            &[0, 1, 2, 3, 4, 5, 6],
            &[0, 1, 2, 3, 4, 5, 6],
            |_, _| true,
        )))
        .unwrap();
        assert!(!is_noise(
            &[w(4, 4, "買い"), w(6, 6, "て")],
            &bare,
            3,
            false
        ));
        // a suffix noun first: noise at the start of the input only
        assert!(is_noise(&[w(11, 11, "篇"), w(11, 11, "感")], &seg, 3, true));
        assert!(!is_noise(
            &[w(11, 11, "篇"), w(11, 11, "感")],
            &seg,
            3,
            false
        ));
        assert!(!is_noise(&[w(11, 11, "様")], &seg, 3, true));
        assert!(!is_noise(
            &[w(1, 1, "日本"), w(11, 11, "的")],
            &seg,
            3,
            true
        ));
    }
}

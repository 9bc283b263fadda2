//! Dictionary forms of inflected lexicon entries.
//!
//! Mozc's dictionary lists each inflected form of a verb or adjective as its own entry (`勝っ`,
//! `勝た`, `勝て` beside `勝つ`), told apart by the POS id, whose `id.def` feature names the
//! conjugation type and the form (`動詞,自立,*,*,五段・タ行,連用タ接続,*`). Word vectors and
//! other word-level tables know the dictionary form (基本形) only; this maps every inflected
//! entry to it.
//!
//! The dictionary form of an entry is the entry of the same word class and conjugation type in
//! the 基本形 form whose surface and reading, less their last letter (`勝つ`/`かつ` → `勝`/`か`),
//! are the entry's surface and reading less an ending of at most three kana (`勝っ`/`かっ` less
//! `っ`; `食べ`/`たべ` less nothing). The shortest ending wins, so `見せ` is `見せる`'s, not `見る`'s.

use henkan::composer::is_hiragana;
use henkan::lexicon::Lexicon;
use std::collections::HashMap;

/// The longest ending an inflected form adds to its stem (`熱けりゃ` = `熱` + `けりゃ`).
const MAX_ENDING: usize = 3;

/// The conjugation of each POS id, from `id.def`.
#[derive(Debug, Clone, Default)]
pub struct Conjugations {
    /// Per POS id: its word class and conjugation type (`動詞,五段・タ行`), and whether it is
    /// the dictionary form; `None` for POS ids that do not inflect.
    pos: Vec<Option<(String, bool)>>,
}

impl Conjugations {
    /// From `id.def`'s features ([`crate::mozc::parse_id_def`]): the content verbs (`動詞,自立`)
    /// and adjectives (`形容詞,自立`) with a conjugation type; the auxiliary ones (`非自立`:
    /// `いたす`, `いただく`, `おく`) are not content words.
    pub fn from_features(features: &[String]) -> Self {
        let pos = features
            .iter()
            .map(|f| {
                let fields: Vec<&str> = f.split(',').collect();
                match fields.as_slice() {
                    [class @ ("動詞" | "形容詞"), "自立", _, _, kind, form, ..] if *kind != "*" => {
                        Some((format!("{class},{kind}"), *form == "基本形"))
                    }
                    _ => None,
                }
            })
            .collect();
        Self { pos }
    }

    /// The conjugation of a POS id: its class and type, and whether it is the dictionary form.
    pub fn of(&self, pos: u16) -> Option<(&str, bool)> {
        self.pos
            .get(pos as usize)?
            .as_ref()
            .map(|(k, base)| (k.as_str(), *base))
    }
}

/// The stems of `surface` and `reading` less the same ending of `n` hiragana (`勝っ`/`かっ`,
/// 1 → `勝`/`か`); `None` when they do not both end so.
fn less_ending<'a>(surface: &'a str, reading: &'a str, n: usize) -> Option<(&'a str, &'a str)> {
    let ending = |s: &'a str| {
        let (start, _) = s
            .char_indices()
            .rev()
            .take(n)
            .last()
            .unwrap_or((s.len(), ' '));
        let tail = &s[start..];
        (tail.chars().count() == n && tail.chars().all(is_hiragana)).then_some(start)
    };
    let (s, r) = (ending(surface)?, ending(reading)?);
    (surface[s..] == reading[r..]).then_some((&surface[..s], &reading[..r]))
}

/// The dictionary form's surface of every inflected verb and adjective entry of `lexicon`
/// (keyed by entry offset) that has one (see the module docs). Dictionary-form entries
/// themselves are not listed, nor Mozc's phrase entries (`見に行き`: the left POS id, of
/// `見る`, is not the right one, of `行く`), which are no single word.
pub fn dictionary_forms(lexicon: &Lexicon, conjugations: &Conjugations) -> HashMap<u32, String> {
    // Every single-word verb and adjective entry: (class and type, dictionary form?, surface,
    // reading, offset).
    let mut words: Vec<(&str, bool, String, String, u32)> = Vec::new();
    lexicon.for_each_entry(|reading, e| {
        if let Some((kind, base)) = conjugations
            .of(e.left_id)
            .filter(|_| e.left_id == e.right_id)
        {
            let surface = lexicon.surface_text(&e.surface, reading);
            words.push((kind, base, surface, reading.to_string(), e.offset));
        }
    });
    // (class and type, surface stem, reading stem) → dictionary form's surface
    let mut stems: HashMap<(&str, &str, &str), &str> = HashMap::new();
    // a classical dictionary form may end otherwise in its surface and reading (`出づ`/`いず`)
    let stem = |s| less_ending(s, s, 1).map(|(stem, _)| stem);
    for (kind, _, surface, reading, _) in words.iter().filter(|w| w.1) {
        if let (Some(s), Some(r)) = (stem(surface), stem(reading)) {
            if !s.is_empty() {
                stems.entry((kind, s, r)).or_insert(surface);
            }
        }
    }
    let mut forms = HashMap::new();
    for (kind, _, surface, reading, offset) in words.iter().filter(|w| !w.1) {
        for n in 0..=MAX_ENDING {
            let Some((s, r)) = less_ending(surface, reading, n) else {
                break;
            };
            if let Some(base) = stems.get(&(*kind, s, r)) {
                forms.insert(*offset, base.to_string());
                break;
            }
        }
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_is_the_same_trailing_hiragana_in_both() {
        assert_eq!(less_ending("勝っ", "かっ", 1), Some(("勝", "か")));
        assert_eq!(less_ending("食べ", "たべ", 0), Some(("食べ", "たべ")));
        assert_eq!(less_ending("熱かっ", "あつかっ", 2), Some(("熱", "あつ")));
        assert_eq!(less_ending("勝っ", "かっ", 2), None);
        assert_eq!(less_ending("か", "か", 2), None);
        assert_eq!(less_ending("行く", "ゆく", 1), Some(("行", "ゆ")));
        assert_eq!(less_ending("行っ", "いき", 1), None);
    }

    #[test]
    fn inflected_entries_map_to_their_dictionary_form() {
        let features: Vec<String> = [
            "名詞,一般,*,*,*,*,*",
            "動詞,自立,*,*,五段・タ行,基本形,*",
            "動詞,自立,*,*,五段・タ行,連用タ接続,*",
            "動詞,自立,*,*,一段,基本形,*",
            "動詞,自立,*,*,一段,連用形,*",
            "形容詞,自立,*,*,形容詞・アウオ段,基本形,*",
            "形容詞,自立,*,*,形容詞・アウオ段,連用タ接続,*",
            "動詞,非自立,*,*,五段・サ行,連用形,いたす",
        ]
        .map(String::from)
        .to_vec();
        let mut w = crate::lexicon::LexiconWriter::new();
        for (reading, pos, surface) in [
            ("かつ", 1, "勝つ"),
            ("かっ", 2, "勝っ"),
            ("かっ", 2, "かっ"),
            ("みる", 3, "見る"),
            ("みせる", 3, "見せる"),
            ("みせ", 4, "見せ"),
            ("み", 4, "見"),
            ("あつい", 5, "熱い"),
            ("あつかっ", 6, "熱かっ"),
            ("あつかっ", 2, "熱かっ"),
            ("みせ", 0, "店"),
            ("いたし", 7, "致し"),
        ] {
            w.add(reading, pos, pos, 100, surface);
        }
        // a phrase: 見る's left POS, 行く's right one (as 一段 連用形 here)
        w.add("みにいき", 4, 2, 100, "見にいき");
        let lexicon = w.into_lexicon().unwrap();
        let forms = dictionary_forms(&lexicon, &Conjugations::from_features(&features));
        let mut got: Vec<(String, String)> = Vec::new();
        lexicon.for_each_entry(|reading, e| {
            if let Some(f) = forms.get(&e.offset) {
                let surface = lexicon.surface_text(&e.surface, reading);
                got.push((format!("{surface}/{}", e.left_id), f.clone()));
            }
        });
        got.sort();
        let want = [
            ("勝っ/2", "勝つ"),
            ("熱かっ/6", "熱い"),
            ("見/4", "見る"),
            ("見せ/4", "見せる"),
        ];
        // not: the kana `かっ` (its stem is no dictionary form's), `熱かっ` under the verb
        // class, the noun `店`, the auxiliary `致し`, the phrase, the dictionary forms themselves
        assert_eq!(
            got,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
    }

    #[test]
    fn conjugations_come_from_the_features() {
        let c = Conjugations::from_features(&[
            "名詞,一般,*,*,*,*,*".into(),
            "動詞,自立,*,*,五段・タ行,基本形,*".into(),
            "動詞,自立,*,*,五段・タ行,連用タ接続,*".into(),
            "動詞,非自立,*,*,五段・サ行,連用形,いたす".into(),
            "形容詞,自立,*,*,形容詞・アウオ段,基本形,*".into(),
        ]);
        assert_eq!(c.of(0), None);
        assert_eq!(c.of(1), Some(("動詞,五段・タ行", true)));
        assert_eq!(c.of(2), Some(("動詞,五段・タ行", false)));
        assert_eq!(c.of(3), None);
        assert_eq!(c.of(4), Some(("形容詞,形容詞・アウオ段", true)));
        assert_eq!(c.of(9), None);
    }
}

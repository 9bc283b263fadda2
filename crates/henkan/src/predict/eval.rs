//! Offline evaluation of predictions over an analyzed text (`henkan eval prediction`).
//!
//! Input: the analyzed corpus format (one sentence per line, tokens
//! `surface/reading/left_id/right_id` percent-escaped, or `<unk>`), e.g.
//! `build/corpus/dev/chat.txt`, the analysis of `../shared/data/dev/chat.dev.txt` with the
//! same analyzer as the training corpus.
//!
//! Figures:
//! - `nwp_topK`: share of the words (every token, `<unk>` counted as a miss) whose surface
//!   is among the top-K next-word predictions given the previous words of the line (the
//!   line starts at `<s>`). `long_topK`: the same over the words whose reading has at least
//!   [`super::MIN_READING_CHARS`] kana, the words a list of keystroke-saving predictions
//!   offers (`--min-reading`).
//! - `ksr` = (n_c − n_k) / n_c, the keystroke saving rate. n_c = romaji keystrokes to type
//!   every known word's reading ([`super::romaji`], the kana of the whole line, so ん and っ
//!   see the next word's first kana). n_k = keystrokes of a simulated user who types each
//!   word's reading one romaji unit at a time, the previous words committed (they are the
//!   context), and before each unit looks at the top 3 predictions (no kana typed yet:
//!   next-word prediction; k kana typed: completion of those k kana). As soon as the word's
//!   surface is among them at rank r, the user accepts it for 1 key (r = 1) or 2 keys
//!   (r = 2, 3) — only if that is cheaper than typing the rest; otherwise the word costs
//!   its full reading. Conversion keys (Space, Enter) are counted in neither n_c nor n_k.
//!   `<unk>` words are left out of the ksr (their reading is unknown).

use super::Prediction;

/// One word of the evaluated text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The written form.
    pub surface: String,
    /// The kana reading.
    pub reading: String,
    /// Left POS id.
    pub left_id: u16,
    /// Right POS id.
    pub right_id: u16,
}

/// Something that predicts the next word (`query` empty) or completes `query`, given the
/// previous words of the line.
pub trait Predictor {
    /// At most `limit` predictions, best first.
    fn predict(&mut self, history: &[Option<Word>], query: &str, limit: usize) -> Vec<Prediction>;

    /// The user committed the whole line `words` (a predictor that learns from what was
    /// typed takes them in here; by default nothing happens).
    fn end_line(&mut self, _words: &[Option<Word>]) {}
}

/// Passes on only the predictions that save keystrokes ([`super::saves_keys`]: a reading of
/// at least [`super::MIN_READING_CHARS`] kana), as the IME's suggestion list shows them; with
/// `min_reading` 1, every prediction.
pub struct SavesKeys<P> {
    /// The predictor filtered.
    pub inner: P,
    /// Fewest kana a prediction's reading has.
    pub min_reading: usize,
}

impl<P: Predictor> Predictor for SavesKeys<P> {
    fn predict(&mut self, history: &[Option<Word>], query: &str, limit: usize) -> Vec<Prediction> {
        if self.min_reading <= 1 {
            return self.inner.predict(history, query, limit);
        }
        // the words left out make room for the next ones
        let mut preds = self.inner.predict(history, query, limit + 12);
        preds.retain(|p| p.reading.chars().count() >= self.min_reading);
        preds.truncate(limit);
        preds
    }

    fn end_line(&mut self, words: &[Option<Word>]) {
        self.inner.end_line(words);
    }
}

/// Counts of one evaluation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvalCounts {
    /// Words evaluated (for nwp).
    pub words: usize,
    /// Words predicted at rank 1 with no kana typed.
    pub top1: usize,
    /// Words predicted within the top 3 with no kana typed.
    pub top3: usize,
    /// Words whose reading has at least [`super::MIN_READING_CHARS`] kana: those a list of
    /// keystroke-saving predictions can offer.
    pub long_words: usize,
    /// Of them, predicted at rank 1 with no kana typed.
    pub long_top1: usize,
    /// Of them, predicted within the top 3 with no kana typed.
    pub long_top3: usize,
    /// Keystrokes to type every reading (n_c).
    pub keys_full: u64,
    /// Keystrokes with predictions (n_k).
    pub keys_typed: u64,
    /// Calls to the predictor.
    pub calls: usize,
}

impl EvalCounts {
    /// Keystroke saving rate.
    pub fn ksr(&self) -> f64 {
        if self.keys_full == 0 {
            return 0.0;
        }
        (self.keys_full as f64 - self.keys_typed as f64) / self.keys_full as f64
    }
}

/// The predictions among the top 3 that spell the words at the start of `rest` — a word, or a
/// phrase of several words, the whole of each word — as `(rank, words spelled)`.
fn hits(preds: &[Prediction], rest: &[Option<Word>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (r, p) in preds.iter().take(3).enumerate() {
        let mut at = 0;
        for (k, w) in rest.iter().enumerate() {
            let Some(w) = w else { break };
            if !p.surface[at..].starts_with(w.surface.as_str()) || w.surface.is_empty() {
                break;
            }
            at += w.surface.len();
            if at == p.surface.len() {
                out.push((r, k + 1));
                break;
            }
        }
    }
    out
}

/// Runs the simulation over analyzed lines, each a line's words (`None` = `<unk>`; the
/// builder's `token::parse_line` reads them from the corpus format).
///
/// A prediction that spells several words (a phrase) counts for the first of them in
/// `nwp_*`; in the ksr, the simulated user picks it when it saves more keys than any other
/// pick at that point, and the words it spells cost nothing more.
pub fn evaluate(lines: &[Vec<Option<Word>>], predictor: &mut dyn Predictor) -> EvalCounts {
    let mut n = EvalCounts::default();
    let accept = |r: usize| if r == 0 { 1 } else { 2 };
    for words in lines {
        // Keystrokes per kana over the whole line's reading.
        let mut chars = Vec::new();
        let mut spans = Vec::with_capacity(words.len());
        for w in words {
            let s = chars.len();
            if let Some(w) = w {
                chars.extend(w.reading.chars());
            }
            spans.push(s..chars.len());
        }
        let costs = super::romaji::keystrokes(&chars);
        let full_keys: Vec<u64> = spans
            .iter()
            .map(|s| costs[s.clone()].iter().map(|&c| c as u64).sum())
            .collect();
        // Words up to here were inserted by a picked phrase.
        let mut covered = 0;
        for (i, w) in words.iter().enumerate() {
            n.words += 1;
            let Some(w) = w else { continue };
            let history = &words[..i];
            let preds = predictor.predict(history, "", 3);
            n.calls += 1;
            let mut found = hits(&preds, &words[i..]);
            let r0 = found.iter().map(|h| h.0).min();
            n.top1 += usize::from(r0 == Some(0));
            n.top3 += usize::from(r0.is_some());
            if super::saves_keys(&w.reading) {
                n.long_words += 1;
                n.long_top1 += usize::from(r0 == Some(0));
                n.long_top3 += usize::from(r0.is_some());
            }
            let full = full_keys[i];
            n.keys_full += full;
            if i < covered {
                continue;
            }
            // Keys of the words a pick spelling `k` words saves typing.
            let spelled = |k: usize| -> u64 { full_keys[i..i + k].iter().sum() };
            let rest_of_line: u64 = full_keys[i..].iter().sum();
            let span = spans[i].clone();
            let unit_costs = &costs[span.clone()];
            let reading: Vec<char> = chars[span].to_vec();
            let mut cost = full;
            let mut typed = 0u64;
            let mut k = 0;
            loop {
                // The pick that saves most, if it saves anything.
                let best = found
                    .iter()
                    .map(|&(r, words)| {
                        (spelled(words) as i64 - (typed + accept(r)) as i64, r, words)
                    })
                    .filter(|&(saved, ..)| saved > 0)
                    .max_by_key(|&(saved, r, _)| (saved, std::cmp::Reverse(r)));
                if let Some((_, r, words)) = best {
                    cost = typed + accept(r);
                    covered = i + words;
                    break;
                }
                // Type the next unit.
                typed += unit_costs[k] as u64;
                k += 1;
                while k < reading.len() && unit_costs[k] == 0 {
                    k += 1;
                }
                if k >= reading.len() || typed + 1 >= rest_of_line {
                    break;
                }
                let query: String = reading[..k].iter().collect();
                let preds = predictor.predict(history, &query, 3);
                n.calls += 1;
                found = hits(&preds, &words[i..]);
            }
            n.keys_typed += cost;
        }
        predictor.end_line(words);
    }
    n
}

/// Counts of [`evaluate_committed`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommittedCounts {
    /// Lines evaluated (those whose words all have a reading in kana).
    pub lines: usize,
    /// Positions: every word after the first of those lines.
    pub positions: usize,
    /// Positions where one of the first 3 items spells the next word or words whole.
    pub top3: usize,
}

/// Next words as a field offers them after a commit, the context recovered from what was
/// committed rather than given as words: for each line whose readings are all hiragana (or
/// ー), and each word after the first, the words before it are typed as kana into a fresh
/// [`crate::Session`] and committed with their written form as one piece
/// ([`super::suggest::Suggester::commit_text`]); the first 3 items of the list
/// ([`super::suggest::Suggester::suggest`]) are checked against the words from there on.
pub fn evaluate_committed(engine: &crate::Engine, lines: &[Vec<Option<Word>>]) -> CommittedCounts {
    let mut n = CommittedCounts::default();
    let kana = |c: char| ('\u{3041}'..='\u{3096}').contains(&c) || c == 'ー';
    for words in lines {
        let Some(words) = words.iter().cloned().collect::<Option<Vec<Word>>>() else {
            continue;
        };
        if words.len() < 2 || !words.iter().all(|w| w.reading.chars().all(kana)) {
            continue;
        }
        n.lines += 1;
        for i in 1..words.len() {
            let reading: String = words[..i].iter().map(|w| w.reading.as_str()).collect();
            let surface: String = words[..i].iter().map(|w| w.surface.as_str()).collect();
            let mut session = crate::Session::new();
            session.insert_str(engine, &reading);
            let mut suggester = super::suggest::Suggester::new();
            suggester.commit_text(
                engine,
                session.lattice(),
                &[(reading.as_str(), surface.as_str())],
            );
            let list: Vec<Prediction> = suggester
                .suggest(engine, "", &[], 3)
                .iter()
                .map(Prediction::from)
                .collect();
            let rest: Vec<Option<Word>> = words[i..].iter().cloned().map(Some).collect();
            n.positions += 1;
            n.top3 += usize::from(!hits(&list, &rest).is_empty());
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Always predicts the same words.
    struct Fixed(Vec<&'static str>);

    impl Predictor for Fixed {
        fn predict(&mut self, _: &[Option<Word>], query: &str, limit: usize) -> Vec<Prediction> {
            self.0
                .iter()
                .filter(|s| query.is_empty() || s.starts_with(query))
                .take(limit)
                .map(|s| Prediction {
                    surface: s.to_string(),
                    reading: s.to_string(),
                    id: 2,
                    score: 0.0,
                })
                .collect()
        }
    }

    #[test]
    fn simulation_counts_keys() {
        // きょう (kyo u = 4 keys) is predicted at rank 2 with nothing typed: 2 keys.
        // は (ha = 2 keys) is never predicted: 2 keys. ありがとう (a ri ga to u = 8 keys):
        // completed after "あり" (3 keys) at rank 1: 3 + 1 = 4 keys.
        let word = |s: &str, id: u16| {
            Some(Word {
                surface: s.into(),
                reading: s.into(),
                left_id: id,
                right_id: id,
            })
        };
        let line = vec![
            word("きょう", 1),
            word("は", 2),
            word("ありがとう", 3),
            None,
        ];
        let mut p = Fixed(vec!["あ", "きょう", "あい", "あう", "ありがとう"]);
        let n = evaluate(&[line], &mut p);
        assert_eq!(n.words, 4);
        assert_eq!((n.top1, n.top3), (0, 1));
        assert_eq!(n.keys_full, 4 + 2 + 8);
        assert_eq!(n.keys_typed, 2 + 2 + 4);
    }

    #[test]
    fn a_phrase_counts_for_its_first_word_and_saves_the_keys_of_all_its_words() {
        let word = |s: &str| {
            Some(Word {
                surface: s.into(),
                reading: s.into(),
                left_id: 1,
                right_id: 1,
            })
        };
        // きょう (4 keys) は (2) ありがとう (8): the phrase きょうは, at rank 1 with nothing
        // typed, spells the first two words for 1 key; nwp counts it for きょう only.
        let line = vec![word("きょう"), word("は"), word("ありがとう")];
        let mut p = Fixed(vec!["きょうは"]);
        let n = evaluate(std::slice::from_ref(&line), &mut p);
        assert_eq!((n.top1, n.top3), (1, 1));
        assert_eq!(n.keys_full, 4 + 2 + 8);
        assert_eq!(n.keys_typed, 1 + 8);
        // A phrase whose words go on otherwise (きょうが) spells nothing.
        let mut p = Fixed(vec!["きょうが", "きょ"]);
        let n = evaluate(&[line], &mut p);
        assert_eq!((n.top1, n.top3), (0, 0));
        assert_eq!(n.keys_typed, 4 + 2 + 8);
    }
}

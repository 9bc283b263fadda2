//! `Session::best_path_words`: the words of the best path with their costs add up to what the
//! decoders scored, and spell the best conversion.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::{Session, WordSource};
use henkan_builder::lstm::VocabMatch;

/// Classic: the word and connection costs sum to the decoder's path cost, the surfaces to the
/// best text, the readings to the reading.
#[test]
fn classic_words_sum_to_the_path_cost() {
    let e = common::shipped_engine();
    let mut s = Session::new();
    s.insert_str(&e, "きょうはいいてんきですね");
    let best = s.best_path_words(&e);
    let path = s.best_path(&e).expect("a path");
    assert_eq!(best.engine, "classic");
    assert_eq!(best.words.len(), path.nodes.len());
    assert_eq!(best.cost, path.cost);
    let sum: i32 = best
        .words
        .iter()
        .map(|w| w.word_cost + w.connection_cost)
        .sum();
    assert_eq!(sum + best.end_connection_cost, path.cost);
    let text: String = best.words.iter().map(|w| w.surface.as_str()).collect();
    assert_eq!(text, s.best_text(&e));
    let reading: String = best.words.iter().map(|w| w.reading.as_str()).collect();
    assert_eq!(reading, best.reading);
    assert_eq!(best.words[0].start, 0);
    assert!(best.words.iter().all(|w| w.lm_step.is_none()));
    assert!(best.lm_score.is_none());
}

/// A number read in kana is a number node; an empty session has no words.
#[test]
fn sources_and_the_empty_lattice() {
    let e = common::shipped_engine();
    let mut s = Session::new();
    assert!(s.best_path_words(&e).words.is_empty());
    s.insert_str(&e, "にじゅうさんにん");
    let best = s.best_path_words(&e);
    assert!(
        best.words.iter().any(|w| w.source == WordSource::Number),
        "{best:?}"
    );
}

/// Hybrid (the tiny CI LSTM): every word has its LM terms, the steps and the end add up to the
/// beam's score, and the surfaces spell the conversion.
#[test]
fn hybrid_words_carry_their_lm_scores() {
    let (bytes, _) = common::shipped_with_tiny_lm("lm-tiny", VocabMatch::default());
    let e = henkan::Engine::from_bytes(bytes).unwrap();
    let mut s = Session::new();
    s.set_scoring(Scoring::Hybrid, NeuralOptions::default());
    s.insert_str(&e, "わたしはにほんごをべんきょうしています");
    let best = s.best_path_words(&e);
    assert_eq!(best.engine, "hybrid");
    let score = best.lm_score.expect("an LM score");
    let steps: f32 = best.words.iter().map(|w| w.lm_step.unwrap()).sum();
    assert!(
        (steps + best.lm_end.unwrap() - score).abs() < 1e-3,
        "{steps} {score}"
    );
    assert!(best.words.iter().all(|w| w.in_lm_vocabulary.is_some()));
    assert!(best
        .words
        .iter()
        .filter(|w| w.in_lm_vocabulary == Some(true))
        .all(|w| w.lm_log_prob.is_some_and(|p| p < 0.0)));
    let text: String = best.words.iter().map(|w| w.surface.as_str()).collect();
    assert_eq!(text, s.convert(&e).nbest[0]);
    // After a commit the lattice is empty while the beam still holds the last sentence: the
    // view asked for then has no words (it once indexed the empty lattice with the beam's path).
    s.clear();
    assert!(s.best_path_words(&e).words.is_empty());
}

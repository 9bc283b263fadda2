//! Suggestions re-ranked by the LSTM (the shipped model has both the n-gram and the LSTM):
//! the [`Suggester`]'s list starts with the candidate the public re-ranking puts first, from
//! an LSTM state fed exactly the committed words, and picking a suggestion moves that state on.

mod common;

use henkan::predict::neural::{lm_word_of_ngram, rerank, LstmState, RerankScratch};
use henkan::predict::neural::{LSTM_CANDIDATES, LSTM_WEIGHT};
use henkan::predict::next_words;
use henkan::predict::suggest::Suggester;
use henkan::{Engine, Session};

/// The best next word after `state`, as the suggester should rank it.
fn top_next_word(engine: &Engine, s: &Suggester, state: &LstmState) -> String {
    let (ngram, lm) = (
        engine.ngram.as_ref().unwrap(),
        engine.neural.as_ref().unwrap(),
    );
    let mut words = next_words(ngram, s.context(), &[], LSTM_CANDIDATES);
    let n_gram_first = words.first().map(|w| w.surface.clone());
    rerank(
        lm,
        &engine.lexicon,
        ngram,
        &state.h,
        &mut words,
        LSTM_WEIGHT,
        &mut RerankScratch::default(),
    );
    assert!(!words.is_empty(), "after {n_gram_first:?}");
    words[0].surface.clone()
}

#[test]
fn next_words_follow_the_lstm_state_of_the_commits() {
    let engine = common::shipped_engine();
    let (Some(ngram), Some(lm)) = (engine.ngram.as_ref(), engine.neural.as_ref()) else {
        panic!("the shipped model has an n-gram and an LSTM");
    };
    let mut session = Session::new();
    session.insert_str(&engine, "きょうはいいてんき");
    let path = session.best_path(&engine).unwrap();
    let conv = session.convert(&engine);
    let pieces: Vec<(String, String)> = conv
        .segments
        .iter()
        .map(|s| (s.reading.clone(), s.candidates[0].clone()))
        .collect();
    let pieces: Vec<(&str, &str)> = pieces
        .iter()
        .map(|(r, s)| (r.as_str(), s.as_str()))
        .collect();
    let mut sug = Suggester::new();
    sug.commit_text(&engine, session.lattice(), &pieces);

    // The same words, fed by hand.
    let mut state = LstmState::new(lm);
    for &i in &path.nodes {
        state.feed(
            lm,
            lm.vocab.lm_id(session.lattice().nodes()[i as usize].entry),
        );
    }
    let want = top_next_word(&engine, &sug, &state);
    let got = sug.suggest(&engine, "", &[], 5).to_vec();
    assert_eq!(got[0].surface, want, "{conv:?}");

    // Picking a suggestion feeds its words.
    let picked = sug.accept(&engine, 0).unwrap();
    assert_eq!(picked.surface, want);
    // Item 0 is a single word (a phrase follows its first word): the context's last word.
    let id = sug.context().v;
    state.feed(lm, lm_word_of_ngram(lm, &engine.lexicon, ngram, id));
    let want = top_next_word(&engine, &sug, &state);
    let got = sug.suggest(&engine, "", &[], 5).to_vec();
    assert_eq!(got[0].surface, want);

    // A reset forgets the LSTM state too: the list is the one at the start of a text.
    sug.reset();
    let want = top_next_word(&engine, &sug, &LstmState::new(lm));
    assert_eq!(sug.suggest(&engine, "", &[], 5)[0].surface, want);
}

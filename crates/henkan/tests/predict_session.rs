//! Predictions through a [`Session`]: type, take the context of the best path (the commit),
//! predict the next word, then complete a typed prefix.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::predict::{complete, context_after, next_words, Context};
use henkan::{Engine, Session};

/// In the tiny model, 今日 and 木 are nouns (1), は a particle (6).
const CORPUS: &str = "今日/きょう/1/1 は/は/6/6 木/き/1/1
今日/きょう/1/1 は/は/6/6 木/き/1/1
今日/きょう/1/1 は/は/6/6 京/きょう/1/1
";

fn engine() -> Engine {
    common::tiny_engine_with_ngram(CORPUS)
}

#[test]
fn predict_after_commit_then_complete() {
    let engine = engine();
    assert!(engine.ngram.is_some());
    let mut session = Session::new();
    session.insert_str(&engine, "kyouha");
    assert_eq!(session.best_text(&engine), "今日は");
    let ctx = context_after(&engine, &session, Context::new());
    let model = engine.ngram.as_ref().unwrap();
    assert_eq!(ctx.v, model.id("は", "は", 6, 6).unwrap());
    // After 今日 は: 木 (2 of 3), then 京 (1 of 3).
    let next: Vec<String> = next_words(model, ctx, &[], 2)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    assert_eq!(next, ["木", "京"]);
    // The user types き: the query is き; 木 is also the conversion candidate, so it is
    // left out, and 京 (reading きょう) completes it.
    session.clear();
    session.insert_str(&engine, "ki");
    let query = session.composer().query();
    let got: Vec<String> = complete(model, Some(&engine.lexicon), ctx, &query, &["木"], 3)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    assert_eq!(got[0], "京");
}

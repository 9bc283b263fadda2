//! The n-gram LM and predictions on a tiny hand-counted corpus.
//!
//! Corpus (every line starts with `<s>`):
//!
//! ```text
//! 今日 は 晴れ        c(今日)=3 c(は)=4 c(晴れ)=3 c(雨)=1, N = 11
//! 今日 は 雨          c(は → ·) = 4: 晴れ 3, 雨 1
//! 今日 は 晴れ        c(今日 は → ·) = 3: 晴れ 2, 雨 1 (4 distinct trigrams)
//! は 晴れ             c(<s> → ·) = 4: 今日 3, は 1
//! ```
//!
//! Scores are log2 and quantized to 1/8 bit, so they are checked to within 1/16 bit.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::lexicon::Lexicon;
use henkan::lm::ngram::{NgramModel, BOS, UNK};
use henkan::model::SectionBytes;
use henkan::predict::{complete, extend_to_phrases, next_words, Context};
use henkan_builder::lexicon::LexiconWriter;

const CORPUS: &str = "今日/きょう/10/10 は/は/20/20 晴れ/はれ/30/30
今日/きょう/10/10 は/は/20/20 雨/あめ/30/30
今日/きょう/10/10 は/は/20/20 晴れ/はれ/30/30
は/は/20/20 晴れ/はれ/30/30
";

fn model() -> NgramModel {
    let (bytes, report) = common::ngram_section(CORPUS);
    assert_eq!(report.tokens, 11);
    assert_eq!(report.bytes, bytes.len());
    NgramModel::from_section(SectionBytes::from_vec(bytes)).unwrap()
}

fn close(got: f32, want: f64) {
    assert!(
        (got as f64 - want).abs() <= 1.0 / 16.0 + 1e-6,
        "got {got}, want {want}"
    );
}

#[test]
fn ids_follow_key_order() {
    let m = model();
    assert_eq!(m.vocab_len(), 6);
    // Keys start with the reading: あめ < きょう < は < はれ.
    assert_eq!(m.id("あめ", "雨", 30, 30), Some(2));
    assert_eq!(m.id("きょう", "今日", 10, 10), Some(3));
    assert_eq!(m.id("は", "は", 20, 20), Some(4));
    assert_eq!(m.id("はれ", "晴れ", 30, 30), Some(5));
    assert_eq!(m.words_with_prefix("は", 10), 4..6);
    assert_eq!(m.words_with_prefix("ぬ", 10).len(), 0);
    assert_eq!(m.id("あめ", "飴", 30, 30), None);
    assert_eq!(m.word(5).unwrap().surface, "晴れ");
    assert_eq!(m.frequent().collect::<Vec<_>>(), [4, 3, 5, 2]);
    assert_eq!(m.word(UNK), None);
    assert_eq!(m.ngram_counts(), (5, 4));
}

#[test]
fn stupid_backoff_scores() {
    let m = model();
    let (ha, kyou, hare, ame) = (4, 3, 5, 2);
    let a = 0.4f64.log2();
    // Stored trigrams: c(今日 は 晴れ)/c(今日 は) = 2/3, 1/3.
    close(m.score(kyou, ha, hare), (2.0f64 / 3.0).log2());
    close(m.score(kyou, ha, ame), (1.0f64 / 3.0).log2());
    // No (<s>, は) context has 雨: back off to the bigram は 雨 = 1/4, times α.
    close(m.score(BOS, ha, ame), a + 0.25f64.log2());
    // Neither 今日 雨 nor any trigram: twice α times the unigram 1/11.
    close(m.score(BOS, kyou, ame), 2.0 * a + (1.0f64 / 11.0).log2());
    // Sentence start: c(<s> 今日) / c(<s>) = 3/4.
    close(m.score(UNK, BOS, kyou), a + 0.75f64.log2());
    close(m.unigram(ha), (4.0f64 / 11.0).log2());
}

#[test]
fn next_words_follow_the_context() {
    let m = model();
    let mut ctx = Context::new();
    let first: Vec<String> = next_words(&m, ctx, &[], 2)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    assert_eq!(first, ["今日", "は"]);
    ctx.push(&m, "きょう", "今日", 10, 10);
    ctx.push(&m, "は", "は", 20, 20);
    let after: Vec<String> = next_words(&m, ctx, &[], 4)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    // Trigram followers first (晴れ 2/3, 雨 1/3), then frequent words (は, 今日).
    assert_eq!(after, ["晴れ", "雨", "は", "今日"]);
    // Excluded surfaces (the conversion candidates) are skipped.
    let ex: Vec<String> = next_words(&m, ctx, &["晴れ"], 1)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    assert_eq!(ex, ["雨"]);
}

fn lexicon() -> Lexicon {
    let mut w = LexiconWriter::new();
    for (reading, cost, surface) in [
        ("はれ", 3000, "晴れ"),
        ("はし", 2000, "橋"),
        ("はし", 2500, "箸"),
        ("はなし", 1000, "話"),
        ("は", 100, "は"),
        ("あめ", 2000, "雨"),
    ] {
        w.add(reading, 30, 30, cost, surface);
    }
    let (index, postings) = w.finish().unwrap();
    Lexicon::new(
        SectionBytes::from_vec(index),
        SectionBytes::from_vec(postings),
    )
    .unwrap()
}

#[test]
fn completion_order() {
    let m = model();
    let lex = lexicon();
    let mut ctx = Context::new();
    ctx.push(&m, "きょう", "今日", 10, 10);
    ctx.push(&m, "は", "は", 20, 20);
    let got: Vec<String> = complete(&m, Some(&lex), ctx, "は", &[], 10)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    // 晴れ: trigram follower (2/3); は: unigram backoff; then lexicon-only words by cost
    // (話 1000, 橋 2000, 箸 2500); 晴れ from the lexicon is a duplicate.
    assert_eq!(got, ["晴れ", "は", "話", "橋", "箸"]);
    // Deduplicated against the conversion candidates.
    let got: Vec<String> = complete(&m, Some(&lex), ctx, "はし", &["橋"], 10)
        .into_iter()
        .map(|p| p.surface)
        .collect();
    assert_eq!(got, ["箸"]);
    // No n-gram word with the prefix and no lexicon: nothing.
    assert!(complete(&m, None, ctx, "ぬ", &[], 10).is_empty());
    // An empty query is next-word prediction.
    assert_eq!(complete(&m, None, ctx, "", &[], 1)[0].surface, "晴れ");
}

#[test]
fn phrases_follow_likely_continuations() {
    let m = model();
    let ctx = Context::new();
    let words = next_words(&m, ctx, &[], 1);
    assert_eq!(words[0].surface, "今日");
    // 今日 → は (3 of 3 after <s> 今日), は → 晴れ (2 of 3 after 今日 は).
    let two = extend_to_phrases(&m, ctx, &words, -1.0, 2);
    assert_eq!(two.len(), 1);
    assert_eq!(
        (two[0].surface.as_str(), two[0].reading.as_str()),
        ("今日は", "きょうは")
    );
    let three = extend_to_phrases(&m, ctx, &words, -1.0, 3);
    assert_eq!(three[0].surface, "今日は晴れ");
    // A stricter threshold stops before 晴れ (log2 2/3 ≈ −0.58).
    assert_eq!(
        extend_to_phrases(&m, ctx, &words, -0.5, 3)[0].surface,
        "今日は"
    );
}

#[test]
fn recent_words_raise_their_predictions() {
    use henkan::predict::recent::RecentWords;
    let m = model();
    let (ame, kyou, ha) = (2, 3, 4);
    let mut ctx = Context::new();
    ctx.push_id(kyou);
    ctx.push_id(ha);
    let mut recent = RecentWords::new(10);
    recent.weight = 0.5;
    for _ in 0..2 {
        recent.push(BOS, kyou);
        recent.push(kyou, ha);
        recent.push(ha, ame);
    }
    // P_cache(雨 | は) = 0.5 · 2/2 + 0.5 · 2/6; 今日 and は: 0.5 · 2/6 each.
    close(recent.probability(ha, ame).log2(), (2.0f64 / 3.0).log2());
    let order = |cands: &[henkan::predict::Prediction]| -> Vec<String> {
        cands.iter().map(|p| p.surface.clone()).collect()
    };
    let mut cands = next_words(&m, ctx, &[], 4);
    assert_eq!(order(&cands), ["晴れ", "雨", "は", "今日"]);
    // Six recent words take a share of λ · 6 / (6 + 50) of next words (RECENT_WARMUP):
    // 晴れ 0.95 · 0.605 stays ahead of 雨 0.95 · 0.302 + 0.05 · 0.8.
    let mut few = cands.clone();
    recent.apply(&m, ha, "", &mut few);
    assert_eq!(order(&few), ["晴れ", "雨", "は", "今日"]);
    // The whole λ from here on.
    recent.warmup = 0.0;
    let before: f64 = cands.iter().map(|p| (p.score as f64).exp2()).sum();
    recent.apply(&m, ha, "", &mut cands);
    // The cache after は, は itself left out: 雨 2/3 and 今日 1/6, normalized 0.8 and 0.2.
    // 晴れ 0.5 · 0.605 against 雨 0.5 · 0.302 + 0.5 · 0.8: the user's word comes first.
    assert_eq!(order(&cands), ["雨", "晴れ", "今日", "は"]);
    // the mixture keeps the candidates' mass (the scale phrases are scored on)
    let after: f64 = cands.iter().map(|p| (p.score as f64).exp2()).sum();
    assert!((after / before - 1.0).abs() < 1e-3, "{before} → {after}");
    // A recent word that was no candidate joins the list.
    let mut one = next_words(&m, ctx, &[], 1);
    assert_eq!(order(&one), ["晴れ"]);
    recent.apply(&m, ha, "", &mut one);
    // 晴れ 0.5 · 1, 雨 0.5 · 0.8, 今日 0.5 · 0.2
    assert_eq!(order(&one), ["晴れ", "雨", "今日"]);
    // Completions: only the recent words with the query's prefix.
    let mut comp = complete(&m, None, ctx, "き", &[], 4);
    assert_eq!(order(&comp), ["今日"]);
    recent.apply(&m, ha, "き", &mut comp);
    assert_eq!(order(&comp), ["今日"]);
    assert!(comp[0].score.is_finite());
    // No candidates at all: the recent words of the prefix alone.
    let mut none = Vec::new();
    recent.apply(&m, ha, "あ", &mut none);
    assert_eq!(order(&none), ["雨"]);
    assert!(none[0].score.is_finite());
    // Nothing recent: nothing changes.
    let mut same = next_words(&m, ctx, &[], 4);
    RecentWords::new(10).apply(&m, ha, "", &mut same);
    assert_eq!(order(&same), ["晴れ", "雨", "は", "今日"]);
}

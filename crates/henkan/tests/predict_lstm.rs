//! Suggestions re-ranked by the LSTM (the shipped model has both the n-gram and the LSTM):
//! the [`Suggester`]'s list starts with the candidate the public re-ranking puts first, from
//! an LSTM state fed exactly the committed words, and picking a suggestion moves that state on.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::predict::neural::{lm_word_of_ngram, rerank, LstmState, RerankScratch};
use henkan::predict::neural::{LSTM_CANDIDATES, LSTM_WEIGHT};
use henkan::predict::next_words;
use henkan::predict::suggest::Suggester;
use henkan::{Engine, Session};

/// Tells `sug` that the session's best conversion was committed, segment by segment, as the
/// IME does.
fn commit_best(engine: &Engine, session: &mut Session, sug: &mut Suggester) {
    let conv = session.convert(engine);
    let pieces: Vec<(&str, &str)> = conv
        .segments
        .iter()
        .map(|s| (s.reading.as_str(), s.candidates[0].as_str()))
        .collect();
    sug.commit_text(engine, session.lattice(), &pieces);
}

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
    let mut sug = Suggester::new();
    // every word, one kana too: the list starts with the LSTM's top word
    sug.set_short_words(true);
    // the LSTM alone: no recent words raising what was committed
    sug.set_keep_recent(false);
    commit_best(&engine, &mut session, &mut sug);

    // The same words, fed by hand.
    let mut state = LstmState::new(lm);
    for &i in &path.nodes {
        state.feed(
            lm,
            lm.vocab.lm_id(session.lattice().nodes()[i as usize].entry),
        );
    }
    // The list's first item is the LSTM's top word, or a phrase that begins with it (a longer
    // reading ranks higher: `suggest::LENGTH_WEIGHT`).
    let want = top_next_word(&engine, &sug, &state);
    let got = sug.suggest(&engine, "", &[], 5).to_vec();
    assert!(got[0].surface.starts_with(&want), "{want} {got:?}");

    // Picking the word feeds it.
    let k = got.iter().position(|s| s.surface == want).expect("listed");
    let picked = sug.accept(&engine, k).unwrap();
    assert_eq!(picked.surface, want);
    let id = sug.context().v;
    state.feed(lm, lm_word_of_ngram(lm, &engine.lexicon, ngram, id));
    let want = top_next_word(&engine, &sug, &state);
    let got = sug.suggest(&engine, "", &[], 5).to_vec();
    assert!(got[0].surface.starts_with(&want), "{want} {got:?}");

    // A reset forgets the LSTM state too: the list is the one at the start of a text.
    sug.reset();
    let want = top_next_word(&engine, &sug, &LstmState::new(lm));
    let got = sug.suggest(&engine, "", &[], 5).to_vec();
    assert!(got[0].surface.starts_with(&want), "{want} {got:?}");
}

/// A candidate's LSTM probability is the sum over its POS variants (LM words with the same
/// reading and surface): with the LSTM alone (weight 1), its score is log2 of that sum over
/// the candidates' sums.
#[test]
fn rerank_sums_the_pos_variants_of_a_candidate() {
    let engine = common::shipped_engine();
    // the plain LSTM: without the prediction bias (its own test is below)
    let mut plain = engine.neural.clone().unwrap();
    plain.predict_bias.clear();
    let (ngram, lm) = (engine.ngram.as_ref().unwrap(), &plain);
    let lex = &engine.lexicon;
    let variants = |w: &henkan::predict::Prediction| -> Vec<u32> {
        let mut ids: Vec<u32> = lex
            .get(&w.reading)
            .filter(|e| lex.surface_text(&e.surface, &w.reading) == w.surface)
            .map(|e| lm.vocab.lm_id(e.offset))
            .filter(|&id| id != lm.model.unk_id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let state = LstmState::new(lm);
    let words = next_words(ngram, henkan::predict::Context::new(), &[], 200);
    let mass = |ids: &[u32]| -> f64 {
        let mut out = vec![0.0; ids.len()];
        lm.model.logits(ids, &state.h, &mut out, &mut Vec::new());
        out.iter().map(|&l| (l as f64).exp()).sum()
    };
    // a word whose other variants hold ≥ 10% of its mass (so the sum shows in the score)
    let a = words
        .iter()
        .find(|w| {
            let own = mass(&[lm_word_of_ngram(lm, lex, ngram, w.id)]);
            variants(w).len() >= 2 && own < 0.9 * mass(&variants(w))
        })
        .expect("a frequent word with two POS variants in the LM");
    let b = words
        .iter()
        .find(|w| w.surface != a.surface && variants(w).len() == 1)
        .unwrap();
    let (ma, mb) = (mass(&variants(a)), mass(&variants(b)));
    let mut cands = vec![a.clone(), b.clone()];
    rerank(
        lm,
        lex,
        &state.h,
        &mut cands,
        1.0,
        &mut RerankScratch::default(),
    );
    let got = cands.iter().find(|w| w.surface == a.surface).unwrap().score as f64;
    let want = (ma / (ma + mb)).log2();
    assert!((got - want).abs() < 1e-3, "{} {got} vs {want}", a.surface);
}

/// The prediction bias (`henkan::predict::adapt`): an offset on a candidate's LM word moves
/// it in the LSTM ranking, and the `PredictBias` section carries the offsets.
#[test]
fn prediction_offsets_move_candidates_and_load_from_the_model() {
    let engine = common::shipped_engine();
    let ngram = engine.ngram.as_ref().unwrap();
    let mut lm = engine.neural.clone().unwrap();
    let state = LstmState::new(&lm);
    let rank = |lm: &henkan::lm::lstm::NeuralLm| {
        let mut words = next_words(ngram, henkan::predict::Context::new(), &[], LSTM_CANDIDATES);
        rerank(
            lm,
            &engine.lexicon,
            &state.h,
            &mut words,
            1.0,
            &mut RerankScratch::default(),
        );
        words
    };
    lm.predict_bias.clear();
    let plain = rank(&lm);
    assert!(plain.len() > 3);
    let last = plain.last().unwrap().clone();
    // every LM word of the last candidate's reading and surface gets +30 nats
    lm.predict_bias = vec![0.0; lm.model.vocab];
    for e in engine.lexicon.get(&last.reading) {
        if engine.lexicon.surface_text(&e.surface, &last.reading) == last.surface {
            lm.predict_bias[lm.vocab.lm_id(e.offset) as usize] = 30.0;
        }
    }
    let biased = rank(&lm);
    assert_eq!(biased[0].surface, last.surface);

    // through the section
    let offsets: Vec<f32> = (0..lm.model.vocab).map(|i| (i % 7) as f32 * 0.1).collect();
    let file = std::fs::read(common::shipped_path()).unwrap();
    let bytes = henkan_builder::replace_section(
        file,
        henkan::model::SectionKind::PredictBias,
        henkan_builder::predict_bias::predict_bias_section(&offsets, 0.05),
    )
    .unwrap();
    let loaded = Engine::from_bytes(bytes).unwrap();
    let got = &loaded.neural.as_ref().unwrap().predict_bias;
    assert_eq!(got.len(), offsets.len());
    assert!(got.iter().zip(&offsets).all(|(a, b)| (a - b).abs() < 0.026));
}

/// Full-vocabulary logits (`LstmModel::logits_all`: product-quantized rows through a lookup
/// table) equal the row-by-row ones, and the LSTM's own top words come out of them.
#[test]
fn full_vocabulary_logits_match_row_by_row_ones() {
    let engine = common::shipped_engine();
    let lm = engine.neural.as_ref().unwrap();
    let mut state = LstmState::new(lm);
    state.feed(lm, 5);
    let (mut all, mut row) = (Vec::new(), Vec::new());
    lm.model.logits_all(&state.h, &mut all, &mut row);
    assert_eq!(all.len(), lm.model.vocab);
    let ids: Vec<u32> = (0..lm.model.vocab as u32).collect();
    let mut one = vec![0.0; ids.len()];
    lm.model.logits(&ids, &state.h, &mut one, &mut row);
    let worst = all
        .iter()
        .zip(&one)
        .map(|(a, b)| (a - b).abs())
        .fold(0f32, f32::max);
    assert!(worst < 1e-3, "max difference {worst}");

    let ngram = engine.ngram.as_ref().unwrap();
    let map = henkan::predict::neural::VocabMap::new(lm, &engine.lexicon, ngram);
    let top = map.top_words(lm, &state.h, 5, &mut RerankScratch::default());
    assert_eq!(top.len(), 5);
    assert!(top.windows(2).all(|w| w[0].1 >= w[1].1));
}

/// The next words a field lists after `text` (kana) is converted and committed.
fn list_after(engine: &Engine, text: &str) -> Vec<String> {
    let mut session = Session::new();
    session.insert_str(engine, text);
    let mut sug = Suggester::new();
    commit_best(engine, &mut session, &mut sug);
    suggested(engine, &mut sug, "")
}

/// What `sug` lists for `query` (kana; empty: the next words), as surfaces.
fn suggested(engine: &Engine, sug: &mut Suggester, query: &str) -> Vec<String> {
    sug.suggest(
        engine,
        query,
        &[],
        henkan::predict::suggest::MAX_SUGGESTIONS,
    )
    .iter()
    .map(|s| s.surface.clone())
    .collect()
}

/// After a commit: a stem the n-gram nearly always continues (`ござい` → `ます` after `おはよう`)
/// is offered as its phrase, not alone; a particle the list leaves out (`は` after `今日`) leads
/// to phrases.
#[test]
fn next_words_offer_stems_and_particles_as_phrases() {
    let engine = common::shipped_engine();
    let thanks = list_after(&engine, "おはよう");
    assert!(thanks.iter().any(|s| s == "ございます"), "{thanks:?}");
    assert!(!thanks.iter().any(|s| s == "ござい"), "{thanks:?}");
    let today = list_after(&engine, "きょう");
    assert!(
        today
            .iter()
            .any(|s| s.starts_with('は') && s.chars().count() > 1),
        "{today:?}"
    );
    assert!(!today.iter().any(|s| s == "は"), "{today:?}");
}

/// After a commit a phrase goes on only while the n-gram is nearly sure of its next word
/// (`NEXT_PHRASE_MIN_LOG2`): every word after a phrase's second has at least that score.
#[test]
fn next_word_phrases_stop_where_the_ngram_is_unsure() {
    let engine = common::shipped_engine();
    let ngram = engine.ngram.as_ref().unwrap();
    let mut long = 0;
    for text in [
        "おはよう",
        "よろしく",
        "きょうは",
        "わたしは",
        "ありがとう",
        "それでは",
        "いつも",
        "おつかれさまです",
        "どうぞ",
        "はじめまして",
    ] {
        let mut session = Session::new();
        session.insert_str(&engine, text);
        let mut sug = Suggester::new();
        commit_best(&engine, &mut session, &mut sug);
        let ctx = sug.context();
        let list = sug
            .suggest(&engine, "", &[], henkan::predict::suggest::MAX_SUGGESTIONS)
            .to_vec();
        for item in &list {
            let w = item.words();
            let mut ids = vec![ctx.u, ctx.v];
            ids.extend_from_slice(w);
            for k in 4..ids.len() {
                let s = ngram.score(ids[k - 2], ids[k - 1], ids[k]);
                assert!(
                    s >= henkan::predict::suggest::NEXT_PHRASE_MIN_LOG2,
                    "{text}: {} word {} scores {s}",
                    item.surface,
                    k - 1
                );
            }
            long += usize::from(w.len() >= 3);
        }
    }
    assert!(long > 0, "no phrase of three words or more");
}

/// The committed text is split into words as the n-gram's corpus was analyzed (word and
/// connection costs): `よろしく` is the one word the n-gram knows before `お願いします`, not
/// `よろ` `し` `く` (the cheapest split by word costs alone).
#[test]
fn a_commit_in_kana_is_split_as_the_corpus_was_analyzed() {
    let engine = common::shipped_engine();
    let list = list_after(&engine, "よろしく");
    assert_eq!(
        list.first().map(String::as_str),
        Some("お願いします"),
        "{list:?}"
    );
    let mut session = Session::new();
    session.insert_str(&engine, "すみません");
    let mut sug = Suggester::new();
    commit_best(&engine, &mut session, &mut sug);
    let ngram = engine.ngram.as_ref().unwrap();
    let last = ngram.word(sug.context().v).unwrap();
    assert_eq!(last.surface, "すみません");
}

/// The completions of `query` (kana) with nothing committed before.
fn completions_of(engine: &Engine, query: &str) -> Vec<String> {
    suggested(engine, &mut Suggester::new(), query)
}

/// The corpus analysis gives these spellings the reading the text means
/// (`training/analyzer_readings.tsv`), so the n-gram's words carry it: the noun `上` of `机の上`
/// is `うえ`, not Mozc's cheaper `かみ`, and `頭` is `あたま`, not `かしら`. Typing `かみ` no
/// longer suggests `上` first, nor `かしら` (a sentence-final particle) `頭`, and `うえ` and `あたま`
/// suggest the words.
#[test]
fn completions_follow_the_readings_the_text_means() {
    let engine = common::shipped_engine();
    let kami = completions_of(&engine, "かみ");
    assert_ne!(kami.first().map(String::as_str), Some("上"), "{kami:?}");
    assert!(
        kami.iter().any(|s| s == "髪" || s == "紙" || s == "神"),
        "{kami:?}"
    );
    let kashira = completions_of(&engine, "かしら");
    assert_eq!(
        kashira.first().map(String::as_str),
        Some("かしら"),
        "{kashira:?}"
    );
    assert_eq!(
        completions_of(&engine, "うえ").first().map(String::as_str),
        Some("上")
    );
    assert_eq!(
        completions_of(&engine, "あたま")
            .first()
            .map(String::as_str),
        Some("頭")
    );
}

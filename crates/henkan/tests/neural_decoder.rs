//! The neural decoder on the shipped dictionary with the tiny CI LSTM (`tests/data/lm-tiny`, a copy of `build/lm-tiny`): incremental decoding per key gives the same result as decoding
//! the whole reading, a backspace truncates cleanly, every softmax variant converts, and
//! out-of-vocabulary words still convert.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::decoder::neural::{NeuralDecoder, NeuralOptions, Scoring, Softmax};
use henkan::history::History;
use henkan::lattice::Lattice;
use henkan::lm::lstm::WordMatch;
use henkan::{Engine, Session};
use henkan_builder::lstm::VocabMatch;

fn engine() -> Engine {
    engine_with("lm-tiny")
}

/// The shipped dictionary with the tiny LM of `tests/data/{lm}` attached.
fn engine_with(lm: &str) -> Engine {
    engine_matching(lm, VocabMatch::default())
}

/// The same, lexicon entries matched to LM words `how`.
fn engine_matching(lm: &str, how: VocabMatch) -> Engine {
    let (bytes, report) = common::shipped_with_tiny_lm(lm, how);
    assert!(report.entries_in_vocab > 1500, "{report:?}");
    let e = Engine::from_bytes(bytes).unwrap();
    assert_eq!(e.engines(), vec!["classic", "neural", "hybrid"]);
    e
}

const READINGS: &[&str] = &[
    "きょうはいいてんきですね",
    "わたしはにほんごをべんきょうしています",
    "らずなーはこんきそふとばんくせんにとうばんした",
    "さんじゅうにんがきた",
];

fn session(scoring: Scoring, softmax: Softmax) -> Session {
    let mut s = Session::new();
    s.set_scoring(
        scoring,
        NeuralOptions {
            softmax,
            lambda: 1.0,
            ..NeuralOptions::default()
        },
    );
    s
}

/// Typing `r` key by key converts as converting it at once; returns the typed session.
fn typed_equals_at_once(e: &Engine, scoring: Scoring, r: &str) -> Session {
    let mut typed = session(scoring, Softmax::Ivs);
    typed.insert_str(e, r);
    let mut fresh = session(scoring, Softmax::Ivs);
    let want = fresh.convert_reading(e, r);
    assert_eq!(typed.convert(e).nbest[0], want.nbest[0], "{scoring:?} {r}");
    typed
}

#[test]
fn typing_key_by_key_equals_converting_at_once() {
    let e = engine();
    for scoring in [Scoring::Neural, Scoring::Hybrid] {
        for r in READINGS {
            typed_equals_at_once(&e, scoring, r);
        }
    }
}

/// A model with a projection (cells ≠ outputs: the beam's `c` rows are wider than its `h`
/// rows) decodes incrementally, truncates on backspace and takes a context like the plain one.
#[test]
fn projected_lm_decodes_incrementally() {
    let e = engine_with("lm-tiny-proj");
    for scoring in [Scoring::Neural, Scoring::Hybrid] {
        for r in READINGS {
            let mut typed = typed_equals_at_once(&e, scoring, r);
            typed.backspace(&e);
            let short: String = r.chars().take(r.chars().count() - 1).collect();
            let mut fresh = session(scoring, Softmax::Ivs);
            assert_eq!(
                typed.convert(&e).nbest,
                fresh.convert_reading(&e, &short).nbest,
                "{scoring:?} {short}"
            );
        }
    }
    let mut s = session(Scoring::Neural, Softmax::Ivs);
    s.set_context(&e, "きょうは");
    assert!(!s.convert_reading(&e, "いいてんきですね").text().is_empty());
}

#[test]
fn backspace_and_retype_equals_fresh() {
    let e = engine();
    for r in READINGS {
        let mut s = session(Scoring::Neural, Softmax::Ivs);
        s.insert_str(&e, r);
        for _ in 0..4 {
            s.backspace(&e);
        }
        let n = r.chars().count();
        let tail: String = r.chars().skip(n - 4).collect();
        s.insert_str(&e, &tail);
        let mut fresh = session(Scoring::Neural, Softmax::Ivs);
        assert_eq!(
            s.convert(&e).nbest,
            fresh.convert_reading(&e, r).nbest,
            "{r}"
        );
    }
}

#[test]
fn every_softmax_variant_converts() {
    let e = engine();
    for sm in [
        Softmax::Ivs,
        Softmax::IvsNoFrequent,
        Softmax::NonIncremental,
        Softmax::Full,
    ] {
        let mut s = session(Scoring::Neural, sm);
        let c = s.convert_reading(&e, READINGS[0]);
        assert!(!c.text().is_empty(), "{sm:?}");
        assert_eq!(
            c.segments
                .iter()
                .map(|x| x.reading.clone())
                .collect::<String>(),
            READINGS[0]
        );
    }
}

/// IVS and the non-incremental selection use the same vocabulary, so they agree.
#[test]
fn incremental_fixup_equals_recomputation() {
    let e = engine();
    for r in READINGS {
        let mut a = session(Scoring::Neural, Softmax::Ivs);
        let mut b = session(Scoring::Neural, Softmax::NonIncremental);
        a.insert_str(&e, r);
        b.insert_str(&e, r);
        assert_eq!(a.convert(&e).nbest[0], b.convert(&e).nbest[0], "{r}");
    }
}

#[test]
fn context_changes_nothing_structural() {
    let e = engine();
    let mut s = session(Scoring::Neural, Softmax::Ivs);
    s.set_context(&e, "きょうは");
    let c = s.convert_reading(&e, "いいてんきですね");
    assert!(!c.text().is_empty());
}

/// Any input (symbols, Latin, digits, emoji, a long paste, backspaces past the start) converts
/// without a panic and keeps the reading.
#[test]
fn any_input_converts() {
    let e = engine();
    let long: String = "きょうはいいてんきですね".repeat(20);
    let inputs = [
        "a",
        "123さんびゃく",
        "😀あ😀",
        "ＡＢＣ、。！",
        "ヴぁ〜",
        &long,
        "\u{3000} \t",
        "",
    ];
    for scoring in [Scoring::Neural, Scoring::Hybrid] {
        for sm in [Softmax::Ivs, Softmax::Full] {
            let mut s = session(scoring, sm);
            for r in inputs {
                let c = s.convert_reading(&e, r);
                let joined: String = c.segments.iter().map(|x| x.reading.clone()).collect();
                assert_eq!(joined, c.reading);
                s.clear();
                s.insert_str(&e, r);
                for _ in 0..r.chars().count() + 3 {
                    s.backspace(&e);
                    let _ = s.best_text(&e);
                }
            }
        }
    }
}

/// The final beam's scores of `r` with this rank prior.
fn final_scores(e: &Engine, scoring: Scoring, rank_prior: f32, r: &str) -> Vec<f32> {
    let opts = NeuralOptions {
        rank_prior,
        ..NeuralOptions::default()
    };
    finals_with(e, scoring, opts, r)
}

/// The final beam's scores of `r` with these options.
fn finals_with(e: &Engine, scoring: Scoring, opts: NeuralOptions, r: &str) -> Vec<f32> {
    let mut s = Session::new();
    s.set_scoring(scoring, opts);
    let _ = s.convert_reading(e, r);
    let lm = e.neural.as_ref().unwrap();
    s.neural_decoder()
        .finals(&e.connection, lm)
        .iter()
        .map(|f| f.0)
        .collect()
}

/// The rank prior moves the LM alone's scores (key by key as at once, checked above with
/// the default prior) and leaves the hybrid's untouched.
#[test]
fn rank_prior_is_for_the_lm_alone() {
    let e = engine();
    for r in READINGS {
        assert_ne!(
            final_scores(&e, Scoring::Neural, 0.0, r),
            final_scores(&e, Scoring::Neural, 0.5, r),
            "{r}"
        );
        assert_eq!(
            final_scores(&e, Scoring::Hybrid, 0.0, r),
            final_scores(&e, Scoring::Hybrid, 0.5, r),
            "{r}"
        );
    }
}

/// Every lexicon entry with its LM word: (reading, surface, left, right, LM id, extra cost
/// when by spelling, word cost).
type EntryWord = (String, String, u16, u16, u32, Option<u32>, i32);

fn lm_words(e: &Engine) -> Vec<EntryWord> {
    use fst::Streamer;
    let lm = e.neural.as_ref().unwrap();
    let mut out = Vec::new();
    let mut stream = e.lexicon.index().stream();
    while let Some((reading, v)) = stream.next() {
        let reading = std::str::from_utf8(reading).unwrap().to_string();
        for en in e.lexicon.entries(v.value()) {
            let (id, matched) = lm.vocab.lm_word(en.offset);
            let by_spelling = match matched {
                WordMatch::Own => None,
                WordMatch::Spelling { extra_cost } => Some(extra_cost),
            };
            let surface = e.lexicon.surface_text(&en.surface, &reading);
            out.push((
                reading.clone(),
                surface,
                en.left_id,
                en.right_id,
                id,
                by_spelling,
                en.cost,
            ));
        }
    }
    out
}

/// Matching by spelling keeps every whole-key match and gives an entry without one the most
/// frequent LM word of its surface and POS ids read otherwise (`日/にち` after a number: the
/// corpus analysis read every such `日` as `ひ`), marked with how much dearer its word cost is
/// than the LM word's own entry, so the decoder can charge it.
#[test]
fn entries_match_lm_words_by_spelling() {
    let exact = engine_matching("lm-tiny", VocabMatch::Exact);
    let spelling = engine_matching("lm-tiny", VocabMatch::Spelling);
    let vocab = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/lm-tiny/vocab.tsv"
    ))
    .unwrap();
    // id → (surface, reading, left, right), as the training tokens write them (unescaped
    // here: the words checked below have no `%` or `/`)
    let mut key_of = std::collections::HashMap::new();
    for line in vocab.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let k: Vec<&str> = f[1].split('/').collect();
        if k.len() == 4 {
            key_of.insert(
                f[0].parse::<u32>().unwrap(),
                (
                    k[0].to_string(),
                    k[1].to_string(),
                    k[2].parse::<u16>().unwrap(),
                    k[3].parse::<u16>().unwrap(),
                ),
            );
        }
    }
    let unk = exact.neural.as_ref().unwrap().vocab.unk_id;
    let (a, b) = (lm_words(&exact), lm_words(&spelling));
    assert_eq!(a.len(), b.len());
    // the cheapest entry of each LM word
    let mut own_cost = std::collections::HashMap::new();
    for x in a.iter().filter(|x| x.4 != unk) {
        let c = own_cost.entry(x.4).or_insert(x.6);
        *c = (*c).min(x.6);
    }
    let mut added = 0;
    let mut nichi = false;
    for (x, y) in a.iter().zip(&b) {
        assert!(x.5.is_none(), "exact matching marks nothing: {x:?}");
        if x.4 != unk {
            assert_eq!((x.4, None), (y.4, y.5), "a whole-key match stays: {x:?}");
            continue;
        }
        if y.4 == unk {
            continue;
        }
        added += 1;
        assert!(y.5.is_some(), "{y:?}");
        let (surface, reading, left, right) = &key_of[&y.4];
        assert_eq!((surface, left, right), (&y.1, &y.2, &y.3), "{y:?}");
        assert_ne!(reading, &y.0, "{y:?}");
        // the extra cost in steps of 128 (rounded), at most 30 steps
        let extra = own_cost.get(&y.4).map_or(0, |&c| (y.6 - c).max(0)) as u32;
        assert_eq!(y.5, Some(((extra + 64) / 128).min(30) * 128), "{y:?}");
        nichi |= y.0 == "にち" && y.1 == "日" && reading == "ひ";
    }
    assert!(added > 100, "{added} entries matched by spelling");
    assert!(nichi, "日/にち has the LM word of 日/ひ");
}

/// Both LM engines charge a word scored through another reading's LM word, and only such
/// words: a model matched by whole keys scores alike with any penalty.
#[test]
fn words_matched_by_spelling_are_charged() {
    let spelling = engine();
    let exact = engine_matching("lm-tiny", VocabMatch::Exact);
    let r = "じゅうにがつにじゅうななにちはやすみです";
    let spelling_scores = |e: &Engine, scoring, spelling_penalty, spelling_cost_weight| {
        let opts = NeuralOptions {
            spelling_penalty,
            spelling_cost_weight,
            ..NeuralOptions::default()
        };
        finals_with(e, scoring, opts, r)
    };
    for scoring in [Scoring::Neural, Scoring::Hybrid] {
        for (e, charged) in [(&spelling, true), (&exact, false)] {
            let none = spelling_scores(e, scoring, 0.0, 0.0);
            let by_penalty = spelling_scores(e, scoring, 3.0, 0.0);
            let by_cost = spelling_scores(e, scoring, 0.0, 5.0);
            assert_eq!(none != by_penalty, charged, "{scoring:?}");
            assert_eq!(none != by_cost, charged, "{scoring:?}");
        }
    }
}

/// Decodes `reading` whole with `d`; its lattice.
fn decode(
    e: &Engine,
    lm: &henkan::lm::lstm::NeuralLm,
    d: &mut NeuralDecoder,
    reading: &str,
) -> Lattice {
    let mut lattice = Lattice::new();
    lattice.sync(&e.lexicon, &e.connection.special, reading);
    let history = History::new(8);
    let all = 0..lattice.len();
    d.sync(&lattice, &e.lexicon, &e.connection, lm, &history, all);
    lattice
}

/// The final beam of `rest` decoded after the LM words `head` (ending in POS `right_id`), with
/// the whole reading's decoder `donor` lent or not: (score, path) pairs and the states copied.
fn rest_finals(
    e: &Engine,
    lm: &henkan::lm::lstm::NeuralLm,
    opts: NeuralOptions,
    head: &[u32],
    right_id: u16,
    rest: &str,
    donor: Option<NeuralDecoder>,
) -> (Vec<(f32, Vec<u32>)>, u64) {
    let mut d = NeuralDecoder::new();
    d.set_options(NeuralOptions { beam: 4, ..opts });
    d.continue_after(lm, head, right_id);
    if let Some(donor) = donor {
        d.lend(donor);
    }
    decode(e, lm, &mut d, rest);
    let finals = d.finals(&e.connection, lm);
    assert!(d.take_donor().is_some() || d.stats().lent_states == 0);
    (finals, d.stats().lent_states)
}

/// The rest of a reading after fixed words, decoded with the whole reading's decoder lent
/// (`NeuralDecoder::lend`, how a resized segment's rest is converted), copies most of its
/// states and converts as decoding it alone does: the same paths, the same scores.
#[test]
fn a_lent_decoder_changes_no_conversion() {
    let e = engine();
    let lm = e.neural.as_ref().unwrap();
    // the LM alone (λ = 0) and the hybrid
    for lambda in [0.0, 1.0] {
        for r in READINGS {
            let opts = NeuralOptions {
                lambda,
                ..NeuralOptions::default()
            };
            let mut whole = NeuralDecoder::new();
            whole.set_options(opts);
            let lattice = decode(&e, lm, &mut whole, r);
            // fix the first two words of the best path, as a resize does
            let best = whole.finals(&e.connection, lm).remove(0).1;
            let head = whole.words(&lattice, &e.lexicon, &e.connection, lm, &best[..2]);
            let last = lattice.nodes()[best[1] as usize];
            let right_id = last.right_id;
            let rest: String = r.chars().skip(last.end as usize).collect();
            let (alone, none) = rest_finals(&e, lm, opts, &head, right_id, &rest, None);
            let (lent, copied) = rest_finals(&e, lm, opts, &head, right_id, &rest, Some(whole));
            assert_eq!(none, 0);
            assert!(copied > 0, "λ {lambda} {r}: no state copied");
            assert_eq!(alone.len(), lent.len(), "λ {lambda} {r}");
            for ((a, pa), (b, pb)) in alone.iter().zip(&lent) {
                assert_eq!(pa, pb, "λ {lambda} {r}");
                assert!((a - b).abs() < 1e-3, "λ {lambda} {r}: {a} against {b}");
            }
        }
    }
}

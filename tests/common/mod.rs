//! Test helpers: a tiny hand-made model, and the shipped model when present.
#![allow(dead_code)]

use henkan::Engine;
use henkan_builder::{build_model, BuildOptions};

/// POS ids of the tiny model.
pub const NOUN: u16 = 1;
pub const PARTICLE: u16 = 6;

pub const TINY_ID_DEF: &str = "0 BOS/EOS,*,*,*,*,*,*
1 名詞,一般,*,*,*,*,*
2 名詞,固有名詞,一般,*,*,*,*
3 名詞,数,アラビア数字,*,*,*,*
4 記号,アルファベット,*,*,*,*,*
5 記号,一般,*,*,*,*,*
6 助詞,係助詞,*,*,*,*,は
";

/// A segment boundary before every word except particles.
pub const TINY_SEGMENTER: &str = "* ^助詞 false\n* * true\n";

/// Entries: reading, left, right, cost, surface.
pub const TINY_LEX: &str = "きょう\t1\t1\t100\t今日
きょう\t1\t1\t300\t京
き\t1\t1\t200\t木
ょう\t1\t1\t50\t用
は\t6\t6\t50\tは
は\t1\t1\t400\t葉
";

/// The connection matrix `m[left][right]` (next word's left id, previous word's right id):
/// everything costs 10, except: BOS→noun 5, noun→particle 1, noun→noun 40,
/// particle→EOS 2, noun→EOS 30.
pub fn tiny_matrix() -> Vec<u8> {
    let n = 7usize;
    let mut m = vec![10i16; n * n];
    let mut set = |left: usize, right: usize, v: i16| m[left * n + right] = v;
    set(1, 0, 5); // BOS (right 0) → noun (left 1)
    set(6, 1, 1); // noun → particle
    set(1, 1, 40); // noun → noun
    set(0, 6, 2); // particle → EOS
    set(0, 1, 30); // noun → EOS
    let mut out = Vec::new();
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&(n as u16).to_le_bytes());
    for v in m {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

pub fn tiny_model_bytes() -> Vec<u8> {
    build_model(
        TINY_LEX,
        &tiny_matrix(),
        TINY_ID_DEF,
        TINY_SEGMENTER,
        &BuildOptions::default(),
    )
    .unwrap()
    .0
}

pub fn tiny_engine() -> Engine {
    Engine::from_bytes(tiny_model_bytes()).unwrap()
}

/// The shipped model (every crate's tests live two folders below the repository root).
pub fn shipped_path() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/henkan.henkan"
    ))
}

/// The shipped model's bytes; a missing model fails the test that needs it.
pub fn shipped_bytes() -> Vec<u8> {
    let path = shipped_path();
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the shipped model is committed; `make model` rebuilds it)",
            path.display()
        )
    })
}

pub fn shipped_engine() -> Engine {
    Engine::from_bytes(shipped_bytes()).unwrap()
}

/// A session converting with `scoring` and the default options.
pub fn session_for(scoring: henkan::decoder::neural::Scoring) -> henkan::Session {
    let mut s = henkan::Session::new();
    s.set_scoring(scoring, henkan::decoder::neural::NeuralOptions::default());
    s
}

/// An n-gram section counted from `corpus` (analyzed lines), every n-gram kept (minimum
/// counts 1), as the prediction tests' hand-counted expectations assume; and the builder's
/// report.
pub fn ngram_section(corpus: &str) -> (Vec<u8>, henkan_builder::ngram::NgramReport) {
    use henkan_builder::ngram::{NgramBuilder, NgramOptions};
    let mut b = NgramBuilder::new();
    b.count_words(corpus, 1);
    b.freeze_vocab(100);
    b.count_ngrams(corpus, 1);
    let opts = NgramOptions {
        min_bigram: 1,
        min_trigram: 1,
        ..Default::default()
    };
    b.finish(&opts).unwrap()
}

/// The tiny model with the n-gram of `corpus` ([`ngram_section`]).
pub fn tiny_engine_with_ngram(corpus: &str) -> Engine {
    let (section, _) = ngram_section(corpus);
    Engine::from_bytes(henkan_builder::ngram::attach_ngram(tiny_model_bytes(), section).unwrap())
        .unwrap()
}

/// The committed test data (`tests/data/`).
pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/");

/// The shipped model's bytes with the tiny CI LSTM of `tests/data/{lm}` attached (a committed copy of
/// `make lm-tiny`'s output; `lm-tiny-proj` shares lm-tiny's vocabulary), its embedding an 8-bit
/// codebook, entries matched `how`. Missing data fails the test.
pub fn shipped_with_tiny_lm(
    lm: &str,
    how: henkan_builder::lstm::VocabMatch,
) -> (Vec<u8>, henkan_builder::lstm::PackReport) {
    use henkan_builder::lstm::{attach_lstm, read_safetensors, PackOptions};
    let path = format!("{DATA}{lm}/lstm.safetensors");
    let st = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e} (committed test data)"));
    let vocab = std::fs::read_to_string(format!("{DATA}lm-tiny/vocab.tsv")).unwrap();
    let w = read_safetensors(&st).unwrap();
    attach_lstm(shipped_bytes(), &w, &vocab, None, PackOptions::bits(8), how).unwrap()
}

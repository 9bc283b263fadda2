//! Writes the `Lstm`, `LstmBackward` and `LmVocab` sections (the byte formats are
//! [`henkan::lm::lstm::format`]'s).

use crate::lexicon::write_varint;
use henkan::lm::lstm::format::{
    WordMatch, BACKWARD_MAGIC, LSTMP_MAGIC, LSTM_MAGIC, PAIRS_AT, SPELLING_BITS, UNK_CLASS_MAGIC,
    VOCAB_MAGIC,
};

/// A matrix ready to be written: its kind and payload.
#[derive(Debug, Clone)]
pub enum MatrixPayload {
    /// Plain f32.
    F32(Vec<f32>),
    /// Codebook: bits, centroids, packed codes.
    Codebook(u32, Vec<f32>, Vec<u8>),
    /// int8: per-row scales, codes.
    Int8(Vec<f32>, Vec<i8>),
    /// The first `head_rows` rows in one payload, the rest in another.
    Split(usize, Box<MatrixPayload>, Box<MatrixPayload>),
    /// Product quantization: columns per sub-vector, centroids `[cols/sub][k][sub]`, k,
    /// one code byte per sub-vector.
    Product(usize, Vec<f32>, usize, Vec<u8>),
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn pad4(out: &mut Vec<u8>) {
    while out.len() % 4 != 0 {
        out.push(0);
    }
}

fn write_matrix(out: &mut Vec<u8>, m: &MatrixPayload, rows: usize, cols: usize) {
    match m {
        MatrixPayload::F32(w) => {
            for v in [0, rows as u32, cols as u32, 32] {
                put_u32(out, v);
            }
            put_f32s(out, w);
        }
        MatrixPayload::Codebook(bits, c, codes) => {
            for v in [1, rows as u32, cols as u32, *bits, c.len() as u32] {
                put_u32(out, v);
            }
            put_f32s(out, c);
            out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
            out.extend_from_slice(codes);
            pad4(out);
        }
        MatrixPayload::Int8(scales, codes) => {
            for v in [2, rows as u32, cols as u32, 8] {
                put_u32(out, v);
            }
            put_f32s(out, scales);
            out.extend(codes.iter().map(|&c| c as u8));
            pad4(out);
        }
        MatrixPayload::Product(sub, c, k, codes) => {
            for v in [4, rows as u32, cols as u32, *sub as u32, *k as u32] {
                put_u32(out, v);
            }
            put_f32s(out, c);
            out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
            out.extend_from_slice(codes);
            pad4(out);
        }
        MatrixPayload::Split(head_rows, head, tail) => {
            for v in [3, rows as u32, cols as u32, *head_rows as u32] {
                put_u32(out, v);
            }
            write_matrix(out, head, *head_rows, cols);
            write_matrix(out, tail, rows - head_rows, cols);
        }
    }
}

/// The weights of an `Lstm` section, as payloads to write.
#[derive(Debug, Clone)]
pub struct LstmPayload<'a> {
    /// Vocabulary size.
    pub vocab: usize,
    /// Hidden (= embedding) size.
    pub hidden: usize,
    /// Memory cells (`hidden` without a projection).
    pub cell: usize,
    /// Id of `<unk>`.
    pub unk_id: u32,
    /// Id of `<s>`.
    pub bos_id: u32,
    /// `[vocab, hidden]`.
    pub embedding: &'a MatrixPayload,
    /// `[4·cell, hidden]`.
    pub w_ih: &'a MatrixPayload,
    /// `[4·cell, hidden]`.
    pub w_hh: &'a MatrixPayload,
    /// `[hidden, cell]`, only with a projection.
    pub w_hr: Option<&'a MatrixPayload>,
    /// `[4·cell]`.
    pub b: &'a [f32],
    /// `[vocab]`.
    pub out_bias: &'a [f32],
}

/// Serializes an `Lstm` section (`HKLSTM02` when it has a projection, else `HKLSTM01`).
pub fn write_lstm(p: &LstmPayload) -> Vec<u8> {
    let mut out = Vec::new();
    let (h, c) = (p.hidden, p.cell);
    match p.w_hr {
        Some(_) => {
            out.extend_from_slice(LSTMP_MAGIC);
            for v in [p.vocab as u32, h as u32, c as u32, p.unk_id, p.bos_id] {
                put_u32(&mut out, v);
            }
        }
        None => {
            out.extend_from_slice(LSTM_MAGIC);
            for v in [p.vocab as u32, h as u32, p.unk_id, p.bos_id] {
                put_u32(&mut out, v);
            }
        }
    }
    write_matrix(&mut out, p.embedding, p.vocab, h);
    write_matrix(&mut out, p.w_ih, 4 * c, h);
    write_matrix(&mut out, p.w_hh, 4 * c, h);
    if let Some(w_hr) = p.w_hr {
        write_matrix(&mut out, w_hr, h, c);
    }
    put_f32s(&mut out, p.b);
    put_f32s(&mut out, p.out_bias);
    out
}

/// The weights of an `LstmBackward` section, as payloads to write.
#[derive(Debug, Clone)]
pub struct BackwardPayload<'a> {
    /// Vocabulary size (the forward LM's).
    pub vocab: usize,
    /// Hidden (= embedding) size (the forward LM's).
    pub hidden: usize,
    /// `[4·hidden, hidden]`.
    pub w_ih: &'a MatrixPayload,
    /// `[4·hidden, hidden]`.
    pub w_hh: &'a MatrixPayload,
    /// `[4·hidden]`.
    pub b: &'a [f32],
    /// `[vocab, 1]`.
    pub out_bias: &'a MatrixPayload,
}

/// Serializes an `LstmBackward` section.
pub fn write_backward(p: &BackwardPayload) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(BACKWARD_MAGIC);
    put_u32(&mut out, p.vocab as u32);
    put_u32(&mut out, p.hidden as u32);
    write_matrix(&mut out, p.w_ih, 4 * p.hidden, p.hidden);
    write_matrix(&mut out, p.w_hh, 4 * p.hidden, p.hidden);
    put_f32s(&mut out, p.b);
    write_matrix(&mut out, p.out_bias, p.vocab, 1);
    out
}

/// Serializes an `LmVocab` section from (entry offset, LM id, match) triples (any order) and
/// the LM's `<unk>` class per left POS id (empty: the LM has none).
pub fn write_vocab(
    vocab: usize,
    unk_id: u32,
    bos_id: u32,
    number_id: u32,
    mut pairs: Vec<(u32, u32, WordMatch)>,
    classes: &[u32],
) -> Vec<u8> {
    pairs.sort_unstable_by_key(|p| (p.0, p.1));
    pairs.dedup_by_key(|p| p.0);
    let mut out = Vec::with_capacity(PAIRS_AT + 4 * pairs.len());
    out.extend_from_slice(VOCAB_MAGIC);
    for v in [vocab as u32, unk_id, bos_id, pairs.len() as u32, number_id] {
        put_u32(&mut out, v);
    }
    let mut prev = 0;
    for &(o, _, _) in &pairs {
        write_varint(&mut out, u64::from(o - prev));
        prev = o;
    }
    for &(_, id, m) in &pairs {
        write_varint(
            &mut out,
            u64::from(id) << SPELLING_BITS | u64::from(m.code()),
        );
    }
    if !classes.is_empty() {
        out.extend_from_slice(UNK_CLASS_MAGIC);
        put_u32(&mut out, classes.len() as u32);
        for &c in classes {
            write_varint(&mut out, u64::from(c));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::error::Result;
    use henkan::lm::lstm::format::{LmVocab, SPELLING_COST_STEP, VOCAB_MAGIC_V2};
    use henkan::model::SectionBytes;

    fn vocab(bytes: Vec<u8>) -> Result<LmVocab> {
        LmVocab::from_section(SectionBytes::from_vec(bytes))
    }

    #[test]
    fn vocab_round_trips_with_spelling_marks() {
        let sp = |extra_cost| WordMatch::Spelling { extra_cost };
        let pairs = vec![
            (700, 5, sp(200)),
            (3, 1, sp(0)),
            (90_000, 40_000, WordMatch::Own),
            (12, 7, sp(100_000)),
        ];
        let v = vocab(write_vocab(50_000, 2, 0, 9, pairs, &[])).unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(v.lm_word(3), (1, sp(0)));
        // extra cost in steps of 128, capped at 30 steps
        assert_eq!(v.lm_word(12), (7, sp(30 * SPELLING_COST_STEP)));
        assert_eq!(v.lm_word(700), (5, sp(SPELLING_COST_STEP * 2)));
        assert_eq!(v.lm_word(90_000), (40_000, WordMatch::Own));
        assert_eq!(v.lm_id(3), 1);
        // entries not listed are <unk>
        assert_eq!(v.lm_word(4), (2, WordMatch::Own));
        assert_eq!(v.lm_word(u32::MAX), (2, WordMatch::Own));
        assert_eq!(v.number_id, 9);
    }

    #[test]
    fn unk_classes_round_trip_and_name_unlisted_entries() {
        let own = WordMatch::Own;
        // left ids 0..4: <unk> (2), classes 20, 21, 21
        let full = write_vocab(30, 2, 0, 9, vec![(3, 1, own)], &[2, 20, 21, 21]);
        let v = vocab(full.clone()).unwrap();
        assert_eq!(v.classes(), &[2, 20, 21, 21]);
        assert_eq!(v.lm_word_or_class(3, 1), (1, own));
        assert_eq!(v.lm_word_or_class(4, 1), (20, own));
        assert_eq!(v.lm_word_or_class(4, 3), (21, own));
        // left ids past the table, the lattice's unknown words and numbers: <unk>
        assert_eq!(v.lm_word_or_class(4, 9), (2, own));
        let unknown = henkan::lattice::UNKNOWN_ENTRY;
        assert_eq!(v.lm_word_or_class(unknown, 1), (2, own));
        assert!(v.is_unknown(2) && v.is_unknown(20) && v.is_unknown(21));
        assert!(!v.is_unknown(1) && !v.is_unknown(22));
        // the plain lookup is unchanged
        assert_eq!(v.lm_word(4), (2, own));
        // a cut class table, a class past the vocabulary, bytes after it: errors
        let pairs_end = write_vocab(30, 2, 0, 9, vec![(3, 1, own)], &[]).len();
        for n in pairs_end + 1..full.len() {
            assert!(vocab(full[..n].to_vec()).is_err(), "{n} bytes");
        }
        assert!(vocab(write_vocab(30, 2, 0, 9, vec![], &[2, 30])).is_err());
        let mut long = full.clone();
        long.push(0);
        assert!(vocab(long).is_err());
        // without the table every unlisted entry is <unk>
        let plain = vocab(write_vocab(30, 2, 0, 9, vec![(3, 1, own)], &[])).unwrap();
        assert!(plain.classes().is_empty());
        assert_eq!(plain.lm_word_or_class(4, 1), (2, own));
        assert!(!plain.is_unknown(20));
    }

    #[test]
    fn vocab_reads_fixed_width_pairs() {
        let mut b = VOCAB_MAGIC_V2.to_vec();
        for x in [100u32, 2, 0, 2, 9, 5, 7, 8, 99] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let v = vocab(b).unwrap();
        let own = WordMatch::Own;
        assert_eq!((v.lm_word(5), v.lm_word(8)), ((7, own), (99, own)));
    }

    #[test]
    fn every_truncated_or_scrambled_vocab_is_an_error() {
        let sp = WordMatch::Spelling { extra_cost: 0 };
        let full = write_vocab(1000, 2, 0, 9, vec![(3, 1, sp), (100, 999, sp)], &[]);
        assert!(vocab(full.clone()).is_ok());
        for n in 0..full.len() {
            assert!(vocab(full[..n].to_vec()).is_err(), "{n} bytes");
        }
        // offsets must ascend: a zero difference (the second one-byte varint) repeats an entry
        let mut dup = full.clone();
        assert_eq!(dup[PAIRS_AT + 1], 97);
        dup[PAIRS_AT + 1] = 0;
        assert!(vocab(dup).is_err());
        // an id past the vocabulary reads as <unk>
        let v = vocab(write_vocab(10, 2, 0, 9, vec![(3, 50, sp)], &[])).unwrap();
        assert_eq!(v.lm_word(3), (2, WordMatch::Own));
    }
}

#[cfg(test)]
mod crafted {
    use super::*;
    use henkan::lm::lstm::LstmModel;
    use henkan::model::SectionBytes;

    /// An 8-bit codebook that lists 2 centroids while its codes name up to 255: the codes past
    /// the list decode to 0 (reading one of them used to index past the centroids and panic).
    #[test]
    fn codes_past_the_centroids_decode_to_zero() {
        let (vocab, hidden) = (4, 2);
        let f = |n: usize| MatrixPayload::F32(vec![0.5; n]);
        let embedding =
            MatrixPayload::Codebook(8, vec![1.0, 2.0], vec![0, 1, 200, 255, 1, 0, 7, 9]);
        let (w_ih, w_hh) = (f(4 * hidden * hidden), f(4 * hidden * hidden));
        let section = write_lstm(&LstmPayload {
            vocab,
            hidden,
            cell: hidden,
            unk_id: 0,
            bos_id: 1,
            embedding: &embedding,
            w_ih: &w_ih,
            w_hh: &w_hh,
            w_hr: None,
            b: &[0.0; 8],
            out_bias: &[0.0; 4],
        });
        let lm = LstmModel::from_section(SectionBytes::from_vec(section)).unwrap();
        let mut row = vec![9.0; hidden];
        lm.embed(1, &mut row);
        assert_eq!(row, [0.0, 0.0]);
        lm.embed(0, &mut row);
        assert_eq!(row, [1.0, 2.0]);
    }
}

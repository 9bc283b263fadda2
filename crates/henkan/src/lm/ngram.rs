//! A compact word trigram LM with stupid backoff: the predictions' candidates, and the
//! collocations of the hybrid's rescoring ([`super::collocation`]).
//!
//! Terms:
//! - *word*: one lexicon entry, identified by (reading, surface, left id, right id), exactly
//!   the units of the analyzed training corpus and of the lattice.
//! - *word id*: `u16`; 0 is `<unk>`, 1 is `<s>` (sentence start); real words from 2 on, in
//!   the byte order of their keys ([`word_key`]: reading first), so the sorted word blob is
//!   the vocabulary index too (word → id and reading-prefix search by binary search).
//! - *score*: stupid backoff (Brants et al. 2007), in log2, with α = [`NgramModel::alpha`]:
//!   `S(w|u,v) = c(u,v,w)/c(u,v)` if the trigram is stored, else `α·S(w|v)`;
//!   `S(w|v) = c(v,w)/c(v)` if the bigram is stored, else `α·S(w)`; `S(w) = c(w)/N`.
//!   Scores are not normalized probabilities.
//! - *followers* of a context (a word `v` or a pair `u,v`): its stored next words, highest
//!   score first, at most top-K per context (pruned at build time). They are both the
//!   stored n-grams and the next-word candidates.
//! - *frequent words*: the most frequent words, the fallback list for next-word prediction.
//!
//! Storage (section [`crate::model::SectionKind::Ngram`], little-endian, read in place;
//! the layout follows the Op-Ngram idea: vocabulary ids, 8-bit quantized log scores,
//! follower lists per context):
//!
//! ```text
//! magic "HNGRAM\0\x02", then u32 fields: vocab V, alpha×1000, quant scale Q,
//!   bigram followers B, trigram contexts T, trigram followers M, frequent F, word blob bytes W
//! unigram q         V  × u8      score = −q/Q bits
//! word offsets      V+1 × u32    into the word blob
//! word blob         W bytes      per word: reading 0x00 surface 0x00 left(u16 BE) right(u16 BE),
//!                                ids ≥ 2 in strictly increasing byte order
//! bigram offsets    V+1 × u32    followers of word v are [off[v], off[v+1])
//! bigram followers  B  × u16 id, then B × u8 q
//! trigram contexts  T  × u32     (u << 16 | v), sorted
//! trigram offsets   T+1 × u32
//! trigram followers M × u16 id, then M × u8 q
//! frequent words    F  × u16
//! ```

use crate::error::{Error, Result};
use crate::model::SectionBytes;

/// The section's magic bytes.
pub const NGRAM_MAGIC: [u8; 8] = *b"HNGRAM\0\x02";
/// Word id of `<unk>`.
pub const UNK: u16 = 0;
/// Word id of `<s>` (sentence start).
pub const BOS: u16 = 1;
const HEADER_FIELDS: usize = 8;

/// One word of the n-gram vocabulary, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NgramWord<'a> {
    /// The kana reading.
    pub reading: &'a str,
    /// The written form.
    pub surface: &'a str,
    /// Left POS id.
    pub left_id: u16,
    /// Right POS id.
    pub right_id: u16,
}

/// Encodes a word as its key in the vocabulary (and its bytes in the word blob).
pub fn word_key(reading: &str, surface: &str, left_id: u16, right_id: u16) -> Vec<u8> {
    let mut k = Vec::with_capacity(reading.len() + surface.len() + 6);
    k.extend_from_slice(reading.as_bytes());
    k.push(0);
    k.extend_from_slice(surface.as_bytes());
    k.push(0);
    k.extend_from_slice(&left_id.to_be_bytes());
    k.extend_from_slice(&right_id.to_be_bytes());
    k
}

/// The word a vocabulary key spells ([`word_key`]); `None` for an empty or malformed key.
pub fn parse_key(k: &[u8]) -> Option<NgramWord<'_>> {
    if k.len() < 6 {
        return None;
    }
    let (text, ids) = k.split_at(k.len() - 4);
    let text = text.strip_suffix(&[0])?;
    let z = text.iter().position(|&b| b == 0)?;
    Some(NgramWord {
        reading: std::str::from_utf8(&text[..z]).ok()?,
        surface: std::str::from_utf8(&text[z + 1..]).ok()?,
        left_id: u16::from_be_bytes([ids[0], ids[1]]),
        right_id: u16::from_be_bytes([ids[2], ids[3]]),
    })
}

/// The n-gram LM, a view over its section bytes.
#[derive(Clone)]
pub struct NgramModel {
    bytes: SectionBytes,
    vocab: usize,
    alpha_log2: f32,
    alpha: f32,
    scale: f32,
    unigram: usize,
    word_offsets: usize,
    blob: usize,
    bi_offsets: usize,
    bi_ids: usize,
    bi_q: usize,
    tri_ctx: usize,
    tri_count: usize,
    tri_offsets: usize,
    tri_ids: usize,
    tri_q: usize,
    frequent: usize,
    frequent_count: usize,
}

impl std::fmt::Debug for NgramModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NgramModel")
            .field("vocab", &self.vocab)
            .field("bytes", &self.bytes.as_ref().len())
            .finish()
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn bad(msg: &str) -> Error {
    Error::Malformed {
        section: "ngram",
        detail: msg.to_string(),
    }
}

impl NgramModel {
    /// Reads an n-gram section, checking its magic and that every array lies inside it.
    pub fn from_section(bytes: SectionBytes) -> Result<Self> {
        let b = bytes.as_ref();
        let head = 8 + 4 * HEADER_FIELDS;
        if b.len() < head || b[..8] != NGRAM_MAGIC {
            return Err(bad("wrong magic or truncated header"));
        }
        let f: Vec<usize> = (0..HEADER_FIELDS)
            .map(|i| u32_at(b, 8 + 4 * i) as usize)
            .collect();
        let (vocab, alpha_milli, scale, nb, nt, nm, nf, blob_len) =
            (f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
        if !(2..=65536).contains(&vocab) || scale == 0 {
            return Err(bad("bad header"));
        }
        let mut at = head;
        // `count` items of `size` bytes each (the counts come from the header: checked)
        let mut take = |size: usize, count: usize| -> Result<usize> {
            let start = at;
            at = count
                .checked_mul(size)
                .and_then(|n| at.checked_add(n))
                .ok_or_else(|| bad("overflow"))?;
            if at > b.len() {
                return Err(bad("truncated"));
            }
            Ok(start)
        };
        let unigram = take(1, vocab)?;
        let word_offsets = take(4, vocab + 1)?;
        let blob = take(1, blob_len)?;
        let bi_offsets = take(4, vocab + 1)?;
        let bi_ids = take(2, nb)?;
        let bi_q = take(1, nb)?;
        let tri_ctx = take(4, nt)?;
        let tri_offsets = take(4, nt.checked_add(1).ok_or_else(|| bad("overflow"))?)?;
        let tri_ids = take(2, nm)?;
        let tri_q = take(1, nm)?;
        let frequent = take(2, nf)?;
        // Offsets must be monotone and inside the arrays.
        let check = |off: usize, n: usize, total: usize| -> Result<()> {
            let mut prev = 0;
            for i in 0..=n {
                let o = u32_at(b, off + 4 * i) as usize;
                if o < prev || o > total {
                    return Err(bad("bad offsets"));
                }
                prev = o;
            }
            Ok(())
        };
        check(word_offsets, vocab, blob_len)?;
        check(bi_offsets, vocab, nb)?;
        check(tri_offsets, nt, nm)?;
        let alpha = alpha_milli as f32 / 1000.0;
        let model = NgramModel {
            vocab,
            alpha,
            alpha_log2: alpha.log2(),
            scale: scale as f32,
            unigram,
            word_offsets,
            blob,
            bi_offsets,
            bi_ids,
            bi_q,
            tri_ctx,
            tri_count: nt,
            tri_offsets,
            tri_ids,
            tri_q,
            frequent,
            frequent_count: nf,
            bytes,
        };
        let ids_ok = (0..nb).all(|i| (model.bi_id(i) as usize) < vocab)
            && (0..nm).all(|i| (model.tri_id(i) as usize) < vocab)
            && (0..nf).all(|i| (model.frequent_id(i) as usize) < vocab);
        if !ids_ok {
            return Err(bad("word id out of range"));
        }
        let sorted = (3..vocab).all(|i| model.key(i as u16 - 1) < model.key(i as u16));
        if !sorted || (2..vocab).any(|i| parse_key(model.key(i as u16)).is_none()) {
            return Err(bad("vocabulary keys not sorted or malformed"));
        }
        Ok(model)
    }

    fn b(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    fn bi_id(&self, i: usize) -> u16 {
        u16_at(self.b(), self.bi_ids + 2 * i)
    }

    fn tri_id(&self, i: usize) -> u16 {
        u16_at(self.b(), self.tri_ids + 2 * i)
    }

    fn frequent_id(&self, i: usize) -> u16 {
        u16_at(self.b(), self.frequent + 2 * i)
    }

    /// Size of the section in bytes.
    pub fn byte_len(&self) -> usize {
        self.b().len()
    }

    /// Number of words (including `<unk>` and `<s>`).
    pub fn vocab_len(&self) -> usize {
        self.vocab
    }

    /// The backoff factor α.
    pub fn alpha(&self) -> f32 {
        self.alpha
    }

    /// Number of stored bigrams and trigrams.
    pub fn ngram_counts(&self) -> (usize, usize) {
        let b = self.b();
        let nb = u32_at(b, self.bi_offsets + 4 * self.vocab) as usize;
        let nm = u32_at(b, self.tri_offsets + 4 * self.tri_count) as usize;
        (nb, nm)
    }

    /// The key bytes of word `id` (empty for `<unk>` and `<s>`).
    fn key(&self, id: u16) -> &[u8] {
        let b = self.b();
        let at = self.word_offsets + 4 * id as usize;
        let s = u32_at(b, at) as usize;
        let e = u32_at(b, at + 4) as usize;
        &b[self.blob + s..self.blob + e]
    }

    /// The first id ≥ 2 whose key is not less than `probe`.
    fn lower_bound(&self, probe: &[u8]) -> usize {
        let (mut lo, mut hi) = (2, self.vocab);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.key(mid as u16) < probe {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The id of a word, `None` when it is not in the vocabulary.
    pub fn id(&self, reading: &str, surface: &str, left_id: u16, right_id: u16) -> Option<u16> {
        let k = word_key(reading, surface, left_id, right_id);
        let i = self.lower_bound(&k);
        (i < self.vocab && self.key(i as u16) == k.as_slice()).then_some(i as u16)
    }

    /// The word with this id (`None` for `<unk>`, `<s>` and ids out of range).
    pub fn word(&self, id: u16) -> Option<NgramWord<'_>> {
        if id < 2 || id as usize >= self.vocab {
            return None;
        }
        parse_key(self.key(id))
    }

    fn q(&self, q: u8) -> f32 {
        -(q as f32) / self.scale
    }

    /// `log2 S(w)`: the unigram score.
    pub fn unigram(&self, w: u16) -> f32 {
        self.q(self.b()[self.unigram + (w as usize).min(self.vocab - 1)])
    }

    /// The stored followers of word `v` (id, log2 score), best first.
    pub fn bigram_followers(&self, v: u16) -> impl Iterator<Item = (u16, f32)> + '_ {
        let b = self.b();
        let v = (v as usize).min(self.vocab - 1);
        let s = u32_at(b, self.bi_offsets + 4 * v) as usize;
        let e = u32_at(b, self.bi_offsets + 4 * v + 4) as usize;
        (s..e).map(move |i| (self.bi_id(i), self.q(self.b()[self.bi_q + i])))
    }

    fn tri_range(&self, u: u16, v: u16) -> std::ops::Range<usize> {
        let key = (u as u32) << 16 | v as u32;
        let b = self.b();
        let (mut lo, mut hi) = (0, self.tri_count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if u32_at(b, self.tri_ctx + 4 * mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo < self.tri_count && u32_at(b, self.tri_ctx + 4 * lo) == key {
            let s = u32_at(b, self.tri_offsets + 4 * lo) as usize;
            let e = u32_at(b, self.tri_offsets + 4 * lo + 4) as usize;
            s..e
        } else {
            0..0
        }
    }

    /// The stored followers of the pair `u, v` (id, log2 score), best first.
    pub fn trigram_followers(&self, u: u16, v: u16) -> impl Iterator<Item = (u16, f32)> + '_ {
        self.tri_range(u, v)
            .map(move |i| (self.tri_id(i), self.q(self.b()[self.tri_q + i])))
    }

    /// The most frequent words, most frequent first.
    pub fn frequent(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.frequent_count).map(move |i| self.frequent_id(i))
    }

    /// `log2 S(w | u, v)` by stupid backoff. `u` may be [`BOS`] or [`UNK`] for short contexts.
    pub fn score(&self, u: u16, v: u16, w: u16) -> f32 {
        if let Some((_, s)) = self.trigram_followers(u, v).find(|&(id, _)| id == w) {
            return s;
        }
        if let Some((_, s)) = self.bigram_followers(v).find(|&(id, _)| id == w) {
            return self.alpha_log2 + s;
        }
        2.0 * self.alpha_log2 + self.unigram(w)
    }

    /// `log2 α`, the cost of one backoff step.
    pub fn alpha_log2(&self) -> f32 {
        self.alpha_log2
    }

    /// Words whose reading starts with `prefix`, in key order (= id order), at most `limit`.
    pub fn words_with_prefix(&self, prefix: &str, limit: usize) -> std::ops::Range<u16> {
        let p = prefix.as_bytes();
        let start = self.lower_bound(p);
        let mut end = start;
        while end < self.vocab && end - start < limit && self.key(end as u16).starts_with(p) {
            end += 1;
        }
        start as u16..end as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trip() {
        let k = word_key("きょう", "今日", 1913, 1913);
        let w = parse_key(&k).unwrap();
        assert_eq!(
            (w.reading, w.surface, w.left_id, w.right_id),
            ("きょう", "今日", 1913, 1913)
        );
    }
}

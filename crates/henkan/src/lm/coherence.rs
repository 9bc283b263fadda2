//! Topical coherence of a sentence's content words, from word vectors trained on a large web
//! corpus (chiVe, skip-gram over NINJAL's web corpus; `training/coherence_vectors.py`).
//!
//! Terms:
//! - *word vector*: a unit vector per lexicon entry whose surface is a content word (kanji or
//!   katakana) that the vectors know; words of related topics point the same way
//!   (`源泉`·`温泉` 0.56, `厳選`·`温泉` 0.25).
//! - *coherence* of a path: `Σ_{i<j} cos(v_i, v_j) / √(n − 1)` over its `n` words that have a
//!   vector (0 below two). It tells homophones apart by the rest of the sentence, which a
//!   256-unit LSTM trained on 30M words often cannot: `低温` beside `岩盤浴`·`サウナ`·`汗`, not
//!   `低音`; `源泉` beside `温泉街`·`湯`, not `厳選`.
//!
//! The neural decoders add `w · coherence` to each candidate of the final beam on conversion
//! ([`crate::decoder::neural::NeuralOptions::coherence_weight`]).
//!
//! `Coherence` section (little endian):
//! ```text
//! "HKCOHR01" (8-bit rows) or "HKCOHR02" (4-bit rows)  u32 dims  u32 rows  u32 n
//! rows × dims i8 (HKCOHR01), or rows × ⌈dims/2⌉ bytes of two 4-bit two's-complement
//!   components, the even one in the low nibble (HKCOHR02); row major, each row a vector up
//!   to scale; padded to 4
//! or "HKCOHR03" (product-quantized rows)  u32 dims  u32 rows  u32 n  u32 sub (1..=16)  u32 k
//!   (dims / sub) × k × sub i8: per block of `sub` components, k ≤ 256 centroids (one scale
//!   for all); rows × (dims / sub) u8: each row's centroid per block (the row is their
//!   concatenation); padded to 4
//! n × varint: lexicon entry offsets ascending, each as the difference to the previous one
//! n × varint: the row of each entry, in the same order
//! ```
//!
//! Product quantization keeps each word's own row in 8 bytes (64 dimensions, blocks of 8,
//! 256 centroids each): the 18,373 rows of the shipped model in 147 KB, where a k-means to
//! 4,096 shared rows in 131 KB merges words of different topics (cos(`機械`, `故障`) is 0.34
//! in chiVe, 0.07 after such a k-means). A block has at most [`MAX_SUB`] components, so the
//! rows decode to at most 16 bytes per stored byte.

use crate::error::{Error, Result};
use crate::lexicon::read_varint;

/// Magic of the `Coherence` section with 8-bit rows.
pub const COHERENCE_MAGIC: &[u8; 8] = b"HKCOHR01";

/// Magic of the `Coherence` section with 4-bit rows.
pub const COHERENCE_MAGIC_4BIT: &[u8; 8] = b"HKCOHR02";

/// Magic of the `Coherence` section with product-quantized rows.
pub const COHERENCE_MAGIC_PQ: &[u8; 8] = b"HKCOHR03";

const HEADER: usize = 20;

/// The most components a block of a product-quantized row may have.
pub const MAX_SUB: usize = 16;

/// Word vectors per lexicon entry.
#[derive(Debug, Clone, Default)]
pub struct Coherence {
    dims: usize,
    vectors: Vec<i8>,
    inv_norm: Vec<f32>,
    entries: Vec<u32>,
    rows: Vec<u16>,
}

/// How a section stores its rows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Coding {
    Int8,
    Int4,
    Product,
}

/// The rows of an `HKCOHR01` / `HKCOHR02` section, and where they end.
fn scalar_rows(b: &[u8], dims: usize, rows: usize, four_bit: bool) -> Result<(Vec<i8>, usize)> {
    let row_bytes = if four_bit { dims.div_ceil(2) } else { dims };
    let size = rows
        .checked_mul(row_bytes)
        .ok_or_else(|| malformed("bad header"))?;
    let end = HEADER + size;
    let stored = b
        .get(HEADER..end)
        .ok_or_else(|| malformed("vectors truncated"))?;
    let vectors = if four_bit {
        stored
            .chunks_exact(row_bytes)
            .flat_map(|row| {
                row.iter()
                    .flat_map(|&x| [nibble(x), nibble(x >> 4)])
                    .take(dims)
            })
            .collect()
    } else {
        stored.iter().map(|&x| x as i8).collect()
    };
    Ok((vectors, end))
}

/// The rows of an `HKCOHR03` section (each the concatenation of its blocks' centroids), and
/// where they end.
fn product_rows(b: &[u8], dims: usize, rows: usize) -> Result<(Vec<i8>, usize)> {
    let header = HEADER + 8;
    let head = b
        .get(HEADER..header)
        .ok_or_else(|| malformed("bad header"))?;
    let sub = u32::from_le_bytes(head[..4].try_into().unwrap()) as usize;
    let k = u32::from_le_bytes(head[4..].try_into().unwrap()) as usize;
    // a code byte stands for at most MAX_SUB components: the rows decode to at most that
    // many times the section's bytes
    if sub == 0 || sub > MAX_SUB || dims % sub != 0 || k == 0 || k > 256 {
        return Err(malformed("bad header"));
    }
    let blocks = dims / sub;
    let book_end = header + blocks * k * sub;
    let end = rows
        .checked_mul(blocks)
        .map(|c| book_end + c)
        .ok_or_else(|| malformed("bad header"))?;
    let (Some(book), Some(codes)) = (b.get(header..book_end), b.get(book_end..end)) else {
        return Err(malformed("vectors truncated"));
    };
    let mut vectors = Vec::with_capacity(rows * dims);
    for row in codes.chunks_exact(blocks) {
        for (j, &q) in row.iter().enumerate() {
            let q = q as usize;
            if q >= k {
                return Err(malformed("centroid out of range"));
            }
            let c = &book[(j * k + q) * sub..(j * k + q + 1) * sub];
            vectors.extend(c.iter().map(|&x| x as i8));
        }
    }
    Ok((vectors, end))
}

fn malformed(detail: &str) -> Error {
    Error::Malformed {
        section: "coherence",
        detail: detail.to_string(),
    }
}

/// The 4-bit two's-complement number in the low nibble of `x`.
fn nibble(x: u8) -> i8 {
    ((x << 4) as i8) >> 4
}

impl Coherence {
    /// Reads a `Coherence` section.
    pub fn from_section(b: &[u8]) -> Result<Self> {
        if b.len() < HEADER {
            return Err(malformed("bad magic"));
        }
        let coding = match &b[..8] {
            m if m == COHERENCE_MAGIC => Coding::Int8,
            m if m == COHERENCE_MAGIC_4BIT => Coding::Int4,
            m if m == COHERENCE_MAGIC_PQ => Coding::Product,
            _ => return Err(malformed("bad magic")),
        };
        let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        let (dims, rows, n) = (u(8), u(12), u(16));
        if dims == 0 || dims > 4096 || rows > 1 << 16 {
            return Err(malformed("bad header"));
        }
        let (vectors, end) = match coding {
            Coding::Product => product_rows(b, dims, rows)?,
            _ => scalar_rows(b, dims, rows, coding == Coding::Int4)?,
        };
        let inv_norm = vectors
            .chunks_exact(dims)
            .map(|v| {
                let s: i32 = v.iter().map(|&x| x as i32 * x as i32).sum();
                if s == 0 {
                    0.0
                } else {
                    1.0 / (s as f32).sqrt()
                }
            })
            .collect();
        let mut pos = end.div_ceil(4) * 4;
        // every entry takes at least two bytes: the count cannot claim more
        if n > b.len().saturating_sub(pos) / 2 {
            return Err(malformed("entries truncated"));
        }
        let mut entries = Vec::with_capacity(n);
        let mut at = 0u64;
        for _ in 0..n {
            let step = read_varint(b, &mut pos).ok_or_else(|| malformed("entries truncated"))?;
            at = at
                .checked_add(step)
                .ok_or_else(|| malformed("entry offset"))?;
            entries.push(u32::try_from(at).map_err(|_| malformed("entry offset"))?);
        }
        let mut row_of = Vec::with_capacity(n);
        for _ in 0..n {
            let r = read_varint(b, &mut pos).ok_or_else(|| malformed("rows truncated"))?;
            if r as usize >= rows {
                return Err(malformed("row out of range"));
            }
            row_of.push(r as u16);
        }
        if pos != b.len() {
            return Err(malformed("trailing bytes"));
        }
        Ok(Coherence {
            dims,
            vectors,
            inv_norm,
            entries,
            rows: row_of,
        })
    }

    /// Entries with a vector.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry has a vector.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry with a vector and its row, offsets ascending (what a tool that rewrites
    /// the section starts from).
    pub fn entry_rows(&self) -> impl Iterator<Item = (u32, u16)> + '_ {
        self.entries.iter().copied().zip(self.rows.iter().copied())
    }

    /// The vector row of a lexicon entry (`None`: no vector; unknown words, numbers and
    /// function words have none).
    pub fn row(&self, entry: u32) -> Option<u16> {
        self.entries
            .binary_search(&entry)
            .ok()
            .map(|i| self.rows[i])
    }

    /// Dimensions of a row.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The cosine of a row with a unit vector `v` of [`Coherence::dims`] components.
    pub fn cos_with(&self, row: u16, v: &[f32]) -> f32 {
        let r = row as usize;
        let dot: f32 = self.vectors[r * self.dims..(r + 1) * self.dims]
            .iter()
            .zip(v)
            .map(|(&x, &y)| x as f32 * y)
            .sum();
        dot * self.inv_norm[r]
    }

    /// Writes the unit vector of a row into `out` ([`Coherence::dims`] components); false
    /// (and `out` untouched) when there is no such row.
    pub fn unit(&self, row: u16, out: &mut [f32]) -> bool {
        let r = row as usize;
        let d = self.dims;
        let (Some(v), Some(&k)) = (self.vectors.get(r * d..(r + 1) * d), self.inv_norm.get(r))
        else {
            return false;
        };
        for (o, &x) in out.iter_mut().zip(v) {
            *o = x as f32 * k;
        }
        true
    }

    /// The cosine of two rows.
    pub fn cos(&self, a: u16, b: u16) -> f32 {
        let (a, b) = (a as usize, b as usize);
        let d = self.dims;
        let (va, vb) = (
            &self.vectors[a * d..(a + 1) * d],
            &self.vectors[b * d..(b + 1) * d],
        );
        let dot: i32 = va.iter().zip(vb).map(|(&x, &y)| x as i32 * y as i32).sum();
        dot as f32 * self.inv_norm[a] * self.inv_norm[b]
    }

    /// The coherence of the words with these rows (see the module docs), in time linear in
    /// their number: with unit vectors `u_i`, `Σ_{i<j} u_i·u_j = (|Σ u_i|² − Σ |u_i|²) / 2`.
    pub fn score(&self, rows: &[u16]) -> f32 {
        let n = rows.len();
        if n < 2 {
            return 0.0;
        }
        let d = self.dims;
        let mut sum = vec![0f32; d];
        let mut squares = 0f32;
        for &r in rows {
            let r = r as usize;
            let k = self.inv_norm[r];
            for (s, &x) in sum.iter_mut().zip(&self.vectors[r * d..(r + 1) * d]) {
                let u = x as f32 * k;
                *s += u;
                squares += u * u;
            }
        }
        let total: f32 = sum.iter().map(|s| s * s).sum();
        (total - squares) / 2.0 / ((n - 1) as f32).sqrt()
    }

    /// The coherence of a path of lexicon entries ([`Coherence::score`]).
    pub fn of_entries(&self, entries: impl IntoIterator<Item = u32>) -> f32 {
        let rows: Vec<u16> = entries.into_iter().filter_map(|e| self.row(e)).collect();
        self.score(&rows)
    }
}

//! Packs the trained LSTM LM (`lstm.safetensors` + `vocab.tsv` from `training/export.py`)
//! into the `Lstm` and `LmVocab` sections of a model container.
//!
//! Quantization of a matrix (see [`Quant`]): f32; a k-means codebook of 2^bits centroids
//! per matrix (1-D k-means over the weights, bits 3…8, codes bit-packed); int8 with
//! one scale per row (max-abs / 127); or product quantization (rows cut into sub-vectors of
//! `sub` columns, 256 centroids per column block found by k-means over the rows weighted
//! towards frequent words, one byte per sub-vector: 8/`sub` bits per weight).
//!
//! The vocabulary map keys every lexicon entry by `surface/reading/left_id/right_id`
//! (percent-escaped like the training tokens) and looks it up in `vocab.tsv`; entries not
//! found are `<unk>` at run time.

use crate::container::{with_section, ContainerWriter};
use crate::error::{Error, Result};
use crate::lstm_format::{
    write_backward, write_lstm, write_vocab, BackwardPayload, LstmPayload, MatrixPayload,
};
use crate::token::escape;
use henkan::lexicon::Lexicon;
use henkan::lm::lstm::LmVocab;
use henkan::lm::lstm::WordMatch;
use henkan::model::{Container, SectionKind};
use henkan::pos::{PosGroup, Segmenter};
use std::collections::HashMap;

/// How to store a matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quant {
    /// Plain f32.
    F32,
    /// k-means codebook with this many bits (1..=8).
    Codebook(u32),
    /// int8 with per-row scales.
    Int8,
    /// The first `head_rows` rows (the most frequent words: ids are sorted by frequency) as a
    /// `head_bits` codebook, the other rows as a `tail_bits` codebook.
    Mixed {
        /// Rows in the head.
        head_rows: usize,
        /// Bits of the head's codebook.
        head_bits: u32,
        /// Bits of the tail's codebook.
        tail_bits: u32,
    },
    /// Product quantization with sub-vectors of `sub` columns; the first `head_rows` rows
    /// (0: none) as a `head_bits` codebook instead.
    Product {
        /// Columns per sub-vector (1 byte each).
        sub: usize,
        /// Rows stored as a scalar codebook instead.
        head_rows: usize,
        /// Bits of that codebook.
        head_bits: u32,
    },
}

/// How to pack the LM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackOptions {
    /// The embedding (= output projection, the bulk of the model).
    pub embedding: Quant,
    /// The recurrent matrices `w_ih`, `w_hh`.
    pub recurrent: Quant,
}

impl PackOptions {
    /// The embedding as a `bits`-bit codebook (32 = f32), recurrent matrices in int8.
    pub fn bits(bits: u32) -> Self {
        PackOptions {
            embedding: if bits >= 32 {
                Quant::F32
            } else {
                Quant::Codebook(bits)
            },
            recurrent: if bits >= 32 { Quant::F32 } else { Quant::Int8 },
        }
    }
}

impl std::str::FromStr for PackOptions {
    type Err = Error;

    /// `B` (the embedding as a B-bit codebook, 32 = f32; recurrent int8), `H:T@K` (the first
    /// K rows of the embedding H bits, the others T bits), `pqS` (product quantization,
    /// sub-vectors of S columns), `H:pqS@K` (the first K rows an H-bit codebook, the others
    /// `pqS`), optionally followed by `,rN` (the recurrent matrices as N-bit codebooks instead
    /// of int8). Examples: `4`, `4:3@8192,r4`, `pq4`, `4:pq8@4096`.
    fn from_str(spec: &str) -> Result<Self> {
        let bad = || {
            build_err(format!(
                "bad LM quantization `{spec}` (e.g. 4, 4:3@8192, 4:3@8192,r4)"
            ))
        };
        let num = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
        let codebook = |b: u32| {
            if (3..=8).contains(&b) {
                Ok(b)
            } else {
                Err(bad())
            }
        };
        let (emb, rec) = match spec.split_once(',') {
            Some((e, r)) => (e, Some(r.trim().strip_prefix('r').ok_or_else(bad)?)),
            None => (spec, None),
        };
        let pq = |s: &str| -> Result<usize> {
            let sub = num(s.strip_prefix("pq").ok_or_else(bad)?)? as usize;
            if [1, 2, 4, 8, 16, 32].contains(&sub) {
                Ok(sub)
            } else {
                Err(bad())
            }
        };
        let mut opts = match emb.split_once(':') {
            None if emb.starts_with("pq") => PackOptions {
                embedding: Quant::Product {
                    sub: pq(emb)?,
                    head_rows: 0,
                    head_bits: 8,
                },
                recurrent: Quant::Int8,
            },
            Some((h, rest)) if rest.starts_with("pq") => {
                let (t, k) = rest.split_once('@').ok_or_else(bad)?;
                PackOptions {
                    embedding: Quant::Product {
                        sub: pq(t)?,
                        head_rows: num(k)? as usize,
                        head_bits: codebook(num(h)?)?,
                    },
                    recurrent: Quant::Int8,
                }
            }
            None => {
                let b = num(emb)?;
                if b != 32 {
                    codebook(b)?;
                }
                PackOptions::bits(b)
            }
            Some((h, rest)) => {
                let (t, k) = rest.split_once('@').ok_or_else(bad)?;
                PackOptions {
                    embedding: Quant::Mixed {
                        head_rows: num(k)? as usize,
                        head_bits: codebook(num(h)?)?,
                        tail_bits: codebook(num(t)?)?,
                    },
                    recurrent: Quant::Int8,
                }
            }
        };
        if let Some(r) = rec {
            opts.recurrent = Quant::Codebook(codebook(num(r)?)?);
        }
        Ok(opts)
    }
}

/// The trained weights, as read from safetensors.
#[derive(Debug, Clone)]
pub struct LstmWeights {
    /// Vocabulary size.
    pub vocab: usize,
    /// Hidden size (= embedding size).
    pub hidden: usize,
    /// Memory cells `c` (`hidden` unless there is a projection `w_hr`).
    pub cell: usize,
    /// `[vocab, hidden]`.
    pub embedding: Vec<f32>,
    /// `[4c, h]`.
    pub w_ih: Vec<f32>,
    /// `[4c, h]`.
    pub w_hh: Vec<f32>,
    /// `[h, c]`, empty without a projection.
    pub w_hr: Vec<f32>,
    /// `[4c]`.
    pub b: Vec<f32>,
    /// `[vocab]`.
    pub out_bias: Vec<f32>,
}

fn build_err(s: impl Into<String>) -> Error {
    Error::Build(s.into())
}

/// Reads the f32 tensors of a safetensors file.
pub fn read_safetensors(bytes: &[u8]) -> Result<LstmWeights> {
    if bytes.len() < 8 {
        return Err(build_err("safetensors: too short"));
    }
    let mut a = [0u8; 8];
    a.copy_from_slice(&bytes[..8]);
    let hlen = u64::from_le_bytes(a) as usize;
    let header = bytes
        .get(8..8 + hlen)
        .ok_or_else(|| build_err("safetensors: header truncated"))?;
    let json: serde_json::Value = serde_json::from_slice(header)
        .map_err(|e| build_err(format!("safetensors header: {e}")))?;
    let data = &bytes[8 + hlen..];
    let tensor = |name: &str| -> Result<(Vec<usize>, Vec<f32>)> {
        let t = json
            .get(name)
            .ok_or_else(|| build_err(format!("safetensors: no tensor {name}")))?;
        if t.get("dtype").and_then(|d| d.as_str()) != Some("F32") {
            return Err(build_err(format!("{name}: not F32")));
        }
        let shape: Vec<usize> = t["shape"]
            .as_array()
            .ok_or_else(|| build_err("shape"))?
            .iter()
            .map(|v| v.as_u64().unwrap_or(0) as usize)
            .collect();
        let off = t["data_offsets"]
            .as_array()
            .ok_or_else(|| build_err("offsets"))?;
        let (s, e) = (
            off[0].as_u64().unwrap_or(0) as usize,
            off[1].as_u64().unwrap_or(0) as usize,
        );
        let raw = data
            .get(s..e)
            .ok_or_else(|| build_err(format!("{name}: data out of range")))?;
        let v = crate::read_f32_le(raw);
        if v.len() != shape.iter().product::<usize>() {
            return Err(build_err(format!("{name}: size does not match shape")));
        }
        Ok((shape, v))
    };
    let (es, embedding) = tensor("embedding")?;
    let (_, w_ih) = tensor("w_ih")?;
    let (_, w_hh) = tensor("w_hh")?;
    let (_, b) = tensor("b")?;
    let (_, out_bias) = tensor("out_bias")?;
    let (vocab, hidden) = (
        es.first().copied().unwrap_or(0),
        es.get(1).copied().unwrap_or(0),
    );
    let (cell, w_hr) = if json.get("w_hr").is_some() {
        let (rs, w_hr) = tensor("w_hr")?;
        (rs.get(1).copied().unwrap_or(0), w_hr)
    } else {
        (hidden, Vec::new())
    };
    if hidden == 0
        || cell == 0
        || w_ih.len() != 4 * cell * hidden
        || w_hh.len() != 4 * cell * hidden
        || w_hr.len() != if cell != hidden { hidden * cell } else { 0 }
        || b.len() != 4 * cell
        || out_bias.len() != vocab
    {
        return Err(build_err(
            "safetensors: shapes are not a tied 1-layer LSTM (with or without a projection)",
        ));
    }
    Ok(LstmWeights {
        vocab,
        hidden,
        cell,
        embedding,
        w_ih,
        w_hh,
        w_hr,
        b,
        out_bias,
    })
}

impl LstmWeights {
    /// The weights of a loaded (possibly quantized) model, decoded to f32: what the model
    /// computes, as a starting point for more training (`henkan model export-lstm`).
    pub fn from_model(m: &henkan::lm::lstm::LstmModel) -> Self {
        let (h, c) = (m.hidden, m.cell);
        let mut embedding = vec![0.0; m.vocab * h];
        for (r, row) in embedding.chunks_exact_mut(h).enumerate() {
            m.embedding.decode_row(r, h, row);
        }
        let (mut w_ih, mut w_hh) = (Vec::with_capacity(4 * c * h), Vec::with_capacity(4 * c * h));
        for row in m.recurrent_weights().chunks_exact(2 * h) {
            w_ih.extend_from_slice(&row[..h]);
            w_hh.extend_from_slice(&row[h..]);
        }
        LstmWeights {
            vocab: m.vocab,
            hidden: h,
            cell: c,
            embedding,
            w_ih,
            w_hh,
            w_hr: m.projection().to_vec(),
            b: m.gate_bias().to_vec(),
            out_bias: m.out_bias.clone(),
        }
    }

    /// The safetensors file `training/export.py` writes (f32 tensors `embedding`, `w_ih`,
    /// `w_hh`, `b`, `out_bias`, and `w_hr` with a projection) with string `metadata`.
    pub fn to_safetensors(&self, metadata: &[(&str, String)]) -> Vec<u8> {
        let (v, h, c) = (self.vocab, self.hidden, self.cell);
        let mut tensors: Vec<(&str, Vec<usize>, &[f32])> = vec![
            ("embedding", vec![v, h], &self.embedding),
            ("w_ih", vec![4 * c, h], &self.w_ih),
            ("w_hh", vec![4 * c, h], &self.w_hh),
            ("b", vec![4 * c], &self.b),
            ("out_bias", vec![v], &self.out_bias),
        ];
        if !self.w_hr.is_empty() {
            tensors.push(("w_hr", vec![h, c], &self.w_hr));
        }
        let mut header = serde_json::Map::new();
        let meta: serde_json::Map<String, serde_json::Value> = metadata
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(v.clone())))
            .collect();
        header.insert("__metadata__".into(), meta.into());
        let mut at = 0usize;
        for (name, shape, data) in &tensors {
            let end = at + 4 * data.len();
            header.insert(
                name.to_string(),
                serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [at, end]}),
            );
            at = end;
        }
        let mut json = serde_json::Value::from(header).to_string().into_bytes();
        while json.len() % 8 != 0 {
            json.push(b' ');
        }
        let mut out = Vec::with_capacity(8 + json.len() + at);
        out.extend_from_slice(&(json.len() as u64).to_le_bytes());
        out.extend_from_slice(&json);
        for (_, _, data) in &tensors {
            for x in data.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }
}

/// 1-D k-means with `k` centroids (sorted), on a deterministic sample of `w`.
///
/// It starts from the `k` quantiles. Where they coincide (a matrix that is mostly one value, such as
/// the projection of an LM widened from a smaller one: zeros and a few ones) the missing starting
/// points are spread evenly over the range, so rare values far from the bulk keep a centroid of
/// their own instead of being averaged into it.
///
/// ```
/// use henkan_builder::lstm::kmeans_1d;
/// let mut w = vec![0.0f32; 1000];
/// w[7] = 1.0;
/// let c = kmeans_1d(&w, 16, 30);
/// assert_eq!((c[0], c[15]), (0.0, 1.0));
/// ```
pub fn kmeans_1d(w: &[f32], k: usize, iters: usize) -> Vec<f32> {
    let step = (w.len() / 400_000).max(1);
    let mut x: Vec<f32> = w
        .iter()
        .step_by(step)
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    x.sort_by(|a, b| a.total_cmp(b));
    if x.is_empty() {
        return vec![0.0; k];
    }
    let n = x.len();
    let mut prefix = vec![0f64; n + 1];
    for i in 0..n {
        prefix[i + 1] = prefix[i] + x[i] as f64;
    }
    // init at quantiles
    let mut c: Vec<f32> = (0..k)
        .map(|j| x[((2 * j + 1) * n / (2 * k)).min(n - 1)])
        .collect();
    c.dedup();
    let (lo, hi) = (x[0], x[n - 1]);
    let missing = k - c.len();
    for j in 0..missing {
        let v = if missing == 1 {
            hi
        } else {
            lo + (hi - lo) * j as f32 / (missing - 1) as f32
        };
        if !c.contains(&v) {
            c.push(v);
        }
    }
    for _ in 0..iters {
        c.sort_by(|a, b| a.total_cmp(b));
        c.dedup();
        let kk = c.len();
        let mut bounds = vec![0usize; kk + 1];
        bounds[kk] = n;
        for j in 1..kk {
            let mid = 0.5 * (c[j - 1] + c[j]);
            bounds[j] = x.partition_point(|&v| v < mid);
        }
        let mut changed = false;
        for j in 0..kk {
            let (s, e) = (bounds[j], bounds[j + 1]);
            if e > s {
                let m = ((prefix[e] - prefix[s]) / (e - s) as f64) as f32;
                if m != c[j] {
                    changed = true;
                }
                c[j] = m;
            }
        }
        if !changed {
            break;
        }
    }
    c.sort_by(|a, b| a.total_cmp(b));
    c.dedup();
    // refill to k (duplicates collapse for tiny matrices)
    while c.len() < k {
        let last = *c.last().unwrap_or(&0.0);
        c.push(last);
    }
    c
}

/// Quantizes `w` to a `bits`-bit codebook: (centroids, packed codes).
pub fn codebook_quantize(w: &[f32], bits: u32) -> (Vec<f32>, Vec<u8>) {
    let k = 1usize << bits;
    let c = kmeans_1d(w, k, 30);
    let mids: Vec<f32> = (1..k).map(|j| 0.5 * (c[j - 1] + c[j])).collect();
    let mut codes = vec![0u8; (w.len() * bits as usize).div_ceil(8) + 3];
    for (i, &v) in w.iter().enumerate() {
        let code = mids.partition_point(|&m| m < v) as u32;
        let bit = i * bits as usize;
        let (byte, shift) = (bit / 8, bit % 8);
        let word = code << shift;
        codes[byte] |= word as u8;
        codes[byte + 1] |= (word >> 8) as u8;
        codes[byte + 2] |= (word >> 16) as u8;
    }
    codes.truncate((w.len() * bits as usize).div_ceil(8));
    (c, codes)
}

/// Product quantization of a `[rows, cols]` matrix with sub-vectors of `sub` columns and
/// up to 256 centroids per column block: (centroids `[cols/sub][k][sub]`, k, codes
/// `[rows][cols/sub]`). Row `i` weighs `(i + 10)^-½` in the k-means (rows are sorted by word
/// frequency, so frequent words get the closer centroids), which starts from evenly spaced
/// rows and runs `iters` Lloyd iterations; a centroid left empty is moved to the row worst
/// served.
pub fn product_quantize(
    w: &[f32],
    cols: usize,
    sub: usize,
    iters: usize,
) -> (Vec<f32>, usize, Vec<u8>) {
    let rows = w.len() / cols.max(1);
    let m = cols / sub;
    let k = rows.clamp(1, 256);
    let weight: Vec<f32> = (0..rows).map(|i| 1.0 / ((i + 10) as f32).sqrt()).collect();
    let mut centroids = vec![0f32; m * k * sub];
    let mut codes = vec![0u8; rows * m];
    let dist =
        |a: &[f32], b: &[f32]| -> f32 { a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum() };
    for j in 0..m {
        let x = |i: usize| &w[i * cols + j * sub..i * cols + (j + 1) * sub];
        let c = &mut centroids[j * k * sub..(j + 1) * k * sub];
        for q in 0..k {
            c[q * sub..(q + 1) * sub].copy_from_slice(x(q * rows / k));
        }
        let mut assign = vec![0usize; rows];
        let mut err = vec![0f32; rows];
        for it in 0..=iters {
            for i in 0..rows {
                let (mut best, mut bd) = (0, f32::INFINITY);
                for q in 0..k {
                    let d = dist(x(i), &c[q * sub..(q + 1) * sub]);
                    if d < bd {
                        (best, bd) = (q, d);
                    }
                }
                assign[i] = best;
                err[i] = bd * weight[i];
            }
            if it == iters {
                break;
            }
            let mut sum = vec![0f64; k * sub];
            let mut wsum = vec![0f64; k];
            for i in 0..rows {
                let q = assign[i];
                wsum[q] += weight[i] as f64;
                for (d, v) in x(i).iter().enumerate() {
                    sum[q * sub + d] += (weight[i] * v) as f64;
                }
            }
            for q in 0..k {
                if wsum[q] > 0.0 {
                    for d in 0..sub {
                        c[q * sub + d] = (sum[q * sub + d] / wsum[q]) as f32;
                    }
                } else {
                    // empty: take over the row with the largest weighted error
                    let worst = (0..rows)
                        .max_by(|&a, &b| err[a].total_cmp(&err[b]))
                        .unwrap_or(0);
                    c[q * sub..(q + 1) * sub].copy_from_slice(x(worst));
                    err[worst] = 0.0;
                }
            }
        }
        for i in 0..rows {
            codes[i * m + j] = assign[i] as u8;
        }
    }
    (centroids, k, codes)
}

/// int8 with one scale per row of `cols`: (scales, codes).
pub fn int8_quantize(w: &[f32], cols: usize) -> (Vec<f32>, Vec<i8>) {
    let mut scales = Vec::new();
    let mut codes = Vec::with_capacity(w.len());
    for row in w.chunks(cols) {
        let m = row.iter().fold(0f32, |a, v| a.max(v.abs()));
        let s = if m > 0.0 { m / 127.0 } else { 1.0 };
        scales.push(s);
        codes.extend(
            row.iter()
                .map(|v| (v / s).round().clamp(-127.0, 127.0) as i8),
        );
    }
    (scales, codes)
}

fn payload(w: &[f32], cols: usize, q: Quant) -> MatrixPayload {
    match q {
        Quant::Product {
            sub, head_rows: 0, ..
        } => {
            let (c, k, codes) = product_quantize(w, cols, sub, 12);
            MatrixPayload::Product(sub, c, k, codes)
        }
        Quant::Product {
            sub,
            head_rows,
            head_bits,
        } => {
            let k = head_rows.min(w.len() / cols.max(1));
            MatrixPayload::Split(
                k,
                Box::new(payload(&w[..k * cols], cols, Quant::Codebook(head_bits))),
                Box::new(payload(
                    &w[k * cols..],
                    cols,
                    Quant::Product {
                        sub,
                        head_rows: 0,
                        head_bits,
                    },
                )),
            )
        }
        Quant::F32 => MatrixPayload::F32(w.to_vec()),
        Quant::Codebook(bits) => {
            let (c, codes) = codebook_quantize(w, bits);
            MatrixPayload::Codebook(bits, c, codes)
        }
        Quant::Int8 => {
            let (s, c) = int8_quantize(w, cols);
            MatrixPayload::Int8(s, c)
        }
        Quant::Mixed {
            head_rows,
            head_bits,
            tail_bits,
        } => {
            let k = head_rows.min(w.len() / cols.max(1));
            MatrixPayload::Split(
                k,
                Box::new(payload(&w[..k * cols], cols, Quant::Codebook(head_bits))),
                Box::new(payload(&w[k * cols..], cols, Quant::Codebook(tail_bits))),
            )
        }
    }
}

/// Parsed `vocab.tsv`: key → id, plus the special ids.
#[derive(Debug, Clone)]
pub struct VocabTsv {
    /// `surface/reading/left/right` → id.
    pub ids: HashMap<String, u32>,
    /// `surface/left/right` → the most frequent id (the smallest: ids are frequency ranks) with
    /// that surface and those POS ids, whatever its reading.
    pub by_spelling: HashMap<String, u32>,
    /// Number of ids.
    pub len: usize,
    /// `<unk>`.
    pub unk_id: u32,
    /// `<s>`.
    pub bos_id: u32,
}

/// Parses `vocab.tsv` (`id<TAB>key<TAB>count`).
pub fn read_vocab_tsv(text: &str) -> Result<VocabTsv> {
    let mut ids = HashMap::new();
    let mut by_spelling: HashMap<String, u32> = HashMap::new();
    let (mut unk, mut bos, mut len) = (None, None, 0usize);
    for line in text.lines() {
        let mut f = line.split('\t');
        let (Some(id), Some(key)) = (f.next(), f.next()) else {
            continue;
        };
        let Ok(id) = id.parse::<u32>() else { continue };
        len = len.max(id as usize + 1);
        match key {
            "<unk>" => unk = Some(id),
            "<s>" => bos = Some(id),
            _ => {
                ids.insert(key.to_string(), id);
                if let Some(sp) = spelling_key(key) {
                    let e = by_spelling.entry(sp).or_insert(id);
                    *e = (*e).min(id);
                }
            }
        }
    }
    Ok(VocabTsv {
        ids,
        by_spelling,
        len,
        unk_id: unk.ok_or_else(|| build_err("vocab.tsv has no <unk>"))?,
        bos_id: bos.ok_or_else(|| build_err("vocab.tsv has no <s>"))?,
    })
}

/// `surface/left/right` of a `surface/reading/left/right` key (fields stay escaped).
fn spelling_key(key: &str) -> Option<String> {
    let f: Vec<&str> = key.split('/').collect();
    (f.len() == 4).then(|| format!("{}/{}/{}", f[0], f[2], f[3]))
}

/// How lexicon entries find their LM word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VocabMatch {
    /// Only the entry's own key `surface/reading/left/right`.
    Exact,
    /// The entry's own key, else the most frequent LM word with the same surface and POS ids
    /// and another reading. The corpus analysis gives each written word one reading by
    /// dictionary cost (`２７日` is `日/ひ` there, so `日/にち` never becomes an LM word), but
    /// the LM scores spellings: the user's keys fix the reading. The decoders charge such a
    /// word (`NeuralOptions::spelling_penalty`, `spelling_cost_weight`).
    #[default]
    Spelling,
}

/// The (entry offset, LM id, match) of every lexicon entry that has an LM word; also returns
/// the number of entries visited. An entry matched by spelling records how much dearer its word
/// cost is than that of the entry whose key is the LM word (the reading the analysis chose for
/// the spelling: its cheapest). A common noun (`名詞,一般`, `副詞可能`, …; Mozc's
/// `WeakCompoundNounSuffix`) of kanji numerals read as another word than their number
/// (`二十/はたち`) is not matched by spelling: the analyzed text's `二十/にじゅう` is the number
/// 20. Numbers (`名詞,数`) keep the match whatever their reading (`四/よ`, `九/ここの`), and so
/// do names (`一/まこと` takes `一/はじめ`). Telling the common nouns needs the segmenter's POS
/// groups (`model mozc-rules`); a segmenter without them matches those nouns by spelling too.
pub fn vocab_pairs(
    lexicon: &Lexicon,
    segmenter: &Segmenter,
    vocab: &VocabTsv,
    how: VocabMatch,
) -> (Vec<(u32, u32, WordMatch)>, usize) {
    let common_noun = |id: u16| segmenter.in_group(id, PosGroup::WeakCompoundNounSuffix);
    // every entry with its key and cost
    let mut entries = Vec::new();
    lexicon.for_each_entry(|reading, e| {
        let surface = lexicon.surface_text(&e.surface, reading);
        let key = format!(
            "{}/{}/{}/{}",
            escape(&surface),
            escape(reading),
            e.left_id,
            e.right_id
        );
        let by_spelling = !common_noun(e.left_id) || reads_its_numeral(&surface, reading);
        entries.push((e.offset, key, e.cost, by_spelling));
    });
    // the cheapest cost of each LM word's own entries
    let mut own_cost: HashMap<u32, i32> = HashMap::new();
    for (_, key, cost, _) in &entries {
        if let Some(&id) = vocab.ids.get(key) {
            let c = own_cost.entry(id).or_insert(*cost);
            *c = (*c).min(*cost);
        }
    }
    let mut pairs = Vec::new();
    for (offset, key, cost, by_spelling) in &entries {
        if let Some(&id) = vocab.ids.get(key) {
            pairs.push((*offset, id, WordMatch::Own));
        } else if how == VocabMatch::Spelling && *by_spelling {
            let found = spelling_key(key).and_then(|sp| vocab.by_spelling.get(&sp));
            if let Some(&id) = found {
                let extra = own_cost.get(&id).map_or(0, |&c| (cost - c).max(0));
                let extra_cost = u32::try_from(extra).unwrap_or(0);
                pairs.push((*offset, id, WordMatch::Spelling { extra_cost }));
            }
        }
    }
    (pairs, entries.len())
}

/// Whether `reading` reads `surface` as its number, sound changes included (`一/いっ`,
/// `六百/ろっぴゃく`); a surface that is not kanji numerals alone reads as anything.
fn reads_its_numeral(surface: &str, reading: &str) -> bool {
    use henkan::lattice::number::{kanji_value, parse, single_word};
    match kanji_value(surface) {
        Some(v) => parse(reading).or_else(|| single_word(reading)) == Some(v),
        None => true,
    }
}

/// What [`attach_lstm`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackReport {
    /// Bytes of the `Lstm` section.
    pub lstm_bytes: usize,
    /// Bytes of the `LmVocab` section.
    pub vocab_bytes: usize,
    /// Lexicon entries visited.
    pub entries: usize,
    /// Entries with their own LM word.
    pub entries_in_vocab: usize,
    /// LM words (of the vocabulary) that no lexicon entry maps to.
    pub lm_words_unmapped: usize,
    /// Whether the model's segmenter had Mozc's POS groups (`model mozc-rules`) when the map
    /// was made: without them [`vocab_pairs`] cannot tell a common noun of kanji numerals
    /// (`二十/はたち`) and matches it by spelling, so the map is to be made again after them
    /// ([`remap_lm_vocab`]).
    pub pos_groups: bool,
}

/// Packs the `Lstm` section.
pub fn pack_lstm(w: &LstmWeights, vocab: &VocabTsv, opts: PackOptions) -> Vec<u8> {
    let h = w.hidden;
    let w_hr = (!w.w_hr.is_empty()).then(|| payload(&w.w_hr, w.cell, opts.recurrent));
    write_lstm(&LstmPayload {
        vocab: w.vocab,
        hidden: h,
        cell: w.cell,
        unk_id: vocab.unk_id,
        bos_id: vocab.bos_id,
        embedding: &payload(&w.embedding, h, opts.embedding),
        w_ih: &payload(&w.w_ih, h, opts.recurrent),
        w_hh: &payload(&w.w_hh, h, opts.recurrent),
        w_hr: w_hr.as_ref(),
        b: &w.b,
        out_bias: &w.out_bias,
    })
}

/// The `LmVocab` section for `vocab` over the model's lexicon, and the report's counts.
fn map_vocab(
    container: &Container,
    vocab: &VocabTsv,
    how: VocabMatch,
    classes: &[u32],
) -> Result<(Vec<u8>, PackReport)> {
    let lexicon = Lexicon::new(
        container.require(SectionKind::LexiconIndex)?,
        container.require(SectionKind::LexiconPostings)?,
    )?;
    let segmenter = Segmenter::new(container.require(SectionKind::Segmenter)?)?;
    let (pairs, entries) = vocab_pairs(&lexicon, &segmenter, vocab, how);
    let mut mapped = vec![false; vocab.len];
    for &(_, id, _) in &pairs {
        mapped[id as usize] = true;
    }
    let report = PackReport {
        lstm_bytes: 0,
        entries,
        entries_in_vocab: pairs.len(),
        lm_words_unmapped: mapped.iter().filter(|m| !**m).count().saturating_sub(2),
        vocab_bytes: 0,
        pos_groups: segmenter.has_groups(),
    };
    let number_id = vocab
        .ids
        .get("1/いち/2044/2044")
        .copied()
        .unwrap_or(vocab.unk_id);
    let voc = write_vocab(
        vocab.len,
        vocab.unk_id,
        vocab.bos_id,
        number_id,
        pairs,
        classes,
    );
    let report = PackReport {
        vocab_bytes: voc.len(),
        ..report
    };
    Ok((voc, report))
}

/// A copy of `container`'s sections without those of the kinds `drop`, then `add`.
fn replace_sections(
    container: &Container,
    drop: &[SectionKind],
    add: Vec<(SectionKind, Vec<u8>)>,
) -> Vec<u8> {
    let mut w = ContainerWriter::new();
    for e in container.entries() {
        let Some(kind) = e.kind else { continue };
        if drop.contains(&kind) {
            continue;
        }
        if let Some(s) = container.section(kind) {
            w.add(kind, s.as_ref().to_vec());
        }
    }
    for (kind, bytes) in add {
        w.add(kind, bytes);
    }
    w.finish()
}

/// Parses an LM's `classes.tsv` (`left POS id<TAB>LM id`, `training/unk_classes.py`): the LM id of
/// each left POS id's `<unk>` class, by left id (ids not listed: `<unk>`).
pub fn read_classes_tsv(text: &str, vocab: &VocabTsv) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = || build_err(format!("classes.tsv line {}: {line:?}", i + 1));
        let (left, id) = line.split_once('\t').ok_or_else(bad)?;
        let left: usize = left.parse().map_err(|_| bad())?;
        let id: u32 = id.trim().parse().map_err(|_| bad())?;
        if left >= 1 << 16 || id as usize >= vocab.len {
            return Err(bad());
        }
        if out.len() <= left {
            out.resize(left + 1, vocab.unk_id);
        }
        out[left] = id;
    }
    Ok(out)
}

/// Returns a copy of the model container `model` with the LM sections (re)placed. The biases fitted
/// for the LM it replaces (`PredictBias`, `WordBias`) and its backward LM (`LstmBackward`, trained on
/// its embedding) are left out. `classes`: the LM's `classes.tsv`, when it has `<unk>` classes.
pub fn attach_lstm(
    model: Vec<u8>,
    weights: &LstmWeights,
    vocab_tsv: &str,
    classes: Option<&str>,
    opts: PackOptions,
    how: VocabMatch,
) -> Result<(Vec<u8>, PackReport)> {
    let vocab = read_vocab_tsv(vocab_tsv)?;
    let classes = match classes {
        Some(t) => read_classes_tsv(t, &vocab)?,
        None => Vec::new(),
    };
    if vocab.len != weights.vocab {
        return Err(build_err(format!(
            "vocab.tsv has {} ids, the weights {}",
            vocab.len, weights.vocab
        )));
    }
    let container = Container::from_bytes(model)?;
    let (voc, mut report) = map_vocab(&container, &vocab, how, &classes)?;
    let lstm = pack_lstm(weights, &vocab, opts);
    report.lstm_bytes = lstm.len();
    // the biases were fitted for the LM being replaced (and the prediction bias is indexed by its
    // word ids): they go with it
    let drop = [
        SectionKind::Lstm,
        SectionKind::LmVocab,
        SectionKind::PredictBias,
        SectionKind::WordBias,
        SectionKind::LstmBackward,
    ];
    let bytes = replace_sections(
        &container,
        &drop,
        vec![(SectionKind::Lstm, lstm), (SectionKind::LmVocab, voc)],
    );
    Ok((bytes, report))
}

/// A stored matrix as a payload to write again, byte for byte.
pub fn stored_payload(m: &henkan::lm::lstm::QuantMatrix) -> MatrixPayload {
    use henkan::lm::lstm::QuantMatrix as Q;
    match m {
        Q::F32(w) => MatrixPayload::F32(w.clone()),
        Q::Codebook {
            bits,
            centroids,
            codes,
            range,
        } => MatrixPayload::Codebook(
            *bits,
            centroids.clone(),
            codes.as_ref()[range.clone()].to_vec(),
        ),
        Q::Int8 {
            scales,
            codes,
            range,
        } => MatrixPayload::Int8(
            scales.clone(),
            codes.as_ref()[range.clone()]
                .iter()
                .map(|&b| b as i8)
                .collect(),
        ),
        Q::Product {
            sub,
            k,
            centroids,
            codes,
            range,
        } => MatrixPayload::Product(
            *sub,
            centroids.clone(),
            *k,
            codes.as_ref()[range.clone()].to_vec(),
        ),
        Q::Split {
            head_rows,
            head,
            tail,
        } => MatrixPayload::Split(
            *head_rows,
            Box::new(stored_payload(head)),
            Box::new(stored_payload(tail)),
        ),
    }
}

/// The largest difference between `embedding` (`[vocab, hidden]`, f32) and the model LM's
/// decoded embedding; an error naming `what` when it is above [`BACKWARD_EMBEDDING_TOLERANCE`]
/// (weights trained with the model's own embedding frozen differ by 0).
fn embedding_diff(
    model: &henkan::lm::lstm::LstmModel,
    embedding: &[f32],
    what: &str,
) -> Result<f32> {
    let h = model.hidden;
    let mut row = vec![0.0f32; h];
    let mut diff = 0.0f32;
    for (r, want) in embedding.chunks_exact(h).enumerate() {
        model.embedding.decode_row(r, h, &mut row);
        for (a, b) in row.iter().zip(want) {
            diff = diff.max((a - b).abs());
        }
    }
    if diff > BACKWARD_EMBEDDING_TOLERANCE {
        return Err(build_err(format!(
            "{what}'s embedding differs from the model's by up to {diff}: train it on the \
             model's own (export-lstm, embedding frozen)"
        )));
    }
    Ok(diff)
}

/// Returns a copy of the model container `model` with its LSTM LM's recurrent matrices (stored
/// `recurrent`; any number of cells, with or without a projection), their bias and the output
/// bias taken from `weights`, which must have been
/// trained with the model's own embedding frozen (`henkan model export-lstm`, then e.g.
/// `training/train_lstm.py --freeze-embedding`). The stored embedding is written back byte for byte, so the
/// backward LM that shares it (`LstmBackward`), the vocabulary map, the prediction bias (per
/// word id) and the word bias (per lexicon entry) stay; the largest embedding difference is
/// returned.
pub fn replace_recurrent(
    model: Vec<u8>,
    weights: &LstmWeights,
    recurrent: Quant,
) -> Result<(Vec<u8>, f32)> {
    let container = Container::from_bytes(model)?;
    let old = henkan::lm::lstm::LstmModel::from_section(container.require(SectionKind::Lstm)?)?;
    if weights.vocab != old.vocab || weights.hidden != old.hidden {
        return Err(build_err(format!(
            "the new LM has {} words of {} dimensions, the model's {} of {}",
            weights.vocab, weights.hidden, old.vocab, old.hidden
        )));
    }
    let h = old.hidden;
    let diff = embedding_diff(&old, &weights.embedding, "the new LM")?;
    let w_hr = (!weights.w_hr.is_empty()).then(|| payload(&weights.w_hr, weights.cell, recurrent));
    let lstm = write_lstm(&LstmPayload {
        vocab: old.vocab,
        hidden: h,
        cell: weights.cell,
        unk_id: old.unk_id,
        bos_id: old.bos_id,
        embedding: &stored_payload(&old.embedding),
        w_ih: &payload(&weights.w_ih, h, recurrent),
        w_hh: &payload(&weights.w_hh, h, recurrent),
        w_hr: w_hr.as_ref(),
        b: &weights.b,
        out_bias: &weights.out_bias,
    });
    Ok((with_section(&container, SectionKind::Lstm, lstm), diff))
}

/// Returns a copy of the model container `model` (which has an LSTM LM with the vocabulary
/// `vocab_tsv`) with only its map lexicon entry → LM word rebuilt; the LM and every bias stay.
/// `classes` (the LM's `classes.tsv`) replaces the `<unk>` classes; without it the model's stay.
pub fn remap_lm_vocab(
    model: Vec<u8>,
    vocab_tsv: &str,
    classes: Option<&str>,
    how: VocabMatch,
) -> Result<(Vec<u8>, PackReport)> {
    let vocab = read_vocab_tsv(vocab_tsv)?;
    let container = Container::from_bytes(model)?;
    let old = LmVocab::from_section(container.require(SectionKind::LmVocab)?)?;
    if old.vocab != vocab.len || old.unk_id != vocab.unk_id || old.bos_id != vocab.bos_id {
        return Err(build_err(format!(
            "vocab.tsv ({} ids, <unk> {}, <s> {}) is not the model's LM vocabulary ({} ids, <unk> {}, <s> {})",
            vocab.len, vocab.unk_id, vocab.bos_id, old.vocab, old.unk_id, old.bos_id
        )));
    }
    let classes = match classes {
        Some(t) => read_classes_tsv(t, &vocab)?,
        None => old.classes().to_vec(),
    };
    let (voc, report) = map_vocab(&container, &vocab, how, &classes)?;
    let bytes = with_section(&container, SectionKind::LmVocab, voc);
    Ok((bytes, report))
}

/// What [`attach_backward`] packed.
#[derive(Debug, Clone, Copy, Default)]
pub struct BackwardReport {
    /// Bytes of the `LstmBackward` section.
    pub bytes: usize,
    /// The largest difference between the backward LM's embedding and the model's (decoded)
    /// one: the backward LM is scored with the model's, so it must have been trained on it
    /// (frozen, docs/training.md).
    pub embedding_max_diff: f32,
}

/// Largest embedding difference [`attach_backward`] accepts (the export rounds nothing: a
/// backward LM trained on the model's own decoded embedding differs by 0).
pub const BACKWARD_EMBEDDING_TOLERANCE: f32 = 1e-4;

/// Packs the `LstmBackward` section: the recurrent matrices stored `recurrent`, the output bias
/// as a `bias_bits`-bit codebook (32: f32); the embedding is not stored (the forward LM's).
pub fn pack_backward(w: &LstmWeights, recurrent: Quant, bias_bits: u32) -> Vec<u8> {
    let h = w.hidden;
    let bias = payload(
        &w.out_bias,
        1,
        if bias_bits >= 32 {
            Quant::F32
        } else {
            Quant::Codebook(bias_bits)
        },
    );
    write_backward(&BackwardPayload {
        vocab: w.vocab,
        hidden: h,
        w_ih: &payload(&w.w_ih, h, recurrent),
        w_hh: &payload(&w.w_hh, h, recurrent),
        b: &w.b,
        out_bias: &bias,
    })
}

/// Returns a copy of the model container `model` (which has an LSTM LM) with the backward LM
/// `weights` packed as its `LstmBackward` section (replacing any earlier one). The backward LM
/// must have the model LM's vocabulary and hidden size, no projection, and its embedding (within
/// [`BACKWARD_EMBEDDING_TOLERANCE`]).
pub fn attach_backward(
    model: Vec<u8>,
    weights: &LstmWeights,
    recurrent: Quant,
    bias_bits: u32,
) -> Result<(Vec<u8>, BackwardReport)> {
    let container = Container::from_bytes(model)?;
    let fwd = henkan::lm::lstm::LstmModel::from_section(container.require(SectionKind::Lstm)?)?;
    if weights.vocab != fwd.vocab || weights.hidden != fwd.hidden {
        return Err(build_err(format!(
            "the backward LM has {} words of {} dimensions, the model's LM {} of {}",
            weights.vocab, weights.hidden, fwd.vocab, fwd.hidden
        )));
    }
    if weights.cell != weights.hidden {
        return Err(build_err(
            "a backward LM with a projection is not supported",
        ));
    }
    let max_diff = embedding_diff(&fwd, &weights.embedding, "the backward LM")?;
    let section = pack_backward(weights, recurrent, bias_bits);
    let report = BackwardReport {
        bytes: section.len(),
        embedding_max_diff: max_diff,
    };
    let bytes = with_section(&container, SectionKind::LstmBackward, section);
    Ok((bytes, report))
}

#[cfg(test)]
mod tests {
    use super::reads_its_numeral;

    #[test]
    fn a_numeral_read_as_another_word_does_not_read_its_numeral() {
        assert!(!reads_its_numeral("二十", "はたち"));
        assert!(!reads_its_numeral("千万", "せんばん"));
        assert!(reads_its_numeral("二十", "にじゅう"));
        assert!(reads_its_numeral("一", "いっ"));
        assert!(reads_its_numeral("六百", "ろっぴゃく"));
        assert!(reads_its_numeral("四", "よん"));
        // not a numeral: any reading
        assert!(reads_its_numeral("今日", "こんにち"));
    }
}

//! The LSTM word language model: quantized weights, one step batched over a beam, and
//! logits for a chosen set of output rows (incremental vocabulary selection needs only a
//! few hundred rows per key).
//!
//! Terms:
//! - *LM word* / *LM id*: a word of the LM vocabulary (ids sorted by training frequency,
//!   most frequent first; `<s>` marks both sentence start and end, `<unk>` stands for every
//!   out-of-vocabulary word). A lexicon entry maps to one LM id through [`LmVocab`].
//! - *state*: the LSTM's `(h, c)` after a word: `hidden` floats of output `h`, `cell` floats
//!   of memory `c` (`cell == hidden` unless the model has a projection).
//! - *logit*: `embedding[w]·h + out_bias[w]` (the input and output embeddings are tied).
//!
//! Model (PyTorch gate order i, f, g, o): `z = W_ih·x + W_hh·h + b`;
//! `c' = σ(f)·c + σ(i)·tanh(g)`; `h' = σ(o)·tanh(c')`, or with a projection (LSTMP, PyTorch's
//! `proj_size`) `h' = W_hr·(σ(o)·tanh(c'))`: more memory cells at the same embedding size.
//!
//! Section formats (little endian) are defined in [`format`](mod@format); the packer is
//! `build::lstm`.

pub mod format;

use crate::error::{Error, Result};
use crate::kernels;
use crate::model::SectionBytes;
pub use format::{LmVocab, MatrixKind, WordMatch};

/// A weight matrix as stored: f32, k-means codebook or int8 with per-row scales.
#[derive(Debug, Clone)]
pub enum QuantMatrix {
    /// Plain f32, row major.
    F32(Vec<f32>),
    /// `bits`-bit codes into `centroids` (bit-packed, a view into the model bytes).
    Codebook {
        /// Bits per code (3..=8).
        bits: u32,
        /// 2^bits centroids.
        centroids: Vec<f32>,
        /// The section bytes and the byte range of the codes in them.
        codes: SectionBytes,
        /// Byte range of the codes in `codes`.
        range: std::ops::Range<usize>,
    },
    /// int8 codes times a per-row scale.
    Int8 {
        /// One scale per row.
        scales: Vec<f32>,
        /// The section bytes.
        codes: SectionBytes,
        /// Byte range of the codes in `codes`.
        range: std::ops::Range<usize>,
    },
    /// Product quantization: each row is cut into sub-vectors of `sub` columns; sub-vector
    /// `j` of a row is one byte, the index of one of the `k` centroids of column block `j`.
    Product {
        /// Columns per sub-vector.
        sub: usize,
        /// Centroids per column block (≤ 256).
        k: usize,
        /// `[cols / sub][k][sub]`.
        centroids: Vec<f32>,
        /// The section bytes.
        codes: SectionBytes,
        /// Byte range of the codes (`rows × cols / sub` bytes) in `codes`.
        range: std::ops::Range<usize>,
    },
    /// Rows `..head_rows` in `head`, the others in `tail` (e.g. more bits for frequent words).
    Split {
        /// Rows stored in `head`.
        head_rows: usize,
        /// The first rows.
        head: Box<QuantMatrix>,
        /// The remaining rows.
        tail: Box<QuantMatrix>,
    },
}

impl QuantMatrix {
    /// `out[r] = row r · h` for the rows `rows` (`h` has `dim` floats). Product-quantized rows use
    /// a lookup table (the dot of every sub-vector of `h` with every centroid, then one table
    /// read per code: ≈ 8× fewer operations than decoding each row); other encodings decode rows.
    pub fn dots(
        &self,
        rows: std::ops::Range<usize>,
        dim: usize,
        h: &[f32],
        out: &mut [f32],
        row: &mut Vec<f32>,
    ) {
        match self {
            QuantMatrix::Split {
                head_rows,
                head,
                tail,
            } => {
                let cut = (*head_rows).clamp(rows.start, rows.end);
                let (a, b) = out.split_at_mut(cut - rows.start);
                head.dots(rows.start..cut, dim, h, a, row);
                tail.dots(cut - head_rows..rows.end - head_rows, dim, h, b, row);
            }
            QuantMatrix::Product {
                sub,
                k,
                centroids,
                codes,
                range,
            } if centroids.len() == dim / sub * k * sub => {
                let (sub, k, m) = (*sub, *k, dim / sub);
                let mut lut = vec![0f32; m * k];
                for j in 0..m {
                    let hj = &h[j * sub..(j + 1) * sub];
                    for c in 0..k {
                        let v = &centroids[(j * k + c) * sub..(j * k + c + 1) * sub];
                        lut[j * k + c] = hj.iter().zip(v).map(|(a, b)| a * b).sum();
                    }
                }
                let codes = &codes.as_ref()[range.clone()];
                for (o, r) in out.iter_mut().zip(rows) {
                    let rc = codes.get(r * m..(r + 1) * m).unwrap_or(&[]);
                    *o = rc
                        .iter()
                        .enumerate()
                        .map(|(j, &c)| lut.get(j * k + c as usize).copied().unwrap_or(0.0))
                        .sum();
                }
            }
            _ => {
                row.resize(dim, 0.0);
                for (o, r) in out.iter_mut().zip(rows) {
                    self.decode_row(r, dim, row);
                    *o = kernels::dot(row, &h[..dim]);
                }
            }
        }
    }

    /// Decodes row `row` (of `dim` columns) into `out[..dim]`.
    #[inline]
    pub fn decode_row(&self, row: usize, dim: usize, out: &mut [f32]) {
        match self {
            QuantMatrix::F32(w) => out[..dim].copy_from_slice(&w[row * dim..(row + 1) * dim]),
            QuantMatrix::Codebook {
                bits,
                centroids,
                codes,
                range,
            } => kernels::decode_codebook_row(
                &codes.as_ref()[range.clone()],
                *bits,
                centroids,
                row,
                dim,
                out,
            ),
            QuantMatrix::Int8 {
                scales,
                codes,
                range,
            } => kernels::decode_i8_row(&codes.as_ref()[range.clone()], scales[row], row, dim, out),
            QuantMatrix::Product {
                sub,
                k,
                centroids,
                codes,
                range,
            } => {
                let m = dim / sub;
                let codes = &codes.as_ref()[range.clone()];
                let row_codes = codes.get(row * m..(row + 1) * m).unwrap_or(&[]);
                for (j, out) in out[..m * sub].chunks_exact_mut(*sub).enumerate() {
                    let c = row_codes.get(j).map(|&c| c as usize).filter(|c| c < k);
                    match c.and_then(|c| centroids.get((j * k + c) * sub..(j * k + c + 1) * sub)) {
                        Some(v) => out.copy_from_slice(v),
                        None => out.fill(0.0),
                    }
                }
            }
            QuantMatrix::Split {
                head_rows,
                head,
                tail,
            } => {
                if row < *head_rows {
                    head.decode_row(row, dim, out)
                } else {
                    tail.decode_row(row - head_rows, dim, out)
                }
            }
        }
    }

    /// Bytes of the weights of a `rows × cols` matrix as stored (codes and int8 scales;
    /// centroids not counted).
    pub fn stored_bytes(&self, rows: usize, cols: usize) -> usize {
        match self {
            QuantMatrix::Int8 { .. } => rows * cols + 4 * rows,
            QuantMatrix::Product { sub, .. } => rows * (cols / sub),
            QuantMatrix::Split {
                head_rows,
                head,
                tail,
            } => head.stored_bytes(*head_rows, cols) + tail.stored_bytes(rows - head_rows, cols),
            m => (rows * cols * m.bits() as usize).div_ceil(8),
        }
    }

    /// Bits per weight (32 for f32; the larger of the two parts of a split matrix).
    pub fn bits(&self) -> u32 {
        match self {
            QuantMatrix::F32(_) => 32,
            QuantMatrix::Codebook { bits, .. } => *bits,
            QuantMatrix::Int8 { .. } => 8,
            QuantMatrix::Product { sub, .. } => (8 / *sub).max(1) as u32,
            QuantMatrix::Split { head, tail, .. } => head.bits().max(tail.bits()),
        }
    }
}

/// A loaded LSTM LM.
#[derive(Debug, Clone)]
pub struct LstmModel {
    /// Vocabulary size.
    pub vocab: usize,
    /// Hidden (= embedding = output `h`) size.
    pub hidden: usize,
    /// Memory cells (`c`): `hidden`, or more with a projection.
    pub cell: usize,
    /// Id of `<unk>`.
    pub unk_id: u32,
    /// Id of `<s>` (start and end of sentence).
    pub bos_id: u32,
    /// Tied embedding / output projection `[vocab, hidden]`.
    pub embedding: QuantMatrix,
    /// Output bias `[vocab]`.
    pub out_bias: Vec<f32>,
    /// `[4·cell, 2·hidden]`: row r = `W_ih[r] ++ W_hh[r]` (dequantized at load).
    pub(crate) w: Vec<f32>,
    /// `b_ih + b_hh`, `[4·cell]`.
    pub(crate) b: Vec<f32>,
    /// The projection `W_hr` `[hidden, cell]` (dequantized at load); empty without one.
    pub(crate) w_hr: Vec<f32>,
    /// Bits of the recurrent matrices as stored.
    pub recurrent_bits: u32,
}

/// Scratch for a batched step, reused between calls.
#[derive(Debug, Clone, Default)]
pub struct StepScratch {
    xh: Vec<f32>,
    z: Vec<f32>,
    /// `σ(o)·tanh(c')` per state before the projection.
    m: Vec<f32>,
}

/// `e^x` for the gates, branch-free so that the loop over a state's units vectorizes (SSE2,
/// AVX2, wasm simd128), where the library's `exp` and `tanh` are a call per unit: most of a
/// step's time. Cody–Waite reduction `x = n·ln 2 + r` (|r| ≤ ln 2 / 2) and Cephes' degree-6
/// polynomial of `expf` for `e^r`; `x` clamped to [−87, 88], where `2^n` stays a normal float.
/// Within 2.5e-7 of the library's `exp`, relatively (`gates_follow_the_library_functions`).
#[inline(always)]
fn exp_gate(x: f32) -> f32 {
    let x = x.clamp(-87.0, 88.0);
    // round to nearest by the float's own rounding (|x · log2 e| < 2^22)
    let n = (x * std::f32::consts::LOG2_E + 12_582_912.0) - 12_582_912.0;
    let r = x - n * 0.693_359_4 - n * -2.121_944_4e-4;
    let p = (((((1.987_569_2e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2)
        * r
        + 1.666_666_5e-1)
        * r
        + 0.5)
        * (r * r)
        + r
        + 1.0;
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

/// The logistic function of the gates.
#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp_gate(-x))
}

/// `tanh` of the gates, as `1 − 2 / (e^{2x} + 1)`: within 2.5e-7 of the library's absolutely.
#[inline(always)]
fn tanh_gate(x: f32) -> f32 {
    1.0 - 2.0 / (exp_gate(2.0 * x) + 1.0)
}

impl LstmModel {
    /// Loads the model from an `Lstm` section.
    pub fn from_section(bytes: SectionBytes) -> Result<Self> {
        format::read_lstm(bytes)
    }

    /// The recurrent weights as decoded at load, `[4·cell, 2·hidden]`: row r is
    /// `W_ih[r] ++ W_hh[r]` (what the builder exports for further training).
    pub fn recurrent_weights(&self) -> &[f32] {
        &self.w
    }

    /// The gate bias `b_ih + b_hh`, `[4·cell]`.
    pub fn gate_bias(&self) -> &[f32] {
        &self.b
    }

    /// The projection `W_hr` `[hidden, cell]` as decoded at load; empty without one.
    pub fn projection(&self) -> &[f32] {
        &self.w_hr
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        vocab: usize,
        hidden: usize,
        cell: usize,
        unk_id: u32,
        bos_id: u32,
        embedding: QuantMatrix,
        w_ih: Vec<f32>,
        w_hh: Vec<f32>,
        w_hr: Vec<f32>,
        b: Vec<f32>,
        out_bias: Vec<f32>,
        recurrent_bits: u32,
    ) -> Result<Self> {
        let h = hidden;
        let projected = cell != hidden;
        if w_ih.len() != 4 * cell * h
            || w_hh.len() != 4 * cell * h
            || b.len() != 4 * cell
            || out_bias.len() != vocab
            || w_hr.len() != if projected { h * cell } else { 0 }
        {
            return Err(Error::Malformed {
                section: "lstm",
                detail: "matrix shapes do not match the header".into(),
            });
        }
        let mut w = Vec::with_capacity(8 * cell * h);
        for r in 0..4 * cell {
            w.extend_from_slice(&w_ih[r * h..(r + 1) * h]);
            w.extend_from_slice(&w_hh[r * h..(r + 1) * h]);
        }
        Ok(LstmModel {
            vocab,
            hidden,
            cell,
            unk_id,
            bos_id,
            embedding,
            out_bias,
            w,
            b,
            w_hr,
            recurrent_bits,
        })
    }

    /// The input embedding of word `id` into `out[..hidden]`.
    pub fn embed(&self, id: u32, out: &mut [f32]) {
        let id = if (id as usize) < self.vocab {
            id
        } else {
            self.unk_id
        };
        self.embedding.decode_row(id as usize, self.hidden, out);
    }

    /// One LSTM step for a batch: `x` and `h` hold `n` rows of `hidden` floats, `c` holds
    /// `n` rows of `cell` floats; `h` and `c` are updated in place.
    pub fn step(&self, x: &[f32], h: &mut [f32], c: &mut [f32], scratch: &mut StepScratch) {
        let hd = self.hidden;
        let cd = self.cell;
        let n = x.len() / hd;
        let two = 2 * hd;
        scratch.xh.clear();
        for s in 0..n {
            scratch.xh.extend_from_slice(&x[s * hd..(s + 1) * hd]);
            scratch.xh.extend_from_slice(&h[s * hd..(s + 1) * hd]);
        }
        // z[s][r]: each weight row is read once for the whole batch.
        scratch.z.resize(n * 4 * cd, 0.0);
        let z = &mut scratch.z;
        rows_times_states(&self.w, two, &scratch.xh, |s, r, v| {
            z[s * 4 * cd + r] = v + self.b[r];
        });
        let projected = !self.w_hr.is_empty();
        if projected {
            scratch.m.resize(n * cd, 0.0);
        }
        for s in 0..n {
            let z = &scratch.z[s * 4 * cd..(s + 1) * 4 * cd];
            let out = if projected {
                &mut scratch.m[s * cd..(s + 1) * cd]
            } else {
                &mut h[s * hd..(s + 1) * hd]
            };
            let cs = &mut c[s * cd..(s + 1) * cd];
            for j in 0..cd {
                let i = sigmoid(z[j]);
                let f = sigmoid(z[cd + j]);
                let g = tanh_gate(z[2 * cd + j]);
                let o = sigmoid(z[3 * cd + j]);
                let cn = f * cs[j] + i * g;
                cs[j] = cn;
                out[j] = o * tanh_gate(cn);
            }
        }
        if projected {
            // h[s][r] = W_hr[r] · m[s]
            rows_times_states(&self.w_hr, cd, &scratch.m, |s, r, v| h[s * hd + r] = v);
        }
    }

    /// Logits of the words `ids` for `n` states `h` (`n · hidden` floats):
    /// `out[k · n + s]` = logit of `ids[k]` after state `s`. Each row is decoded once.
    pub fn logits(&self, ids: &[u32], h: &[f32], out: &mut [f32], row: &mut Vec<f32>) {
        let hd = self.hidden;
        let n = h.len() / hd;
        row.resize(hd, 0.0);
        for (k, &id) in ids.iter().enumerate() {
            let id = if (id as usize) < self.vocab {
                id
            } else {
                self.unk_id
            };
            self.embedding.decode_row(id as usize, hd, row);
            let o = &mut out[k * n..(k + 1) * n];
            kernels::row_times_states(row, h, hd, o);
            let bias = self.out_bias[id as usize];
            for v in o.iter_mut() {
                *v += bias;
            }
        }
    }

    /// Logits of every word after state `h`, into `out[..vocab]` ([`QuantMatrix::dots`]).
    pub fn logits_all(&self, h: &[f32], out: &mut Vec<f32>, row: &mut Vec<f32>) {
        out.resize(self.vocab, 0.0);
        self.embedding.dots(0..self.vocab, self.hidden, h, out, row);
        for (o, b) in out.iter_mut().zip(&self.out_bias) {
            *o += b;
        }
    }

    /// Log-probabilities of every word after state `h` (full softmax), into `out[..vocab]`.
    pub fn log_softmax_full(&self, h: &[f32], out: &mut Vec<f32>, row: &mut Vec<f32>) {
        out.resize(self.vocab, 0.0);
        let hd = self.hidden;
        row.resize(hd, 0.0);
        for (id, o) in out.iter_mut().enumerate() {
            self.embedding.decode_row(id, hd, row);
            *o = kernels::dot(row, &h[..hd]) + self.out_bias[id];
        }
        let lse = log_sum_exp(out);
        for v in out.iter_mut() {
            *v -= lse;
        }
    }

    /// Bytes of the weights as stored (embedding + recurrent matrices + biases).
    pub fn stored_bytes(&self) -> usize {
        let (h, c) = (self.hidden, self.cell);
        let recurrent = 8 * c * h + if self.w_hr.is_empty() { 0 } else { h * c };
        self.embedding.stored_bytes(self.vocab, h)
            + recurrent * self.recurrent_bits as usize / 8
            + 4 * (4 * c + self.vocab)
    }
}

/// `put(s, r, w[r] · xs[s])` for every row `r` of the row-major matrix `w` (`cols` columns) and
/// every state `s` of `xs` (`cols` floats each): each weight row is read once for the whole
/// batch, the states in blocks of 64.
fn rows_times_states(w: &[f32], cols: usize, xs: &[f32], mut put: impl FnMut(usize, usize, f32)) {
    let n = xs.len() / cols;
    let mut tmp = [0.0f32; 64];
    for (r, row) in w.chunks_exact(cols).enumerate() {
        let mut s0 = 0;
        while s0 < n {
            let m = (n - s0).min(tmp.len());
            kernels::row_times_states(row, &xs[s0 * cols..(s0 + m) * cols], cols, &mut tmp[..m]);
            for (k, &v) in tmp[..m].iter().enumerate() {
                put(s0 + k, r, v);
            }
            s0 += m;
        }
    }
}

/// `log Σ exp(x)`, stable; `-inf` for an empty slice.
pub fn log_sum_exp(x: &[f32]) -> f32 {
    let m = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !m.is_finite() {
        return m;
    }
    m + x.iter().map(|v| (v - m).exp()).sum::<f32>().ln()
}

/// The LSTM LM with its map from lexicon entries to LM words: what the neural decoder
/// needs from an [`crate::Engine`].
#[derive(Debug, Clone)]
pub struct NeuralLm {
    /// The network.
    pub model: LstmModel,
    /// Lexicon entry → LM id.
    pub vocab: LmVocab,
    /// Learned bias per lexicon entry for the hybrid (empty when the model has no
    /// `WordBias` section).
    pub bias: crate::decoder::bias::WordBias,
    /// Added to the logits of next-word predictions, per LM id (empty: none): the output
    /// bias adapted to typed chat (`PredictBias` section).
    pub predict_bias: Vec<f32>,
    /// A backward (right-to-left) LSTM with the same embedding (`LstmBackward` section),
    /// rescoring the LM alone's final beam ([`crate::decoder::neural::NeuralDecoder::rescored_finals`]).
    pub backward: Option<LstmModel>,
    /// Word vectors per lexicon entry (`Coherence` section): the topical coherence that
    /// re-ranks the final beam on conversion.
    pub coherence: Option<crate::lm::coherence::Coherence>,
    /// Which nouns predicates take (`Selection` section, centroids compared with the
    /// coherence's word vectors): the hybrid's selectional preferences
    /// ([`crate::lm::selection`]).
    pub selection: Option<crate::lm::selection::Selection>,
    /// A learned inner product between the coherence's word vectors (`HomophoneMetric`
    /// section) for the coherence between homophones ([`crate::lm::homophone_metric`]); the
    /// cosines without it.
    pub homophone_metric: Option<crate::lm::homophone_metric::HomophoneMetric>,
}

impl NeuralLm {
    /// Loads both sections.
    pub fn from_sections(lstm: SectionBytes, vocab: SectionBytes) -> Result<Self> {
        let model = LstmModel::from_section(lstm)?;
        let vocab = LmVocab::from_section(vocab)?;
        if vocab.vocab != model.vocab {
            return Err(Error::Malformed {
                section: "lm vocabulary",
                detail: format!("{} words, the LSTM has {}", vocab.vocab, model.vocab),
            });
        }
        Ok(NeuralLm {
            model,
            vocab,
            bias: Default::default(),
            predict_bias: Vec::new(),
            backward: None,
            coherence: None,
            selection: None,
            homophone_metric: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gates' `exp`, `σ` and `tanh` against the library's over the range the gates see and
    /// beyond (where they saturate), every 1/1024.
    #[test]
    fn gates_follow_the_library_functions() {
        let (mut exp_rel, mut sig_abs, mut tanh_abs) = (0f32, 0f32, 0f32);
        for k in -100 * 1024..=100 * 1024 {
            let x = k as f32 / 1024.0;
            if x.abs() <= 80.0 {
                exp_rel = exp_rel.max((exp_gate(x) - x.exp()).abs() / x.exp());
            }
            sig_abs = sig_abs.max((sigmoid(x) - 1.0 / (1.0 + (-x).exp())).abs());
            tanh_abs = tanh_abs.max((tanh_gate(x) - x.tanh()).abs());
        }
        assert!(exp_rel < 2.5e-7, "exp: relative error {exp_rel}");
        assert!(sig_abs < 1.5e-7, "σ: absolute error {sig_abs}");
        assert!(tanh_abs < 2.5e-7, "tanh: absolute error {tanh_abs}");
        for x in [f32::INFINITY, f32::NEG_INFINITY, 1e30, -1e30] {
            assert!((0.0..=1.0).contains(&sigmoid(x)), "{x}");
            assert!((-1.0..=1.0).contains(&tanh_gate(x)), "{x}");
        }
        assert_eq!(sigmoid(f32::INFINITY), 1.0);
        assert_eq!(tanh_gate(f32::NEG_INFINITY), -1.0);
    }
}

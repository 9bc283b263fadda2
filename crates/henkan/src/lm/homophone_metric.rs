//! The homophone metric: a learned inner product between the `Coherence` section's word vectors
//! for the coherence between homophones
//! ([`crate::options::NeuralOptions::homophone_weight`]).
//!
//! The coherence between homophones weighs `機械` against `機会` by their cosines with the other
//! words of the sentence. A cosine measures likeness (`機械` is like `装置`), not which words
//! come together (`故障`, `口座`, `開設`). The metric is a symmetric matrix `A` over the vectors'
//! components, fitted on the analyzed written training text to tell each word from the other
//! spellings of its reading by the sentence around it (`training/homophone_metric.py`): the
//! term then weighs `Σ_{i<j} u_i·A·u_j / √(n − 1)` over the unit vectors `u` of a candidate's
//! `n` words that have one, where the cosines weigh `Σ_{i<j} u_i·u_j / √(n − 1)` (`A` = the
//! identity). The fit scales `A` to the cosines' weight, so the term keeps its weight.
//!
//! Measured (BENCHMARKS.md, "Conversion accuracy"): on the analyzed dev text, choosing among a
//! reading's spellings by its unigram prior and the sentence is right 90.29% of the time with
//! the cosines and 91.17% with the metric (kwdlc); in the hybrid it turns `現職` for `原色`,
//! `政策` for `制作`, `血統` for `血糖`.
//!
//! # Section layout (`HKHMET01`, little endian)
//!
//! ```text
//! magic "HKHMET01"
//! u32 dims (the coherence's), f32 scale
//! dims · (dims + 1) / 2 × i8: the upper triangle of A row by row (A[i][j], j ≥ i), each
//!   component i8 · scale
//! ```

use crate::error::{Error, Result};
use crate::lm::coherence::Coherence;

/// Magic bytes of a `HomophoneMetric` section.
pub const HOMOPHONE_METRIC_MAGIC: &[u8; 8] = b"HKHMET01";

/// The learned inner product (see the module docs).
#[derive(Debug, Clone)]
pub struct HomophoneMetric {
    dims: usize,
    /// The full symmetric matrix, row-major.
    a: Vec<f32>,
}

/// A candidate's words as the metric sums them: the sum of their unit vectors, their own
/// terms `Σ u_i·A·u_i`, and how many there are.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricSum {
    sum: Vec<f32>,
    own: f32,
    n: usize,
}

fn malformed(detail: &str) -> Error {
    Error::Malformed {
        section: "homophone metric",
        detail: detail.to_string(),
    }
}

impl HomophoneMetric {
    /// Reads a `HomophoneMetric` section for word vectors of `dims` components (the
    /// coherence's).
    pub fn from_section(b: &[u8], dims: usize) -> Result<Self> {
        if b.len() < 16 || &b[..8] != HOMOPHONE_METRIC_MAGIC {
            return Err(malformed("bad magic"));
        }
        let d = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
        let scale = f32::from_le_bytes(b[12..16].try_into().unwrap());
        if d != dims || d == 0 || !scale.is_finite() {
            return Err(malformed("bad header"));
        }
        let cells = d * (d + 1) / 2;
        if b.len() != 16 + cells {
            return Err(malformed(&format!(
                "{} bytes of cells, want {cells}",
                b.len() - 16
            )));
        }
        let mut a = vec![0f32; d * d];
        let mut k = 16;
        for i in 0..d {
            for j in i..d {
                let v = b[k] as i8 as f32 * scale;
                a[i * d + j] = v;
                a[j * d + i] = v;
                k += 1;
            }
        }
        Ok(HomophoneMetric { dims: d, a })
    }

    /// The section bytes of the symmetric matrix `a` (`dims × dims`, row-major; its upper
    /// triangle is stored), 8 bits a cell scaled to the largest.
    pub fn to_section(a: &[f32], dims: usize) -> Vec<u8> {
        assert_eq!(a.len(), dims * dims, "a dims × dims matrix");
        let largest = (0..dims)
            .flat_map(|i| (i..dims).map(move |j| (i, j)))
            .map(|(i, j)| a[i * dims + j].abs())
            .fold(0f32, f32::max);
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        let mut out = Vec::with_capacity(16 + dims * (dims + 1) / 2);
        out.extend_from_slice(HOMOPHONE_METRIC_MAGIC);
        out.extend_from_slice(&(dims as u32).to_le_bytes());
        out.extend_from_slice(&scale.to_le_bytes());
        for i in 0..dims {
            for j in i..dims {
                out.push((a[i * dims + j] / scale).round().clamp(-127.0, 127.0) as i8 as u8);
            }
        }
        out
    }

    /// Dimensions of the vectors it compares.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// `v·A·v`.
    fn quad(&self, v: &[f32]) -> f32 {
        let d = self.dims;
        v.iter()
            .enumerate()
            .map(|(i, &x)| {
                let row = &self.a[i * d..(i + 1) * d];
                x * row.iter().zip(v).map(|(&a, &y)| a * y).sum::<f32>()
            })
            .sum()
    }

    /// The sum of the words with these vector rows.
    pub fn sum(&self, coherence: &Coherence, rows: &[u16]) -> MetricSum {
        let mut out = MetricSum {
            sum: vec![0f32; self.dims],
            own: 0.0,
            n: 0,
        };
        let mut u = vec![0f32; self.dims];
        for &r in rows {
            self.add(coherence, &mut out, &mut u, r, 1.0);
        }
        out
    }

    /// The same sum with the word of row `from` replaced by the word of row `to` (a
    /// homophone over the same span: the count stays).
    pub fn replace(&self, coherence: &Coherence, s: &mut MetricSum, from: u16, to: u16) {
        let mut u = vec![0f32; self.dims];
        let n = s.n;
        self.add(coherence, s, &mut u, from, -1.0);
        self.add(coherence, s, &mut u, to, 1.0);
        s.n = n;
    }

    fn add(&self, coherence: &Coherence, s: &mut MetricSum, u: &mut [f32], row: u16, sign: f32) {
        if !coherence.unit(row, u) {
            return;
        }
        for (x, &y) in s.sum.iter_mut().zip(u.iter()) {
            *x += sign * y;
        }
        s.own += sign * self.quad(u);
        s.n += 1;
    }

    /// The coherence of a sum under the metric: `Σ_{i<j} u_i·A·u_j / √(n − 1)`.
    pub fn score(&self, s: &MetricSum) -> f32 {
        if s.n < 2 {
            return 0.0;
        }
        (self.quad(&s.sum) - s.own) / 2.0 / ((s.n - 1) as f32).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_round_trips_within_a_step() {
        let d = 4;
        let mut a = vec![0f32; d * d];
        for i in 0..d {
            for j in 0..d {
                a[i * d + j] = if i == j {
                    1.5
                } else {
                    0.1 * (i + j) as f32 - 0.2
                };
            }
        }
        let b = HomophoneMetric::to_section(&a, d);
        assert_eq!(b.len(), 16 + d * (d + 1) / 2);
        let m = HomophoneMetric::from_section(&b, d).unwrap();
        for (x, y) in m.a.iter().zip(&a) {
            assert!((x - y).abs() <= 1.5 / 127.0, "{x} {y}");
        }
        for i in 0..d {
            for j in 0..d {
                assert_eq!(m.a[i * d + j], m.a[j * d + i]);
            }
        }
    }

    #[test]
    fn crafted_sections_are_refused() {
        let a = vec![1f32, 0.0, 0.0, 1.0];
        let good = HomophoneMetric::to_section(&a, 2);
        assert!(HomophoneMetric::from_section(&good, 2).is_ok());
        // other dimensions than the coherence's
        assert!(HomophoneMetric::from_section(&good, 3).is_err());
        // truncated, one byte too many, a bad magic, a scale that is not finite
        for cut in 0..good.len() {
            assert!(HomophoneMetric::from_section(&good[..cut], 2).is_err());
        }
        let mut long = good.clone();
        long.push(0);
        assert!(HomophoneMetric::from_section(&long, 2).is_err());
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(HomophoneMetric::from_section(&magic, 2).is_err());
        let mut nan = good.clone();
        nan[12..16].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(HomophoneMetric::from_section(&nan, 2).is_err());
    }
}

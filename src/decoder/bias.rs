//! Word bias: a learned score per lexicon entry that the hybrid decoder adds to a word.
//!
//! The hybrid's features (LSTM log-probability, dictionary word and connection costs) are
//! trained on other text than what a conversion is judged against: which of two spellings
//! (下さい / ください, 事 / こと) a writer uses, or which of two segmentations the LM and the
//! dictionary agree on, is a convention neither learns. A bias per lexicon entry, in nats,
//! trained discriminatively towards the gold paths of hand-annotated sentences (a structured
//! perceptron over the decoder itself, [`crate::build::bias`]), corrects that.
//!
//! Section format (`WordBias` in the model container): the magic `HKBIAS01`, u32 count `n`,
//! f32 step, then `n` LEB128 varints (the entries in ascending order, each as the difference
//! to the previous one), then `n` i8 weights in steps (weight = step · value). Entries whose
//! weight rounds to zero are not stored.

use crate::error::{Error, Result};
use crate::lexicon::{read_varint, write_varint};
use std::collections::HashMap;

const MAGIC: &[u8; 8] = b"HKBIAS01";

/// Learned bias per lexicon entry (nats; absent = 0).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WordBias {
    weights: HashMap<u32, f32>,
}

fn bad(detail: impl Into<String>) -> Error {
    Error::Malformed {
        section: "word bias",
        detail: detail.into(),
    }
}

impl WordBias {
    /// No bias.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bias of a lexicon entry (0 when it has none).
    #[inline]
    pub fn get(&self, entry: u32) -> f32 {
        if self.weights.is_empty() {
            return 0.0;
        }
        self.weights.get(&entry).copied().unwrap_or(0.0)
    }

    /// Sets the bias of an entry (0 removes it).
    pub fn set(&mut self, entry: u32, weight: f32) {
        if weight == 0.0 {
            self.weights.remove(&entry);
        } else {
            self.weights.insert(entry, weight);
        }
    }

    /// Adds to the bias of an entry.
    pub fn add(&mut self, entry: u32, delta: f32) {
        let w = self.get(entry) + delta;
        self.set(entry, w);
    }

    /// Entries with a bias.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether no entry has a bias.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// (entry, bias) pairs in entry order.
    pub fn entries(&self) -> Vec<(u32, f32)> {
        let mut v: Vec<(u32, f32)> = self.weights.iter().map(|(&e, &w)| (e, w)).collect();
        v.sort_by_key(|&(e, _)| e);
        v
    }

    /// The step that stores the largest bias exactly in 127 steps (at least `min`).
    pub fn fitting_step(&self, min: f32) -> f32 {
        let max = self.weights.values().fold(0f32, |m, w| m.max(w.abs()));
        (max / 127.0).max(min)
    }

    /// The section bytes, weights rounded to multiples of `step` (clamped to ±127 steps;
    /// entries that round to zero are left out).
    pub fn to_section(&self, step: f32) -> Vec<u8> {
        let kept: Vec<(u32, i8)> = self
            .entries()
            .into_iter()
            .map(|(e, w)| (e, (w / step).round().clamp(-127.0, 127.0) as i8))
            .filter(|&(_, q)| q != 0)
            .collect();
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
        out.extend_from_slice(&step.to_le_bytes());
        let mut prev = 0u32;
        for &(e, _) in &kept {
            write_varint(&mut out, (e - prev) as u64);
            prev = e;
        }
        out.extend(kept.iter().map(|&(_, q)| q as u8));
        out
    }

    /// Reads a section written by [`WordBias::to_section`].
    pub fn from_section(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("bad magic"));
        }
        let n = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        let step = f32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
        if !step.is_finite() || step <= 0.0 {
            return Err(bad(format!("step {step}")));
        }
        // each entry takes at least 2 bytes (a varint and a weight)
        if n > (bytes.len() - 16) / 2 {
            return Err(bad(format!("{n} entries in {} bytes", bytes.len())));
        }
        let mut pos = 16;
        let mut entries = Vec::with_capacity(n);
        let mut prev = 0u64;
        for _ in 0..n {
            let d = read_varint(bytes, &mut pos).ok_or_else(|| bad("truncated entries"))?;
            prev += d;
            if prev > u32::MAX as u64 {
                return Err(bad("entry out of range"));
            }
            entries.push(prev as u32);
        }
        if bytes.len() != pos + n {
            return Err(bad(format!(
                "{} bytes of weights for {n} entries",
                bytes.len().saturating_sub(pos)
            )));
        }
        let mut weights = HashMap::with_capacity(n);
        for (k, e) in entries.into_iter().enumerate() {
            let q = bytes[pos + k] as i8;
            if q != 0 {
                weights.insert(e, q as f32 * step);
            }
        }
        Ok(WordBias { weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_round_trip_quantizes_to_the_step() {
        let mut b = WordBias::new();
        b.set(5, 0.5);
        b.set(300, -1.26);
        b.set(1 << 30, 3.0);
        b.set(7, 0.004); // rounds to zero: dropped
        let s = b.to_section(0.02);
        let r = WordBias::from_section(&s).unwrap();
        assert_eq!(r.len(), 3);
        assert!((r.get(5) - 0.5).abs() < 1e-6);
        assert!((r.get(300) + 1.26).abs() < 1e-6);
        assert!((r.get(1 << 30) - 2.54).abs() < 1e-6, "clamped to 127 steps");
        assert_eq!(r.get(7), 0.0);
        assert_eq!(r.get(6), 0.0);
    }

    #[test]
    fn malformed_sections_are_errors() {
        let mut b = WordBias::new();
        b.set(1, 0.1);
        b.set(1000, -0.1);
        let s = b.to_section(0.02);
        assert!(WordBias::from_section(&s[..s.len() - 1]).is_err());
        assert!(WordBias::from_section(&s[..10]).is_err());
        let mut wrong = s.clone();
        wrong[0] = b'X';
        assert!(WordBias::from_section(&wrong).is_err());
        let mut huge = s.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(WordBias::from_section(&huge).is_err());
        let mut step = s;
        step[12..16].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(WordBias::from_section(&step).is_err());
    }

    #[test]
    fn add_and_set_zero() {
        let mut b = WordBias::new();
        b.add(3, 0.25);
        b.add(3, -0.25);
        assert!(b.is_empty());
        b.add(3, 0.5);
        assert_eq!(b.entries(), vec![(3, 0.5)]);
    }
}

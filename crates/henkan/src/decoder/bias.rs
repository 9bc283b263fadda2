//! Word bias: a score per lexicon entry, in nats, that the hybrid decoder adds to a word.
//!
//! The hybrid's features (LSTM log-probability, dictionary word and connection costs) miss
//! conventions of written text that annotated corpora show. The shipped model's biases are the
//! *digit prior* (`henkan_builder::digit_prior`): counters after a number are written with
//! digits (`３年`), so the kanji numeral words of counters (`三年`, `十円`) get a negative bias
//! counted from KWDLC and WAC. The neural engine (the LM alone) does not use the biases.
//!
//! Section format (`WordBias` in the model container): the magic `HKBIAS01`, u32 count `n`,
//! f32 step, then `n` LEB128 varints (the entries in ascending order, each as the difference
//! to the previous one), then `n` i8 weights in steps (weight = step · value). Entries whose
//! weight rounds to zero are not stored.

use crate::error::{Error, Result};
use crate::lexicon::read_varint;
use std::collections::HashMap;

/// Magic of the `WordBias` section.
pub const WORD_BIAS_MAGIC: &[u8; 8] = b"HKBIAS01";

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

    /// Reads a `WordBias` section.
    pub fn from_section(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 16 || &bytes[..8] != WORD_BIAS_MAGIC {
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
            prev = prev.saturating_add(d);
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
    fn add_and_set_zero() {
        let mut b = WordBias::new();
        b.add(3, 0.25);
        b.add(3, -0.25);
        assert!(b.is_empty());
        b.add(3, 0.5);
        assert_eq!(b.entries(), vec![(3, 0.5)]);
    }
}

//! Adapting next-word prediction to typed chat: a logit offset per LM word.
//!
//! The LSTM is trained on a mix of texts (chat, manuals, Wikipedia, literature); people type
//! chat. An offset per word added to the LSTM's logits when it ranks predictions
//! ([`super::neural::rerank`]) moves its word frequencies to those of chat without touching
//! the network or the conversions. The offsets are fitted on the training part of the chat
//! corpus with the LSTM frozen (`training/fit_predict_bias.py`: generalized iterative scaling,
//! exact for a bias-only log-linear model) and stored in the `PredictBias` section.
//!
//! Section format: the magic `HKPBIA01`, u32 count (= the LM's vocabulary), f32 step, then one
//! i8 per LM id (offset = step · value).

use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"HKPBIA01";

fn bad(detail: impl Into<String>) -> Error {
    Error::Malformed {
        section: "prediction bias",
        detail: detail.into(),
    }
}

/// The section bytes of `offsets` rounded to multiples of `step` (clamped to ±127 steps).
pub fn to_section(offsets: &[f32], step: f32) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(offsets.len() as u32).to_le_bytes());
    out.extend_from_slice(&step.to_le_bytes());
    out.extend(
        offsets
            .iter()
            .map(|&d| (d / step).round().clamp(-127.0, 127.0) as i8 as u8),
    );
    out
}

/// Reads the offsets of a section for an LM of `vocab` words.
pub fn from_section(bytes: &[u8], vocab: usize) -> Result<Vec<f32>> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad("bad magic"));
    }
    let n = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    let step = f32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
    if n != vocab {
        return Err(bad(format!("{n} offsets for an LM of {vocab} words")));
    }
    if !step.is_finite() || step <= 0.0 {
        return Err(bad(format!("step {step}")));
    }
    if bytes.len() != 16 + n {
        return Err(bad(format!("{} bytes for {n} offsets", bytes.len() - 16)));
    }
    Ok(bytes[16..].iter().map(|&q| q as i8 as f32 * step).collect())
}

/// Reads offsets written by `training/fit_predict_bias.py` (f32 little-endian, one per LM id).
pub fn read_f32(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_in_steps() {
        let d = [0.0, 0.51, -1.0, 9.0, -0.024];
        let s = to_section(&d, 0.05);
        let r = from_section(&s, 5).unwrap();
        let want = [0.0, 0.5, -1.0, 6.35, 0.0];
        for (a, b) in r.iter().zip(want) {
            assert!((a - b).abs() < 1e-5, "{r:?}");
        }
    }

    #[test]
    fn malformed_sections_are_errors() {
        let s = to_section(&[0.1, 0.2], 0.05);
        assert!(from_section(&s, 3).is_err(), "another vocabulary");
        assert!(from_section(&s[..17], 2).is_err(), "truncated");
        assert!(from_section(&s[..4], 2).is_err());
        let mut m = s.clone();
        m[1] = b'x';
        assert!(from_section(&m, 2).is_err());
        let mut st = s;
        st[12..16].copy_from_slice(&0f32.to_le_bytes());
        assert!(from_section(&st, 2).is_err());
    }
}

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

/// Magic of the `PredictBias` section.
pub const PREDICT_BIAS_MAGIC: &[u8; 8] = b"HKPBIA01";

fn bad(detail: impl Into<String>) -> Error {
    Error::Malformed {
        section: "prediction bias",
        detail: detail.into(),
    }
}

/// Reads the offsets of a section for an LM of `vocab` words.
pub fn from_section(bytes: &[u8], vocab: usize) -> Result<Vec<f32>> {
    if bytes.len() < 16 || &bytes[..8] != PREDICT_BIAS_MAGIC {
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

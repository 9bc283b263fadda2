//! The model builder: everything that *writes* a henkan model. The runtime crate (`henkan`)
//! only reads models; this crate turns Mozc's dictionary, the trained language models and the
//! other inputs into the sections of one container, and rewrites containers section by section.
//!
//! | module | writes |
//! | --- | --- |
//! | [`dictionary`] | the dictionary part: lexicon, connection costs, segmenter, POS tables ([`dictionary::build_model`]) |
//! | [`mozc`] | reads Mozc's definition files; adds Mozc's boundary penalties and POS groups ([`mozc::add_mozc_rules`]) |
//! | [`container`] | the container file; repacking and replacing sections |
//! | [`lexicon`], [`connection`], [`segmenter`] | the dictionary sections (k-means clustering of the matrix in [`connection`]) |
//! | [`lstm`], [`lstm_format`] | the LSTM LM, its quantization and its backward twin |
//! | [`ngram`] | the n-gram prediction LM from the analyzed corpus |
//! | [`bias`], [`digit_prior`] | the hybrid's word biases and the digit prior |
//! | [`predict_bias`] | the prediction bias (logit offsets per LM word) |
//! | [`coherence`] | the word vectors of the topical coherence |
//! | [`readings`] | readings added to the words of a finished model |
//! | [`gold`] | gold paths through the lattice for annotated sentences |
//! | [`token`] | the analyzed-corpus token format, shared with the analyzer |
#![deny(missing_docs)]

pub mod bias;
pub mod coherence;
pub mod connection;
pub mod container;
pub mod dictionary;
pub mod digit_prior;
pub mod emoji;
pub mod error;
pub mod gold;
pub mod homophone_metric;
pub mod inflection;
pub mod kana_prior;
pub mod lexicon;
pub mod lstm;
pub mod lstm_format;
pub mod mozc;
pub mod ngram;
pub mod predict_bias;
pub mod readings;
pub mod segmenter;
pub mod selection;
pub mod token;

pub use container::{repack, replace_section, ContainerWriter};
pub use dictionary::{build_model, BuildOptions, BuildReport};
pub use error::{Error, Result};

/// Little-endian f32 values of `bytes` (a tensor in a safetensors file, the offsets of
/// `training/fit_predict_bias.py`, the vectors of `training/coherence_vectors.py`); a partial
/// last value is ignored.
pub fn read_f32_le(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_read_little_endian() {
        let mut b = Vec::new();
        for x in [1.5f32, -2.0] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.push(7);
        assert_eq!(read_f32_le(&b), [1.5, -2.0]);
    }
}

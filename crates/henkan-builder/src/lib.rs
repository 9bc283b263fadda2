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
//! | [`gold`] | gold paths through the lattice for annotated sentences |
//! | [`token`] | the analyzed-corpus token format, shared with the analyzer |
#![deny(missing_docs)]

pub mod bias;
pub mod coherence;
pub mod connection;
pub mod container;
pub mod dictionary;
pub mod digit_prior;
pub mod error;
pub mod gold;
pub mod lexicon;
pub mod lstm;
pub mod lstm_format;
pub mod mozc;
pub mod ngram;
pub mod predict_bias;
pub mod segmenter;
pub mod token;

pub use container::{repack, replace_section, ContainerWriter};
pub use dictionary::{build_model, BuildOptions, BuildReport};
pub use error::{Error, Result};

//! henkan (変換): a Japanese input method engine for the web.
//!
//! Typed romaji becomes kana in the [`composer`]; kana become kanji through a word
//! [`lattice`] built from the [`lexicon`] and decoded by the [`decoder`] under a
//! language model ([`lm`]). An [`Engine`] is the immutable loaded model (built from
//! the bytes of one [`model`] container); a [`Session`] is the per-text-field state
//! reused for every key.
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod candidate_filter;
pub mod composer;
pub mod dates;
pub mod decoder;
pub mod engine;
pub mod error;
pub mod history;
pub mod ime;
pub mod kernels;
pub mod lattice;
pub mod lexicon;
pub mod lm;
pub mod model;
pub mod options;
pub mod pos;
pub mod predict;
pub mod session;
pub mod symbols;

pub use engine::Engine;
pub use error::Error;
pub use session::Session;

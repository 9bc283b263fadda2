//! henkan (変換): a Japanese input method engine for the web.
//!
//! Typed romaji becomes kana in the [`composer`]; kana become kanji through a word
//! [`lattice`] built from the [`lexicon`] and decoded by the [`decoder`] under the language
//! models of [`lm`] (connection costs, an LSTM, an n-gram for [`predict`]ions). An [`Engine`] is
//! the immutable loaded model, built from the bytes of one [`model`] container; a [`Session`]
//! is the per-text-field state reused for every key; [`ime::Ime`] is the key machine the
//! browser widget drives (one call per key event). This crate only *reads* models: the
//! `henkan-builder` crate writes them.
//!
//! ```
//! use henkan::{Engine, Session};
//!
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/henkan.henkan"))?;
//! let engine = Engine::from_bytes(bytes)?;
//! let mut session = Session::new();
//! session.set_scoring(engine.default_scoring(), Default::default()); // the hybrid
//! session.insert_str(&engine, "kyouhaiitenkidesune"); // one key at a time, as typed
//! let conversion = session.convert(&engine); // Space
//! assert_eq!(conversion.text(), "今日はいい天気ですね");
//! assert_eq!(conversion.segments[0].candidates[0], "今日は");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod annotation;
pub mod candidate_filter;
pub mod composer;
pub mod dates;
pub mod decoder;
pub mod emoji;
mod engine;
pub mod error;
#[cfg(feature = "fuzz")]
pub mod fuzz;
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
pub mod recent_spellings;
pub mod reverse;
mod session;
pub mod symbols;
pub mod user_data;
pub mod user_dictionary;

pub use engine::Engine;
pub use error::{Error, Result};
pub use options::{NeuralOptions, Scoring};
pub use session::{
    BestPath, Conversion, PathWord, Segment, Session, WordSource, KEPT_BUFFER_BYTES,
    MAX_PIECE_CHARS,
};

//! Language models that score lattice paths.
//!
//! - [`cost`]: the classic model: dictionary word cost + POS connection cost (Mozc's).

pub mod cost;

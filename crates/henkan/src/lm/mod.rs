//! Language models that score lattice paths.
//!
//! - [`cost`]: the classic model: dictionary word cost + POS connection cost (Mozc's).
//! - [`lstm`]: the LSTM word LM (quantized weights, batched steps, selected logits).
//! - [`ngram`]: a compact word trigram with stupid backoff (the predictions' candidates).
//! - [`collocation`]: noun–particle–verb collocations from that trigram, a term of the
//!   hybrid's rescoring.
//! - [`coherence`]: word vectors; the topical coherence of a candidate's words.
//! - [`selection`]: which nouns a predicate takes after a particle, a term of the hybrid's
//!   rescoring.

pub mod coherence;
pub mod collocation;
pub mod cost;
pub mod homophone_metric;
pub mod lstm;
pub mod ngram;
pub mod selection;

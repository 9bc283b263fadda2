//! Noun–particle–verb collocations from the predictions' word trigram ([`super::ngram`]), a
//! term of the hybrid's conversion when it rescores the final beam
//! ([`crate::options::NeuralOptions::collocation_weight`]).
//!
//! Verb–object agreement is what a small LSTM misses most often among the errors people meet
//! first (`写真を取る` for `写真を撮る`, `ホテルに止まった` for `ホテルに泊まった`): the LM
//! sees the noun two words back and both verbs read the same. The trigram has counted those
//! triples. A candidate earns, for each verb (`動詞,自立`) after a content noun (`名詞,一般`,
//! `固有名詞`, `副詞可能`, `サ変接続`) and one word that is not a content noun (the particle),
//! how much likelier the trigram makes the verb after those two words than on its own:
//! `max(0, log2 P_trigram(verb | noun, particle) − log2 (α² P(verb)))`, only where the triple
//! is one of the trigram's own (not a backoff) and the noun is in its vocabulary.
//!
//! Measured 2026-11-27 (hybrid, weight 0.5, BENCHMARKS.md): kwdlc 1 sentence fixed, none
//! broken; wac none either way; chat 2 fixed, 1 broken. Any trigram word (not only verbs after
//! nouns), or backoff scores counted too, broke more written text than they fixed.

use crate::lattice::Lattice;
use crate::lexicon::Lexicon;
use crate::lm::ngram::{NgramModel, UNK};
use crate::pos::{PosGroup, Segmenter};
use crate::predict::{node_word, Context};

/// The collocation bonus of a path (`nodes`, lattice node indices in order), in log2 units.
pub fn bonus(
    ngram: &NgramModel,
    lexicon: &Lexicon,
    segmenter: &Segmenter,
    lattice: &Lattice,
    nodes: &[u32],
) -> f32 {
    let all = lattice.nodes();
    let mut ctx = Context::new();
    // left POS ids of the two words before
    let mut before: [u16; 2] = [0, 0];
    let mut sum = 0.0;
    for &i in nodes {
        let Some(node) = all.get(i as usize) else {
            continue;
        };
        let id = node_word(ngram, lexicon, lattice, node);
        let pattern = ctx.u != UNK
            && id != UNK
            && segmenter.in_group(before[0], PosGroup::ContentNoun)
            && !segmenter.in_group(before[1], PosGroup::ContentNoun)
            && segmenter.in_group(node.left_id, PosGroup::WeakCompoundVerbSuffix);
        if pattern {
            if let Some((_, s)) = ngram
                .trigram_followers(ctx.u, ctx.v)
                .find(|&(w, _)| w == id)
            {
                let alone = 2.0 * ngram.alpha_log2() + ngram.unigram(id);
                sum += (s - alone).max(0.0);
            }
        }
        ctx.push_id(id);
        before = [before[1], node.left_id];
    }
    sum
}

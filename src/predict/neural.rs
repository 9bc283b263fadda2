//! LSTM re-ranking of the n-gram's prediction candidates (for `henkan eval prediction --lm lstm`).
//!
//! The n-gram proposes up to [`LstmPredictor::candidates`] words (followers, prefix matches,
//! lexicon fill); the LSTM, run over the previous words of the line, gives each its logit,
//! normalized over the candidates (log-softmax), and the list is sorted by the log-linear mix
//! `(1 − w)·n-gram log2 score + w·LSTM log2 probability` ([`LstmPredictor::weight`]). Words the LSTM does not know get the `<unk>` logit minus [`UNK_PENALTY`]. The LSTM state is
//! cached and only stepped over the words added since the last call.

use super::eval::{Predictor, Word};
use super::{complete, NgramPredictor, Prediction};
use crate::lexicon::Lexicon;
use crate::lm::lstm::{NeuralLm, StepScratch};
use crate::lm::ngram::UNK;

/// Subtracted from the `<unk>` logit for a word the LSTM does not know (≈ ln of the
/// number of rare words sharing the class).
pub const UNK_PENALTY: f32 = 10.0;

/// The n-gram candidates, re-ranked by the LSTM.
#[derive(Debug)]
pub struct LstmPredictor<'a> {
    ngram: NgramPredictor<'a>,
    lm: &'a NeuralLm,
    lexicon: &'a Lexicon,
    /// How many n-gram candidates are re-ranked.
    pub candidates: usize,
    /// Weight of the LSTM in the log-linear mix (0 = n-gram order, 1 = LSTM only).
    pub weight: f32,
    /// Candidates scored so far, and how many of them the LSTM scored as `<unk>`.
    pub scored_candidates: usize,
    /// See `scored_candidates`.
    pub unk_candidates: usize,
    done: Vec<Option<Word>>,
    h: Vec<f32>,
    c: Vec<f32>,
    x: Vec<f32>,
    scratch: StepScratch,
    ids: Vec<u32>,
    out: Vec<f32>,
    row: Vec<f32>,
}

impl<'a> LstmPredictor<'a> {
    /// A predictor over an n-gram (candidates), an LSTM and the lexicon its vocabulary maps.
    pub fn new(ngram: NgramPredictor<'a>, lm: &'a NeuralLm, lexicon: &'a Lexicon) -> Self {
        let hd = lm.model.hidden;
        LstmPredictor {
            ngram,
            lm,
            lexicon,
            candidates: 30,
            weight: 0.5,
            scored_candidates: 0,
            unk_candidates: 0,
            done: Vec::new(),
            h: vec![0.0; hd],
            c: vec![0.0; hd],
            x: vec![0.0; hd],
            scratch: StepScratch::default(),
            ids: Vec::new(),
            out: Vec::new(),
            row: Vec::new(),
        }
    }

    /// The LM id of a word (its lexicon entry's), `<unk>` when it has none.
    fn lm_id(&self, reading: &str, surface: &str, left: u16, right: u16) -> u32 {
        for e in self.lexicon.get(reading) {
            if e.left_id == left
                && e.right_id == right
                && self.lexicon.surface_text(&e.surface, reading) == surface
            {
                return self.lm.vocab.lm_id(e.offset);
            }
        }
        self.lm.model.unk_id
    }

    fn feed(&mut self, id: u32) {
        self.lm.model.embed(id, &mut self.x);
        self.lm
            .model
            .step(&self.x, &mut self.h, &mut self.c, &mut self.scratch);
    }

    /// Brings the LSTM state to the end of `history`.
    fn sync(&mut self, history: &[Option<Word>]) {
        let extends =
            self.done.len() <= history.len() && history[..self.done.len()] == self.done[..];
        if !extends || self.done.is_empty() && history.is_empty() {
            self.h.iter_mut().for_each(|v| *v = 0.0);
            self.c.iter_mut().for_each(|v| *v = 0.0);
            self.done.clear();
            let bos = self.lm.model.bos_id;
            self.feed(bos);
        }
        for w in &history[self.done.len()..] {
            let id = match w {
                Some(w) => self.lm_id(&w.reading, &w.surface, w.left_id, w.right_id),
                None => self.lm.model.unk_id,
            };
            self.feed(id);
            self.done.push(w.clone());
        }
    }
}

impl Predictor for LstmPredictor<'_> {
    fn predict(&mut self, history: &[Option<Word>], query: &str, limit: usize) -> Vec<Prediction> {
        self.sync(history);
        let ctx = self.ngram.context(history);
        let mut cands = complete(
            self.ngram.model,
            self.ngram.lexicon,
            ctx,
            query,
            &[],
            self.candidates.max(limit),
        );
        self.ids.clear();
        for p in &cands {
            let id = match self.ngram.model.word(p.id) {
                Some(w) if p.id != UNK => self.lm_id(w.reading, w.surface, w.left_id, w.right_id),
                _ => self.lm.model.unk_id,
            };
            self.ids.push(id);
        }
        self.out.resize(self.ids.len(), 0.0);
        self.lm
            .model
            .logits(&self.ids, &self.h, &mut self.out, &mut self.row);
        let unk = self.lm.model.unk_id;
        for (l, &id) in self.out.iter_mut().zip(&self.ids) {
            // `<unk>` is a class of many words: its logit is far too high for any one of them.
            if id == unk {
                *l -= UNK_PENALTY;
                self.unk_candidates += 1;
            }
        }
        self.scored_candidates += self.ids.len();
        // Log-softmax over the candidates (log2), mixed with the n-gram's log2 score.
        let lse = crate::lm::lstm::log_sum_exp(&self.out);
        let w = self.weight;
        for (p, &l) in cands.iter_mut().zip(&self.out) {
            let lstm = (l - lse) / std::f32::consts::LN_2;
            p.score = (1.0 - w) * p.score.max(-64.0) + w * lstm;
        }
        // Stable: ties keep the n-gram order.
        cands.sort_by(|a, b| b.score.total_cmp(&a.score));
        cands.truncate(limit);
        cands
    }
}

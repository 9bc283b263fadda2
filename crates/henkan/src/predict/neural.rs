//! LSTM re-ranking of the n-gram's prediction candidates (`henkan eval prediction --lm lstm`,
//! and the suggestions of the IME, [`super::suggest`]).
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
use crate::lm::ngram::NgramModel;
use crate::lm::ngram::UNK;

/// Subtracted from the `<unk>` logit for a word the LSTM does not know (≈ ln of the
/// number of rare words sharing the class).
pub const UNK_PENALTY: f32 = 10.0;

/// The weight of the LSTM in the mix, tuned on chat.dev (first 3,000 lines) with the prediction
/// bias: 0.5 / 0.6 / 0.7 → nwp_top3 0.527 / 0.530 / 0.527 (`henkan eval prediction --lm lstm
/// --lstm-weight W`, docs/prediction.md).
pub const LSTM_WEIGHT: f32 = 0.6;

/// How many n-gram candidates the LSTM re-ranks (60 and 120 change nwp_top3 by < 0.1 point).
pub const LSTM_CANDIDATES: usize = 30;

/// The LSTM state after `<s>` and the words fed since.
#[derive(Debug, Clone)]
pub struct LstmState {
    /// Hidden state.
    pub h: Vec<f32>,
    c: Vec<f32>,
    x: Vec<f32>,
    scratch: StepScratch,
}

impl LstmState {
    /// The state at the start of a text (after `<s>`).
    pub fn new(lm: &NeuralLm) -> Self {
        let hd = lm.model.hidden;
        let mut s = LstmState {
            h: vec![0.0; hd],
            c: vec![0.0; lm.model.cell],
            x: vec![0.0; hd],
            scratch: StepScratch::default(),
        };
        s.feed(lm, lm.model.bos_id);
        s
    }

    /// Steps over the word with LM id `id`.
    pub fn feed(&mut self, lm: &NeuralLm, id: u32) {
        lm.model.embed(id, &mut self.x);
        lm.model
            .step(&self.x, &mut self.h, &mut self.c, &mut self.scratch);
    }
}

/// The LM id of a word (its lexicon entry's); one without an LM word is its `<unk>` class (or
/// `<unk>`).
pub fn lm_word(
    lm: &NeuralLm,
    lexicon: &Lexicon,
    reading: &str,
    surface: &str,
    left: u16,
    right: u16,
) -> u32 {
    for e in lexicon.get(reading) {
        if e.left_id == left
            && e.right_id == right
            && lexicon.surface_text(&e.surface, reading) == surface
        {
            return lm.vocab.lm_word_or_class(e.offset, left).0;
        }
    }
    lm.vocab.class_of(left)
}

/// The LM id of n-gram word `id`.
pub fn lm_word_of_ngram(lm: &NeuralLm, lexicon: &Lexicon, ngram: &NgramModel, id: u16) -> u32 {
    match ngram.word(id) {
        Some(w) if id != UNK => lm_word(lm, lexicon, w.reading, w.surface, w.left_id, w.right_id),
        _ => lm.model.unk_id,
    }
}

/// Buffers of [`rerank`].
#[derive(Debug, Clone, Default)]
pub struct RerankScratch {
    /// LM words of every candidate's POS variants; candidate `k` has `ids[group[k]..group[k + 1]]`.
    ids: Vec<u32>,
    group: Vec<usize>,
    out: Vec<f32>,
    /// One logit per candidate.
    cand: Vec<f32>,
    row: Vec<f32>,
}

/// Re-ranks n-gram predictions `cands` after the LSTM state `h`: each gets
/// `(1 − weight)·n-gram log2 score + weight·LSTM log2 probability` (normalized over the
/// candidates), then the list is sorted (stable: ties keep the n-gram order). A candidate's
/// LSTM probability is the sum over the LM words with its reading and surface — all its POS
/// variants: the user picks a written word, not a POS (+0.6 points nwp_top3). Returns how many
/// candidates the LSTM only knew as `<unk>`.
pub fn rerank(
    lm: &NeuralLm,
    lexicon: &Lexicon,
    h: &[f32],
    cands: &mut [Prediction],
    weight: f32,
    scratch: &mut RerankScratch,
) -> usize {
    if cands.is_empty() {
        return 0;
    }
    let unk = lm.model.unk_id;
    scratch.ids.clear();
    scratch.group.clear();
    for p in cands.iter() {
        let start = scratch.ids.len();
        scratch.group.push(start);
        for e in lexicon.get(&p.reading) {
            let id = lm.vocab.lm_id(e.offset);
            if id != unk
                && !scratch.ids[start..].contains(&id)
                && lexicon.surface_text(&e.surface, &p.reading) == p.surface
            {
                scratch.ids.push(id);
            }
        }
        if scratch.ids.len() == start {
            scratch.ids.push(unk);
        }
    }
    scratch.group.push(scratch.ids.len());
    scratch.out.resize(scratch.ids.len(), 0.0);
    lm.model
        .logits(&scratch.ids, h, &mut scratch.out, &mut scratch.row);
    if !lm.predict_bias.is_empty() {
        for (o, &id) in scratch.out.iter_mut().zip(&scratch.ids) {
            *o += lm.predict_bias.get(id as usize).copied().unwrap_or(0.0);
        }
    }
    let mut unks = 0;
    scratch.cand.clear();
    for g in scratch.group.windows(2) {
        let mut l = crate::lm::lstm::log_sum_exp(&scratch.out[g[0]..g[1]]);
        // `<unk>` is a class of many words: its logit is far too high for any one of them.
        if scratch.ids[g[0]] == unk {
            l -= UNK_PENALTY;
            unks += 1;
        }
        scratch.cand.push(l);
    }
    let lse = crate::lm::lstm::log_sum_exp(&scratch.cand);
    for (p, &l) in cands.iter_mut().zip(&scratch.cand) {
        let lstm = (l - lse) / std::f32::consts::LN_2;
        p.score = (1.0 - weight) * p.score.max(-64.0) + weight * lstm;
    }
    super::sort_by_score(cands);
    unks
}

/// The LM words of every n-gram word (all its POS variants: lexicon entries with its reading
/// and surface that the LSTM knows), to score the whole prediction vocabulary with the LSTM.
#[derive(Debug, Clone, Default)]
pub struct VocabMap {
    /// `ids[start[w]..start[w + 1]]` are the LM words of n-gram word `w`.
    start: Vec<u32>,
    ids: Vec<u32>,
}

impl VocabMap {
    /// Maps every n-gram word (≈ 50K lexicon lookups, once).
    pub fn new(lm: &NeuralLm, lexicon: &Lexicon, ngram: &NgramModel) -> Self {
        let mut m = VocabMap {
            start: vec![0],
            ids: Vec::new(),
        };
        for id in 0..ngram.vocab_len() {
            if let Some(w) = ngram.word(id as u16).filter(|_| id as u16 != UNK) {
                let from = m.ids.len();
                for e in lexicon.get(w.reading) {
                    let lid = lm.vocab.lm_id(e.offset);
                    if lid != lm.model.unk_id
                        && !m.ids[from..].contains(&lid)
                        && lexicon.surface_text(&e.surface, w.reading) == w.surface
                    {
                        m.ids.push(lid);
                    }
                }
            }
            m.start.push(m.ids.len() as u32);
        }
        m
    }

    /// The `n` n-gram words the LSTM finds likeliest after state `h` over the whole vocabulary
    /// (logits of every LM word with the prediction bias, summed over each word's variants),
    /// best first, with their log-scores (nats, unnormalized).
    pub fn top_words(
        &self,
        lm: &NeuralLm,
        h: &[f32],
        n: usize,
        scratch: &mut RerankScratch,
    ) -> Vec<(u16, f32)> {
        lm.model.logits_all(h, &mut scratch.out, &mut scratch.row);
        if !lm.predict_bias.is_empty() {
            for (o, b) in scratch.out.iter_mut().zip(&lm.predict_bias) {
                *o += b;
            }
        }
        let mut best: Vec<(u16, f32)> = Vec::with_capacity(n + 1);
        for w in 0..self.start.len().saturating_sub(1) {
            let ids = &self.ids[self.start[w] as usize..self.start[w + 1] as usize];
            if ids.is_empty() {
                continue;
            }
            scratch.cand.clear();
            scratch
                .cand
                .extend(ids.iter().map(|&i| scratch.out[i as usize]));
            let l = crate::lm::lstm::log_sum_exp(&scratch.cand);
            if best.len() < n || l > best[best.len() - 1].1 {
                let at = best.partition_point(|b| b.1 >= l);
                best.insert(at, (w as u16, l));
                best.truncate(n);
            }
        }
        best
    }
}

/// The n-gram candidates, re-ranked by the LSTM.
#[derive(Debug)]
pub struct LstmPredictor<'a> {
    ngram: NgramPredictor<'a>,
    lm: &'a NeuralLm,
    lexicon: &'a Lexicon,
    /// Candidates taken from the n-gram.
    pub candidates: usize,
    /// The LSTM's weight in the mix.
    pub weight: f32,
    /// Candidates scored so far.
    pub scored_candidates: usize,
    /// Of them, words the LSTM only knows as `<unk>`.
    pub unk_candidates: usize,
    /// Next words (no query): also the LSTM's own top words over the whole vocabulary, this
    /// many ([`LstmPredictor::with_full_vocabulary`]; 0 = n-gram candidates only).
    pub full_vocabulary: usize,
    /// The list as the IME shows it, words and phrases ([`super::suggest::list_items`] with
    /// these rules), instead of the ranked words alone.
    pub list: Option<super::suggest::ListRules>,
    /// With [`LstmPredictor::list`]: words of one kana are listed too.
    pub short_words: bool,
    /// The user's recent words raise their predictions ([`super::recent`]); `None`: each
    /// line is predicted on its own.
    pub recent: Option<super::recent::RecentWords>,
    /// Words of the current line already among the recent words, and the last of them.
    learned: (usize, u16),
    map: Option<VocabMap>,
    done: Vec<Option<Word>>,
    state: LstmState,
    scratch: RerankScratch,
}

impl<'a> LstmPredictor<'a> {
    /// A predictor over the n-gram's candidates and the LSTM.
    pub fn new(ngram: NgramPredictor<'a>, lm: &'a NeuralLm, lexicon: &'a Lexicon) -> Self {
        LstmPredictor {
            ngram,
            lm,
            lexicon,
            candidates: LSTM_CANDIDATES,
            weight: LSTM_WEIGHT,
            scored_candidates: 0,
            unk_candidates: 0,
            full_vocabulary: 0,
            list: None,
            short_words: false,
            recent: None,
            learned: (0, crate::lm::ngram::BOS),
            map: None,
            done: Vec::new(),
            state: LstmState::new(lm),
            scratch: RerankScratch::default(),
        }
    }

    /// Adds the LSTM's `n` likeliest words over the whole vocabulary to the candidates of
    /// next-word prediction (maps the vocabulary once).
    pub fn with_full_vocabulary(mut self, n: usize) -> Self {
        self.full_vocabulary = n;
        if n > 0 && self.map.is_none() {
            self.map = Some(VocabMap::new(self.lm, self.lexicon, self.ngram.model));
        }
        self
    }

    /// Adds the words of the current line from the last one learned up to the end of
    /// `words` to the recent words.
    fn learn(&mut self, words: &[Option<Word>]) {
        let Some(recent) = self.recent.as_mut() else {
            return;
        };
        let model = self.ngram.model;
        for w in words.iter().skip(self.learned.0) {
            let id = w
                .as_ref()
                .and_then(|w| model.id(&w.reading, &w.surface, w.left_id, w.right_id))
                .unwrap_or(UNK);
            recent.push(self.learned.1, id);
            self.learned = (self.learned.0 + 1, id);
        }
    }

    /// Brings the LSTM state to the end of `history`.
    fn sync(&mut self, history: &[Option<Word>]) {
        let extends =
            self.done.len() <= history.len() && history[..self.done.len()] == self.done[..];
        if !extends {
            self.state = LstmState::new(self.lm);
            self.done.clear();
        }
        for w in &history[self.done.len()..] {
            let id = match w {
                Some(w) => lm_word(
                    self.lm,
                    self.lexicon,
                    &w.reading,
                    &w.surface,
                    w.left_id,
                    w.right_id,
                ),
                None => self.lm.model.unk_id,
            };
            self.state.feed(self.lm, id);
            self.done.push(w.clone());
        }
    }
}

impl Predictor for LstmPredictor<'_> {
    fn predict(&mut self, history: &[Option<Word>], query: &str, limit: usize) -> Vec<Prediction> {
        self.sync(history);
        self.learn(history);
        let ctx = self.ngram.context(history);
        let mut cands = complete(
            self.ngram.model,
            self.ngram.lexicon,
            ctx,
            query,
            &[],
            self.candidates.max(limit),
        );
        if let (true, Some(map)) = (query.is_empty() && self.full_vocabulary > 0, &self.map) {
            let model = self.ngram.model;
            for (id, _) in map.top_words(
                self.lm,
                &self.state.h,
                self.full_vocabulary,
                &mut self.scratch,
            ) {
                let Some(w) = model.word(id) else { continue };
                if cands.iter().all(|c| c.surface != w.surface) {
                    cands.push(Prediction {
                        surface: w.surface.to_string(),
                        reading: w.reading.to_string(),
                        id,
                        score: model.score(ctx.u, ctx.v, id),
                    });
                }
            }
        }
        self.unk_candidates += rerank(
            self.lm,
            self.lexicon,
            &self.state.h,
            &mut cands,
            self.weight,
            &mut self.scratch,
        );
        self.scored_candidates += cands.len();
        if let Some(recent) = &self.recent {
            recent.apply(self.ngram.model, ctx.v, query, &mut cands);
        }
        if let Some(rules) = &self.list {
            let mut items = Vec::with_capacity(limit);
            let mut followers = super::suggest::Followers {
                model: self.ngram.model,
                lstm: Some((self.lm, self.lexicon, &self.state)),
                zero_query: query.is_empty(),
                scratch: &mut self.scratch,
            };
            super::suggest::list_items(
                self.ngram.model,
                ctx,
                &cands,
                &[],
                self.short_words,
                rules,
                limit,
                &mut items,
                &mut followers,
            );
            return items.iter().map(Prediction::from).collect();
        }
        cands.truncate(limit);
        cands
    }

    fn end_line(&mut self, words: &[Option<Word>]) {
        self.learn(words);
        self.learned = (0, crate::lm::ngram::BOS);
    }
}

//! Gold paths: the path through the conversion lattice that spells a hand-annotated sentence.
//!
//! The LM is trained on sentences cut into lattice words. Raw text can only be cut by an
//! analyzer that guesses the readings (training/tokenize: the cheapest path under the
//! dictionary costs, i.e. the classic engine's own choice), so where the classic engine is
//! wrong the LM learns its mistake. The hand-annotated corpora (KWDLC, WAC) give the reading
//! of every sentence: the *gold path* is the cheapest path through the lattice over that
//! reading whose surfaces spell the annotated text, the very path a conversion should find.
//!
//! Surfaces are compared after [`fold`] (full-width ASCII as ASCII, the ideographic space as a
//! space), so that digits and Latin letters match whatever width either side writes them in.

use henkan::lattice::{DigitWidth, Lattice, Node};
use henkan::Engine;

/// Full-width ASCII (U+FF01–U+FF5E) → ASCII, U+3000 → space; other characters unchanged.
pub fn fold(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// One step of the search: a path ending with `node` that has spelled `spelled` characters.
#[derive(Debug, Clone, Copy)]
struct State {
    node: u32,
    spelled: u32,
    right_id: u16,
    cost: i64,
    back: u32,
}

const START: u32 = u32::MAX;

/// Finds gold paths, reusing its buffers between sentences.
#[derive(Debug)]
pub struct GoldAligner {
    lattice: Lattice,
    states: Vec<State>,
    /// `states[at[p]..at[p + 1]]` end at reading position `p`.
    at: Vec<u32>,
    surfaces: Vec<Vec<char>>,
}

impl Default for GoldAligner {
    fn default() -> Self {
        Self::new()
    }
}

impl GoldAligner {
    /// An aligner (digits written in full width, as the IME writes them).
    pub fn new() -> Self {
        let mut lattice = Lattice::new();
        lattice.digits = DigitWidth::Full;
        GoldAligner {
            lattice,
            states: Vec::new(),
            at: Vec::new(),
            surfaces: Vec::new(),
        }
    }

    /// The lattice of the last [`GoldAligner::align`] call (its node indices are the path's).
    pub fn lattice(&self) -> &Lattice {
        &self.lattice
    }

    /// The cheapest path (node indices, in order) through the lattice over `reading` whose
    /// surfaces spell `surface` (compared after [`fold`]), under the dictionary's word and
    /// connection costs plus `extra(node)` per node (e.g. a penalty for words the LM does
    /// not know, so that a compound outside its vocabulary loses to its known parts); `None`
    /// when no path spells it.
    pub fn align(
        &mut self,
        engine: &Engine,
        reading: &str,
        surface: &str,
        extra: impl Fn(&Node) -> i64,
    ) -> Option<Vec<u32>> {
        let target: Vec<char> = surface.chars().map(fold).collect();
        self.lattice.clear();
        self.lattice
            .sync(&engine.lexicon, &engine.connection.special, reading);
        let len = self.lattice.len();
        let nodes = self.lattice.nodes();
        self.surfaces.clear();
        for n in nodes {
            let s = self.lattice.surface(&engine.lexicon, n);
            self.surfaces.push(s.chars().map(fold).collect());
        }
        self.states.clear();
        self.at.clear();
        self.states.push(State {
            node: START,
            spelled: 0,
            right_id: 0,
            cost: 0,
            back: START,
        });
        self.at.extend([0, 1]);
        for p in 1..=len {
            for i in self.lattice.ending_at(p) {
                let n = nodes[i];
                let s = &self.surfaces[i];
                let own = n.cost as i64 + extra(&n);
                let from =
                    self.at[n.begin as usize] as usize..self.at[n.begin as usize + 1] as usize;
                let mut best: Vec<(usize, i64, u32)> = Vec::new(); // (spelled, cost, back)
                for k in from {
                    let st = self.states[k];
                    let j = st.spelled as usize;
                    if target.len() < j + s.len() || target[j..j + s.len()] != s[..] {
                        continue;
                    }
                    let cost =
                        st.cost + engine.connection.cost(st.right_id, n.left_id) as i64 + own;
                    let spelled = j + s.len();
                    match best.iter_mut().find(|b| b.0 == spelled) {
                        Some(b) if b.1 <= cost => {}
                        Some(b) => *b = (spelled, cost, k as u32),
                        None => best.push((spelled, cost, k as u32)),
                    }
                }
                for (spelled, cost, back) in best {
                    self.states.push(State {
                        node: i as u32,
                        spelled: spelled as u32,
                        right_id: n.right_id,
                        cost,
                        back,
                    });
                }
            }
            self.at.push(self.states.len() as u32);
        }
        let end = self.at[len] as usize..self.at[len + 1] as usize;
        let (mut k, _) = end
            .filter(|&k| self.states[k].spelled as usize == target.len())
            .map(|k| {
                let st = self.states[k];
                (k, st.cost + engine.connection.cost(st.right_id, 0) as i64)
            })
            .min_by_key(|&(_, c)| c)?;
        let mut path = Vec::new();
        while self.states[k].node != START {
            path.push(self.states[k].node);
            k = self.states[k].back as usize;
        }
        path.reverse();
        Some(path)
    }
}

/// Extra aligner cost of a word outside the LM's vocabulary (≈ 20 nats, a rare word): where
/// a text can be spelled with words the LM knows, its gold path uses those.
pub const UNKNOWN_WORD_COST: i64 = 10_000;

/// [`UNKNOWN_WORD_COST`] for a node whose word the LM does not know, else 0 (an `extra` for
/// [`GoldAligner::align`]).
pub fn unknown_word_cost(lm: &henkan::lm::lstm::NeuralLm, node: &Node) -> i64 {
    let word = henkan::decoder::neural::NeuralDecoder::word_of(lm, node.entry, node.left_id);
    if lm.vocab.is_unknown(word) {
        UNKNOWN_WORD_COST
    } else {
        0
    }
}

/// The LM words of the last few committed sentences, as context for the next conversion
/// ([`henkan::Session::set_context_words`]): each sentence is `<s>` and the LM words of its gold
/// path (words the LM knows preferred; without a gold path, the hybrid's best path).
#[derive(Debug)]
pub struct CommittedContext {
    lines: usize,
    recent: std::collections::VecDeque<Vec<u32>>,
    aligner: GoldAligner,
    fallback: henkan::Session,
}

impl CommittedContext {
    /// Keeps the last `lines` sentences.
    pub fn new(lines: usize) -> Self {
        let mut fallback = henkan::Session::new();
        fallback.set_scoring(
            henkan::decoder::neural::Scoring::Hybrid,
            henkan::decoder::neural::NeuralOptions::default(),
        );
        CommittedContext {
            lines,
            recent: Default::default(),
            aligner: GoldAligner::new(),
            fallback,
        }
    }

    /// A sentence was committed: `text` written for `reading`.
    pub fn commit(&mut self, engine: &Engine, reading: &str, text: &str) {
        let Some(lm) = engine.neural.as_ref() else {
            return;
        };
        if self.lines == 0 {
            return;
        }
        let word_of =
            |n: &Node| henkan::decoder::neural::NeuralDecoder::word_of(lm, n.entry, n.left_id);
        let mut ids = vec![lm.model.bos_id];
        match self
            .aligner
            .align(engine, reading, text, |n| unknown_word_cost(lm, n))
        {
            Some(path) => {
                let nodes = self.aligner.lattice().nodes();
                ids.extend(path.iter().map(|&i| word_of(&nodes[i as usize])));
            }
            None => {
                self.fallback.clear();
                self.fallback.best_text_of(engine, reading);
                if let Some(path) = self.fallback.neural_best(engine) {
                    let nodes = self.fallback.lattice().nodes();
                    ids.extend(path.iter().map(|&i| word_of(&nodes[i as usize])));
                }
            }
        }
        self.recent.push_back(ids);
        while self.recent.len() > self.lines {
            self.recent.pop_front();
        }
    }

    /// The context: the kept sentences' words, oldest first.
    pub fn words(&self) -> Vec<u32> {
        self.recent.iter().flatten().copied().collect()
    }
}

/// One annotated sentence: its reading and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// Kana reading (the concatenation of the tokens' readings).
    pub reading: String,
    /// Annotated text (the concatenation of the tokens' surfaces).
    pub text: String,
}

/// Parses one gold token `surface/reading/POS` into (surface, reading); `None` when it is
/// malformed or either is empty.
pub fn parse_gold_token(tok: &str) -> Option<(&str, &str)> {
    let mut f = tok.rsplitn(3, '/');
    let (_pos, r, s) = (f.next()?, f.next()?, f.next()?);
    (!r.is_empty() && !s.is_empty()).then_some((s, r))
}

/// Parses a line of gold tokens `surface/reading/POS …`; `None` when a token is malformed or
/// the line is empty.
pub fn parse_tokens(line: &str) -> Option<Sentence> {
    let (mut reading, mut text) = (String::new(), String::new());
    for tok in line.split_whitespace() {
        let (s, r) = parse_gold_token(tok)?;
        reading.push_str(r);
        text.push_str(s);
    }
    (!reading.is_empty()).then_some(Sentence { reading, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_give_reading_and_text() {
        let s = parse_tokens("今日/きょう/名詞 は/は/助詞 １/いち/名詞-数詞").unwrap();
        assert_eq!(s.reading, "きょうはいち");
        assert_eq!(s.text, "今日は１");
        assert!(parse_tokens("").is_none());
        assert!(parse_tokens("今日/きょう/名詞 broken").is_none());
    }
}

//! Selectional preferences: which nouns a predicate takes after a particle, a term of the
//! hybrid's conversion when it rescores the final beam
//! ([`crate::options::NeuralOptions::selection_weight`]).
//!
//! `機械が故障した` and `機会が故障した` read the same, and so do `この鍋は熱い` and `この鍋は暑い`:
//! what decides is which nouns `故障` takes as its subject and which `熱い` takes. The analyzed
//! training text has seen `機械が故障` once and `鍋は熱い` never, so neither the LM nor the
//! collocations ([`super::collocation`]) know them; but it has seen `故障` after `車`,
//! `エンジン`, `パソコン`, and `熱い` after `お湯`, `スープ`, `風呂`. The `Selection` section
//! holds, for each particle and predicate seen often enough whose reading has another spelling
//! with other kanji, the centroid of the word vectors of the nouns seen before them
//! (`training/selection_centroids.py`): a noun near that centroid is one the predicate takes.
//!
//! A noun `v` fits a particle and predicate with centroid `c` by the z-score
//! `(v·c − m·c) / sd`: `m` is the mean vector of the nouns seen after that particle, so `m·c` is
//! the mean cosine, and `sd` the cosines' spread, so that a predicate that takes many kinds of
//! nouns (`見る`) and one that takes few (`観る`) score on one scale.
//!
//! A candidate of the final beam over the same reading spans as the beam's best gets
//! `w · Σ (its fit − the best's fit)` over the triples noun–particle–predicate both score (the
//! noun a content noun with a word vector, the predicate a centroid's), where the two nouns or
//! the two predicates differ in their kanji: not a kana spelling of the other, not one's kanji
//! within the other's (`心掛け`, `心がけ`). A triple whose noun and particle the n-gram's trigram
//! has seen followed by the predicate in any form, on either side, is left to the collocations:
//! counts are better evidence than a centroid, and a centroid drawn from a few nouns would pull
//! `夢を見た` towards `観た`.
//!
//! Measured 2026-12-03 (hybrid, weight 3, against the model without the section, BENCHMARKS.md):
//! kwdlc 1 sentence fixed and 1 broken, wac and chat unchanged (the term decides few sentences);
//! `機械が故障した`, `この鍋は熱いので気をつけて` and `硬貨を払う` come right.
//!
//! # Section layout (`HKSELC01`, little endian)
//!
//! ```text
//! magic "HKSELC01"
//! u32 dims (the coherence's), u32 particles P, u32 centroids n,
//! u32 sub (components per block; dims / sub blocks, an even number), u32 k (codes per block, ≤ 16)
//! f32 scale of the codebook
//! P × (u8 byte length, UTF-8 particle)
//! P × (f32 scale, dims × i8): each particle's mean noun vector, component = i8 · scale
//! blocks × k × sub i8: the codebook (component = i8 · scale)
//! n × varint: keys (particle index << 16 | n-gram word id of the predicate), as increasing
//!   deltas from 0
//! n × blocks / 2 bytes: the centroids' codes, 4 bits a block (the even block in the low nibble)
//! n × u8 q: the spread, sd = (q + 1) / 512
//! ```

use crate::error::{Error, Result};
use crate::lattice::{Lattice, Node};
use crate::lexicon::{read_varint, Lexicon};
use crate::lm::coherence::Coherence;
use crate::lm::collocation::{same_verb, stem_of};
use crate::lm::ngram::{NgramModel, UNK};
use crate::pos::{PosGroup, Segmenter};
use crate::predict::node_word;

/// Magic bytes of a `Selection` section.
pub const SELECTION_MAGIC: &[u8; 8] = b"HKSELC01";

/// At most this many particles.
pub const MAX_PARTICLES: usize = 16;

/// The spread of a centroid stored as `q`: `(q + 1) / SPREAD_STEPS`.
pub const SPREAD_STEPS: f32 = 512.0;

/// Centroids of the nouns each particle and predicate take ([module docs](self)).
#[derive(Debug, Clone)]
pub struct Selection {
    dims: usize,
    sub: usize,
    k: usize,
    /// `blocks × k × sub` components.
    book: Vec<f32>,
    particles: Vec<String>,
    keys: Vec<u32>,
    /// `blocks / 2` bytes per centroid.
    codes: Vec<u8>,
    /// Per centroid: 1 / its decoded length.
    inv_norm: Vec<f32>,
    /// Per centroid: the mean cosine `m·c` of its particle's nouns.
    mean_cos: Vec<f32>,
    /// Per centroid: 1 / sd.
    inv_sd: Vec<f32>,
}

fn malformed(detail: &str) -> Error {
    Error::Malformed {
        section: "selection",
        detail: detail.to_string(),
    }
}

/// The little-endian f32 scale at `pos`, if it is there and finite.
fn scale_at(b: &[u8], pos: usize) -> Result<f32> {
    b.get(pos..pos + 4)
        .map(|s| f32::from_le_bytes(s.try_into().unwrap()))
        .filter(|s| s.is_finite())
        .ok_or_else(|| malformed("truncated"))
}

impl Selection {
    /// Reads a `Selection` section for word vectors of `dims` components (the coherence's).
    pub fn from_section(b: &[u8], dims: usize) -> Result<Self> {
        if b.len() < 32 || &b[..8] != SELECTION_MAGIC {
            return Err(malformed("bad magic"));
        }
        let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        let (d, np, n, sub, k) = (u(8), u(12), u(16), u(20), u(24));
        if d != dims
            || np > MAX_PARTICLES
            || sub == 0
            || dims % sub != 0
            || (dims / sub) % 2 != 0
            || k == 0
            || k > 16
        {
            return Err(malformed("bad header"));
        }
        let blocks = dims / sub;
        let scale = scale_at(b, 28)?;
        let mut pos = 32;
        let mut particles = Vec::with_capacity(np);
        for _ in 0..np {
            let len = *b.get(pos).ok_or_else(|| malformed("particles truncated"))? as usize;
            let text = b
                .get(pos + 1..pos + 1 + len)
                .ok_or_else(|| malformed("particles truncated"))?;
            let text = std::str::from_utf8(text).map_err(|_| malformed("particle not UTF-8"))?;
            particles.push(text.to_string());
            pos += 1 + len;
        }
        let mut means = Vec::with_capacity(np * dims);
        for _ in 0..np {
            let s = scale_at(b, pos)?;
            let row = b
                .get(pos + 4..pos + 4 + dims)
                .ok_or_else(|| malformed("means truncated"))?;
            means.extend(row.iter().map(|&x| x as i8 as f32 * s));
            pos += 4 + dims;
        }
        let book: Vec<f32> = b
            .get(pos..pos + blocks * k * sub)
            .ok_or_else(|| malformed("codebook truncated"))?
            .iter()
            .map(|&x| x as i8 as f32 * scale)
            .collect();
        pos += blocks * k * sub;
        let code_len = blocks / 2;
        // every centroid takes at least a key byte, its codes and its spread
        if n > b.len().saturating_sub(pos) / (code_len + 2) {
            return Err(malformed("centroids truncated"));
        }
        let mut keys = Vec::with_capacity(n);
        let mut at = 0u64;
        for i in 0..n {
            let step = read_varint(b, &mut pos).ok_or_else(|| malformed("keys truncated"))?;
            if i > 0 && step == 0 {
                return Err(malformed("keys not increasing"));
            }
            at = at.checked_add(step).ok_or_else(|| malformed("key"))?;
            let key = u32::try_from(at).map_err(|_| malformed("key"))?;
            if key as usize >> 16 >= np {
                return Err(malformed("particle out of range"));
            }
            keys.push(key);
        }
        let codes = b
            .get(pos..pos + n * code_len)
            .ok_or_else(|| malformed("codes truncated"))?
            .to_vec();
        pos += n * code_len;
        let spreads = b
            .get(pos..pos + n)
            .ok_or_else(|| malformed("spreads truncated"))?;
        if pos + n != b.len() {
            return Err(malformed("trailing bytes"));
        }
        if codes
            .iter()
            .any(|&c| (c & 15) as usize >= k || (c >> 4) as usize >= k)
        {
            return Err(malformed("code out of range"));
        }
        let mut sel = Selection {
            dims,
            sub,
            k,
            book,
            particles,
            keys,
            codes,
            inv_norm: Vec::with_capacity(n),
            mean_cos: Vec::with_capacity(n),
            inv_sd: spreads
                .iter()
                .map(|&q| SPREAD_STEPS / (q as f32 + 1.0))
                .collect(),
        };
        for i in 0..n {
            let c = sel.centroid(i);
            let norm = c.iter().map(|x| x * x).sum::<f32>().sqrt();
            let inv = if norm > 0.0 { 1.0 / norm } else { 0.0 };
            let p = (sel.keys[i] >> 16) as usize;
            let m = &means[p * dims..(p + 1) * dims];
            sel.mean_cos
                .push(c.iter().zip(m).map(|(x, y)| x * y).sum::<f32>() * inv);
            sel.inv_norm.push(inv);
        }
        Ok(sel)
    }

    /// Centroids held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the section holds no centroid.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The particles, in the order of their index in the keys.
    pub fn particles(&self) -> &[String] {
        &self.particles
    }

    /// Centroid `i` as its codes give it back (not scaled to unit length).
    fn centroid(&self, i: usize) -> Vec<f32> {
        let blocks = self.dims / self.sub;
        let code = &self.codes[i * blocks / 2..(i + 1) * blocks / 2];
        let mut v = Vec::with_capacity(self.dims);
        for j in 0..blocks {
            let q = ((code[j / 2] >> (4 * (j % 2))) & 15) as usize;
            let at = (j * self.k + q) * self.sub;
            v.extend_from_slice(&self.book[at..at + self.sub]);
        }
        v
    }

    /// The centroid of a particle (its index) and a predicate (its n-gram word id).
    fn find(&self, particle: usize, predicate: u16) -> Option<usize> {
        let key = (particle as u32) << 16 | u32::from(predicate);
        self.keys.binary_search(&key).ok()
    }

    /// How well the noun with coherence row `row` fits centroid `i`, as a z-score.
    pub fn fit(&self, coherence: &Coherence, row: u16, i: usize) -> f32 {
        let c = self.centroid(i);
        (coherence.cos_with(row, &c) * self.inv_norm[i] - self.mean_cos[i]) * self.inv_sd[i]
    }
}

/// What [`term`] needs of the model and the conversion, and the beam's best path's triples
/// once they are known (every candidate is compared with them).
pub struct Scope<'a> {
    selection: &'a Selection,
    coherence: &'a Coherence,
    ngram: &'a NgramModel,
    lexicon: &'a Lexicon,
    segmenter: &'a Segmenter,
    lattice: &'a Lattice,
    best: std::cell::OnceCell<Vec<Option<Triple>>>,
}

/// A triple noun–particle–predicate of a path that a centroid scores.
struct Triple {
    fit: f32,
    noun: String,
    predicate: String,
    /// Whether the n-gram has counted the noun and particle followed by the predicate.
    counted: bool,
}

impl<'a> Scope<'a> {
    /// The scope of one conversion: the centroids, the word vectors of the nouns, the n-gram
    /// (the predicates' ids, and the triples it has counted), the lexicon and POS groups, and
    /// the conversion's lattice.
    pub fn new(
        selection: &'a Selection,
        coherence: &'a Coherence,
        ngram: &'a NgramModel,
        lexicon: &'a Lexicon,
        segmenter: &'a Segmenter,
        lattice: &'a Lattice,
    ) -> Self {
        Scope {
            selection,
            coherence,
            ngram,
            lexicon,
            segmenter,
            lattice,
            best: std::cell::OnceCell::new(),
        }
    }

    /// The scored triple over three consecutive nodes, if any.
    fn triple(&self, n: &Node, p: &Node, x: &Node) -> Option<Triple> {
        let (lexicon, lattice) = (self.lexicon, self.lattice);
        if !self.segmenter.in_group(n.left_id, PosGroup::ContentNoun) {
            return None;
        }
        let row = self.coherence.row(n.entry)?;
        let particle = lattice.surface(lexicon, p);
        let pi = self
            .selection
            .particles
            .iter()
            .position(|q| *q == particle)?;
        let surface = lattice.surface(lexicon, x);
        let reading = lattice.span(x.begin as usize, x.end as usize);
        let xi = self
            .ngram
            .words_with_prefix(&format!("{reading}\0{surface}\0"), 1)
            .next()?;
        let i = self.selection.find(pi, xi)?;
        let ni = node_word(self.ngram, lexicon, lattice, n);
        let stem = stem_of(&surface, reading);
        // the pair's trigram followers that are the predicate in any form: a triple the
        // n-gram has seen is its to judge, even where the collocations count only the plain
        // forms ([`crate::lm::collocation::is_plain_form`]: `医者に言わ` is no evidence for
        // `医者に言っ`, nor does the centroid of `に 言う` get to weigh it)
        let counted = ni != UNK
            && self
                .ngram
                .trigram_followers(ni, node_word(self.ngram, lexicon, lattice, p))
                .any(|(f, _)| {
                    self.ngram
                        .word(f)
                        .is_some_and(|f| same_verb(stem_of(f.surface, f.reading), stem))
                });
        Some(Triple {
            fit: self.selection.fit(self.coherence, row, i),
            noun: lattice.surface(lexicon, n),
            predicate: surface,
            counted,
        })
    }

    /// The path's nodes.
    fn nodes(&self, path: &[u32]) -> Vec<&'a Node> {
        let all = self.lattice.nodes();
        path.iter().filter_map(|&i| all.get(i as usize)).collect()
    }

    /// Per three consecutive nodes, their scored triple.
    fn triples(&self, nodes: &[&Node]) -> Vec<Option<Triple>> {
        nodes
            .windows(3)
            .map(|w| self.triple(w[0], w[1], w[2]))
            .collect()
    }
}

/// The selection term of a candidate `path` against the beam's `best` path ([module
/// docs](self)), before its weight: 0 unless both cover the same reading spans.
pub fn term(scope: &Scope, path: &[u32], best: &[u32]) -> f32 {
    if path == best {
        return 0.0;
    }
    let (nodes, top_nodes) = (scope.nodes(path), scope.nodes(best));
    let same_spans = nodes.len() == top_nodes.len()
        && nodes
            .iter()
            .zip(&top_nodes)
            .all(|(a, b)| (a.begin, a.end) == (b.begin, b.end));
    if !same_spans {
        return 0.0;
    }
    let top = scope.best.get_or_init(|| scope.triples(&top_nodes));
    scope
        .triples(&nodes)
        .iter()
        .zip(top)
        .map(|(m, t)| match (m, t) {
            (Some(m), Some(t))
                if !m.counted
                    && !t.counted
                    && kanji_differ(&m.noun, &t.noun)
                    && kanji_differ(&m.predicate, &t.predicate) =>
            {
                m.fit - t.fit
            }
            _ => 0.0,
        })
        .sum()
}

/// Whether two spellings of a reading are two words to the term: the same spelling, or both
/// with kanji and neither's kanji within the other's (`機械`/`機会`, `熱い`/`暑い`; not
/// `色々`/`いろいろ`, `心掛け`/`心がけ`).
///
/// ```
/// use henkan::lm::selection::kanji_differ;
/// assert!(kanji_differ("機械", "機会"));
/// assert!(kanji_differ("熱い", "熱い"));
/// assert!(!kanji_differ("色々", "いろいろ"));
/// assert!(!kanji_differ("心掛け", "心がけ"));
/// ```
pub fn kanji_differ(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let kanji = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .collect()
    };
    let (ka, kb) = (kanji(a), kanji(b));
    !ka.is_empty()
        && !kb.is_empty()
        && !ka.iter().all(|c| kb.contains(c))
        && !kb.iter().all(|c| ka.contains(c))
}

//! Builds the n-gram section ([`henkan::lm::ngram`]) from the analyzed training corpus.
//!
//! Input text: one sentence per line, tokens separated by spaces, each token
//! `surface/reading/left_id/right_id` with `%`, `/` and space percent-escaped, or `<unk>`
//! (as written by the corpus analyzer; these are exactly lexicon entries). Every line
//! starts with `<s>`; there is no end token.
//!
//! Two passes over the same texts, each text with a weight (its counts are multiplied by
//! it, so modern text can outweigh literature): [`NgramBuilder::count_words`] then, after
//! [`NgramBuilder::freeze_vocab`], [`NgramBuilder::count_ngrams`]. [`NgramBuilder::finish`]
//! prunes (minimum counts, top-K followers per context, then a byte budget by raising the
//! trigram and bigram minimum counts) and serializes.

use crate::error::{Error, Result};
use crate::token::parse_token;
use henkan::lm::ngram::{parse_key, word_key, NgramWord, BOS, NGRAM_MAGIC, UNK};
use std::collections::HashMap;

/// Pruning options.
#[derive(Debug, Clone)]
pub struct NgramOptions {
    /// Vocabulary size including `<unk>` and `<s>` (at most 65536).
    pub vocab: usize,
    /// Keep at most this many followers per word.
    pub top_bigram: usize,
    /// Keep at most this many followers per word pair.
    pub top_trigram: usize,
    /// Minimum weighted bigram count.
    pub min_bigram: u32,
    /// Minimum weighted trigram count.
    pub min_trigram: u32,
    /// Number of frequent words kept for the fallback list.
    pub frequent: usize,
    /// Byte budget for the whole section; thresholds are raised until it fits.
    pub budget: usize,
    /// The backoff factor α.
    pub alpha: f32,
    /// Drop a trigram whose log2 score beats its backoff estimate (α × the stored bigram,
    /// else α² × the unigram) by less than this many bits (`−∞` keeps all).
    pub prune_bits: f32,
    /// Minimum weighted count of a trigram that [`NgramBuilder::finish_keeping`] is told to
    /// keep (a collocation): such trigrams stay whatever the budget and the top-K do to the
    /// others, which are thinned to make room for them. `u32::MAX`: none kept.
    pub min_kept: u32,
}

impl Default for NgramOptions {
    fn default() -> Self {
        NgramOptions {
            vocab: 50_000,
            top_bigram: 64,
            top_trigram: 24,
            min_bigram: 2,
            min_trigram: 2,
            frequent: 256,
            budget: 4 << 20,
            alpha: 0.4,
            prune_bits: f32::NEG_INFINITY,
            min_kept: u32::MAX,
        }
    }
}

/// What [`NgramBuilder::finish`] did.
#[derive(Debug, Clone, Default)]
pub struct NgramReport {
    /// Weighted tokens counted (second pass).
    pub tokens: u64,
    /// Distinct word types seen.
    pub types: usize,
    /// Vocabulary size.
    pub vocab: usize,
    /// Share of (weighted) tokens covered by the vocabulary.
    pub coverage: f64,
    /// Distinct bigrams and trigrams seen.
    pub seen: (usize, usize),
    /// Stored bigrams, trigram contexts and trigrams.
    pub stored: (usize, usize, usize),
    /// Final minimum counts (bigram, trigram).
    pub min_counts: (u32, u32),
    /// Section size in bytes.
    pub bytes: usize,
}

/// Counts words and n-grams, then writes the section.
#[derive(Debug, Default)]
pub struct NgramBuilder {
    word_counts: HashMap<String, u64>,
    ids: HashMap<String, u16>,
    keys: Vec<Vec<u8>>,
    unigram: Vec<u64>,
    bigram: HashMap<u32, u32>,
    trigram: HashMap<u64, u32>,
    tokens: u64,
}

impl NgramBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// First pass: counts word types.
    pub fn count_words(&mut self, text: &str, weight: u32) {
        for line in text.lines() {
            for tok in line.split(' ') {
                if tok.is_empty() || tok == "<unk>" {
                    continue;
                }
                match self.word_counts.get_mut(tok) {
                    Some(c) => *c += weight as u64,
                    None => {
                        self.word_counts.insert(tok.to_string(), weight as u64);
                    }
                }
            }
        }
    }

    /// Keeps the `vocab − 2` most frequent words; ids follow the byte order of their keys.
    pub fn freeze_vocab(&mut self, vocab: usize) {
        let vocab = vocab.clamp(3, 65536);
        let mut words: Vec<(&String, &u64)> = self
            .word_counts
            .iter()
            .filter(|(t, _)| parse_token(t).is_some())
            .collect();
        words.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut keyed: Vec<(Vec<u8>, String)> = words
            .into_iter()
            .take(vocab - 2)
            .map(|(tok, _)| {
                let (s, r, l, rt) = parse_token(tok).expect("filtered");
                (word_key(&r, &s, l, rt), tok.clone())
            })
            .collect();
        keyed.sort();
        // Two spellings of one entry (different escapes) would share a key: keep one.
        keyed.dedup_by(|a, b| a.0 == b.0);
        self.keys = vec![Vec::new(), Vec::new()];
        self.ids.clear();
        for (key, tok) in keyed {
            self.ids.insert(tok, self.keys.len() as u16);
            self.keys.push(key);
        }
        self.unigram = vec![0; self.keys.len()];
    }

    /// Second pass: counts unigrams, bigrams and trigrams over vocabulary ids.
    pub fn count_ngrams(&mut self, text: &str, weight: u32) {
        let mut ids = Vec::new();
        for line in text.lines() {
            ids.clear();
            ids.push(BOS);
            ids.extend(
                line.split(' ')
                    .filter(|t| !t.is_empty())
                    .map(|t| self.ids.get(t).copied().unwrap_or(UNK)),
            );
            if ids.len() < 2 {
                continue;
            }
            for (i, &w) in ids.iter().enumerate().skip(1) {
                self.unigram[w as usize] += weight as u64;
                self.tokens += weight as u64;
                let v = ids[i - 1];
                *self.bigram.entry((v as u32) << 16 | w as u32).or_default() += weight;
                if i >= 2 {
                    let u = ids[i - 2];
                    let k = (u as u64) << 32 | (v as u64) << 16 | w as u64;
                    *self.trigram.entry(k).or_default() += weight;
                }
            }
        }
    }

    /// The vocabulary's words by id (after [`NgramBuilder::freeze_vocab`]; `None` for `<unk>`
    /// and `<s>`), for the caller's choice of trigrams to keep.
    pub fn words(&self) -> Vec<Option<NgramWord<'_>>> {
        self.keys.iter().map(|k| parse_key(k)).collect()
    }

    /// Prunes and serializes.
    pub fn finish(self, opts: &NgramOptions) -> Result<(Vec<u8>, NgramReport)> {
        self.finish_keeping(opts, |_, _, _| false)
    }

    /// [`NgramBuilder::finish`], keeping every trigram `u v w` seen at least
    /// [`NgramOptions::min_kept`] times for which `keep(u, v, w)` holds (ids as
    /// [`NgramBuilder::words`] lists them).
    pub fn finish_keeping(
        self,
        opts: &NgramOptions,
        keep: impl Fn(u16, u16, u16) -> bool,
    ) -> Result<(Vec<u8>, NgramReport)> {
        let scale = 8u32;
        let quant = |p: f64| -> u8 { (-p.log2() * scale as f64).round().clamp(0.0, 255.0) as u8 };
        let v = self.keys.len();
        let mut report = NgramReport {
            tokens: self.tokens,
            types: self.word_counts.len(),
            vocab: v,
            coverage: 1.0 - self.unigram[UNK as usize] as f64 / self.tokens.max(1) as f64,
            seen: (self.bigram.len(), self.trigram.len()),
            ..Default::default()
        };
        let total: u64 = self.unigram.iter().skip(2).sum::<u64>().max(1);
        let unigram: Vec<u8> = self
            .unigram
            .iter()
            .map(|&c| quant(c.max(1) as f64 / total as f64))
            .collect();
        // Context counts from the full tables (every follower, `<unk>` included).
        let mut ctx1 = vec![0u64; v];
        for (&k, &c) in &self.bigram {
            ctx1[(k >> 16) as usize] += c as u64;
        }
        let mut ctx2: HashMap<u32, u64> = HashMap::new();
        for (&k, &c) in &self.trigram {
            *ctx2.entry((k >> 16) as u32).or_default() += c as u64;
        }
        let floor = opts.min_bigram.min(opts.min_trigram).max(1);
        let mut bi: Vec<(u32, u32)> = self
            .bigram
            .into_iter()
            .filter(|&(k, c)| c >= floor && (k & 0xffff) as u16 > BOS)
            .collect();
        bi.sort_unstable();
        let mut tri: Vec<(u64, u32)> = self
            .trigram
            .into_iter()
            .filter(|&(k, c)| c >= floor.min(opts.min_kept) && (k & 0xffff) as u16 > BOS)
            .collect();
        tri.sort_unstable();
        let kept: Vec<bool> = tri
            .iter()
            .map(|&(k, c)| c >= opts.min_kept && keep((k >> 32) as u16, (k >> 16) as u16, k as u16))
            .collect();
        let mut frequent: Vec<u16> = (2..v as u16).collect();
        frequent.sort_by(|&a, &b| {
            self.unigram[b as usize]
                .cmp(&self.unigram[a as usize])
                .then(a.cmp(&b))
        });
        frequent.truncate(opts.frequent);
        let blob: usize = self.keys.iter().map(Vec::len).sum();
        // Fixed size: header, unigrams, word and bigram offsets, blob, frequent words.
        let fixed = 40 + v + 8 * (v + 1) + blob + 2 * frequent.len();
        let (mut min2, mut min3) = (opts.min_bigram.max(1), opts.min_trigram.max(1));
        let prune = opts.prune_bits as f64;
        let log_a = (opts.alpha as f64).log2();
        loop {
            // The score a pruned trigram falls back to (top-K truncation of bigrams ignored).
            let backoff = |v: u16, w: u16| -> f64 {
                let key = (v as u32) << 16 | w as u32;
                match bi.binary_search_by_key(&key, |e| e.0) {
                    Ok(k) if bi[k].1 >= min2 => {
                        log_a + (bi[k].1 as f64 / ctx1[v as usize].max(1) as f64).log2()
                    }
                    _ => {
                        2.0 * log_a + (self.unigram[w as usize].max(1) as f64 / total as f64).log2()
                    }
                }
            };
            // Bigrams: followers per word, best first, top-K.
            let mut bigrams: Vec<Vec<(u16, u8)>> = vec![Vec::new(); v];
            let mut i = 0;
            while i < bi.len() {
                let ctx = bi[i].0 >> 16;
                let mut j = i;
                while j < bi.len() && bi[j].0 >> 16 == ctx {
                    j += 1;
                }
                let mut l: Vec<(u32, u16)> = bi[i..j]
                    .iter()
                    .filter(|e| e.1 >= min2)
                    .map(|e| (e.1, e.0 as u16))
                    .collect();
                l.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                l.truncate(opts.top_bigram);
                let denom = ctx1[ctx as usize].max(1) as f64;
                bigrams[ctx as usize] = l
                    .into_iter()
                    .map(|(c, w)| (w, quant(c as f64 / denom)))
                    .collect();
                i = j;
            }
            let mut trigrams: Vec<(u32, Vec<(u16, u8)>)> = Vec::new();
            let mut i = 0;
            while i < tri.len() {
                let ctx = (tri[i].0 >> 16) as u32;
                let mut j = i;
                while j < tri.len() && (tri[j].0 >> 16) as u32 == ctx {
                    j += 1;
                }
                let denom = ctx2.get(&ctx).copied().unwrap_or(1).max(1) as f64;
                let v = (ctx & 0xffff) as u16;
                // (kept, count, word)
                let mut l: Vec<(bool, u32, u16)> = (i..j)
                    .map(|x| (kept[x], tri[x].1, tri[x].0 as u16))
                    .filter(|&(k, c, w)| {
                        k || c >= min3
                            && (prune == f64::NEG_INFINITY
                                || (c as f64 / denom).log2() - backoff(v, w) >= prune)
                    })
                    .collect();
                if !l.is_empty() {
                    // the top K, and every kept one beyond them
                    l.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
                    let mut rank = 0;
                    l.retain(|e| {
                        rank += 1;
                        rank <= opts.top_trigram || e.0
                    });
                    let l: Vec<(u32, u16)> = l.into_iter().map(|(_, c, w)| (c, w)).collect();
                    trigrams.push((
                        ctx,
                        l.into_iter()
                            .map(|(c, w)| (w, quant(c as f64 / denom)))
                            .collect(),
                    ));
                }
                i = j;
            }
            let nb: usize = bigrams.iter().map(Vec::len).sum();
            let nm: usize = trigrams.iter().map(|t| t.1.len()).sum();
            let size = fixed + 3 * nb + 8 * trigrams.len() + 3 * nm;
            if size > opts.budget && (min3 < 1 << 20 || min2 < 1 << 20) {
                // Trigrams go first; bigrams once trigrams are thinner than bigrams.
                if min3 <= 2 * min2 || min2 >= 1 << 20 {
                    min3 = (min3 * 3).div_ceil(2).max(min3 + 1);
                } else {
                    min2 = (min2 * 3).div_ceil(2).max(min2 + 1);
                }
                continue;
            }
            let tables = NgramTables {
                words: self.keys,
                unigram,
                bigrams,
                trigrams,
                frequent,
                alpha_milli: (opts.alpha * 1000.0).round() as u32,
                scale,
            };
            let bytes = tables.to_bytes()?;
            report.stored = (nb, tables.trigrams.len(), nm);
            report.min_counts = (min2, min3);
            report.bytes = bytes.len();
            return Ok((bytes, report));
        }
    }
}

/// Adds (or replaces, in its place) the n-gram section of a model container; checks the
/// section first.
pub fn attach_ngram(model: Vec<u8>, section: Vec<u8>) -> Result<Vec<u8>> {
    use crate::container::ContainerWriter;
    use henkan::model::{Container, SectionBytes, SectionKind};
    henkan::lm::ngram::NgramModel::from_section(SectionBytes::from_vec(section.clone()))?;
    let container = Container::from_bytes(model)?;
    let mut w = ContainerWriter::new();
    let mut section = Some(section);
    for e in container.entries() {
        let Some(kind) = e.kind else { continue };
        if kind == SectionKind::Ngram {
            // in the old one's place, so that the order a browser streams the model in stays
            if let Some(s) = section.take() {
                w.add(kind, s);
            }
        } else if let Some(s) = container.section(kind) {
            w.add(kind, s.as_ref().to_vec());
        }
    }
    if let Some(s) = section {
        w.add(SectionKind::Ngram, s);
    }
    Ok(w.finish())
}

/// What the builder writes: the arrays of one model, before serialization.
#[derive(Debug, Clone, Default)]
pub struct NgramTables {
    /// Word keys (see [`word_key`]) by id, strictly increasing from id 2; ids 0 and 1
    /// (`<unk>`, `<s>`) have empty keys.
    pub words: Vec<Vec<u8>>,
    /// Quantized unigram score per id.
    pub unigram: Vec<u8>,
    /// Followers (id, q) per word id, best first.
    pub bigrams: Vec<Vec<(u16, u8)>>,
    /// Followers (id, q) per context pair, contexts sorted by `u << 16 | v`.
    pub trigrams: Vec<(u32, Vec<(u16, u8)>)>,
    /// Frequent word ids.
    pub frequent: Vec<u16>,
    /// α × 1000.
    pub alpha_milli: u32,
    /// Quantization steps per bit.
    pub scale: u32,
}

impl NgramTables {
    /// Serializes the tables into section bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let v = self.words.len();
        let mut blob = Vec::new();
        let mut offsets = vec![0u32];
        for (id, k) in self.words.iter().enumerate() {
            if id >= 3 && self.words[id - 1] >= *k {
                return Err(Error::Build(
                    "n-gram vocabulary keys must be strictly increasing from id 2".into(),
                ));
            }
            blob.extend_from_slice(k);
            offsets.push(blob.len() as u32);
        }
        let nb: usize = self.bigrams.iter().map(Vec::len).sum();
        let nm: usize = self.trigrams.iter().map(|t| t.1.len()).sum();
        let mut out = Vec::new();
        out.extend_from_slice(&NGRAM_MAGIC);
        for x in [
            v,
            self.alpha_milli as usize,
            self.scale as usize,
            nb,
            self.trigrams.len(),
            nm,
            self.frequent.len(),
            blob.len(),
        ] {
            out.extend_from_slice(&(x as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.unigram);
        for o in &offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        out.extend_from_slice(&blob);
        let lists = |out: &mut Vec<u8>, lists: &mut dyn Iterator<Item = &Vec<(u16, u8)>>| {
            let lists: Vec<&Vec<(u16, u8)>> = lists.collect();
            let mut o = 0u32;
            out.extend_from_slice(&o.to_le_bytes());
            for l in &lists {
                o += l.len() as u32;
                out.extend_from_slice(&o.to_le_bytes());
            }
            for l in &lists {
                for &(id, _) in l.iter() {
                    out.extend_from_slice(&id.to_le_bytes());
                }
            }
            for l in &lists {
                out.extend(l.iter().map(|&(_, q)| q));
            }
        };
        let mut bi = self.bigrams.iter();
        lists(&mut out, &mut bi);
        for (ctx, _) in &self.trigrams {
            out.extend_from_slice(&ctx.to_le_bytes());
        }
        let mut tri = self.trigrams.iter().map(|t| &t.1);
        lists(&mut out, &mut tri);
        for f in &self.frequent {
            out.extend_from_slice(&f.to_le_bytes());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::lm::ngram::NgramModel;
    use henkan::model::SectionBytes;

    fn tiny() -> Vec<u8> {
        NgramTables {
            words: vec![
                Vec::new(),
                Vec::new(),
                word_key("あめ", "雨", 1, 1),
                word_key("は", "は", 2, 2),
            ],
            unigram: vec![255, 255, 16, 8],
            bigrams: vec![vec![], vec![(3, 4), (2, 9)], vec![(3, 1)], vec![]],
            trigrams: vec![((1 << 16) | 3, vec![(2, 2)])],
            frequent: vec![3, 2],
            alpha_milli: 400,
            scale: 8,
        }
        .to_bytes()
        .unwrap()
    }

    /// `靴を` is followed by `脱い` 6 times and by `履い` 3 times.
    fn shoes() -> NgramBuilder {
        let mut text = String::new();
        for _ in 0..6 {
            text.push_str("靴/くつ/1/1 を/を/2/2 脱い/ぬい/3/3\n");
        }
        for _ in 0..3 {
            text.push_str("靴/くつ/1/1 を/を/2/2 履い/はい/3/3\n");
        }
        let mut b = NgramBuilder::new();
        b.count_words(&text, 1);
        b.freeze_vocab(100);
        b.count_ngrams(&text, 1);
        b
    }

    fn followers_of_shoes(bytes: Vec<u8>) -> Vec<String> {
        let m = NgramModel::from_section(SectionBytes::from_vec(bytes)).unwrap();
        let shoe = m.id("くつ", "靴", 1, 1).unwrap();
        let o = m.id("を", "を", 2, 2).unwrap();
        m.trigram_followers(shoe, o)
            .map(|(w, _)| m.word(w).unwrap().surface.to_string())
            .collect()
    }

    #[test]
    fn a_kept_trigram_stays_below_the_minimum_count_and_beyond_the_top_k() {
        let opts = NgramOptions {
            min_trigram: 4,
            top_trigram: 1,
            min_kept: 2,
            ..NgramOptions::default()
        };
        assert_eq!(
            followers_of_shoes(shoes().finish(&opts).unwrap().0),
            ["脱い"]
        );
        let b = shoes();
        let wear: Vec<bool> = b
            .words()
            .iter()
            .map(|w| w.is_some_and(|w| w.surface == "履い"))
            .collect();
        let (bytes, _) = b.finish_keeping(&opts, |_, _, w| wear[w as usize]).unwrap();
        assert_eq!(followers_of_shoes(bytes), ["脱い", "履い"]);
        // seen fewer times than min_kept: not kept
        let opts = NgramOptions {
            min_kept: 4,
            ..opts
        };
        let (bytes, _) = shoes()
            .finish_keeping(&opts, |_, _, w| wear[w as usize])
            .unwrap();
        assert_eq!(followers_of_shoes(bytes), ["脱い"]);
    }

    #[test]
    fn tiny_tables_round_trip() {
        let m = NgramModel::from_section(SectionBytes::from_vec(tiny())).unwrap();
        assert_eq!(m.id("は", "は", 2, 2), Some(3));
        assert_eq!(
            m.bigram_followers(BOS).collect::<Vec<_>>(),
            [(3, -0.5), (2, -1.125)]
        );
        assert_eq!(m.score(BOS, 3, 2), -0.25);
        assert_eq!(m.score(UNK, 3, 2), 2.0 * 0.4f32.log2() - 2.0);
        // Out-of-range ids from a caller never panic.
        assert_eq!(m.score(9999, 9999, 9999), 2.0 * 0.4f32.log2() - 1.0);
        assert_eq!(m.word(9999), None);
    }

    /// A truncated section is an error, and a flipped byte never panics.
    #[test]
    fn truncated_or_flipped_never_panics() {
        let bytes = tiny();
        for len in 0..bytes.len() {
            let r = NgramModel::from_section(SectionBytes::from_vec(bytes[..len].to_vec()));
            assert!(r.is_err(), "length {len}");
        }
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0xa5;
            if let Ok(m) = NgramModel::from_section(SectionBytes::from_vec(b)) {
                for w in 0..6 {
                    let _ = (m.score(BOS, 3, w), m.word(w), m.words_with_prefix("は", 10));
                }
                let _ = m.frequent().count();
            }
        }
    }

    #[test]
    fn corrupt_section_is_an_error() {
        assert!(NgramModel::from_section(SectionBytes::from_vec(vec![0; 10])).is_err());
        let mut b = NGRAM_MAGIC.to_vec();
        b.extend_from_slice(&[0xff; 32]);
        assert!(NgramModel::from_section(SectionBytes::from_vec(b)).is_err());
    }
}

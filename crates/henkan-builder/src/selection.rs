//! Writes the `Selection` section ([`henkan::lm::selection`]): the centroids of the nouns each
//! particle and predicate take (`training/selection_centroids.py`), keyed by the predicate's
//! n-gram word and product-quantized: blocks of [`SUB`] components, [`CODES`] centroids per
//! block (4 bits), a codebook fitted to them by k-means.
//!
//! Measured 2026-12-03 (BENCHMARKS.md): the coherence's own codebook (8 blocks of 256) gives
//! the centroids back at a cosine of 0.85 (median), which moves a noun's z-score as much as
//! two homophones differ; with a codebook fitted to the centroids, at 8 bytes a centroid, the
//! three sets and the everyday phrases convert within a sentence of what the exact centroids give.

use crate::container::with_section;
use crate::error::{Error, Result};
use crate::lexicon::write_varint;
use henkan::lm::coherence::Coherence;
use henkan::lm::ngram::NgramModel;
use henkan::lm::selection::{MAX_PARTICLES, SELECTION_MAGIC, SPREAD_STEPS};
use henkan::model::{Container, SectionKind};

/// Components per block of the product quantization.
pub const SUB: usize = 4;
/// Centroids per block (codes of 4 bits).
pub const CODES: usize = 16;
/// Lloyd iterations of the k-means.
const ITERS: usize = 25;

/// One line of the centroid file.
struct Pair {
    particle: usize,
    spelling: String,
    reading: String,
    sd: f32,
    centroid: Vec<f32>,
}

/// What [`attach_selection`] kept.
#[derive(Debug, Clone, Copy)]
pub struct SelectionReport {
    /// Centroids in the file.
    pub read: usize,
    /// Of those, with a predicate in the n-gram's vocabulary (the section's).
    pub kept: usize,
    /// Bytes of the section (before compression).
    pub bytes: usize,
}

fn floats(fields: &[&str], dims: usize, line: usize) -> Result<Vec<f32>> {
    let v: Vec<f32> = fields
        .iter()
        .map(|f| f.parse::<f32>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| Error::Build(format!("selection line {line}: not a number")))?;
    if v.len() != dims || v.iter().any(|x| !x.is_finite()) {
        return Err(Error::Build(format!(
            "selection line {line}: {} components, want {dims}",
            v.len()
        )));
    }
    Ok(v)
}

/// A centroid file: the particles, their mean noun vectors and the pairs.
struct Centroids {
    particles: Vec<String>,
    means: Vec<Vec<f32>>,
    pairs: Vec<Pair>,
}

/// Reads a centroid file (see the script's docs).
fn parse(tsv: &str, dims: usize) -> Result<Centroids> {
    let (mut particles, mut means, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    for (i, line) in tsv.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["mean", p, rest @ ..] => {
                particles.push(p.to_string());
                means.push(floats(rest, dims, i + 1)?);
            }
            ["pair", p, spelling, reading, sd, rest @ ..] => {
                let particle = particles.iter().position(|q| q == p).ok_or_else(|| {
                    Error::Build(format!(
                        "selection line {}: particle {p} has no mean",
                        i + 1
                    ))
                })?;
                let sd: f32 = sd
                    .parse()
                    .ok()
                    .filter(|s: &f32| *s > 0.0 && s.is_finite())
                    .ok_or_else(|| Error::Build(format!("selection line {}: bad sd", i + 1)))?;
                pairs.push(Pair {
                    particle,
                    spelling: spelling.to_string(),
                    reading: reading.to_string(),
                    sd,
                    centroid: floats(rest, dims, i + 1)?,
                });
            }
            _ => return Err(Error::Build(format!("selection line {}: unknown", i + 1))),
        }
    }
    if particles.len() > MAX_PARTICLES || particles.iter().any(|p| p.len() > 255) {
        return Err(Error::Build(
            "selection: too many or too long particles".into(),
        ));
    }
    Ok(Centroids {
        particles,
        means,
        pairs,
    })
}

/// k-means of the `rows` sub-vectors `x(i)` (`sub` components each) into `k` centroids:
/// starts from evenly spaced rows, runs [`ITERS`] Lloyd iterations (a centroid left empty
/// keeps its place); deterministic.
fn kmeans(rows: usize, sub: usize, k: usize, x: impl Fn(usize) -> Vec<f32>) -> Vec<f32> {
    let xs: Vec<Vec<f32>> = (0..rows).map(x).collect();
    let k = k.min(rows.max(1));
    let mut c: Vec<f32> = (0..k)
        .flat_map(|q| xs.get(q * rows / k).cloned().unwrap_or(vec![0.0; sub]))
        .collect();
    for _ in 0..ITERS {
        let mut sum = vec![0f64; k * sub];
        let mut count = vec![0usize; k];
        for v in &xs {
            let q = nearest(&c, sub, v);
            count[q] += 1;
            for (s, &x) in sum[q * sub..(q + 1) * sub].iter_mut().zip(v) {
                *s += f64::from(x);
            }
        }
        for q in 0..k {
            if count[q] > 0 {
                for t in 0..sub {
                    c[q * sub + t] = (sum[q * sub + t] / count[q] as f64) as f32;
                }
            }
        }
    }
    c.resize(CODES * sub, 0.0);
    c
}

/// The centroid of `book` (`sub` components each) nearest to `v`.
fn nearest(book: &[f32], sub: usize, v: &[f32]) -> usize {
    book.chunks_exact(sub)
        .map(|c| c.iter().zip(v).map(|(a, b)| (a - b) * (a - b)).sum::<f32>())
        .enumerate()
        .fold(
            (0, f32::INFINITY),
            |best, (q, d)| if d < best.1 { (q, d) } else { best },
        )
        .0
}

/// The model with the centroids of `tsv` (`training/selection_centroids.py`'s output) as its
/// `Selection` section; the model needs its `Coherence` (the vectors' dimensions) and `Ngram`
/// (the predicates' ids) sections. A centroid whose predicate is not an n-gram word is left out.
pub fn attach_selection(model: Vec<u8>, tsv: &str) -> Result<(Vec<u8>, SelectionReport)> {
    let container = Container::from_bytes(model)?;
    let coherence = Coherence::from_section(container.require(SectionKind::Coherence)?.as_ref())?;
    let ngram = NgramModel::from_section(container.require(SectionKind::Ngram)?)?;
    let dims = coherence.dims();
    if dims % SUB != 0 || (dims / SUB) % 2 != 0 {
        return Err(Error::Build(format!("selection: {dims} dimensions")));
    }
    let Centroids {
        particles,
        means,
        pairs,
    } = parse(tsv, dims)?;
    let mut keyed: Vec<(u32, &Pair)> = pairs
        .iter()
        .filter_map(|p| {
            let id = ngram
                .words_with_prefix(&format!("{}\0{}\0", p.reading, p.spelling), 1)
                .next()?;
            Some(((p.particle as u32) << 16 | u32::from(id), p))
        })
        .collect();
    keyed.sort_by_key(|k| k.0);
    keyed.dedup_by_key(|k| k.0);
    let blocks = dims / SUB;
    // the codebook, block by block, then one scale for all of it (i8)
    let mut book = Vec::with_capacity(blocks * CODES * SUB);
    for j in 0..blocks {
        book.extend(kmeans(keyed.len(), SUB, CODES, |i| {
            keyed[i].1.centroid[j * SUB..(j + 1) * SUB].to_vec()
        }));
    }
    let top = book.iter().fold(0f32, |t, x| t.max(x.abs()));
    let scale = if top > 0.0 { top / 127.0 } else { 1.0 };
    let stored: Vec<i8> = book
        .iter()
        .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
        .collect();
    let book: Vec<f32> = stored.iter().map(|&x| x as f32 * scale).collect();
    let mut out = Vec::new();
    out.extend_from_slice(SELECTION_MAGIC);
    for v in [dims, particles.len(), keyed.len(), SUB, CODES] {
        out.extend_from_slice(&(v as u32).to_le_bytes());
    }
    out.extend_from_slice(&scale.to_le_bytes());
    for p in &particles {
        out.push(p.len() as u8);
        out.extend_from_slice(p.as_bytes());
    }
    for m in &means {
        let top = m.iter().fold(0f32, |t, x| t.max(x.abs()));
        let s = if top > 0.0 { top / 127.0 } else { 1.0 };
        out.extend_from_slice(&s.to_le_bytes());
        out.extend(
            m.iter()
                .map(|x| (x / s).round().clamp(-127.0, 127.0) as i8 as u8),
        );
    }
    out.extend(stored.iter().map(|&x| x as u8));
    let mut prev = 0u32;
    for &(key, _) in &keyed {
        write_varint(&mut out, u64::from(key - prev));
        prev = key;
    }
    for (_, p) in &keyed {
        let codes: Vec<u8> = (0..blocks)
            .map(|j| {
                let at = j * CODES * SUB;
                nearest(
                    &book[at..at + CODES * SUB],
                    SUB,
                    &p.centroid[j * SUB..(j + 1) * SUB],
                ) as u8
            })
            .collect();
        out.extend(codes.chunks_exact(2).map(|c| c[0] | c[1] << 4));
    }
    for (_, p) in &keyed {
        let q = (p.sd * SPREAD_STEPS - 1.0).round().clamp(0.0, 255.0);
        out.push(q as u8);
    }
    let report = SelectionReport {
        read: pairs.len(),
        kept: keyed.len(),
        bytes: out.len(),
    };
    Ok((
        with_section(&container, SectionKind::Selection, out),
        report,
    ))
}

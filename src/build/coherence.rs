//! Builds the `Coherence` section ([`crate::lm::coherence`]): word vectors for the model's
//! lexicon entries, from a table of vectors and a map surface → row
//! (`training/coherence_vectors.py`).

use crate::error::{Error, Result};
use crate::lexicon::Lexicon;
use crate::lm::coherence::Coherence;
use crate::model::{Container, SectionKind};
use std::collections::HashMap;

/// What [`attach_coherence`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoherenceReport {
    /// Lexicon entries given a vector.
    pub entries: usize,
    /// Distinct surfaces among them.
    pub surfaces: usize,
    /// Vector rows kept (those some entry uses).
    pub rows: usize,
    /// Bytes of the section (before compression).
    pub bytes: usize,
}

/// Parses `surface<TAB>row` lines (rows index `vectors`, `rows` of them).
pub fn parse_words(words_tsv: &str, rows: usize) -> Result<HashMap<String, u32>> {
    let mut map = HashMap::new();
    for (n, line) in words_tsv.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = line
            .split_once('\t')
            .and_then(|(s, r)| Some((s, r.parse::<u32>().ok()?)))
            .filter(|&(_, r)| (r as usize) < rows);
        match row {
            Some((s, r)) => {
                map.insert(s.to_string(), r);
            }
            None => {
                return Err(Error::Build(format!(
                    "words line {}: want surface<TAB>row below {rows}",
                    n + 1
                )))
            }
        }
    }
    Ok(map)
}

/// Adds (or replaces) the `Coherence` section of `model`: every lexicon entry whose surface
/// is in `words` and that `keep(left POS id, word cost)` accepts gets that word's vector
/// (`dims` floats per row in `vectors`). Rows no entry uses are left out; the rest are
/// numbered by how many entries use them, most first.
pub fn attach_coherence(
    model: Vec<u8>,
    words: &HashMap<String, u32>,
    vectors: &[f32],
    dims: usize,
    keep: impl Fn(u16, i32) -> bool,
) -> Result<(Vec<u8>, CoherenceReport)> {
    if dims == 0 || vectors.len() % dims != 0 {
        return Err(Error::Build(format!(
            "{} floats are not rows of {dims}",
            vectors.len()
        )));
    }
    let container = Container::from_bytes(model)?;
    let lexicon = Lexicon::new(
        container.require(SectionKind::LexiconIndex)?,
        container.require(SectionKind::LexiconPostings)?,
    )?;
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut surfaces = std::collections::HashSet::new();
    lexicon.for_each_entry(|reading, e| {
        if !keep(e.left_id, e.cost) {
            return;
        }
        let surface = lexicon.surface_text(&e.surface, reading);
        if let Some(&row) = words.get(&surface) {
            pairs.push((e.offset, row));
            surfaces.insert(surface);
        }
    });
    let mut uses: HashMap<u32, usize> = HashMap::new();
    for &(_, r) in &pairs {
        *uses.entry(r).or_default() += 1;
    }
    let mut order: Vec<(u32, usize)> = uses.into_iter().collect();
    order.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if order.len() > 1 << 16 {
        return Err(Error::Build(format!(
            "{} rows (at most 65,536)",
            order.len()
        )));
    }
    let new_row: HashMap<u32, u16> = order
        .iter()
        .enumerate()
        .map(|(i, &(r, _))| (r, i as u16))
        .collect();
    let mut table = Vec::with_capacity(order.len() * dims);
    for &(r, _) in &order {
        let r = r as usize;
        table.extend_from_slice(&vectors[r * dims..(r + 1) * dims]);
    }
    let pairs: Vec<(u32, u16)> = pairs.iter().map(|&(e, r)| (e, new_row[&r])).collect();
    let section = Coherence::to_section(dims, &table, &pairs)?;
    let report = CoherenceReport {
        entries: pairs.len(),
        surfaces: surfaces.len(),
        rows: order.len(),
        bytes: section.len(),
    };
    Ok((
        container.with_section(SectionKind::Coherence, section),
        report,
    ))
}

//! Builds the `Coherence` section ([`henkan::lm::coherence`]): word vectors for the model's
//! lexicon entries, from a table of vectors and a map surface → row
//! (`training/coherence_vectors.py`).

use crate::container::with_section;
use crate::error::{Error, Result};
use crate::inflection::{dictionary_forms, Conjugations};
use crate::lexicon::write_varint;
use henkan::lexicon::Lexicon;
use henkan::lm::coherence::{COHERENCE_MAGIC, COHERENCE_MAGIC_4BIT, COHERENCE_MAGIC_PQ};
use henkan::model::{Container, SectionKind};
use std::collections::HashMap;

/// How a `Coherence` section stores its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowCoding {
    /// 8 bits per component, each row scaled to its largest (`HKCOHR01`).
    Int8,
    /// 4 bits per component, each row scaled to its largest (`HKCOHR02`).
    Int4,
    /// Product quantization (`HKCOHR03`): each row cut into blocks of `sub` components, up
    /// to 256 centroids per block ([`crate::lstm::product_quantize`], rows that more entries
    /// use weighing more), one byte per block.
    Product {
        /// Components per block.
        sub: usize,
    },
}

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

/// Which word each lexicon entry takes its vector from.
#[derive(Debug, Clone, Copy)]
pub struct EntryWords<'a> {
    /// Surface → vector row ([`parse_words`]).
    pub words: &'a HashMap<String, u32>,
    /// The conjugations of the POS ids, to give inflected entries the vector of their
    /// dictionary form ([`crate::inflection::dictionary_forms`]); `None`: they get none.
    pub conjugations: Option<&'a Conjugations>,
}

/// Adds (or replaces) the `Coherence` section of `model`. Each lexicon entry that
/// `keep(left POS id, word cost)` accepts gets, from `words`:
/// - the vector of its surface, when `words.words` has it;
/// - else, for an inflected entry (`勝っ`), that of its dictionary form (`勝つ`).
///
/// `vectors` holds `dims` floats per row, stored as `coding` says. Rows no entry uses are left
/// out; the rest are numbered by how many entries use them, most first. A `Selection` section
/// goes: its centroids were made in the vectors replaced ([`crate::selection`] makes them
/// again).
pub fn attach_coherence(
    model: Vec<u8>,
    words: &EntryWords<'_>,
    vectors: &[f32],
    dims: usize,
    coding: RowCoding,
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
    let EntryWords {
        words,
        conjugations,
    } = *words;
    let forms = conjugations.map_or_else(HashMap::new, |c| dictionary_forms(&lexicon, c));
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut surfaces = std::collections::HashSet::new();
    lexicon.for_each_entry(|reading, e| {
        if !keep(e.left_id, e.cost) {
            return;
        }
        let surface = lexicon.surface_text(&e.surface, reading);
        let word = match words.get(&surface) {
            Some(&row) => Some((row, surface)),
            None => forms
                .get(&e.offset)
                .and_then(|f| Some((*words.get(f)?, f.clone()))),
        };
        if let Some((row, surface)) = word {
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
    let section = coherence_section(dims, &table, &pairs, coding)?;
    let report = CoherenceReport {
        entries: pairs.len(),
        surfaces: surfaces.len(),
        rows: order.len(),
        bytes: section.len(),
    };
    // the selectional preferences' centroids and the homophone metric were made for the
    // vectors replaced here: they go (`henkan model attach selection` and `attach
    // homophone-metric` make them again)
    let bytes = with_section(&container, SectionKind::Coherence, section);
    let stale: Vec<SectionKind> = [SectionKind::Selection, SectionKind::HomophoneMetric]
        .into_iter()
        .filter(|&k| container.section(k).is_some())
        .collect();
    let bytes = if stale.is_empty() {
        bytes
    } else {
        crate::container::without_sections(&Container::from_bytes(bytes)?, &stale)
    };
    Ok((bytes, report))
}

/// Writes a `Coherence` section ([`henkan::lm::coherence`]): `dims`-dimensional vectors
/// (`vectors.len()` a multiple of `dims`, at most 65,536 rows) stored as `coding` says, and
/// `(entry offset, row)` pairs.
pub fn coherence_section(
    dims: usize,
    vectors: &[f32],
    pairs: &[(u32, u16)],
    coding: RowCoding,
) -> Result<Vec<u8>> {
    if dims == 0 || vectors.len() % dims != 0 || vectors.len() / dims > 1 << 16 {
        return Err(Error::Build("coherence: bad vector table".into()));
    }
    let rows = vectors.len() / dims;
    let mut pairs = pairs.to_vec();
    pairs.sort_unstable();
    pairs.dedup_by_key(|p| p.0);
    if pairs.iter().any(|p| p.1 as usize >= rows) {
        return Err(Error::Build("coherence: row out of range".into()));
    }
    let magic = match coding {
        RowCoding::Int8 => COHERENCE_MAGIC,
        RowCoding::Int4 => COHERENCE_MAGIC_4BIT,
        RowCoding::Product { .. } => COHERENCE_MAGIC_PQ,
    };
    let mut out = Vec::with_capacity(COHERENCE_MAGIC.len() + 20 + vectors.len() + 4 * pairs.len());
    out.extend_from_slice(magic);
    for v in [dims, rows, pairs.len()] {
        out.extend_from_slice(&(v as u32).to_le_bytes());
    }
    match coding {
        RowCoding::Int8 => scalar_rows(&mut out, dims, vectors, 8),
        RowCoding::Int4 => scalar_rows(&mut out, dims, vectors, 4),
        RowCoding::Product { sub } => {
            if sub == 0 || sub > henkan::lm::coherence::MAX_SUB || dims % sub != 0 {
                return Err(Error::Build(format!(
                    "coherence: blocks of {sub} components (1 to {}, dividing {dims})",
                    henkan::lm::coherence::MAX_SUB
                )));
            }
            let (centroids, k, codes) = crate::lstm::product_quantize(vectors, dims, sub, 20);
            for v in [sub, k] {
                out.extend_from_slice(&(v as u32).to_le_bytes());
            }
            // one scale for every centroid: a row is their concatenation
            let m = centroids.iter().fold(0f32, |m, x| m.max(x.abs()));
            let s = if m > 0.0 { 127.0 / m } else { 0.0 };
            out.extend(
                centroids
                    .iter()
                    .map(|x| (x * s).round().clamp(-127.0, 127.0) as i8 as u8),
            );
            out.extend_from_slice(&codes);
        }
    }
    out.resize(out.len().div_ceil(4) * 4, 0);
    write_entry_rows(&mut out, &pairs);
    Ok(out)
}

/// Appends the entry table that ends a `Coherence` section: `(entry offset, row)` pairs, offsets
/// ascending, as the varint differences of the offsets and then the varint rows.
pub fn write_entry_rows(out: &mut Vec<u8>, pairs: &[(u32, u16)]) {
    let mut prev = 0;
    for &(e, _) in pairs {
        write_varint(out, u64::from(e - prev));
        prev = e;
    }
    for &(_, r) in pairs {
        write_varint(out, u64::from(r));
    }
}

/// Appends rows quantized per row to `bits` (8: i8; 4: −7..=7 packed two to a byte, the even
/// component in the low nibble).
fn scalar_rows(out: &mut Vec<u8>, dims: usize, vectors: &[f32], bits: u32) {
    let top = if bits == 8 { 127.0 } else { 7.0 };
    for v in vectors.chunks_exact(dims) {
        let m = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let s = if m > 0.0 { top / m } else { 0.0 };
        let q = v
            .iter()
            .map(|x| (x * s).round().clamp(-top, top) as i8 as u8);
        if bits == 8 {
            out.extend(q);
        } else {
            let q: Vec<u8> = q.collect();
            out.extend(
                q.chunks(2)
                    .map(|p| (p[0] & 0x0f) | (p.get(1).copied().unwrap_or(0) << 4)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::lm::coherence::Coherence;

    fn sample() -> Vec<u8> {
        // rows: 0 = x axis, 1 = near x, 2 = y axis
        let v = [1.0, 0.0, 0.9, 0.1, 0.0, 1.0];
        coherence_section(2, &v, &[(40, 2), (7, 0), (300, 1)], RowCoding::Int8).unwrap()
    }

    #[test]
    fn round_trip_and_lookup() {
        let c = Coherence::from_section(&sample()).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c.row(7), Some(0));
        assert_eq!(c.row(40), Some(2));
        assert_eq!(c.row(300), Some(1));
        assert_eq!(c.row(8), None);
        assert!((c.cos(0, 0) - 1.0).abs() < 1e-3);
        assert!(c.cos(0, 2).abs() < 1e-3);
        assert!(c.cos(0, 1) > 0.99);
    }

    #[test]
    fn related_words_score_higher() {
        let c = Coherence::from_section(&sample()).unwrap();
        assert_eq!(c.of_entries([7]), 0.0);
        let near = c.of_entries([7, 300, 12345]);
        let far = c.of_entries([7, 40]);
        assert!(near > 0.99 && far.abs() < 1e-3, "{near} {far}");
        // three words: the pair sum over √2
        let three = c.score(&[0, 1, 2]);
        let want = (c.cos(0, 1) + c.cos(0, 2) + c.cos(1, 2)) / 2f32.sqrt();
        assert!((three - want).abs() < 1e-5, "{three} {want}");
        // a word twice counts its pair with itself
        let twice = c.score(&[2, 2, 0]);
        let want = (1.0 + 2.0 * c.cos(0, 2)) / 2f32.sqrt();
        assert!((twice - want).abs() < 1e-5, "{twice} {want}");
    }

    #[test]
    fn four_bit_rows_keep_the_directions() {
        // eight pseudo-random 64-dimensional rows, the first two close to each other
        let mut seed = 7u32;
        let mut v: Vec<f32> = (0..8 * 64)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
            })
            .collect();
        for i in 0..64 {
            v[64 + i] = v[i] + 0.2 * v[64 + i];
        }
        let pairs: Vec<(u32, u16)> = (0..8).map(|r| (10 * r as u32, r)).collect();
        let c8 =
            Coherence::from_section(&coherence_section(64, &v, &pairs, RowCoding::Int8).unwrap())
                .unwrap();
        let b4 = coherence_section(64, &v, &pairs, RowCoding::Int4).unwrap();
        assert_eq!(&b4[..8], COHERENCE_MAGIC_4BIT);
        assert_eq!(b4.len(), 20 + 8 * 32 + 2 * 8);
        let c4 = Coherence::from_section(&b4).unwrap();
        assert_eq!(c4.row(30), Some(3));
        assert!(c4.cos(0, 1) > 0.9);
        for a in 0..8 {
            for b in 0..8 {
                let (x, y) = (c4.cos(a, b), c8.cos(a, b));
                assert!((x - y).abs() < 0.05, "rows {a} {b}: {x} against {y}");
            }
        }
        // an odd number of dimensions leaves the last byte's high nibble empty
        let odd = coherence_section(3, &[1.0, -1.0, 0.5], &[(1, 0)], RowCoding::Int4).unwrap();
        // 7 and −7 (0x9) in the first byte, the low nibble first; 4 alone in the second
        assert_eq!(odd[20..22], [0x7 | 0x9 << 4, 0x4]);
        let c = Coherence::from_section(&odd).unwrap();
        assert!((c.cos(0, 0) - 1.0).abs() < 1e-5);
        assert!(coherence_section(64, &v, &pairs, RowCoding::Product { sub: 7 }).is_err());
        assert!(coherence_section(64, &v, &pairs, RowCoding::Product { sub: 0 }).is_err());
        assert!(coherence_section(64, &v, &pairs, RowCoding::Product { sub: 32 }).is_err());
    }

    #[test]
    fn product_quantized_rows_keep_each_words_direction() {
        // 300 pseudo-random 16-dimensional rows in pairs of near twins: with blocks of 4
        // components and up to 256 centroids a block, each row keeps its own direction
        let mut seed = 11u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut v: Vec<f32> = (0..300 * 16).map(|_| next()).collect();
        for r in (0..300).step_by(2) {
            for i in 0..16 {
                v[(r + 1) * 16 + i] = v[r * 16 + i] + 0.1 * next();
            }
        }
        let pairs: Vec<(u32, u16)> = (0..300).map(|r| (3 * r as u32, r)).collect();
        let b = coherence_section(16, &v, &pairs, RowCoding::Product { sub: 4 }).unwrap();
        assert_eq!(&b[..8], COHERENCE_MAGIC_PQ);
        // header, 4 blocks × 256 centroids × 4 components, 4 code bytes a row, the entries
        assert_eq!(b.len(), 28 + 4 * 256 * 4 + 300 * 4 + 300 + 300 * 2 - 128);
        let pq = Coherence::from_section(&b).unwrap();
        let exact =
            Coherence::from_section(&coherence_section(16, &v, &pairs, RowCoding::Int8).unwrap())
                .unwrap();
        assert_eq!(pq.row(297), Some(99));
        let mut worst = 0f32;
        for a in 0..300u16 {
            for b in [a ^ 1, (a + 7) % 300] {
                worst = worst.max((pq.cos(a, b) - exact.cos(a, b)).abs());
            }
        }
        assert!(worst < 0.15, "{worst}");
        for r in (0..300u16).step_by(2) {
            assert!(pq.cos(r, r + 1) > 0.9, "row {r}: {}", pq.cos(r, r + 1));
        }
        damaged_section_is_an_error(b);
    }

    #[test]
    fn damaged_sections_are_errors() {
        for b in [
            sample(),
            coherence_section(
                2,
                &[1.0, 0.0, 0.9, 0.1, 0.0, 1.0],
                &[(40, 2), (7, 0)],
                RowCoding::Int4,
            )
            .unwrap(),
        ] {
            damaged_section_is_an_error(b);
        }
    }

    fn damaged_section_is_an_error(b: Vec<u8>) {
        for cut in 0..b.len() {
            assert!(Coherence::from_section(&b[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(Coherence::from_section(&bad).is_err());
        let mut extra = b.clone();
        extra.push(0);
        assert!(Coherence::from_section(&extra).is_err());
        // a row id past the table
        let mut big = b.clone();
        let last = big.len() - 1;
        big[last] = 9;
        assert!(Coherence::from_section(&big).is_err());
    }
}

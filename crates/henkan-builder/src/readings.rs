//! Readings added to the dictionary: a word that Mozc's OSS dictionary has only under another
//! reading (`旧年中`, in it as きゅうねんじゅう only, is read きゅうねんちゅう as often) gets a
//! new entry under the added reading, with the POS ids and the cost of the word's own entries.
//!
//! The entries are added to a finished model without renumbering it: the added reading's
//! posting list goes at the end of the postings blob (entry offsets count from the blob's
//! start, so every other entry keeps its offset), and the index points the reading there. A
//! reading the lexicon has already moves its whole list there, with the new entries after its
//! own; the sections keyed by entry offset (the LM's word map, the word biases, the word
//! vectors) follow the moved entries, and each new entry gets what its word's entry has in
//! them: the same LM word (as that word's spelling read otherwise, which the decoders charge
//! as such), the same vector row and the same bias. A word the lexicon has under the reading
//! already is left as it is, so adding the same list twice changes nothing.
//!
//! The list is a TSV file (`training/readings.tsv`): `reading<TAB>surface<TAB>the reading the
//! model has it under`, then free text saying why; `#` starts a comment line.

use crate::bias::word_bias_section;
use crate::coherence::write_entry_rows;
use crate::container::with_sections;
use crate::error::{Error, Result};
use crate::lexicon::{postings_section, write_surface, write_varint, zigzag};
use crate::lstm_format::write_vocab;
use henkan::decoder::bias::WordBias;
use henkan::lexicon::Lexicon;
use henkan::lm::coherence::Coherence;
use henkan::lm::lstm::{LmVocab, WordMatch};
use henkan::model::{Container, SectionKind};
use std::collections::{BTreeMap, HashMap};

/// One reading to add: the word spelt `surface`, found in the lexicon under `like`, is also
/// read `reading`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedReading {
    /// The new reading (hiragana).
    pub reading: String,
    /// The word's written form.
    pub surface: String,
    /// A reading the lexicon has the word under.
    pub like: String,
}

/// Reads the readings list: `reading<TAB>surface<TAB>like[<TAB>why]` lines, `#` comments.
pub fn parse_readings(tsv: &str) -> Result<Vec<AddedReading>> {
    let mut out = Vec::new();
    for (i, line) in tsv.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let field = |k: usize| f.get(k).map(|s| s.trim()).filter(|s| !s.is_empty());
        let (Some(reading), Some(surface), Some(like)) = (field(0), field(1), field(2)) else {
            return Err(Error::Build(format!(
                "readings line {}: want reading<TAB>surface<TAB>the reading the model has it under",
                i + 1
            )));
        };
        if !reading
            .chars()
            .all(|c| henkan::composer::is_hiragana(c) || c == 'ー')
        {
            return Err(Error::Build(format!(
                "readings line {}: {reading:?} is not a hiragana reading",
                i + 1
            )));
        }
        out.push(AddedReading {
            reading: reading.to_string(),
            surface: surface.to_string(),
            like: like.to_string(),
        });
    }
    Ok(out)
}

/// What [`add_readings`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadingsReport {
    /// Entries added (one per entry of the word under its old reading).
    pub added: usize,
    /// Readings already in the model with the word (left as they are).
    pub present: usize,
}

/// An entry to write into a relocated or new posting list: its surface, POS ids and cost, the
/// offset of the entry whose LM word, vector and bias it takes, and whether it *is* that entry
/// (moved with its reading's list) or a copy of it under another reading.
struct ListEntry {
    surface: String,
    left: u16,
    right: u16,
    cost: i32,
    from: u32,
    moved: bool,
}

/// Where an entry of the rewritten model comes from: `(new offset, old offset, moved)`.
type Origins = Vec<(u32, u32, bool)>;

/// Returns a copy of the model container `model` with the entries of `readings` added (see
/// the module docs). A word the lexicon does not have under `like` is an error; nothing is
/// written then.
pub fn add_readings(
    model: Vec<u8>,
    readings: &[AddedReading],
) -> Result<(Vec<u8>, ReadingsReport)> {
    let container = Container::from_bytes(model.clone())?;
    let index_bytes = container.require(SectionKind::LexiconIndex)?;
    let postings_bytes = container.require(SectionKind::LexiconPostings)?;
    let lexicon = Lexicon::new(index_bytes.clone(), postings_bytes.clone())?;
    let mut report = ReadingsReport::default();
    let mut lists: BTreeMap<String, Vec<ListEntry>> = BTreeMap::new();
    for r in readings {
        if r.reading == r.like {
            return Err(Error::Build(format!(
                "{} is added under its own reading {}",
                r.surface, r.like
            )));
        }
        let twins: Vec<_> = lexicon
            .get(&r.like)
            .filter(|e| lexicon.surface_text(&e.surface, &r.like) == r.surface)
            .collect();
        if twins.is_empty() {
            return Err(Error::Build(format!(
                "the lexicon has no {} read {}",
                r.surface, r.like
            )));
        }
        let has = |e: &henkan::lexicon::Entry<'_>| {
            lexicon.surface_text(&e.surface, &r.reading) == r.surface
        };
        if lexicon.get(&r.reading).any(|e| has(&e)) {
            report.present += 1;
            continue;
        }
        let list = lists.entry(r.reading.clone()).or_insert_with(|| {
            // the reading's own entries first, in their order
            lexicon
                .get(&r.reading)
                .map(|e| ListEntry {
                    surface: lexicon.surface_text(&e.surface, &r.reading),
                    left: e.left_id,
                    right: e.right_id,
                    cost: e.cost,
                    from: e.offset,
                    moved: true,
                })
                .collect()
        });
        for e in twins {
            let dup = list
                .iter()
                .any(|n| n.surface == r.surface && (n.left, n.right) == (e.left_id, e.right_id));
            if !dup {
                list.push(ListEntry {
                    surface: r.surface.clone(),
                    left: e.left_id,
                    right: e.right_id,
                    cost: e.cost,
                    from: e.offset,
                    moved: false,
                });
                report.added += 1;
            }
        }
    }
    if lists.is_empty() {
        return Ok((model, report));
    }

    // Postings: the lists after the blob (a moved list's old bytes stay, unreferenced); new
    // pairs and characters at the end of their tables, so that old codes and pair indices
    // keep their meaning.
    let step = lexicon.cost_step();
    let mut pairs = lexicon.pair_table().to_vec();
    let mut chars = lexicon.char_table().to_vec();
    let mut blob = lexicon.blob().to_vec();
    let mut pair_of: HashMap<(u16, u16), usize> =
        pairs.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let mut code_of: HashMap<char, u64> = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u64))
        .collect();
    let mut list_at: BTreeMap<&str, u64> = BTreeMap::new();
    let mut origins: Origins = Vec::new();
    for (reading, entries) in &lists {
        list_at.insert(reading, blob.len() as u64);
        write_varint(&mut blob, entries.len() as u64);
        for e in entries {
            let offset = u32::try_from(blob.len())
                .map_err(|_| Error::Build("lexicon postings over 4 GiB".into()))?;
            origins.push((offset, e.from, e.moved));
            let pair = *pair_of.entry((e.left, e.right)).or_insert_with(|| {
                pairs.push((e.left, e.right));
                pairs.len() - 1
            });
            write_varint(&mut blob, pair as u64);
            write_varint(&mut blob, zigzag(e.cost.div_euclid(step)));
            write_surface(&mut blob, &e.surface, reading, |c| {
                let next = code_of.len() as u64;
                *code_of.entry(c).or_insert_with(|| {
                    chars.push(c);
                    next
                })
            });
        }
    }

    // Index: every key with its value, the lists' readings pointing at their new place.
    let old =
        fst::Map::new(index_bytes.as_ref().to_vec()).map_err(|e| Error::Build(e.to_string()))?;
    let fst_err = |e: fst::Error| Error::Build(e.to_string());
    let mut builder = fst::MapBuilder::memory();
    {
        use fst::Streamer;
        let mut pending = list_at.iter().peekable();
        let mut stream = old.stream();
        while let Some((key, value)) = stream.next() {
            while let Some((r, &v)) = pending.next_if(|(r, _)| r.as_bytes() < key) {
                builder.insert(r.as_bytes(), v).map_err(fst_err)?;
            }
            match pending.next_if(|(r, _)| r.as_bytes() == key) {
                Some((_, &v)) => builder.insert(key, v).map_err(fst_err)?,
                None => builder.insert(key, value).map_err(fst_err)?,
            }
        }
        for (r, &v) in pending {
            builder.insert(r.as_bytes(), v).map_err(fst_err)?;
        }
    }
    let index = builder.into_inner().map_err(fst_err)?;

    let mut sections = vec![
        (SectionKind::LexiconIndex, index),
        (
            SectionKind::LexiconPostings,
            postings_section(step, &pairs, &chars, &blob),
        ),
    ];
    if let Some(s) = container.section(SectionKind::LmVocab) {
        sections.push((SectionKind::LmVocab, lm_vocab_with(s.as_ref(), &origins)?));
    }
    if let Some(s) = container.section(SectionKind::Coherence) {
        sections.push((
            SectionKind::Coherence,
            coherence_with(s.as_ref(), &origins)?,
        ));
    }
    if let Some(s) = container.section(SectionKind::WordBias) {
        sections.push((SectionKind::WordBias, word_bias_with(s.as_ref(), &origins)?));
    }
    Ok((with_sections(&container, sections), report))
}

/// A section's per-entry values after the rewrite: moved entries under their new offset, each
/// copy with its original's value (`copied` turns it into what a copy gets).
fn remapped<T: Copy>(
    old: impl Iterator<Item = (u32, T)>,
    origins: &Origins,
    copied: impl Fn(T) -> T,
) -> BTreeMap<u32, T> {
    let mut map: BTreeMap<u32, T> = old.collect();
    let values: Vec<(u32, Option<T>, bool)> = origins
        .iter()
        .map(|&(new, from, moved)| (new, map.get(&from).copied(), moved))
        .collect();
    for &(_, from, moved) in origins {
        if moved {
            map.remove(&from);
        }
    }
    for (new, value, moved) in values {
        if let Some(v) = value {
            map.insert(new, if moved { v } else { copied(v) });
        }
    }
    map
}

/// The `LmVocab` section rewritten: a copy has its original's LM word as that word's spelling
/// read otherwise (at its own entry's cost, so no extra cost).
fn lm_vocab_with(section: &[u8], origins: &Origins) -> Result<Vec<u8>> {
    let vocab = LmVocab::from_section(henkan::model::SectionBytes::from_vec(section.to_vec()))?;
    let map = remapped(
        vocab.pairs().map(|(o, id, m)| (o, (id, m))),
        origins,
        |(id, m)| {
            let m = match m {
                WordMatch::Own => WordMatch::Spelling { extra_cost: 0 },
                spelling => spelling,
            };
            (id, m)
        },
    );
    Ok(write_vocab(
        vocab.vocab,
        vocab.unk_id,
        vocab.bos_id,
        vocab.number_id,
        map.into_iter().map(|(o, (id, m))| (o, id, m)).collect(),
        vocab.classes(),
    ))
}

/// The `Coherence` section rewritten: a copy has its original's vector row.
fn coherence_with(section: &[u8], origins: &Origins) -> Result<Vec<u8>> {
    let coherence = Coherence::from_section(section)?;
    let old: Vec<(u32, u16)> = coherence.entry_rows().collect();
    // the entry table is the section's tail, in canonical varints: what precedes it is the
    // header and the vectors
    let mut tail = Vec::new();
    write_entry_rows(&mut tail, &old);
    let head_len = section
        .len()
        .checked_sub(tail.len())
        .filter(|&h| section[h..] == tail[..])
        .ok_or_else(|| {
            Error::Build("coherence: the entry table is not the section's tail".into())
        })?;
    let rows: Vec<(u32, u16)> = remapped(old.into_iter(), origins, |row| row)
        .into_iter()
        .collect();
    let mut out = section[..head_len].to_vec();
    out[16..20].copy_from_slice(&(rows.len() as u32).to_le_bytes());
    write_entry_rows(&mut out, &rows);
    Ok(out)
}

/// The `WordBias` section rewritten at its step: a copy has its original's bias.
fn word_bias_with(section: &[u8], origins: &Origins) -> Result<Vec<u8>> {
    let bias = WordBias::from_section(section)?;
    let step = section
        .get(12..16)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| Error::Build("word bias: too short".into()))?;
    let mut out = WordBias::new();
    for (entry, w) in remapped(bias.entries().into_iter(), origins, |w| w) {
        out.set(entry, w);
    }
    Ok(word_bias_section(&out, step))
}

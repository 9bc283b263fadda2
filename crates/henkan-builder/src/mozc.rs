//! Mozc's definition files: `id.def` (the POS ids and their features), `segmenter.def`
//! (segment boundary rules), `boundary.def` (prefix and suffix penalties),
//! `pos_matcher_rule.def` (named POS groups) and the dictionary lines of `lex.tsv`.
//!
//! - `segmenter.def`: `left-pattern right-pattern bool` rules (first matching rule wins; no
//!   match = boundary). A pattern is a regex over the POS feature where `*` stands for one
//!   field, matched at the start; `*` alone matches all.
//! - `boundary.def`: `PREFIX|SUFFIX pattern penalty` (first matching rule of each kind wins; no
//!   match = 0; a pattern is matched at the start of the feature and ends at a field
//!   boundary), and `pos_matcher_rule.def`: `Name pattern` (matched at the start of the
//!   feature); [`add_mozc_rules`] adds both to a model's connection and segmenter sections.

use crate::connection::with_boundary_penalties;
use crate::container::with_sections;
use crate::error::{Error, Result};
use crate::segmenter::{with_pos_groups, write_segmenter};
use henkan::model::{Container, SectionKind};
use henkan::pos::SpecialIds;
use regex::Regex;

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

/// Mozc's POS groups ([`henkan::pos::PosGroup`]) of every POS id from `pos_matcher_rule.def`
/// (`Name pattern` lines; a pattern is a regex over the feature, `*` one field, matched at its
/// start), and henkan's own ([`henkan::pos::PosGroup::own_pattern`]): one mask per id. Every
/// group must have a rule.
pub fn compile_pos_groups(features: &[String], pos_matcher_def: &str) -> Result<Vec<u32>> {
    use henkan::pos::PosGroup;
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
/// ([`compile_boundary`]) in its connection section ([`henkan::pos::EDGE_MAGIC`]) and the POS
/// groups of its candidate filter ([`compile_pos_groups`]) in its segmenter section
/// ([`henkan::pos::GROUPS_MAGIC`]), stored uncompressed (see [`crate::container::repack`]); every
/// other section is kept as it is. The suffix penalties only when `with_suffix`: they are for a
/// conversion that ends where the user ends a phrase, and the engine converts every key's input
/// as it stands (a preview ending on a verb stem, `さがしてい`, would pay 7000; on inputs cut
/// at any key the suffix half measured −1.4 points of exact top-1).
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
    let container = Container::from_bytes(model)?;
    let conn = container.require(SectionKind::Connection)?;
    let conn = with_boundary_penalties(conn.as_ref(), &prefix, &suffix)?;
    let seg = container.require(SectionKind::Segmenter)?;
    let seg = with_pos_groups(seg.as_ref(), &groups)?;
    Ok(with_sections(
        &container,
        vec![
            (SectionKind::Connection, conn),
            (SectionKind::Segmenter, seg),
        ],
    ))
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
        use henkan::pos::PosGroup;
        let features: Vec<String> = [
            "BOS/EOS,*,*,*,*,*,*",
            "名詞,接尾,助数詞,*,*,*,*",
            "助詞,接続助詞,*,*,*,*,て",
            "動詞,自立,*,*,五段・ワ行促音便,連用形,*",
            "名詞,サ変接続,*,*,*,*,*",
            "名詞,副詞可能,*,*,*,*,*",
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
        assert!(has(4, PosGroup::BareObjectNoun) && !has(5, PosGroup::BareObjectNoun));
        assert!(!has(1, PosGroup::BareObjectNoun));
        assert!(compile_pos_groups(&features, "TeSuffix").is_err());
    }
}

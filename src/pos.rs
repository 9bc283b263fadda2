//! Parts of speech: connection costs and segment (文節) boundaries.
//!
//! Terms:
//! - *POS id*: Mozc's numbering of parts of speech (`id.def`, 2,672 ids, 0 = BOS/EOS).
//!   Every entry has a *left id* (how it connects to what precedes it) and a *right id*
//!   (how it connects to what follows).
//! - *connection cost*: the cost of a word with right id `r` followed by a word with left
//!   id `l`; Mozc's matrix `m[l][r]`.
//! - *segment* (文節): a content word and the function words that follow it; the unit a
//!   user moves between and resizes. Whether a boundary falls between two words depends
//!   on their POS only (Mozc's `segmenter.def` rules), compiled here to classes.
//!
//! The connection matrix is stored compactly: left and right ids are mapped to rows and
//! columns (ids with equal rows share one), and costs are quantized to `step` with one or
//! two bytes per cell.

use crate::error::{Error, Result};
use crate::model::SectionBytes;

/// Ids of parts of speech the decoder needs by role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SpecialIds {
    /// 名詞,一般: unknown words.
    pub noun: u16,
    /// 名詞,固有名詞,一般: unknown katakana words.
    pub proper_noun: u16,
    /// 名詞,数,アラビア数字: digits and numbers read in kana.
    pub number: u16,
    /// 記号,アルファベット: Latin letters.
    pub alphabet: u16,
    /// 記号,一般: other symbols.
    pub symbol: u16,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u16s(b: &[u8], at: usize, n: usize) -> Option<Vec<u16>> {
    let s = b.get(at..at.checked_add(n.checked_mul(2)?)?)?;
    Some(
        s.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
    )
}

/// The body of an optional section trailer: nothing (`None`) when `t` is empty, else `magic`, a
/// `u32` count that must be `n_ids`, and 4 bytes per id (returned without the header).
fn trailer<'a>(
    t: &'a [u8],
    magic: &[u8; 8],
    n_ids: usize,
) -> std::result::Result<Option<&'a [u8]>, &'static str> {
    if t.is_empty() {
        return Ok(None);
    }
    if t.len() < 12 || &t[..8] != magic {
        return Err("unknown trailer");
    }
    let n = u32_at(t, 8).ok_or("trailer truncated")? as usize;
    if n != n_ids || t.len() != 12 + 4 * n {
        return Err("trailer size");
    }
    Ok(Some(&t[12..]))
}

/// The connection-cost matrix.
#[derive(Debug, Clone)]
pub struct Connection {
    left_map: Vec<u16>,
    right_map: Vec<u16>,
    n_right: usize,
    step: i32,
    width: usize,
    matrix: SectionBytes,
    matrix_start: usize,
    matrix_end: usize,
    /// Mozc's prefix penalty per left id: added to the cost from BOS (see [`EDGE_MAGIC`]).
    prefix: Vec<u16>,
    /// Mozc's suffix penalty per right id: added to the cost to EOS.
    suffix: Vec<u16>,
    /// Ids used by the decoder for unknown words.
    pub special: SpecialIds,
}

/// Marks the optional trailer of a connection section: Mozc's boundary penalties
/// (`boundary.def`), then `u32` n, n `u16` prefix penalties (by left id) and n `u16` suffix
/// penalties (by right id). A word that begins the input pays its prefix penalty on top of
/// the connection from BOS, one that ends it its suffix penalty on top of the connection to
/// EOS, as Mozc's converter charges them (`ApplyPrefixSuffixPenalty`): a conversion should not
/// start with a suffix or a particle, nor end on a stem that needs an ending.
pub const EDGE_MAGIC: &[u8; 8] = b"HKEDGE01";

/// Cost of an impossible connection (or of ids outside the matrix).
pub const INFINITE_COST: i32 = 1 << 20;

const CONNECTION_HEADER: usize = 32;

impl Connection {
    /// A view of a connection section.
    pub fn new(bytes: SectionBytes) -> Result<Self> {
        let bad = |d: &str| Error::Malformed {
            section: "connection",
            detail: d.to_string(),
        };
        let b = bytes.as_ref();
        let h = |i: usize| u32_at(b, i * 4).ok_or_else(|| bad("header truncated"));
        let (n_ids, n_left, n_right, step, width) = (
            h(0)? as usize,
            h(1)? as usize,
            h(2)? as usize,
            h(3)? as i32,
            h(4)? as usize,
        );
        let special_raw = h(5)?;
        let special2 = h(6)?;
        let special3 = h(7)?;
        if !(width == 1 || width == 2) || n_ids > 65536 || n_left > 65536 || n_right > 65536 {
            return Err(bad("bad header"));
        }
        let left_map =
            u16s(b, CONNECTION_HEADER, n_ids).ok_or_else(|| bad("left map truncated"))?;
        let right_map = u16s(b, CONNECTION_HEADER + 2 * n_ids, n_ids)
            .ok_or_else(|| bad("right map truncated"))?;
        let matrix_start = CONNECTION_HEADER + 4 * n_ids;
        let matrix_end = matrix_start + n_left * n_right * width;
        if b.len() < matrix_end {
            return Err(bad("matrix truncated"));
        }
        let (prefix, suffix) = match trailer(&b[matrix_end..], EDGE_MAGIC, n_ids).map_err(bad)? {
            None => (Vec::new(), Vec::new()),
            Some(t) => (
                u16s(t, 0, n_ids).ok_or_else(|| bad("trailer truncated"))?,
                u16s(t, 2 * n_ids, n_ids).ok_or_else(|| bad("trailer truncated"))?,
            ),
        };
        if left_map.iter().any(|&x| x as usize >= n_left)
            || right_map.iter().any(|&x| x as usize >= n_right)
        {
            return Err(bad("id map out of range"));
        }
        Ok(Connection {
            left_map,
            right_map,
            n_right,
            step,
            width,
            matrix: bytes.clone(),
            matrix_start,
            matrix_end,
            prefix,
            suffix,
            special: SpecialIds {
                noun: special_raw as u16,
                proper_noun: (special_raw >> 16) as u16,
                number: special2 as u16,
                alphabet: (special2 >> 16) as u16,
                symbol: special3 as u16,
            },
        })
    }

    /// Number of POS ids.
    pub fn num_ids(&self) -> usize {
        self.left_map.len()
    }

    /// Cost of a word with right id `prev_right` followed by one with left id `next_left`;
    /// from BOS (`prev_right` 0) and to EOS (`next_left` 0) with the boundary penalties.
    #[inline]
    pub fn cost(&self, prev_right: u16, next_left: u16) -> i32 {
        let (Some(&row), Some(&col)) = (
            self.left_map.get(next_left as usize),
            self.right_map.get(prev_right as usize),
        ) else {
            return INFINITE_COST;
        };
        let cell = row as usize * self.n_right + col as usize;
        let m = self.matrix.as_ref();
        let v = if self.width == 1 {
            m[self.matrix_start + cell] as i32
        } else {
            let at = self.matrix_start + 2 * cell;
            i16::from_le_bytes([m[at], m[at + 1]]) as i32
        };
        let edge = if prev_right == 0 {
            self.prefix.get(next_left as usize)
        } else if next_left == 0 {
            self.suffix.get(prev_right as usize)
        } else {
            None
        };
        v * self.step + edge.map_or(0, |&p| p as i32)
    }

    /// Whether the section carries boundary penalties ([`EDGE_MAGIC`]).
    pub fn has_boundary_penalties(&self) -> bool {
        !self.prefix.is_empty()
    }
}

/// The connection section `section` with its boundary penalties ([`EDGE_MAGIC`]) set to
/// `prefix` (by left id) and `suffix` (by right id), one per POS id; a trailer it already has
/// is replaced. The matrix itself is unchanged.
pub fn with_boundary_penalties(section: &[u8], prefix: &[u16], suffix: &[u16]) -> Result<Vec<u8>> {
    let conn = Connection::new(SectionBytes::from_vec(section.to_vec()))?;
    let n = conn.num_ids();
    if prefix.len() != n || suffix.len() != n {
        return Err(Error::Build(format!(
            "boundary penalties for {}/{} ids, the matrix has {n}",
            prefix.len(),
            suffix.len()
        )));
    }
    let mut out = section[..conn.matrix_end].to_vec();
    out.extend_from_slice(EDGE_MAGIC);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    for v in prefix.iter().chain(suffix) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(out)
}

/// Writes a connection section from a full matrix `m[left][right]` (row-major `n × n`).
///
/// Ids whose rows (columns) are equal after quantization share one row (column). `step`
/// is the quantization step; `width` 1 stores `min(cost / step, 255)` in a byte, 2 an i16.
pub fn write_connection(
    n: usize,
    matrix: &[i16],
    step: i32,
    width: usize,
    special: SpecialIds,
) -> Vec<u8> {
    assert_eq!(matrix.len(), n * n);
    let q = |v: i16| -> i32 {
        let x = (v as f64 / step as f64).round() as i32;
        if width == 1 {
            x.clamp(0, 255)
        } else {
            x.clamp(i16::MIN as i32, i16::MAX as i32)
        }
    };
    // rows: left ids
    let mut row_of = std::collections::HashMap::<Vec<i32>, u16>::new();
    let mut rows: Vec<Vec<i32>> = Vec::new();
    let mut left_map = Vec::with_capacity(n);
    for l in 0..n {
        let row: Vec<i32> = matrix[l * n..(l + 1) * n].iter().map(|&v| q(v)).collect();
        let id = *row_of.entry(row.clone()).or_insert_with(|| {
            rows.push(row);
            (rows.len() - 1) as u16
        });
        left_map.push(id);
    }
    let mut col_of = std::collections::HashMap::<Vec<i32>, u16>::new();
    let mut cols: Vec<Vec<i32>> = Vec::new();
    let mut right_map = Vec::with_capacity(n);
    for r in 0..n {
        let col: Vec<i32> = rows.iter().map(|row| row[r]).collect();
        let id = *col_of.entry(col.clone()).or_insert_with(|| {
            cols.push(col);
            (cols.len() - 1) as u16
        });
        right_map.push(id);
    }
    let (n_left, n_right) = (rows.len(), cols.len());
    let mut out = Vec::new();
    for v in [
        n as u32,
        n_left as u32,
        n_right as u32,
        step as u32,
        width as u32,
        special.noun as u32 | (special.proper_noun as u32) << 16,
        special.number as u32 | (special.alphabet as u32) << 16,
        special.symbol as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in left_map.iter().chain(right_map.iter()) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for row in 0..n_left {
        for col in cols.iter() {
            let v = col[row];
            if width == 1 {
                out.push(v as u8);
            } else {
                out.extend_from_slice(&(v as i16).to_le_bytes());
            }
        }
    }
    out
}

/// Segment boundary rules compiled to classes: `is_boundary(prev right id, next left id)`.
#[derive(Debug, Clone)]
pub struct Segmenter {
    left_class: Vec<u16>,
    right_class: Vec<u16>,
    n_right_class: usize,
    bits: Vec<u8>,
    /// Mozc's named POS groups per id ([`PosGroup`]); empty when the section has none.
    groups: Vec<u32>,
}

/// Mozc's named groups of POS ids (`pos_matcher_rule.def`) that its candidate filter asks
/// about; one bit each in [`Segmenter::in_group`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PosGroup {
    /// `接頭詞,名詞接続`: a prefix before nouns (`お`, `ご`).
    WeakCompoundNounPrefix,
    /// `接頭詞,動詞接続`: a prefix before verbs.
    WeakCompoundVerbPrefix,
    /// `フィラー`.
    WeakCompoundFillerPrefix,
    /// Nouns a noun prefix may join (`名詞,一般`, `サ変接続`, …).
    WeakCompoundNounSuffix,
    /// `動詞,自立`: verbs a verb prefix may join.
    WeakCompoundVerbSuffix,
    /// Particles a segment may begin with after a noun (`が`, `で`, `と`, `の`, …).
    AcceptableParticleAtBeginOfSegment,
    /// `名詞,(一般|固有名詞|副詞可能|サ変接続)`.
    ContentNoun,
    /// `記号,一般`.
    GeneralSymbol,
    /// `特殊,短縮よみ`.
    IsolatedWord,
    /// Endings after a te-form stem (`て`, `ちゃ`, `たり`, `た`, `てる`, …).
    TeSuffix,
    /// `動詞,非自立`, `助詞,接続助詞`, `助動詞`.
    VerbSuffix,
    /// Godan ka-row verbs in their ta-connective form (`書い`, `歩い`, `言っ`).
    KagyoTaConnectionVerb,
    /// Godan wa-row verbs in their renyō form (`買い`, `言い`, `使い`).
    WagyoRenyoConnectionVerb,
    /// `名詞,接尾`: nouns that only follow another word (`感`, `的`, `編`, counters). Not one of
    /// Mozc's groups: henkan's own rule ([`PosGroup::own_pattern`]).
    NounSuffix,
}

impl PosGroup {
    /// Every group, in bit order.
    pub const ALL: [PosGroup; 14] = [
        PosGroup::WeakCompoundNounPrefix,
        PosGroup::WeakCompoundVerbPrefix,
        PosGroup::WeakCompoundFillerPrefix,
        PosGroup::WeakCompoundNounSuffix,
        PosGroup::WeakCompoundVerbSuffix,
        PosGroup::AcceptableParticleAtBeginOfSegment,
        PosGroup::ContentNoun,
        PosGroup::GeneralSymbol,
        PosGroup::IsolatedWord,
        PosGroup::TeSuffix,
        PosGroup::VerbSuffix,
        PosGroup::KagyoTaConnectionVerb,
        PosGroup::WagyoRenyoConnectionVerb,
        PosGroup::NounSuffix,
    ];

    /// Its name in Mozc's `pos_matcher_rule.def`.
    pub fn name(self) -> &'static str {
        match self {
            PosGroup::WeakCompoundNounPrefix => "WeakCompoundNounPrefix",
            PosGroup::WeakCompoundVerbPrefix => "WeakCompoundVerbPrefix",
            PosGroup::WeakCompoundFillerPrefix => "WeakCompoundFillerPrefix",
            PosGroup::WeakCompoundNounSuffix => "WeakCompoundNounSuffix",
            PosGroup::WeakCompoundVerbSuffix => "WeakCompoundVerbSuffix",
            PosGroup::AcceptableParticleAtBeginOfSegment => "AcceptableParticleAtBeginOfSegment",
            PosGroup::ContentNoun => "ContentNoun",
            PosGroup::GeneralSymbol => "GeneralSymbol",
            PosGroup::IsolatedWord => "IsolatedWord",
            PosGroup::TeSuffix => "TeSuffix",
            PosGroup::VerbSuffix => "VerbSuffix",
            PosGroup::KagyoTaConnectionVerb => "KagyoTaConnectionVerb",
            PosGroup::WagyoRenyoConnectionVerb => "WagyoRenyoConnectionVerb",
            PosGroup::NounSuffix => "NounSuffix",
        }
    }

    /// The pattern of a group that is not in Mozc's `pos_matcher_rule.def` (same syntax).
    pub fn own_pattern(self) -> Option<&'static str> {
        match self {
            PosGroup::NounSuffix => Some("名詞,接尾,"),
            _ => None,
        }
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// Marks the optional trailer of a segmenter section: `u32` n, then n `u32` masks of
/// [`PosGroup`] bits, one per POS id.
pub const GROUPS_MAGIC: &[u8; 8] = b"HKPOSG01";

impl Segmenter {
    /// A view of a segmenter section.
    pub fn new(bytes: SectionBytes) -> Result<Self> {
        let bad = |d: &str| Error::Malformed {
            section: "segmenter",
            detail: d.to_string(),
        };
        let b = bytes.as_ref();
        let n_ids = u32_at(b, 0).ok_or_else(|| bad("truncated"))? as usize;
        let n_l = u32_at(b, 4).ok_or_else(|| bad("truncated"))? as usize;
        let n_r = u32_at(b, 8).ok_or_else(|| bad("truncated"))? as usize;
        if n_ids > 65536 || n_l > 65536 || n_r > 65536 {
            return Err(bad("bad header"));
        }
        let left_class = u16s(b, 12, n_ids).ok_or_else(|| bad("truncated"))?;
        let right_class = u16s(b, 12 + 2 * n_ids, n_ids).ok_or_else(|| bad("truncated"))?;
        let start = 12 + 4 * n_ids;
        let nbits = n_l * n_r;
        let end = start + nbits.div_ceil(8);
        let bits = b.get(start..end).ok_or_else(|| bad("truncated"))?.to_vec();
        let groups = match trailer(&b[end..], GROUPS_MAGIC, n_ids).map_err(bad)? {
            None => Vec::new(),
            Some(t) => (0..n_ids).map(|i| u32_at(t, 4 * i).unwrap_or(0)).collect(),
        };
        if left_class.iter().any(|&c| c as usize >= n_l)
            || right_class.iter().any(|&c| c as usize >= n_r)
        {
            return Err(bad("class out of range"));
        }
        Ok(Segmenter {
            left_class,
            right_class,
            n_right_class: n_r,
            bits,
            groups,
        })
    }

    /// Whether a segment boundary falls between a word with right id `prev_right` and a
    /// following word with left id `next_left`. Unknown ids are boundaries.
    pub fn is_boundary(&self, prev_right: u16, next_left: u16) -> bool {
        let (Some(&l), Some(&r)) = (
            self.left_class.get(prev_right as usize),
            self.right_class.get(next_left as usize),
        ) else {
            return true;
        };
        let bit = l as usize * self.n_right_class + r as usize;
        self.bits[bit / 8] & (1 << (bit % 8)) != 0
    }

    /// Whether POS id `id` is in Mozc's group `g`; false for every id when the section has no
    /// groups ([`Self::has_groups`]).
    pub fn in_group(&self, id: u16, g: PosGroup) -> bool {
        self.groups
            .get(id as usize)
            .is_some_and(|&m| m & g.bit() != 0)
    }

    /// Whether the section carries Mozc's POS groups ([`GROUPS_MAGIC`]).
    pub fn has_groups(&self) -> bool {
        !self.groups.is_empty()
    }

    /// The number of POS ids.
    pub fn num_ids(&self) -> usize {
        self.left_class.len()
    }
}

/// The segmenter section `section` with Mozc's POS groups ([`GROUPS_MAGIC`]) set to `groups`
/// (a mask of [`PosGroup`] bits per POS id); a trailer it already has is replaced.
pub fn with_pos_groups(section: &[u8], groups: &[u32]) -> Result<Vec<u8>> {
    let seg = Segmenter::new(SectionBytes::from_vec(section.to_vec()))?;
    let n = seg.num_ids();
    if groups.len() != n {
        return Err(Error::Build(format!(
            "POS groups for {} ids, the segmenter has {n}",
            groups.len()
        )));
    }
    let end = 12 + 4 * n + seg.bits.len();
    let mut out = section[..end].to_vec();
    out.extend_from_slice(GROUPS_MAGIC);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    for g in groups {
        out.extend_from_slice(&g.to_le_bytes());
    }
    Ok(out)
}

/// Writes a segmenter section from a boundary predicate over POS ids.
///
/// Ids are grouped into classes by their behaviour (`signature_left[id]`,
/// `signature_right[id]` are any keys that are equal exactly for ids that behave alike,
/// e.g. the set of rules they match), and the table holds one bit per class pair.
pub fn write_segmenter<K: std::hash::Hash + Eq + Clone>(
    signature_left: &[K],
    signature_right: &[K],
    is_boundary: impl Fn(usize, usize) -> bool,
) -> Vec<u8> {
    fn classes<K: std::hash::Hash + Eq + Clone>(sig: &[K]) -> (Vec<u16>, Vec<usize>) {
        let mut m = std::collections::HashMap::new();
        let mut reps = Vec::new();
        let cls = sig
            .iter()
            .enumerate()
            .map(|(i, k)| {
                *m.entry(k.clone()).or_insert_with(|| {
                    reps.push(i);
                    (reps.len() - 1) as u16
                })
            })
            .collect();
        (cls, reps)
    }
    let (lc, lreps) = classes(signature_left);
    let (rc, rreps) = classes(signature_right);
    let n = signature_left.len();
    let mut out = Vec::new();
    for v in [n as u32, lreps.len() as u32, rreps.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in lc.iter().chain(rc.iter()) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut bits = vec![0u8; (lreps.len() * rreps.len()).div_ceil(8)];
    for (li, &l) in lreps.iter().enumerate() {
        for (ri, &r) in rreps.iter().enumerate() {
            if is_boundary(l, r) {
                let bit = li * rreps.len() + ri;
                bits[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
    out.extend_from_slice(&bits);
    out
}

/// Clusters the POS ids of a connection matrix `m[left][right]` (row-major `n × n`) into
/// `k_left` row classes and `k_right` column classes with k-means (Lloyd's algorithm,
/// deterministic start), and returns the matrix with every cell replaced by the mean of
/// its class pair — ready for [`write_connection`], whose row/column merging then stores
/// only `k_left × k_right` cells. Id 0 (BOS/EOS) keeps a class of its own on both sides.
pub fn cluster_connection(
    n: usize,
    m: &[i16],
    k_left: usize,
    k_right: usize,
    iters: usize,
) -> Vec<i16> {
    assert_eq!(m.len(), n * n);
    let rows: Vec<Vec<f32>> = (0..n)
        .map(|l| m[l * n..(l + 1) * n].iter().map(|&v| v as f32).collect())
        .collect();
    let left = kmeans(&rows, k_left, iters);
    // columns, described by their values over the left classes' centroids is lossy;
    // use the full columns instead.
    let cols: Vec<Vec<f32>> = (0..n)
        .map(|r| (0..n).map(|l| m[l * n + r] as f32).collect())
        .collect();
    let right = kmeans(&cols, k_right, iters);
    let kl = left.iter().copied().max().unwrap_or(0) + 1;
    let kr = right.iter().copied().max().unwrap_or(0) + 1;
    let mut sum = vec![0f64; kl * kr];
    let mut cnt = vec![0u32; kl * kr];
    for l in 0..n {
        for r in 0..n {
            let c = left[l] * kr + right[r];
            sum[c] += m[l * n + r] as f64;
            cnt[c] += 1;
        }
    }
    let mut out = vec![0i16; n * n];
    for l in 0..n {
        for r in 0..n {
            let c = left[l] * kr + right[r];
            out[l * n + r] = (sum[c] / cnt[c].max(1) as f64).round() as i16;
        }
    }
    out
}

/// k-means over vectors; item 0 is pinned to a class of its own. Returns class per item.
fn kmeans(items: &[Vec<f32>], k: usize, iters: usize) -> Vec<usize> {
    let n = items.len();
    if k >= n || n == 0 {
        return (0..n).collect();
    }
    let dim = items[0].len();
    let dist =
        |a: &[f32], b: &[f32]| -> f32 { a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum() };
    // deterministic farthest-point start (k-means++ without randomness), item 0 first
    let mut centers: Vec<Vec<f32>> = vec![items[0].clone()];
    let mut nearest: Vec<f32> = items.iter().map(|x| dist(x, &items[0])).collect();
    while centers.len() < k {
        let (far, _) =
            nearest.iter().enumerate().fold(
                (0, -1.0f32),
                |acc, (i, &d)| if d > acc.1 { (i, d) } else { acc },
            );
        if nearest[far] <= 0.0 {
            break;
        }
        centers.push(items[far].clone());
        for (i, x) in items.iter().enumerate() {
            nearest[i] = nearest[i].min(dist(x, &items[far]));
        }
    }
    let k = centers.len();
    let mut assign = vec![0usize; n];
    for _ in 0..iters.max(1) {
        let mut changed = false;
        for (i, x) in items.iter().enumerate() {
            let best = if i == 0 {
                0
            } else {
                (1..k)
                    .map(|c| (c, dist(x, &centers[c])))
                    .fold(
                        (1, f32::MAX),
                        |acc, (c, d)| if d < acc.1 { (c, d) } else { acc },
                    )
                    .0
            };
            if assign[i] != best {
                assign[i] = best;
                changed = true;
            }
        }
        let mut sums = vec![vec![0f32; dim]; k];
        let mut counts = vec![0usize; k];
        for (i, x) in items.iter().enumerate() {
            counts[assign[i]] += 1;
            for (s, v) in sums[assign[i]].iter_mut().zip(x) {
                *s += v;
            }
        }
        for c in 0..k {
            if counts[c] > 0 {
                for s in sums[c].iter_mut() {
                    *s /= counts[c] as f32;
                }
                centers[c] = std::mem::take(&mut sums[c]);
            }
        }
        if !changed {
            break;
        }
    }
    // renumber densely
    let mut map = vec![usize::MAX; k];
    let mut next = 0;
    for a in assign.iter_mut() {
        if map[*a] == usize::MAX {
            map[*a] = next;
            next += 1;
        }
        *a = map[*a];
    }
    assign
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_round_trip_and_dedup() {
        // 3 ids; rows 1 and 2 equal
        let m: Vec<i16> = vec![0, 10, 20, 30, 40, 50, 30, 40, 50];
        let b = write_connection(3, &m, 1, 2, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(b)).unwrap();
        for l in 0..3u16 {
            for r in 0..3u16 {
                assert_eq!(c.cost(r, l), m[l as usize * 3 + r as usize] as i32);
            }
        }
        assert_eq!(c.cost(5, 0), INFINITE_COST);
        let q = write_connection(3, &m, 10, 1, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(q)).unwrap();
        assert_eq!(c.cost(2, 1), 50);
    }

    #[test]
    fn boundary_penalties_charge_only_the_edges() {
        let m: Vec<i16> = vec![0, 10, 20, 30, 40, 50, 60, 70, 80];
        let plain = write_connection(3, &m, 1, 2, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(plain.clone())).unwrap();
        assert!(!c.has_boundary_penalties());
        let with = with_boundary_penalties(&plain, &[0, 1000, 2000], &[0, 300, 7000]).unwrap();
        let c = Connection::new(SectionBytes::from_vec(with.clone())).unwrap();
        assert!(c.has_boundary_penalties());
        // BOS -> id (m[id][0]) pays the prefix penalty, id -> EOS (m[0][id]) the suffix one
        assert_eq!(c.cost(0, 1), 30 + 1000);
        assert_eq!(c.cost(0, 2), 60 + 2000);
        assert_eq!(c.cost(1, 0), 10 + 300);
        assert_eq!(c.cost(2, 0), 20 + 7000);
        assert_eq!(c.cost(0, 0), 0);
        for l in 1..3u16 {
            for r in 1..3u16 {
                assert_eq!(c.cost(r, l), m[l as usize * 3 + r as usize] as i32);
            }
        }
        // replacing the trailer, not stacking it
        let again = with_boundary_penalties(&with, &[0, 5, 5], &[0, 5, 5]).unwrap();
        assert_eq!(again.len(), with.len());
        let c = Connection::new(SectionBytes::from_vec(again)).unwrap();
        assert_eq!(c.cost(0, 1), 35);
        // one penalty per id
        assert!(with_boundary_penalties(&plain, &[0, 1], &[0, 1, 2]).is_err());
        // a damaged trailer is an error, not a silent zero
        for cut in [1, 4, 9, 13] {
            let b = with[..with.len() - cut].to_vec();
            assert!(
                Connection::new(SectionBytes::from_vec(b)).is_err(),
                "cut {cut}"
            );
        }
        let mut b = with.clone();
        b[plain.len()] ^= 1;
        assert!(Connection::new(SectionBytes::from_vec(b)).is_err());
    }

    #[test]
    fn pos_groups_ride_on_the_segmenter_section() {
        let sig: Vec<bool> = (0..4).map(|i| i % 2 == 0).collect();
        let plain = write_segmenter(&sig, &sig, |_, r| r % 2 == 0);
        let s = Segmenter::new(SectionBytes::from_vec(plain.clone())).unwrap();
        assert!(!s.has_groups());
        assert!(!s.in_group(1, PosGroup::TeSuffix));
        let masks = [0, 1 << (PosGroup::TeSuffix as u32), 0, u32::MAX];
        let with = with_pos_groups(&plain, &masks).unwrap();
        let s = Segmenter::new(SectionBytes::from_vec(with.clone())).unwrap();
        assert!(s.has_groups());
        assert!(s.in_group(1, PosGroup::TeSuffix));
        assert!(!s.in_group(1, PosGroup::VerbSuffix));
        assert!(PosGroup::ALL.iter().all(|&g| s.in_group(3, g)));
        assert!(!s.in_group(2, PosGroup::TeSuffix) && !s.in_group(9, PosGroup::TeSuffix));
        // the boundaries are the same with or without the groups
        assert!(s.is_boundary(1, 2) && !s.is_boundary(0, 3));
        assert_eq!(with_pos_groups(&with, &masks).unwrap(), with);
        assert!(with_pos_groups(&plain, &masks[..3]).is_err());
        for cut in [1, 4, 13] {
            let b = with[..with.len() - cut].to_vec();
            assert!(
                Segmenter::new(SectionBytes::from_vec(b)).is_err(),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn segmenter_classes() {
        // ids 0..4: even ids are "content", odd "function"; boundary before content
        let sig: Vec<bool> = (0..4).map(|i| i % 2 == 0).collect();
        let b = write_segmenter(&sig, &sig, |_, r| r % 2 == 0);
        let s = Segmenter::new(SectionBytes::from_vec(b)).unwrap();
        assert!(s.is_boundary(1, 2));
        assert!(!s.is_boundary(0, 3));
        assert!(s.is_boundary(100, 3));
    }

    #[test]
    fn truncated_sections_are_errors() {
        let m: Vec<i16> = vec![0, 1, 2, 3];
        let b = write_connection(2, &m, 1, 2, SpecialIds::default());
        for len in 0..b.len() {
            assert!(Connection::new(SectionBytes::from_vec(b[..len].to_vec())).is_err());
        }
    }
}

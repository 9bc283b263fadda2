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
        // Costs stay within [`INFINITE_COST`]: a cell (u8, or i16) times the step.
        let largest_cell = if width == 1 { 255 } else { 32768 };
        if step < 1 || step > INFINITE_COST / largest_cell {
            return Err(bad("cost step out of range"));
        }
        let matrix_start = CONNECTION_HEADER + 4 * n_ids;
        let matrix_end = n_left
            .checked_mul(n_right)
            .and_then(|cells| cells.checked_mul(width))
            .and_then(|len| len.checked_add(matrix_start))
            .filter(|&end| end <= b.len())
            .ok_or_else(|| bad("matrix truncated"))?;
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

    /// Bytes of the section up to the end of the matrix (where a trailer would begin).
    pub fn matrix_end(&self) -> usize {
        self.matrix_end
    }

    /// Whether the section carries boundary penalties ([`EDGE_MAGIC`]).
    pub fn has_boundary_penalties(&self) -> bool {
        !self.prefix.is_empty()
    }
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
    /// `名詞,(一般|固有名詞|サ変接続)`: nouns that casual speech puts straight before their
    /// verb, leaving the particle out (`猫飼ってる`, `ご飯行こう`); not the adverbial nouns
    /// (`名詞,副詞可能`: `絶対`, `今日`), which modify the verb rather than take it. Henkan's own
    /// rule ([`PosGroup::own_pattern`]).
    BareObjectNoun,
}

impl PosGroup {
    /// Every group, in bit order.
    pub const ALL: [PosGroup; 15] = [
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
        PosGroup::BareObjectNoun,
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
            PosGroup::BareObjectNoun => "BareObjectNoun",
        }
    }

    /// The pattern of a group that is not in Mozc's `pos_matcher_rule.def` (same syntax).
    pub fn own_pattern(self) -> Option<&'static str> {
        match self {
            PosGroup::NounSuffix => Some("名詞,接尾,"),
            PosGroup::BareObjectNoun => Some("名詞,(一般|固有名詞|サ変接続),"),
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
        let end = n_l
            .checked_mul(n_r)
            .map(|nbits| start + nbits.div_ceil(8))
            .ok_or_else(|| bad("bad header"))?;
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

    /// Bytes of the section up to the end of the boundary table (where a trailer would begin).
    pub fn table_end(&self) -> usize {
        12 + 4 * self.num_ids() + self.bits.len()
    }
}

//! Byte formats of the `Lstm` and `LmVocab` sections (little endian).
//!
//! `Lstm`:
//! ```text
//! "HKLSTM01"  u32 vocab  u32 hidden  u32 unk_id  u32 bos_id
//! matrix embedding [vocab, hidden]   matrix w_ih [4h, h]   matrix w_hh [4h, h]
//! f32 b[4h]  f32 out_bias[vocab]
//!
//! "HKLSTM02" (with a projection, `c` memory cells)
//! u32 vocab  u32 hidden  u32 cell  u32 unk_id  u32 bos_id
//! matrix embedding [vocab, hidden]   matrix w_ih [4c, h]   matrix w_hh [4c, h]   matrix w_hr [h, c]
//! f32 b[4c]  f32 out_bias[vocab]
//!
//! matrix = u32 kind (0 f32, 1 codebook, 2 int8, 3 split, 4 product)  u32 rows  u32 cols  u32 bits, then
//!   f32:      rows·cols f32
//!   codebook: u32 n  f32 centroids[n]  u64 len  len bytes of bit-packed codes (LSB first), pad to 4
//!   int8:     f32 scales[rows]  rows·cols i8, pad to 4
//!   product:  (the `bits` field holds `sub`, columns per sub-vector) u32 k  f32 centroids[cols/sub][k][sub]
//!             u64 len  len = rows·cols/sub code bytes (row major), pad to 4
//!   split:    (the `bits` field holds head_rows) matrix [head_rows, cols]  matrix [rows − head_rows, cols]
//!             — rows are stored in two parts, each with its own kind (not split again); with the
//!             vocabulary sorted by frequency this gives frequent words more bits than rare ones
//! ```
//! `LstmBackward` (a right-to-left LSTM sharing the `Lstm` section's tied embedding, no projection):
//! ```text
//! "HKLSTMB1"  u32 vocab  u32 hidden
//! matrix w_ih [4h, h]   matrix w_hh [4h, h]   f32 b[4h]   matrix out_bias [vocab, 1]
//! ```
//! `LmVocab`:
//! ```text
//! "HKLMVOC3"  u32 vocab  u32 unk_id  u32 bos_id  u32 n  u32 number_id
//! n × varint: lexicon entry offsets ascending, each as the difference to the previous one
//! n × varint: (LM id << 5) | spelling, in the same order
//! optional: "HKUNKCL1"  u32 n  n × varint: the LM id of each left POS id's `<unk>` class
//! ```
//! (LEB128 varints; "HKLMVOC2", read too, has n × (u32 offset, u32 LM id) instead.)
//! `spelling` is 0 for an entry whose own key is the LM word; an entry matched by its spelling
//! (its surface and POS ids, with another reading: the builder's `VocabMatch::Spelling`)
//! has 1 + its word cost above the LM word's entry in steps of [`SPELLING_COST_STEP`] (up to 30
//! steps); the decoders charge such entries.
//! Lexicon entries not listed are their left POS id's `<unk>` class when the section has the
//! optional class table (an LM trained with one `<unk:CLASS>` word per group of parts of speech,
//! `training/unk_classes.py`), else `<unk>`; the lattice's unknown-word nodes are `<unk>`; the lattice's
//! number nodes (a whole number read in kana) are `number_id`, the LM word of the digit `1`
//! (the corpus analysis writes numbers digit by digit), or `<unk>` when it has none.

use super::{LstmModel, QuantMatrix};
use crate::error::{Error, Result};
use crate::lexicon::read_varint;
use crate::model::SectionBytes;

/// Magic of the `Lstm` section.
pub const LSTM_MAGIC: &[u8; 8] = b"HKLSTM01";
/// Magic of the `Lstm` section of a model with a projection.
pub const LSTMP_MAGIC: &[u8; 8] = b"HKLSTM02";
/// Magic of the `LstmBackward` section.
pub const BACKWARD_MAGIC: &[u8; 8] = b"HKLSTMB1";
/// Magic of the `LmVocab` section.
pub const VOCAB_MAGIC: &[u8; 8] = b"HKLMVOC3";
/// Magic of the optional class table after an `LmVocab` section's pairs.
pub const UNK_CLASS_MAGIC: &[u8; 8] = b"HKUNKCL1";
/// Magic of the `LmVocab` section with fixed-width pairs (still read).
pub const VOCAB_MAGIC_V2: &[u8; 8] = b"HKLMVOC2";

/// The largest vocabulary an `Lstm` section may declare.
pub const MAX_VOCAB: usize = 1 << 22;
/// The largest hidden or cell size an `Lstm` section may declare: the recurrent matrices are
/// decoded to `f32` (4 × 2,048² weights: 64 MiB each at most).
pub const MAX_DIM: usize = 2048;

/// Offset of the entry offsets in an `LmVocab` section (after magic and five `u32` fields).
pub const PAIRS_AT: usize = 28;

/// Mozc cost units per step of an entry's cost above that of its spelling's LM word.
pub const SPELLING_COST_STEP: u32 = 128;
/// Bits of the spelling code stored beside each LM id in an `LmVocab` section.
pub const SPELLING_BITS: u32 = 5;
const SPELLING_MAX_STEPS: u32 = (1 << SPELLING_BITS) - 2;

/// How a lexicon entry has its LM word (see [`LmVocab::lm_word`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordMatch {
    /// The entry's own key `surface/reading/left/right` is the LM word (or it has none: `<unk>`).
    Own,
    /// The LM word is the entry's spelling read otherwise; the entry's word cost is this many
    /// Mozc cost units above that reading's (in steps of [`SPELLING_COST_STEP`], capped).
    Spelling {
        /// Cost units above the LM word's own entry (0 when cheaper or unknown).
        extra_cost: u32,
    },
}

impl WordMatch {
    /// The 5-bit code stored beside the LM id.
    pub fn code(self) -> u32 {
        match self {
            WordMatch::Own => 0,
            WordMatch::Spelling { extra_cost } => {
                1 + ((extra_cost + SPELLING_COST_STEP / 2) / SPELLING_COST_STEP)
                    .min(SPELLING_MAX_STEPS)
            }
        }
    }

    fn from_code(code: u32) -> Self {
        match code {
            0 => WordMatch::Own,
            c => WordMatch::Spelling {
                extra_cost: (c - 1) * SPELLING_COST_STEP,
            },
        }
    }
}

/// How a matrix is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatrixKind {
    /// Plain f32.
    F32,
    /// k-means codebook with this many bits per weight.
    Codebook(u32),
    /// int8 with one scale per row.
    Int8,
}

fn bad(section: &'static str, detail: impl Into<String>) -> Error {
    Error::Malformed {
        section,
        detail: detail.into(),
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    section: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        match end {
            Some(e) => {
                let s = &self.b[self.at..e];
                self.at = e;
                Ok(s)
            }
            None => Err(bad(self.section, format!("truncated at byte {}", self.at))),
        }
    }
    fn u32(&mut self) -> Result<u32> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Result<u64> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }
    fn f32s(&mut self, n: usize) -> Result<Vec<f32>> {
        let s = self.take(
            n.checked_mul(4)
                .ok_or_else(|| bad(self.section, "size overflow"))?,
        )?;
        Ok(s.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
    fn pad4(&mut self) {
        self.at = (self.at + 3) & !3;
    }
}

fn read_matrix(
    r: &mut Reader,
    bytes: &SectionBytes,
    rows: usize,
    cols: usize,
) -> Result<QuantMatrix> {
    read_matrix_part(r, bytes, rows, cols, true)
}

/// A centroid count (1..=256: codes are at most one byte).
fn read_centroid_count(r: &mut Reader) -> Result<usize> {
    let k = r.u32()? as usize;
    if k == 0 || k > 256 {
        return Err(bad("lstm", format!("{k} centroids")));
    }
    Ok(k)
}

/// Skips `len` code bytes and their padding; returns their range in the section.
fn read_codes(r: &mut Reader, len: usize) -> Result<std::ops::Range<usize>> {
    let start = r.at;
    r.take(len)?;
    r.pad4();
    Ok(start..start + len)
}

fn read_matrix_part(
    r: &mut Reader,
    bytes: &SectionBytes,
    rows: usize,
    cols: usize,
    may_split: bool,
) -> Result<QuantMatrix> {
    let kind = r.u32()?;
    let (rr, cc, bits) = (r.u32()? as usize, r.u32()? as usize, r.u32()?);
    if rr != rows || cc != cols {
        return Err(bad(
            "lstm",
            format!("matrix is {rr}x{cc}, expected {rows}x{cols}"),
        ));
    }
    let n = rows
        .checked_mul(cols)
        .ok_or_else(|| bad("lstm", format!("a {rows}x{cols} matrix overflows")))?;
    Ok(match kind {
        0 => QuantMatrix::F32(r.f32s(n)?),
        1 => {
            if !(1..=8).contains(&bits) {
                return Err(bad("lstm", format!("codebook bits {bits}")));
            }
            let k = read_centroid_count(r)?;
            let mut centroids = r.f32s(k)?;
            // Every code of `bits` bits names a centroid: those past `k` decode to 0.
            centroids.resize(centroids.len().max(1 << bits), 0.0);
            let len = r.u64()? as usize;
            let needed = n.checked_mul(bits as usize).map(|b| b.div_ceil(8));
            if needed.is_none_or(|needed| len < needed) {
                return Err(bad("lstm", "codes shorter than the matrix"));
            }
            QuantMatrix::Codebook {
                bits,
                centroids,
                codes: bytes.clone(),
                range: read_codes(r, len)?,
            }
        }
        2 => {
            let scales = r.f32s(rows)?;
            let start = r.at;
            r.take(n)?;
            r.pad4();
            QuantMatrix::Int8 {
                scales,
                codes: bytes.clone(),
                range: start..start + n,
            }
        }
        4 => {
            let sub = bits as usize;
            if sub == 0 || cols % sub != 0 {
                return Err(bad("lstm", format!("sub-vectors of {sub} columns")));
            }
            let k = read_centroid_count(r)?;
            let centroids = r.f32s(cols / sub * k * sub)?;
            let len = r.u64()? as usize;
            if Some(len) != rows.checked_mul(cols / sub) {
                return Err(bad("lstm", "product codes do not match the matrix"));
            }
            QuantMatrix::Product {
                sub,
                k,
                centroids,
                codes: bytes.clone(),
                range: read_codes(r, len)?,
            }
        }
        3 if may_split => {
            let head_rows = bits as usize;
            if head_rows > rows {
                return Err(bad("lstm", format!("split at row {head_rows} of {rows}")));
            }
            let head = read_matrix_part(r, bytes, head_rows, cols, false)?;
            let tail = read_matrix_part(r, bytes, rows - head_rows, cols, false)?;
            QuantMatrix::Split {
                head_rows,
                head: Box::new(head),
                tail: Box::new(tail),
            }
        }
        k => return Err(bad("lstm", format!("unknown matrix kind {k}"))),
    })
}

fn dense(m: &QuantMatrix, rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; rows * cols];
    for r in 0..rows {
        m.decode_row(r, cols, &mut out[r * cols..(r + 1) * cols]);
    }
    out
}

/// Parses an `Lstm` section.
pub fn read_lstm(bytes: SectionBytes) -> Result<LstmModel> {
    let b = bytes.as_ref();
    let mut r = Reader {
        b,
        at: 0,
        section: "lstm",
    };
    let projected = match r.take(8)? {
        m if m == LSTM_MAGIC => false,
        m if m == LSTMP_MAGIC => true,
        _ => return Err(bad("lstm", "bad magic")),
    };
    let vocab = r.u32()? as usize;
    let hidden = r.u32()? as usize;
    let cell = if projected { r.u32()? as usize } else { hidden };
    let unk_id = r.u32()?;
    let bos_id = r.u32()?;
    if vocab == 0
        || vocab > MAX_VOCAB
        || hidden == 0
        || hidden > MAX_DIM
        || cell == 0
        || cell > MAX_DIM
        || (projected && cell == hidden)
        || unk_id as usize >= vocab
        || bos_id as usize >= vocab
    {
        return Err(bad("lstm", "bad dimensions"));
    }
    let embedding = read_matrix(&mut r, &bytes, vocab, hidden)?;
    let w_ih = read_matrix(&mut r, &bytes, 4 * cell, hidden)?;
    let w_hh = read_matrix(&mut r, &bytes, 4 * cell, hidden)?;
    let mut rec_bits = w_ih.bits().max(w_hh.bits());
    let w_hr = if projected {
        let m = read_matrix(&mut r, &bytes, hidden, cell)?;
        rec_bits = rec_bits.max(m.bits());
        dense(&m, hidden, cell)
    } else {
        Vec::new()
    };
    let b = r.f32s(4 * cell)?;
    let out_bias = r.f32s(vocab)?;
    LstmModel::from_parts(
        vocab,
        hidden,
        cell,
        unk_id,
        bos_id,
        embedding,
        dense(&w_ih, 4 * cell, hidden),
        dense(&w_hh, 4 * cell, hidden),
        w_hr,
        b,
        out_bias,
        rec_bits,
    )
}

/// Parses an `LstmBackward` section: the backward LM, with the embedding of `forward` (the
/// model's `Lstm` section), whose vocabulary and hidden size it must have.
pub fn read_backward(bytes: SectionBytes, forward: &LstmModel) -> Result<LstmModel> {
    let b = bytes.as_ref();
    let mut r = Reader {
        b,
        at: 0,
        section: "lstm backward",
    };
    if r.take(8)? != BACKWARD_MAGIC {
        return Err(bad("lstm backward", "bad magic"));
    }
    let vocab = r.u32()? as usize;
    let hidden = r.u32()? as usize;
    if vocab != forward.vocab || hidden != forward.hidden {
        return Err(bad(
            "lstm backward",
            format!(
                "{vocab} words of {hidden} dimensions, the forward LSTM has {} of {}",
                forward.vocab, forward.hidden
            ),
        ));
    }
    let w_ih = read_matrix(&mut r, &bytes, 4 * hidden, hidden)?;
    let w_hh = read_matrix(&mut r, &bytes, 4 * hidden, hidden)?;
    let rec_bits = w_ih.bits().max(w_hh.bits());
    let bias = r.f32s(4 * hidden)?;
    let out_bias = read_matrix(&mut r, &bytes, vocab, 1)?;
    LstmModel::from_parts(
        vocab,
        hidden,
        hidden,
        forward.unk_id,
        forward.bos_id,
        forward.embedding.clone(),
        dense(&w_ih, 4 * hidden, hidden),
        dense(&w_hh, 4 * hidden, hidden),
        Vec::new(),
        bias,
        dense(&out_bias, vocab, 1),
        rec_bits,
    )
}

/// The class table of an `LmVocab` section, from byte `at` where its pairs end (empty when there
/// is none).
fn read_classes(b: &[u8], at: usize, vocab: usize) -> Result<Vec<u32>> {
    let rest = &b[at..];
    if rest.is_empty() {
        return Ok(Vec::new());
    }
    let truncated = || bad("lm vocabulary", "class table truncated");
    if rest.len() < 12 || &rest[..8] != UNK_CLASS_MAGIC {
        return Err(bad("lm vocabulary", "unknown trailer"));
    }
    let k = u32::from_le_bytes([rest[8], rest[9], rest[10], rest[11]]) as usize;
    if k > 1 << 16 || k > rest.len() {
        return Err(truncated());
    }
    let mut at = at + 12;
    let mut out = Vec::with_capacity(k);
    for _ in 0..k {
        let v = read_varint(b, &mut at).ok_or_else(truncated)?;
        if v >= vocab as u64 {
            return Err(bad("lm vocabulary", "class id out of range"));
        }
        out.push(v as u32);
    }
    if at != b.len() {
        return Err(bad("lm vocabulary", "bytes after the class table"));
    }
    Ok(out)
}

/// The map lexicon entry → LM id (a decoded `LmVocab` section).
#[derive(Debug, Clone)]
pub struct LmVocab {
    /// Lexicon entry offsets, ascending.
    offsets: Vec<u32>,
    /// Their LM ids.
    ids: Vec<u32>,
    /// Their [`WordMatch`] codes.
    matches: Vec<u8>,
    /// Vocabulary size.
    pub vocab: usize,
    /// Id of `<unk>`.
    pub unk_id: u32,
    /// Id of `<s>`.
    pub bos_id: u32,
    /// The LM word that stands for a number node.
    pub number_id: u32,
    /// Per left POS id: the LM id of its `<unk>` class (empty: no classes, every unlisted
    /// entry is `<unk>`).
    classes: Vec<u32>,
    /// The distinct class ids, ascending.
    class_ids: Vec<u32>,
}

impl LmVocab {
    /// Checks and decodes an `LmVocab` section.
    pub fn from_section(bytes: SectionBytes) -> Result<Self> {
        let b = bytes.as_ref();
        let mut r = Reader {
            b,
            at: 0,
            section: "lm vocabulary",
        };
        let magic = r.take(8)?;
        if magic != VOCAB_MAGIC && magic != VOCAB_MAGIC_V2 {
            return Err(bad("lm vocabulary", "bad magic"));
        }
        let vocab = r.u32()? as usize;
        let unk_id = r.u32()?;
        let bos_id = r.u32()?;
        let n = r.u32()? as usize;
        let number_id = r.u32()?;
        if unk_id as usize >= vocab || bos_id as usize >= vocab {
            return Err(bad("lm vocabulary", "bad ids"));
        }
        let number_id = if (number_id as usize) < vocab {
            number_id
        } else {
            unk_id
        };
        let truncated = || bad("lm vocabulary", "pair table truncated");
        // every pair takes at least 2 bytes: bounds n before allocating
        if n > b.len() / 2 {
            return Err(truncated());
        }
        let (mut offsets, mut ids) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut matches = vec![0u8; n];
        // where the pairs end: the optional class table follows
        let mut pairs_end = r.at;
        if magic == VOCAB_MAGIC_V2 {
            let t = r.take(n.checked_mul(8).ok_or_else(truncated)?)?;
            for p in t.chunks_exact(8) {
                offsets.push(u32::from_le_bytes([p[0], p[1], p[2], p[3]]));
                ids.push(u32::from_le_bytes([p[4], p[5], p[6], p[7]]));
            }
        } else {
            let mut at = r.at;
            let mut off = 0u64;
            for _ in 0..n {
                let step = read_varint(b, &mut at).ok_or_else(truncated)?;
                off = off.checked_add(step).ok_or_else(truncated)?;
                offsets.push(u32::try_from(off).map_err(|_| truncated())?);
            }
            for m in matches.iter_mut() {
                let v = read_varint(b, &mut at).ok_or_else(truncated)?;
                ids.push(u32::try_from(v >> SPELLING_BITS).map_err(|_| truncated())?);
                *m = (v & ((1 << SPELLING_BITS) - 1)) as u8;
            }
            pairs_end = at;
        }
        if offsets.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("lm vocabulary", "entry offsets not ascending"));
        }
        let classes = if magic == VOCAB_MAGIC {
            read_classes(b, pairs_end, vocab)?
        } else {
            Vec::new()
        };
        let mut class_ids = classes.clone();
        class_ids.sort_unstable();
        class_ids.dedup();
        class_ids.retain(|&c| c != unk_id);
        Ok(LmVocab {
            offsets,
            ids,
            matches,
            vocab,
            unk_id,
            bos_id,
            number_id,
            classes,
            class_ids,
        })
    }

    /// Per left POS id, the LM id of its `<unk>` class (empty when the LM has no classes).
    pub fn classes(&self) -> &[u32] {
        &self.classes
    }

    /// Whether `id` is `<unk>` or one of the `<unk>` classes: a word the LM scores as a class,
    /// whose probability within it comes from the dictionary.
    pub fn is_unknown(&self, id: u32) -> bool {
        id == self.unk_id || self.class_ids.binary_search(&id).is_ok()
    }

    /// The LM word of a node with entry `entry` and left POS id `left`: [`LmVocab::lm_word`],
    /// or for a word without one (a lexicon entry, a user's word), its `<unk>` class. The
    /// lattice's unknown-word and number nodes stay `<unk>`.
    pub fn lm_word_or_class(&self, entry: u32, left: u16) -> (u32, WordMatch) {
        match self.lm_word(entry) {
            (id, _)
                if id == self.unk_id
                    && !crate::lattice::is_unknown(entry)
                    && entry != crate::lattice::NUMBER_ENTRY =>
            {
                (self.class_of(left), WordMatch::Own)
            }
            w => w,
        }
    }

    /// The `<unk>` class of a word with left POS id `left` (`<unk>` without classes).
    pub fn class_of(&self, left: u16) -> u32 {
        self.classes
            .get(usize::from(left))
            .copied()
            .unwrap_or(self.unk_id)
    }

    /// Number of lexicon entries with an LM word.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether no entry has an LM word.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Every listed entry: its offset, its LM id and how it has the word, offsets ascending
    /// (what a tool that rewrites the section starts from).
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32, WordMatch)> + '_ {
        (0..self.offsets.len()).map(|i| {
            (
                self.offsets[i],
                self.ids[i],
                WordMatch::from_code(u32::from(self.matches[i])),
            )
        })
    }

    /// The LM id of the lexicon entry at byte offset `entry` (`<unk>` if it has none,
    /// including the lattice's unknown-word and number nodes).
    pub fn lm_id(&self, entry: u32) -> u32 {
        self.lm_word(entry).0
    }

    /// The LM id of the lexicon entry at byte offset `entry` and how the entry has it.
    /// A digit twin ([`crate::lattice::DIGIT_TWIN_BASE`]) is the word of its kanji entry.
    pub fn lm_word(&self, entry: u32) -> (u32, WordMatch) {
        let entry = crate::lattice::twin_of(entry).unwrap_or(entry);
        let Ok(i) = self.offsets.binary_search(&entry) else {
            return (self.unk_id, WordMatch::Own);
        };
        let id = self.ids[i];
        if (id as usize) < self.vocab {
            (id, WordMatch::from_code(u32::from(self.matches[i])))
        } else {
            (self.unk_id, WordMatch::Own)
        }
    }
}

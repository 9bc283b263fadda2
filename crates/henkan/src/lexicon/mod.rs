//! The lexicon: readings (hiragana) → dictionary entries.
//!
//! Terms:
//! - *reading*: the kana a word is typed as (`きょう`).
//! - *entry*: one word for a reading: its *surface* (`今日`), its left and right POS ids
//!   (Mozc's `id.def` numbering) and its word cost (lower is likelier).
//! - *postings*: the entries of one reading, stored back to back.
//!
//! Storage is two sections: an `fst::Map` from reading to the byte offset of its postings
//! (the *index*), and the postings bytes. Each posting list is
//! `varint count` then per entry `varint pos pair`, `varint zigzag cost`, `varint surface tag`
//! where tag 0 = the surface is the reading itself, 1 = the katakana of the reading, and
//! n ≥ 2 encodes `v = n − 2`: `v / 16` character codes follow (varints indexing the
//! character table, most frequent characters first, so common kanji and kana take one or
//! two bytes), then the last `v % 16` characters of the reading are appended (okurigana:
//! 食べる/たべる stores only 食). The postings section starts with the magic `HKPOST3\0`
//! and `u32` cost step (stored costs are multiples of it, written divided by it; older
//! models have neither and step 1), then the table of distinct (left id, right id) pairs
//! and the character table.
//!
//! Both views are generic over their bytes (see [`SectionBytes`]), so the same code serves
//! a model loaded from a file, `include_bytes!` or wasm memory. Malformed postings never
//! panic: a bad entry ends the iteration.

use crate::error::{Error, Result};
use crate::model::SectionBytes;
use fst::raw::{Fst, Output};

/// How an entry's surface is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface<'a> {
    /// The surface is the reading itself (hiragana words such as particles).
    Reading,
    /// The surface is the katakana form of the reading.
    Katakana,
    /// Any other surface: character codes, then a shared tail of the reading.
    Coded {
        /// The varint character codes.
        codes: &'a [u8],
        /// Number of codes.
        count: u32,
        /// Number of trailing reading characters appended after the codes.
        shared: u8,
    },
}

/// One dictionary entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Left POS id (used when something precedes this word).
    pub left_id: u16,
    /// Right POS id (used when something follows this word).
    pub right_id: u16,
    /// Word cost; lower is likelier.
    pub cost: i32,
    /// The written form.
    pub surface: Surface<'a>,
    /// Byte offset of this entry in the postings, to find it again with [`Lexicon::entry`].
    pub offset: u32,
}

/// Reads a LEB128 varint, advancing `pos`; `None` when the bytes end or overflow.
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        if shift >= 64 {
            return None;
        }
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
    }
}

/// Decodes a zigzag-encoded signed cost.
pub fn unzigzag(v: u64) -> i32 {
    let v = v as u32;
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

/// Checks what `Fst::new` reads before it is called: an fst with a checksum (format 3, as the
/// builder writes) whose root address and key count, the two `u64`s before the checksum, lie
/// within its bytes. On a 32-bit target (wasm32) `Fst::new` panics on an address that does not
/// fit a `usize`.
fn check_fst_footer(b: &[u8]) -> Result<()> {
    let bad = |detail: &str| Error::Malformed {
        section: "lexicon index",
        detail: detail.to_string(),
    };
    let u64_at = |at: usize| {
        b.get(at..at + 8)
            .map(|w| u64::from_le_bytes(w.try_into().unwrap_or([0xff; 8])))
    };
    let n = b.len();
    if n < 36 {
        return Err(bad("too short"));
    }
    if u64_at(0) != Some(3) {
        return Err(bad("not an fst of format 3 (with a checksum)"));
    }
    let within = |v: Option<u64>| v.is_some_and(|v| v < n as u64);
    if !within(u64_at(n - 12)) || !within(u64_at(n - 20)) {
        return Err(bad("root address or key count outside the index"));
    }
    Ok(())
}

/// The lexicon: an index from reading to postings, and the postings.
#[derive(Clone)]
pub struct Lexicon {
    index: Fst<SectionBytes>,
    postings: SectionBytes,
    pairs: Vec<(u16, u16)>,
    chars: Vec<char>,
    blob_start: usize,
    cost_step: i32,
}

/// The magic of postings with a cost step (format 3).
/// Magic at the start of the postings section (format 3: with the cost step).
pub const POSTINGS_MAGIC: &[u8; 8] = b"HKPOST3\0";

impl std::fmt::Debug for Lexicon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lexicon")
            .field("readings", &self.index.len())
            .field("postings_bytes", &self.postings.as_ref().len())
            .finish()
    }
}

/// Iterates the entries of one reading.
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    lex: &'a Lexicon,
    pos: usize,
    left: u64,
}

impl<'a> Iterator for Entries<'a> {
    type Item = Entry<'a>;

    fn next(&mut self) -> Option<Entry<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.pos;
        match self.lex.decode_at(&mut self.pos) {
            Some(e) => Some(Entry {
                offset: (at - self.lex.blob_start) as u32,
                ..e
            }),
            None => {
                self.left = 0;
                None
            }
        }
    }
}

impl Lexicon {
    /// Builds the view from the index and postings sections.
    pub fn new(index: SectionBytes, postings: SectionBytes) -> Result<Self> {
        let malformed_index = |e: fst::Error| Error::Malformed {
            section: "lexicon index",
            detail: e.to_string(),
        };
        check_fst_footer(index.as_ref())?;
        let index = Fst::new(index).map_err(malformed_index)?;
        // `Fst::new` reads only the header and the footer; the checksum that the fst carries
        // over all its bytes catches a damaged or cut index before a lookup walks into it.
        index.verify().map_err(malformed_index)?;
        let p = postings.as_ref();
        let bad = |detail: &str| Error::Malformed {
            section: "lexicon postings",
            detail: detail.to_string(),
        };
        let (start, cost_step) = if p.starts_with(POSTINGS_MAGIC) {
            let step = p
                .get(8..12)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or_else(|| bad("too short"))?;
            if step == 0 || step > 1 << 16 {
                return Err(bad("cost step out of range"));
            }
            (12, step as i32)
        } else {
            (0, 1)
        };
        if p.len() < start + 4 {
            return Err(bad("too short"));
        }
        let n = u32::from_le_bytes([p[start], p[start + 1], p[start + 2], p[start + 3]]) as usize;
        let pairs_end = n
            .checked_mul(4)
            .and_then(|x| x.checked_add(start + 4))
            .ok_or_else(|| bad("pair count overflows"))?;
        if p.len() < pairs_end {
            return Err(bad("pair table truncated"));
        }
        let pairs = (0..n)
            .map(|i| {
                let at = start + 4 + i * 4;
                (
                    u16::from_le_bytes([p[at], p[at + 1]]),
                    u16::from_le_bytes([p[at + 2], p[at + 3]]),
                )
            })
            .collect();
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(p.get(at..at + 4)?.try_into().ok()?))
        };
        let n_chars = word(pairs_end).ok_or_else(|| bad("character table truncated"))? as usize;
        let chars_end = n_chars
            .checked_mul(4)
            .and_then(|x| x.checked_add(pairs_end + 4))
            .filter(|&e| e <= p.len())
            .ok_or_else(|| bad("character table truncated"))?;
        let chars = (0..n_chars)
            .map(|i| word(pairs_end + 4 + 4 * i).and_then(char::from_u32))
            .collect::<Option<Vec<char>>>()
            .ok_or_else(|| bad("character table holds a non-character"))?;
        Ok(Lexicon {
            index,
            postings,
            pairs,
            chars,
            blob_start: chars_end,
            cost_step,
        })
    }

    /// Number of distinct readings.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there is no reading at all.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The postings' pair table: the (left id, right id) of each pair index.
    pub fn pair_table(&self) -> &[(u16, u16)] {
        &self.pairs
    }

    /// The postings' character table: the character of each surface code.
    pub fn char_table(&self) -> &[char] {
        &self.chars
    }

    /// The postings' cost step (stored costs are multiples of it).
    pub fn cost_step(&self) -> i32 {
        self.cost_step
    }

    /// The blob of posting lists that entry offsets count in.
    pub fn blob(&self) -> &[u8] {
        &self.postings.as_ref()[self.blob_start..]
    }

    /// The raw index automaton (for incremental prefix walks in the lattice).
    pub fn index(&self) -> &Fst<SectionBytes> {
        &self.index
    }

    fn decode_at(&self, pos: &mut usize) -> Option<Entry<'_>> {
        let b = self.postings.as_ref();
        let pair = read_varint(b, pos)? as usize;
        let (left_id, right_id) = *self.pairs.get(pair)?;
        // Kept within the connection's INFINITE_COST, so that a path's sum cannot overflow.
        let cost = unzigzag(read_varint(b, pos)?)
            .saturating_mul(self.cost_step)
            .clamp(-crate::pos::INFINITE_COST, crate::pos::INFINITE_COST);
        let tag = read_varint(b, pos)?;
        let surface = match tag {
            0 => Surface::Reading,
            1 => Surface::Katakana,
            n => {
                let v = n - 2;
                let count = u32::try_from(v / 16).ok()?;
                let start = *pos;
                for _ in 0..count {
                    read_varint(b, pos)?;
                }
                Surface::Coded {
                    codes: &b[start..*pos],
                    count,
                    shared: (v % 16) as u8,
                }
            }
        };
        Some(Entry {
            left_id,
            right_id,
            cost,
            surface,
            offset: 0,
        })
    }

    /// The written form of an entry with this surface and reading.
    pub fn surface_text(&self, surface: &Surface<'_>, reading: &str) -> String {
        let mut out = String::new();
        self.write_surface(surface, reading, &mut out);
        out
    }

    /// [`Lexicon::surface_text`] into `out` (cleared first), so that a pass over many entries
    /// reuses one buffer.
    pub fn write_surface(&self, surface: &Surface<'_>, reading: &str, out: &mut String) {
        out.clear();
        match *surface {
            Surface::Reading => out.push_str(reading),
            Surface::Katakana => out.push_str(&crate::composer::to_katakana(reading)),
            Surface::Coded {
                codes,
                count,
                shared,
            } => {
                let mut pos = 0;
                for _ in 0..count {
                    match read_varint(codes, &mut pos).and_then(|c| self.chars.get(c as usize)) {
                        Some(&c) => out.push(c),
                        None => out.push('\u{fffd}'),
                    }
                }
                let n = reading.chars().count();
                out.extend(reading.chars().skip(n.saturating_sub(shared as usize)));
            }
        }
    }

    /// The entries whose postings start at `value` (an index output).
    pub fn entries(&self, value: u64) -> Entries<'_> {
        let mut pos = self.blob_start.saturating_add(value as usize);
        let left = read_varint(self.postings.as_ref(), &mut pos).unwrap_or(0);
        Entries {
            lex: self,
            pos,
            left,
        }
    }

    /// Calls `f` with every entry and its reading, readings in byte order.
    pub fn for_each_entry(&self, mut f: impl FnMut(&str, Entry<'_>)) {
        use fst::Streamer;
        let mut stream = self.index.stream();
        while let Some((reading, v)) = stream.next() {
            let Ok(reading) = std::str::from_utf8(reading) else {
                continue;
            };
            for e in self.entries(v.value()) {
                f(reading, e);
            }
        }
    }

    /// The entries of exactly this reading (empty if it is not in the lexicon).
    pub fn get(&self, reading: &str) -> Entries<'_> {
        match self.index.get(reading.as_bytes()) {
            Some(out) => self.entries(out.value()),
            None => Entries {
                lex: self,
                pos: 0,
                left: 0,
            },
        }
    }

    /// The entry at a byte offset returned in [`Entry::offset`].
    pub fn entry(&self, offset: u32) -> Option<Entry<'_>> {
        let mut pos = self.blob_start.checked_add(offset as usize)?;
        self.decode_at(&mut pos).map(|e| Entry { offset, ..e })
    }

    /// The reading of the entry at a byte offset returned in [`Entry::offset`]: the index read
    /// backwards. Posting lists are written in reading order, so the index's values grow with
    /// its keys and the reading is the last one whose postings start at or before `offset`;
    /// at each node that is the last transition whose smallest value is within it. `None`
    /// when no entry starts at `offset` (checked against the postings found), and for the
    /// lists a model build appends out of that order (readings added to a finished model,
    /// `henkan_builder::readings`: two entries of the shipped model).
    pub fn reading_at(&self, offset: u32) -> Option<String> {
        let want = u64::from(offset);
        let mut node = self.index.root();
        let mut value = 0u64;
        let mut key = Vec::new();
        loop {
            // (filtered, not cut at the first too large: a subtree of appended lists only has
            // a larger value than the subtrees after it)
            let step = node
                .transitions()
                .filter(|t| value.saturating_add(t.out.value()) <= want)
                .last();
            let Some(t) = step else { break };
            value = value.saturating_add(t.out.value());
            key.push(t.inp);
            node = self.index.node(t.addr);
            // No reading is this long; a malformed index cannot loop.
            if key.len() > 255 {
                return None;
            }
        }
        if !node.is_final() {
            return None;
        }
        // The path's outputs are the key's value, as a lookup of it sums them.
        let start = value.saturating_add(node.final_output().value());
        let holds = self.entries(start).any(|e| e.offset == offset);
        let reading = String::from_utf8(key).ok()?;
        holds.then_some(reading)
    }

    /// Readings that are prefixes of `text`: yields (length in bytes, index value).
    pub fn common_prefixes<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (usize, u64)> + 'a {
        let bytes = text.as_bytes();
        let mut node = self.index.root();
        let mut out = Output::zero();
        let mut i = 0;
        std::iter::from_fn(move || {
            while i < bytes.len() {
                let t = node.find_input(bytes[i])?;
                let tr = node.transition(t);
                out = out.cat(tr.out);
                node = self.index.node(tr.addr);
                i += 1;
                if node.is_final() && text.is_char_boundary(i) {
                    return Some((i, out.cat(node.final_output()).value()));
                }
            }
            None
        })
    }

    /// Readings that start with `prefix`, in byte order, at most `limit`: (reading, value).
    pub fn predictive(&self, prefix: &str, limit: usize) -> Vec<(String, u64)> {
        use fst::{IntoStreamer, Streamer};
        let mut upper = prefix.as_bytes().to_vec();
        upper.push(0xff);
        let mut stream = self
            .index
            .range()
            .ge(prefix.as_bytes())
            .lt(&upper)
            .into_stream();
        let mut found = Vec::new();
        while let Some((k, v)) = stream.next() {
            if found.len() >= limit {
                break;
            }
            if let Ok(s) = std::str::from_utf8(k) {
                found.push((s.to_string(), v.value()));
            }
        }
        found
    }
}

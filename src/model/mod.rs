//! The model container: one file holding every part of a model.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! 0   magic      8 bytes  "HENKAN\0\x1a"
//! 8   version    u32      FORMAT_VERSION
//! 12  count      u32      number of sections
//! 16  table      count × 32 bytes: kind u32, encoding u32, offset u64, length u64, crc32 u32,
//!                decoded length u32
//! ..  sections   each starts at a 16-byte aligned offset
//! ```
//!
//! *Encoding* ([`Encoding`]): a section is stored as it is (0) or as one zstd frame (1) that
//! decodes to `decoded length` bytes; `length` and the CRC-32 are those of the stored bytes,
//! so a streaming loader checks what it received before anything is decoded. Version 2 files
//! (both fields zero: every section stored) are still read.
//!
//! Reading a container checks the magic, the version, that every section lies inside the
//! bytes and that its CRC-32 matches, and decodes the compressed sections; a mismatch or a
//! bad frame is a typed [`Error`], never a panic. Sections are then handed out as
//! [`SectionBytes`]: cheap views into the shared file buffer (stored sections) or into the
//! section's own decoded buffer.
//!
//! *Progressive loading*: the language-model sections ([`SectionKind::is_lm`]) are the big,
//! optional part of a model and come last in the files we ship. [`layout`] tells from the first
//! `16 + 32 × count` bytes where the other sections — the *core* — end; [`Container::partial`]
//! checks only the core (the LM sections stay *pending*, hidden from [`Container::section`]) and
//! [`Container::complete`] checks the pending sections once their bytes are there. The buffer is
//! reserved at its full length from the start and never reallocated, so a streaming writer (the
//! browser loader writes into wasm memory) can fill the pending bytes in place.

use crate::error::{Error, Result};
use std::ops::Range;
use std::sync::Arc;

/// The 8 magic bytes every model file starts with.
pub const MAGIC: [u8; 8] = *b"HENKAN\0\x1a";
/// The container format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 3;
/// The oldest container format version this build still reads (no compressed sections).
pub const OLDEST_READABLE_VERSION: u32 = 2;
/// The largest decoded section this build accepts (a guard against absurd tables).
pub const MAX_DECODED_LEN: u32 = 1 << 30;
const HEADER_LEN: usize = 16;
const ENTRY_LEN: usize = 32;
/// Alignment of every section's offset.
pub const ALIGN: usize = 16;

/// What a section holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum SectionKind {
    /// Free-form UTF-8 `key=value` lines describing the model (sizes, sources, options).
    Meta = 1,
    /// The lexicon's `fst::Map` from reading to postings offset.
    LexiconIndex = 2,
    /// The lexicon's postings (entries per reading).
    LexiconPostings = 3,
    /// POS tables: left/right id pairs, the connection-cost matrix, special ids.
    Connection = 4,
    /// The segment (文節) boundary rules, compiled to classes.
    Segmenter = 5,
    /// The LSTM language model's (quantized) weights.
    Lstm = 6,
    /// The LM vocabulary and the map from lexicon entries to LM word ids.
    LmVocab = 7,
    /// The word trigram LM for predictions (see [`crate::lm::ngram`]).
    Ngram = 8,
}

impl SectionKind {
    /// All known kinds.
    pub const ALL: [SectionKind; 8] = [
        SectionKind::Meta,
        SectionKind::LexiconIndex,
        SectionKind::LexiconPostings,
        SectionKind::Connection,
        SectionKind::Segmenter,
        SectionKind::Lstm,
        SectionKind::LmVocab,
        SectionKind::Ngram,
    ];

    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Meta => "meta",
            SectionKind::LexiconIndex => "lexicon index",
            SectionKind::LexiconPostings => "lexicon postings",
            SectionKind::Connection => "connection",
            SectionKind::Segmenter => "segmenter",
            SectionKind::Lstm => "lstm",
            SectionKind::LmVocab => "lm vocabulary",
            SectionKind::Ngram => "ngram",
        }
    }

    /// Whether the section belongs to the language models (LSTM, its vocabulary, the n-gram
    /// LM): optional for the classic engine, checked last by a progressive load.
    pub fn is_lm(self) -> bool {
        matches!(
            self,
            SectionKind::Lstm | SectionKind::LmVocab | SectionKind::Ngram
        )
    }

    fn from_u32(v: u32) -> Option<SectionKind> {
        SectionKind::ALL.into_iter().find(|k| *k as u32 == v)
    }
}

/// How a section's bytes are stored in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Encoding {
    /// The bytes as they are.
    Stored = 0,
    /// One zstd frame (decoded once, when the section is checked).
    Zstd = 1,
}

impl Encoding {
    fn from_u32(v: u32) -> Option<Encoding> {
        match v {
            0 => Some(Encoding::Stored),
            1 => Some(Encoding::Zstd),
            _ => None,
        }
    }
}

/// A view of one section: a shared buffer and a byte range in it.
///
/// Cloning is cheap (a reference count). Implements `AsRef<[u8]>`, so it can back an
/// `fst::Map` directly, without copying.
#[derive(Clone)]
pub struct SectionBytes {
    buf: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl SectionBytes {
    /// A view of a whole owned buffer (for tests and builders).
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        let len = bytes.len();
        SectionBytes {
            buf: Arc::new(bytes),
            range: 0..len,
        }
    }
}

impl AsRef<[u8]> for SectionBytes {
    fn as_ref(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }
}

impl std::fmt::Debug for SectionBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SectionBytes({} bytes)", self.range.len())
    }
}

/// One entry of the section table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionEntry {
    /// What the section holds; `None` for a kind this build does not know (skipped).
    pub kind: Option<SectionKind>,
    /// Raw kind number.
    pub raw_kind: u32,
    /// How the bytes are stored.
    pub encoding: Encoding,
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// Length in bytes as stored in the file.
    pub length: u64,
    /// CRC-32 (IEEE) of the stored bytes.
    pub crc32: u32,
    /// Length once decoded (= `length` for a stored section).
    pub decoded_length: u64,
}

impl SectionEntry {
    /// Whether the section is part of the language models (unknown kinds are not).
    pub fn is_lm(&self) -> bool {
        self.kind.is_some_and(SectionKind::is_lm)
    }

    /// The byte range of the section, or an error if it overflows.
    fn range(&self) -> Result<Range<u64>> {
        let end = self
            .offset
            .checked_add(self.length)
            .ok_or(Error::Malformed {
                section: "table",
                detail: "section offset overflows".into(),
            })?;
        Ok(self.offset..end)
    }
}

/// Where the parts of a model end, known from its section table alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The section table.
    pub entries: Vec<SectionEntry>,
    /// Bytes needed for the header, the table and every section except the LM ones (the
    /// classic engine).
    pub core_end: u64,
    /// Bytes needed for everything (the end of the last section).
    pub file_end: u64,
}

/// Reads the header and section table (see [`read_table`]) and where the core and the
/// whole model end.
pub fn layout(bytes: &[u8]) -> Result<Layout> {
    let entries = read_table(bytes)?;
    let table_end = (HEADER_LEN + entries.len() * ENTRY_LEN) as u64;
    let (mut core_end, mut file_end) = (table_end, table_end);
    for e in &entries {
        let end = e.range()?.end;
        file_end = file_end.max(end);
        if !e.is_lm() {
            core_end = core_end.max(end);
        }
    }
    Ok(Layout {
        entries,
        core_end,
        file_end,
    })
}

/// A checked model container over a shared buffer.
///
/// It may be *partial*: sections whose checksums were not checked yet (see
/// [`Container::partial`]) are *pending* and invisible to [`Container::section`].
#[derive(Debug, Clone)]
pub struct Container {
    buf: Arc<Vec<u8>>,
    entries: Vec<SectionEntry>,
    /// The decoded bytes of each compressed section once checked (`None` for stored ones).
    decoded: Vec<Option<Arc<Vec<u8>>>>,
    /// Indices into `entries` of the sections not checked yet.
    pending: Vec<usize>,
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Parses the header and section table from the first bytes of a file.
///
/// Needs only `16 + 32 × count` bytes, so a streaming loader can learn the layout
/// early. Checks magic and version, not the sections.
pub fn read_table(bytes: &[u8]) -> Result<Vec<SectionEntry>> {
    if bytes.len() < HEADER_LEN {
        if bytes.len() >= 8 && bytes[..8] != MAGIC {
            return Err(Error::Magic);
        }
        return Err(Error::Truncated {
            needed: HEADER_LEN as u64,
            len: bytes.len() as u64,
        });
    }
    if bytes[..8] != MAGIC {
        return Err(Error::Magic);
    }
    let version = read_u32(bytes, 8);
    if !(OLDEST_READABLE_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(Error::Version {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    let count = read_u32(bytes, 12) as u64;
    let table_end = HEADER_LEN as u64 + count * ENTRY_LEN as u64;
    if count > 4096 {
        return Err(Error::Malformed {
            section: "table",
            detail: format!("{count} sections"),
        });
    }
    if (bytes.len() as u64) < table_end {
        return Err(Error::Truncated {
            needed: table_end,
            len: bytes.len() as u64,
        });
    }
    let mut entries = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let at = HEADER_LEN + i * ENTRY_LEN;
        let raw_kind = read_u32(bytes, at);
        let kind = SectionKind::from_u32(raw_kind);
        let name = kind.map(SectionKind::name).unwrap_or("unknown");
        let raw_encoding = read_u32(bytes, at + 4);
        let encoding = Encoding::from_u32(raw_encoding).ok_or_else(|| Error::Malformed {
            section: name,
            detail: format!("unknown encoding {raw_encoding}"),
        })?;
        let length = read_u64(bytes, at + 16);
        let decoded_length = match encoding {
            Encoding::Stored => length,
            Encoding::Zstd => {
                let n = read_u32(bytes, at + 28);
                if n > MAX_DECODED_LEN {
                    return Err(Error::Malformed {
                        section: name,
                        detail: format!("decoded length {n} is too large"),
                    });
                }
                u64::from(n)
            }
        };
        entries.push(SectionEntry {
            kind,
            raw_kind,
            encoding,
            offset: read_u64(bytes, at + 8),
            length,
            crc32: read_u32(bytes, at + 24),
            decoded_length,
        });
    }
    Ok(entries)
}

/// Checks that a section lies inside the first `received` bytes of `bytes` and that its
/// CRC-32 matches.
fn check(bytes: &[u8], received: usize, e: &SectionEntry) -> Result<()> {
    let range = e.range()?;
    let have = received.min(bytes.len()) as u64;
    if range.end > have {
        return Err(Error::Truncated {
            needed: range.end,
            len: have,
        });
    }
    if crc32fast::hash(&bytes[range.start as usize..range.end as usize]) != e.crc32 {
        return Err(Error::Checksum {
            kind: e.kind.map(SectionKind::name).unwrap_or("unknown"),
        });
    }
    Ok(())
}

/// Decodes a compressed section whose stored bytes were checked (`None` for a stored one).
fn decode(bytes: &[u8], e: &SectionEntry) -> Result<Option<Arc<Vec<u8>>>> {
    match e.encoding {
        Encoding::Stored => Ok(None),
        Encoding::Zstd => {
            let stored = &bytes[e.offset as usize..(e.offset + e.length) as usize];
            let section = e.kind.map(SectionKind::name).unwrap_or("unknown");
            let mut out = vec![0u8; e.decoded_length as usize];
            let written = ruzstd::decoding::FrameDecoder::new()
                .decode_all(stored, &mut out)
                .map_err(|err| Error::Malformed {
                    section,
                    detail: format!("zstd: {err}"),
                })?;
            if written != out.len() {
                return Err(Error::Malformed {
                    section,
                    detail: format!("zstd: {written} bytes decoded, {} expected", out.len()),
                });
            }
            Ok(Some(Arc::new(out)))
        }
    }
}

impl Container {
    /// Checks a whole model file and takes ownership of its bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self> {
        let len = bytes.len();
        let mut container = Container::partial(bytes, len)?;
        container.complete(len)?;
        Ok(container)
    }

    /// Takes a buffer of which only the first `received` bytes have arrived yet and checks
    /// the core sections (all but the LM ones), which must lie inside them. The LM sections
    /// stay pending until [`Container::complete`].
    ///
    /// The buffer should already have the whole file's length ([`Layout::file_end`]): it is
    /// shared from now on and never reallocated, so its address stays valid for a writer
    /// that fills the rest in place. Nothing in this crate reads a pending section's bytes
    /// before `complete` is called.
    pub fn partial(bytes: Vec<u8>, received: usize) -> Result<Self> {
        let entries = read_table(&bytes[..received.min(bytes.len())])?;
        let mut pending = Vec::new();
        let mut decoded = vec![None; entries.len()];
        for (i, e) in entries.iter().enumerate() {
            if e.is_lm() {
                e.range()?;
                pending.push(i);
            } else {
                check(&bytes, received, e)?;
                decoded[i] = decode(&bytes, e)?;
            }
        }
        Ok(Container {
            buf: Arc::new(bytes),
            entries,
            decoded,
            pending,
        })
    }

    /// Checks the pending sections now that `received` bytes have arrived. On success they
    /// become visible; on error (truncated, checksum) the container stays as it was.
    pub fn complete(&mut self, received: usize) -> Result<()> {
        let mut decoded = Vec::with_capacity(self.pending.len());
        for &i in &self.pending {
            check(&self.buf, received, &self.entries[i])?;
            decoded.push(decode(&self.buf, &self.entries[i])?);
        }
        for (&i, d) in self.pending.iter().zip(decoded) {
            self.decoded[i] = d;
        }
        self.pending.clear();
        Ok(())
    }

    /// Whether some sections are still pending (see [`Container::partial`]).
    pub fn is_partial(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The section table.
    pub fn entries(&self) -> &[SectionEntry] {
        &self.entries
    }

    /// Total size of the file in bytes.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether the file is empty (never true for a valid container).
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The first section of a kind, if present.
    pub fn section(&self, kind: SectionKind) -> Option<SectionBytes> {
        let at = self.entries.iter().position(|e| e.kind == Some(kind))?;
        self.section_at(at)
    }

    /// The section at this index of the table, unless it is pending or out of range.
    pub fn section_at(&self, at: usize) -> Option<SectionBytes> {
        if self.pending.contains(&at) {
            return None;
        }
        if let Some(Some(d)) = self.decoded.get(at) {
            return Some(SectionBytes {
                buf: d.clone(),
                range: 0..d.len(),
            });
        }
        self.entries.get(at).map(|e| SectionBytes {
            buf: self.buf.clone(),
            range: e.offset as usize..(e.offset + e.length) as usize,
        })
    }

    /// The first section of a kind, or [`Error::MissingSection`].
    pub fn require(&self, kind: SectionKind) -> Result<SectionBytes> {
        self.section(kind).ok_or(Error::MissingSection(kind.name()))
    }
}

/// Writes a container from sections.
///
/// Sections are stored as they are unless [`ContainerWriter::compress`] (model builder only)
/// asks for zstd, which is kept for a section only when it saves at least 2% of its bytes.
#[derive(Debug, Default)]
pub struct ContainerWriter {
    sections: Vec<(SectionKind, Vec<u8>)>,
    #[cfg(feature = "build")]
    level: Option<i32>,
}

impl ContainerWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a section (in file order).
    pub fn add(&mut self, kind: SectionKind, bytes: Vec<u8>) -> &mut Self {
        self.sections.push((kind, bytes));
        self
    }

    /// Compresses the sections with zstd at this level (1–22; 19 and above are slow to write,
    /// decoding speed hardly depends on it).
    #[cfg(feature = "build")]
    pub fn compress(&mut self, level: i32) -> &mut Self {
        self.level = Some(level);
        self
    }

    /// One section as it goes into the file: (encoding, stored bytes, decoded length).
    fn encode<'a>(&self, bytes: &'a [u8]) -> (Encoding, std::borrow::Cow<'a, [u8]>, u32) {
        #[cfg(feature = "build")]
        if let Some(level) = self.level {
            if bytes.len() >= 256 && bytes.len() <= MAX_DECODED_LEN as usize {
                if let Ok(mut c) = zstd::bulk::Compressor::new(level) {
                    // a 16 MiB window: the largest section fits, the decoder's window stays bounded
                    let _ = c.long_distance_matching(true);
                    let _ = c.window_log(24);
                    let _ = c.include_contentsize(true);
                    if let Ok(z) = c.compress(bytes) {
                        if z.len() * 50 <= bytes.len() * 49 {
                            return (Encoding::Zstd, z.into(), bytes.len() as u32);
                        }
                    }
                }
            }
        }
        (Encoding::Stored, bytes.into(), 0)
    }

    /// The finished file.
    pub fn finish(&self) -> Vec<u8> {
        let encoded: Vec<_> = self.sections.iter().map(|(_, b)| self.encode(b)).collect();
        let n = self.sections.len();
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        let mut offset = align(HEADER_LEN + n * ENTRY_LEN);
        let mut offsets = Vec::with_capacity(n);
        for ((kind, _), (encoding, bytes, decoded)) in self.sections.iter().zip(&encoded) {
            offsets.push(offset);
            out.extend_from_slice(&(*kind as u32).to_le_bytes());
            out.extend_from_slice(&(*encoding as u32).to_le_bytes());
            out.extend_from_slice(&(offset as u64).to_le_bytes());
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
            out.extend_from_slice(&decoded.to_le_bytes());
            offset = align(offset + bytes.len());
        }
        for ((_, bytes, _), off) in encoded.iter().zip(offsets) {
            out.resize(off, 0);
            out.extend_from_slice(bytes);
        }
        out.resize(align(out.len()), 0);
        out
    }
}

/// Rewrites a container with every section stored (`level` = `None`) or zstd-compressed at
/// `level` where that saves bytes; the decoded sections and their order are unchanged.
#[cfg(feature = "build")]
pub fn repack(bytes: Vec<u8>, level: Option<i32>) -> Result<Vec<u8>> {
    let container = Container::from_bytes(bytes)?;
    let mut w = ContainerWriter::new();
    if let Some(level) = level {
        w.compress(level);
    }
    for (at, e) in container.entries().iter().enumerate() {
        let Some(kind) = e.kind else { continue };
        if let Some(s) = container.section_at(at) {
            w.add(kind, s.as_ref().to_vec());
        }
    }
    Ok(w.finish())
}

fn align(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut w = ContainerWriter::new();
        w.add(SectionKind::Meta, b"name=test\n".to_vec());
        w.add(SectionKind::Connection, vec![1, 2, 3, 4, 5]);
        w.finish()
    }

    #[test]
    fn round_trip() {
        let c = Container::from_bytes(sample()).unwrap();
        assert_eq!(
            c.section(SectionKind::Meta).unwrap().as_ref(),
            b"name=test\n"
        );
        assert_eq!(
            c.section(SectionKind::Connection).unwrap().as_ref(),
            &[1, 2, 3, 4, 5]
        );
        assert!(c.section(SectionKind::Segmenter).is_none());
        assert_eq!(
            c.require(SectionKind::Segmenter).unwrap_err(),
            Error::MissingSection("segmenter")
        );
        for e in c.entries() {
            assert_eq!(e.offset as usize % ALIGN, 0);
        }
    }

    #[test]
    fn wrong_magic() {
        let mut b = sample();
        b[0] = b'X';
        assert_eq!(Container::from_bytes(b).unwrap_err(), Error::Magic);
        assert_eq!(
            Container::from_bytes(b"GIF89a-not-a-model".to_vec()).unwrap_err(),
            Error::Magic
        );
    }

    #[test]
    fn wrong_version() {
        let mut b = sample();
        b[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            Container::from_bytes(b).unwrap_err(),
            Error::Version {
                expected: FORMAT_VERSION,
                got: 7
            }
        );
    }

    #[test]
    fn corrupt_section() {
        let mut b = sample();
        let last = b.iter().rposition(|&x| x == 5).unwrap();
        b[last] = 6;
        assert_eq!(
            Container::from_bytes(b).unwrap_err(),
            Error::Checksum { kind: "connection" }
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        let b = sample();
        let full_needed = b.iter().rposition(|&x| x == 5).unwrap() + 1;
        for len in 0..full_needed {
            let err = Container::from_bytes(b[..len].to_vec()).unwrap_err();
            assert!(matches!(err, Error::Truncated { .. }), "len {len}: {err:?}");
        }
    }

    #[test]
    fn absurd_table_is_an_error() {
        let mut b = sample();
        b[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Container::from_bytes(b).is_err());
        let mut b = sample();
        // first entry's offset far past the end
        b[16 + 8..16 + 16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Container::from_bytes(b).is_err());
    }

    /// A section that compresses well (and one that does not).
    fn compressible() -> Vec<u8> {
        (0..20_000u32)
            .flat_map(|i| (i % 300).to_le_bytes())
            .collect()
    }

    fn noise(n: usize) -> Vec<u8> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[cfg(feature = "build")]
    fn compressed() -> Vec<u8> {
        let mut w = ContainerWriter::new();
        w.compress(3)
            .add(SectionKind::Meta, b"name=test\n".to_vec())
            .add(SectionKind::Connection, compressible())
            .add(SectionKind::Segmenter, noise(5000))
            .add(SectionKind::Lstm, compressible());
        w.finish()
    }

    #[cfg(feature = "build")]
    #[test]
    fn compressed_sections_round_trip() {
        let b = compressed();
        let table = read_table(&b).unwrap();
        let enc: Vec<Encoding> = table.iter().map(|e| e.encoding).collect();
        // tiny and incompressible sections stay stored
        assert_eq!(
            enc,
            [
                Encoding::Stored,
                Encoding::Zstd,
                Encoding::Stored,
                Encoding::Zstd
            ]
        );
        assert!(table[1].length * 4 < table[1].decoded_length);
        assert!(b.len() < 2 * 80_000 / 4 + 5000 + 1000);
        let c = Container::from_bytes(b.clone()).unwrap();
        assert_eq!(
            c.section(SectionKind::Connection).unwrap().as_ref(),
            compressible()
        );
        assert_eq!(
            c.section(SectionKind::Segmenter).unwrap().as_ref(),
            noise(5000)
        );
        // progressive: the compressed LM section is decoded by `complete`
        let l = layout(&b).unwrap();
        let mut p = Container::partial(b.clone(), l.core_end as usize).unwrap();
        assert!(p.section(SectionKind::Lstm).is_none());
        p.complete(b.len()).unwrap();
        assert_eq!(
            p.section(SectionKind::Lstm).unwrap().as_ref(),
            compressible()
        );
        // and back to stored, then compressed again: the same sections
        let stored = repack(b.clone(), None).unwrap();
        assert!(read_table(&stored)
            .unwrap()
            .iter()
            .all(|e| e.encoding == Encoding::Stored));
        let again = Container::from_bytes(repack(stored, Some(3)).unwrap()).unwrap();
        assert_eq!(
            again.section(SectionKind::Lstm).unwrap().as_ref(),
            compressible()
        );
    }

    #[cfg(feature = "build")]
    #[test]
    fn bad_compressed_sections_are_errors() {
        let b = compressed();
        let conn = read_table(&b).unwrap()[1].clone();
        let at = 16 + 32;
        // a frame that does not decode (the checksum is fixed up so the frame itself is read)
        let mut bad = b.clone();
        let mid = (conn.offset + conn.length / 2) as usize;
        for x in &mut bad[mid..mid + 16] {
            *x ^= 0xa5;
        }
        let crc = crc32fast::hash(&bad[conn.offset as usize..(conn.offset + conn.length) as usize]);
        bad[at + 24..at + 28].copy_from_slice(&crc.to_le_bytes());
        assert!(Container::from_bytes(bad).is_err());
        // a decoded length that disagrees with the frame
        for wrong in [
            conn.decoded_length as u32 - 1,
            conn.decoded_length as u32 + 1,
            0,
        ] {
            let mut bad = b.clone();
            bad[at + 28..at + 32].copy_from_slice(&wrong.to_le_bytes());
            assert!(
                matches!(
                    Container::from_bytes(bad).unwrap_err(),
                    Error::Malformed {
                        section: "connection",
                        ..
                    }
                ),
                "{wrong}"
            );
        }
        // absurd decoded length, unknown encoding
        let mut bad = b.clone();
        bad[at + 28..at + 32].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Container::from_bytes(bad).is_err());
        let mut bad = b.clone();
        bad[at + 4..at + 8].copy_from_slice(&9u32.to_le_bytes());
        assert!(Container::from_bytes(bad).is_err());
        // every truncation of a compressed file is a typed error
        for len in (0..b.len()).step_by(97) {
            assert!(Container::from_bytes(b[..len].to_vec()).is_err());
        }
    }

    #[test]
    fn version_2_files_are_read() {
        let mut b = sample();
        b[8..12].copy_from_slice(&2u32.to_le_bytes());
        let c = Container::from_bytes(b).unwrap();
        assert_eq!(
            c.section(SectionKind::Connection).unwrap().as_ref(),
            &[1, 2, 3, 4, 5]
        );
    }

    /// The core first, then the LM sections, as the shipped models are laid out.
    fn with_lm() -> Vec<u8> {
        let mut w = ContainerWriter::new();
        w.add(SectionKind::Meta, b"name=test\n".to_vec());
        w.add(SectionKind::Connection, vec![1, 2, 3, 4, 5]);
        w.add(SectionKind::Lstm, vec![7; 100]);
        w.add(SectionKind::Ngram, vec![8; 50]);
        w.finish()
    }

    #[test]
    fn layout_tells_where_the_core_ends() {
        let b = with_lm();
        let l = layout(&b[..16 + 4 * 32]).unwrap();
        let conn = &l.entries[1];
        assert_eq!(l.core_end, conn.offset + conn.length);
        let ngram = &l.entries[3];
        assert_eq!(l.file_end, ngram.offset + ngram.length);
        assert!(l.core_end < l.entries[2].offset);
        assert!(matches!(
            layout(&b[..16 + 3 * 32]).unwrap_err(),
            Error::Truncated { .. }
        ));
    }

    #[test]
    fn partial_hides_the_lm_sections_until_complete() {
        let b = with_lm();
        let l = layout(&b).unwrap();
        let core_end = l.core_end as usize;
        let mut c = Container::partial(b.clone(), core_end).unwrap();
        assert!(c.is_partial());
        assert_eq!(
            c.section(SectionKind::Connection).unwrap().as_ref(),
            &[1, 2, 3, 4, 5]
        );
        assert!(c.section(SectionKind::Lstm).is_none());
        // Not all there yet: an error, and nothing changed.
        assert!(matches!(
            c.complete(l.file_end as usize - 1).unwrap_err(),
            Error::Truncated { .. }
        ));
        assert!(c.section(SectionKind::Lstm).is_none());
        c.complete(b.len()).unwrap();
        assert!(!c.is_partial());
        assert_eq!(c.section(SectionKind::Lstm).unwrap().as_ref(), &[7; 100]);
        assert_eq!(c.section(SectionKind::Ngram).unwrap().as_ref(), &[8; 50]);
        // The core must be complete and intact.
        assert!(matches!(
            Container::partial(b.clone(), core_end - 1).unwrap_err(),
            Error::Truncated { .. }
        ));
    }

    #[test]
    fn a_corrupt_lm_section_fails_complete_only() {
        let mut b = with_lm();
        let l = layout(&b).unwrap();
        b[l.entries[2].offset as usize + 10] = 0;
        let mut c = Container::partial(b.clone(), b.len()).unwrap();
        assert_eq!(
            c.complete(b.len()).unwrap_err(),
            Error::Checksum { kind: "lstm" }
        );
        assert!(c.is_partial());
        assert!(c.section(SectionKind::Meta).is_some());
        assert_eq!(
            Container::from_bytes(b).unwrap_err(),
            Error::Checksum { kind: "lstm" }
        );
    }
}

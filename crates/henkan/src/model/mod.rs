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
//! ..  table crc  u32      CRC-32 of the header and the table
//! ..  sections   each starts at a 16-byte aligned offset
//! ```
//!
//! *Encoding* ([`Encoding`]): a section is stored as it is (0) or as one zstd frame (1) that
//! decodes to `decoded length` bytes; `length` and the CRC-32 are those of the stored bytes,
//! so a streaming loader checks what it received before anything is decoded.
//!
//! *Limits*: a section may not be longer, stored or decoded, than its kind's ceiling
//! ([`SectionKind::max_len`]), and a compressed one may not decode to more than
//! [`MAX_EXPANSION`] times its stored bytes (plus 1 MiB). So what a loader reserves follows
//! from the bytes it really receives, whatever the table says.
//!
//! Reading a container checks the magic, the version, the table's own CRC-32 (so a damaged
//! kind, offset or length is caught before anything is reserved), the limits, that every
//! section lies inside the bytes and that its CRC-32 matches, and decodes the compressed
//! sections; a mismatch or a bad frame is a typed [`Error`], never a panic. The readers of
//! the sections check what is inside them in turn (`docs/model-format.md`, "Validation"). Sections are then handed out as
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
/// The container format version this build reads and writes (version 4: the section table
/// has its own CRC-32).
pub const FORMAT_VERSION: u32 = 4;
/// The largest section this build accepts, stored or decoded, whatever its kind (see
/// [`SectionKind::max_len`] for the ceiling of each kind).
pub const MAX_DECODED_LEN: u32 = 1 << 29;
/// How many times its stored bytes a compressed section may decode to (plus 1 MiB): the
/// shipped model's sections decode to at most 19 times their stored bytes.
pub const MAX_EXPANSION: u64 = 256;
/// Bytes of the header (magic, version, section count).
pub const HEADER_LEN: usize = 16;
/// Bytes of one section-table entry.
pub const ENTRY_LEN: usize = 32;
/// Bytes of the table's CRC-32, after the last entry.
pub const TABLE_CRC_LEN: usize = 4;

/// Bytes of the header, the table of `count` sections and its CRC-32: where the sections
/// may start.
pub fn table_len(count: usize) -> usize {
    HEADER_LEN + count * ENTRY_LEN + TABLE_CRC_LEN
}
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
    /// The hybrid's learned bias per lexicon entry (see [`crate::decoder::bias`]).
    WordBias = 9,
    /// Logit offsets per LM word for next-word prediction (see [`crate::predict::adapt`]).
    PredictBias = 10,
    /// A backward (right-to-left) LSTM sharing the `Lstm` section's embedding, rescoring the
    /// neural engine's final beam (see [`crate::lm::lstm::format`]).
    LstmBackward = 11,
    /// Word vectors per lexicon entry for the topical coherence that re-ranks the neural
    /// engines' final beam (see [`crate::lm::coherence`]).
    Coherence = 12,
    /// Emoji by reading, from the Unicode CLDR Japanese annotations (see [`crate::emoji`]).
    Emoji = 13,
    /// Centroids of the nouns each particle and predicate take, compared with the `Coherence`
    /// section's word vectors: the hybrid's selectional preferences (see
    /// [`crate::lm::selection`]).
    Selection = 14,
    /// A learned metric between the `Coherence` section's word vectors for the coherence
    /// between homophones (see [`crate::lm::homophone_metric`]).
    HomophoneMetric = 15,
}

impl SectionKind {
    /// All known kinds.
    pub const ALL: [SectionKind; 15] = [
        SectionKind::Meta,
        SectionKind::LexiconIndex,
        SectionKind::LexiconPostings,
        SectionKind::Connection,
        SectionKind::Segmenter,
        SectionKind::Lstm,
        SectionKind::LmVocab,
        SectionKind::Ngram,
        SectionKind::WordBias,
        SectionKind::PredictBias,
        SectionKind::LstmBackward,
        SectionKind::Coherence,
        SectionKind::Emoji,
        SectionKind::Selection,
        SectionKind::HomophoneMetric,
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
            SectionKind::WordBias => "word bias",
            SectionKind::PredictBias => "prediction bias",
            SectionKind::LstmBackward => "lstm backward",
            SectionKind::Coherence => "coherence",
            SectionKind::Emoji => "emoji",
            SectionKind::Selection => "selection",
            SectionKind::HomophoneMetric => "homophone metric",
        }
    }

    /// Whether the section belongs to the language models (LSTM, its vocabulary, the n-gram
    /// LM): optional for the classic engine, checked last by a progressive load.
    pub fn is_lm(self) -> bool {
        matches!(
            self,
            SectionKind::Lstm
                | SectionKind::LmVocab
                | SectionKind::Ngram
                | SectionKind::WordBias
                | SectionKind::PredictBias
                | SectionKind::LstmBackward
                | SectionKind::Coherence
                | SectionKind::Selection
                | SectionKind::HomophoneMetric
        )
    }

    /// The ceiling on a section of this kind, stored or decoded, in bytes: at least 16 times
    /// what the shipped model holds, so that larger models fit and no table can make a loader
    /// reserve more.
    pub fn max_len(self) -> u64 {
        const MIB: u64 = 1 << 20;
        match self {
            SectionKind::Meta | SectionKind::HomophoneMetric => MIB,
            SectionKind::Segmenter
            | SectionKind::Emoji
            | SectionKind::PredictBias
            | SectionKind::Selection => 16 * MIB,
            SectionKind::Connection | SectionKind::LmVocab | SectionKind::WordBias => 64 * MIB,
            SectionKind::LexiconIndex
            | SectionKind::LexiconPostings
            | SectionKind::Ngram
            | SectionKind::Coherence => 128 * MIB,
            SectionKind::Lstm | SectionKind::LstmBackward => u64::from(MAX_DECODED_LEN),
        }
    }

    fn from_u32(v: u32) -> Option<SectionKind> {
        SectionKind::ALL.into_iter().find(|k| *k as u32 == v)
    }
}

/// The ceiling on a section of a kind this build does not know (it is checked, then skipped).
const MAX_UNKNOWN_LEN: u64 = 16 << 20;

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
    let table_end = table_len(entries.len()) as u64;
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

/// A checked model container: the section table and each checked section's bytes.
///
/// It may be *partial*: sections not checked yet (see [`Container::partial`]) are *pending*
/// and invisible to [`Container::section`].
#[derive(Debug, Clone)]
pub struct Container {
    entries: Vec<SectionEntry>,
    /// Each section once checked: a view into the file (stored) or its own decoded bytes
    /// (compressed); `None` while pending.
    sections: Vec<Option<SectionBytes>>,
    /// The file while pending sections are still to be read from it ([`Container::partial`]).
    /// Let go once nothing is pending: then the file buffer lives on only as long as a stored
    /// section's view of it, so a model whose sections are all compressed keeps only the
    /// decoded bytes.
    file: Option<Arc<Vec<u8>>>,
    /// Length of the file in bytes.
    len: usize,
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
/// Needs only [`table_len`]`(count)` bytes, so a streaming loader can learn the layout
/// early. Checks the magic, the version, the table's CRC-32 and each section's limits
/// ([`SectionKind::max_len`], [`MAX_EXPANSION`]), not the sections' bytes.
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
    if version != FORMAT_VERSION {
        return Err(Error::Version {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    let count = read_u32(bytes, 12);
    if count > 4096 {
        return Err(Error::Malformed {
            section: "table",
            detail: format!("{count} sections"),
        });
    }
    let count = count as usize;
    let crc_at = table_len(count) - TABLE_CRC_LEN;
    if bytes.len() < table_len(count) {
        return Err(Error::Truncated {
            needed: table_len(count) as u64,
            len: bytes.len() as u64,
        });
    }
    if crc32fast::hash(&bytes[..crc_at]) != read_u32(bytes, crc_at) {
        return Err(Error::Checksum {
            kind: "section table",
        });
    }
    let mut entries = Vec::with_capacity(count);
    for i in 0..count {
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
            Encoding::Zstd => u64::from(read_u32(bytes, at + 28)),
        };
        let max = kind.map_or(MAX_UNKNOWN_LEN, SectionKind::max_len);
        let too_long = |what: &str, n: u64| Error::Malformed {
            section: name,
            detail: format!("{what} length {n} is over the limit of {max} bytes"),
        };
        if length > max {
            return Err(too_long("stored", length));
        }
        if decoded_length > max {
            return Err(too_long("decoded", decoded_length));
        }
        if decoded_length > (1 << 20) + length * MAX_EXPANSION {
            return Err(Error::Malformed {
                section: name,
                detail: format!("{length} bytes cannot decode to {decoded_length}"),
            });
        }
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

/// The stored bytes of a section, which must lie inside the first `received` bytes of `bytes`.
fn stored_in<'a>(bytes: &'a [u8], received: usize, e: &SectionEntry) -> Result<&'a [u8]> {
    let range = e.range()?;
    let have = received.min(bytes.len()) as u64;
    if range.end > have {
        return Err(Error::Truncated {
            needed: range.end,
            len: have,
        });
    }
    Ok(&bytes[range.start as usize..range.end as usize])
}

/// Checks the CRC-32 of a section's stored bytes.
fn check(stored: &[u8], e: &SectionEntry) -> Result<()> {
    if crc32fast::hash(stored) != e.crc32 {
        return Err(Error::Checksum {
            kind: e.kind.map(SectionKind::name).unwrap_or("unknown"),
        });
    }
    Ok(())
}

/// Decodes the stored bytes of a compressed section (checked before: see [`check`]).
fn decode(stored: &[u8], e: &SectionEntry) -> Result<Vec<u8>> {
    decode_into(stored, e, Vec::new())
}

/// [`decode`] into `out` (its contents are dropped; reserved here with the decoded length unless
/// it was beforehand).
fn decode_into(stored: &[u8], e: &SectionEntry, mut out: Vec<u8>) -> Result<Vec<u8>> {
    let section = e.kind.map(SectionKind::name).unwrap_or("unknown");
    let zstd = |err: std::io::Error| Error::Malformed {
        section,
        detail: format!("zstd: {err}"),
    };
    // One pass into one buffer of the decoded length: libzstd keeps no window of its own, so
    // what a frame header asks for reserves nothing, and a frame decoding to more is refused.
    let mut decoder = zstd::bulk::Decompressor::new().map_err(zstd)?;
    out.clear();
    out.reserve_exact(e.decoded_length as usize);
    let written = decoder
        .decompress_to_buffer(stored, &mut out)
        .map_err(zstd)?;
    if written != e.decoded_length as usize {
        return Err(Error::Malformed {
            section,
            detail: format!(
                "zstd: {written} bytes decoded, {} expected",
                e.decoded_length
            ),
        });
    }
    Ok(out)
}

/// A checked section of a whole file: a view into the file (stored) or its decoded bytes.
fn open(file: &Arc<Vec<u8>>, received: usize, e: &SectionEntry) -> Result<SectionBytes> {
    let stored = stored_in(file, received, e)?;
    check(stored, e)?;
    Ok(match e.encoding {
        Encoding::Stored => SectionBytes {
            buf: file.clone(),
            range: e.offset as usize..(e.offset + e.length) as usize,
        },
        Encoding::Zstd => SectionBytes::from_vec(decode(stored, e)?),
    })
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
    /// before `complete` is called. (The browser reads the file with a [`ContainerStream`]
    /// instead, which never holds the whole file.)
    pub fn partial(bytes: Vec<u8>, received: usize) -> Result<Self> {
        let entries = read_table(&bytes[..received.min(bytes.len())])?;
        let file = Arc::new(bytes);
        let mut sections = Vec::with_capacity(entries.len());
        for e in &entries {
            if e.is_lm() {
                e.range()?;
                sections.push(None);
            } else {
                sections.push(Some(open(&file, received, e)?));
            }
        }
        let len = file.len();
        let mut container = Container {
            entries,
            sections,
            file: Some(file),
            len,
        };
        if !container.is_partial() {
            container.file = None;
        }
        Ok(container)
    }

    /// Checks the pending sections now that `received` bytes have arrived. On success they
    /// become visible (and the container lets the file go); on error (truncated, checksum) the
    /// container stays as it was. A partial container from [`ContainerStream::core`] has no
    /// file to read them from: its sections come with [`ContainerStream::finish`], and this is
    /// a [`Error::Truncated`] error.
    pub fn complete(&mut self, received: usize) -> Result<()> {
        if !self.is_partial() {
            return Ok(());
        }
        let Some(file) = &self.file else {
            return Err(Error::Truncated {
                needed: self.len as u64,
                len: 0,
            });
        };
        let mut opened = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            if self.sections[i].is_none() {
                opened.push((i, open(file, received, e)?));
            }
        }
        for (i, s) in opened {
            self.sections[i] = Some(s);
        }
        self.file = None;
        Ok(())
    }

    /// Whether the container still holds the whole file buffer: only while sections are
    /// pending (a complete container keeps the decoded sections, and the file only through
    /// the views of stored sections).
    pub fn keeps_file(&self) -> bool {
        self.file.is_some()
    }

    /// Whether some sections are still pending (see [`Container::partial`]).
    pub fn is_partial(&self) -> bool {
        self.sections.iter().any(Option::is_none)
    }

    /// The section table.
    pub fn entries(&self) -> &[SectionEntry] {
        &self.entries
    }

    /// Total size of the file in bytes (from a [`ContainerStream`]: up to the end of the last
    /// section, without the padding that may follow it).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the file is empty (never true for a valid container).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first section of a kind, if present.
    pub fn section(&self, kind: SectionKind) -> Option<SectionBytes> {
        let at = self.entries.iter().position(|e| e.kind == Some(kind))?;
        self.section_at(at)
    }

    /// The section at this index of the table, unless it is pending or out of range.
    pub fn section_at(&self, at: usize) -> Option<SectionBytes> {
        self.sections.get(at)?.clone()
    }

    /// The first section of a kind, or [`Error::MissingSection`].
    pub fn require(&self, kind: SectionKind) -> Result<SectionBytes> {
        self.section(kind).ok_or(Error::MissingSection(kind.name()))
    }

    /// This container with the first section of `kind` holding `bytes` (decoded), as if they
    /// had come checked from a file: what a model whose section is wrong inside but intact for
    /// its CRC-32 gives the readers (the model-mutation fuzzing in `henkan fuzz model` builds
    /// engines from it without writing files). `None` when there is no such section.
    pub fn replacing(&self, kind: SectionKind, bytes: Vec<u8>) -> Option<Container> {
        let at = self.entries.iter().position(|e| e.kind == Some(kind))?;
        let mut c = self.clone();
        c.sections[at] = Some(SectionBytes::from_vec(bytes));
        Some(c)
    }
}

/// A copy of a complete [`Container`] with every section stored as it is (encoding 0): the
/// header and table of the copy, and where each (decoded) section goes in it. The browser keeps
/// such a copy of a model it has loaded, so that a later visit reads the sections as they are
/// (a CRC-32 each) instead of decoding them again.
///
/// The sections keep their file order (the core first), each at a 16-byte aligned offset, and
/// their CRC-32 is that of the decoded bytes; unknown kinds are kept. The copy is a valid model
/// file of the same [`FORMAT_VERSION`]: [`Container::from_bytes`] and [`ContainerStream`] read it
/// back to the same sections. Building it copies nothing but the header: the parts are views of
/// the container's sections.
///
/// ```
/// use henkan::model::{Container, SectionKind};
/// use henkan_builder::container::ContainerWriter;
///
/// let mut w = ContainerWriter::new();
/// w.compress(3);
/// w.add(SectionKind::Meta, b"name=doc\n".repeat(40));
/// let compressed = Container::from_bytes(w.finish()).unwrap();
/// let copy = compressed.stored_copy().unwrap();
/// let file = copy.to_vec();
/// assert_eq!(file.len() as u64, copy.len());
/// let stored = Container::from_bytes(file).unwrap();
/// assert_eq!(stored.section(SectionKind::Meta).unwrap().as_ref(), b"name=doc\n".repeat(40));
/// ```
#[derive(Debug, Clone)]
pub struct StoredCopy {
    /// The header, the table and its CRC-32, padded to the first section's offset.
    header: Vec<u8>,
    /// Each section's offset in the copy and its bytes, in file order.
    sections: Vec<(u64, SectionBytes)>,
    /// Length of the copy (padded to a multiple of 16).
    len: u64,
}

impl StoredCopy {
    /// The header, the section table and its CRC-32, zero-padded to where the first section
    /// starts.
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    /// The sections in file order: each one's offset in the copy and its bytes. Zero padding
    /// lies between them (up to the next offset) and after the last (up to [`StoredCopy::len`]).
    pub fn sections(&self) -> &[(u64, SectionBytes)] {
        &self.sections
    }

    /// Length of the copy in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the copy is empty (never: it has a header).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the part after section `i` ends: the next section's offset, or the copy's end.
    pub fn part_end(&self, i: usize) -> u64 {
        self.sections.get(i + 1).map_or(self.len, |(at, _)| *at)
    }

    /// The whole copy as one buffer (native use and tests; the browser takes it part by part).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len as usize);
        out.extend_from_slice(&self.header);
        for (i, (_, bytes)) in self.sections.iter().enumerate() {
            out.extend_from_slice(bytes.as_ref());
            out.resize(self.part_end(i) as usize, 0);
        }
        out
    }
}

/// `n` rounded up to a multiple of [`ALIGN`].
fn align_up(n: u64) -> u64 {
    n.div_ceil(ALIGN as u64) * ALIGN as u64
}

impl Container {
    /// A copy of this container with every section stored as it is ([`StoredCopy`]);
    /// [`Error::Truncated`] while sections are pending. Computes the CRC-32 of every section.
    pub fn stored_copy(&self) -> Result<StoredCopy> {
        if self.is_partial() {
            return Err(Error::Truncated {
                needed: self.len as u64,
                len: 0,
            });
        }
        let n = self.entries.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| self.entries[i].offset);
        let mut offsets = vec![0u64; n];
        let mut at = align_up(table_len(n) as u64);
        for &i in &order {
            offsets[i] = at;
            let len = self.sections[i].as_ref().map_or(0, |s| s.as_ref().len());
            at = align_up(at + len as u64);
        }
        let mut header = Vec::with_capacity(align_up(table_len(n) as u64) as usize);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        header.extend_from_slice(&(n as u32).to_le_bytes());
        let mut sections = Vec::with_capacity(n);
        for (i, e) in self.entries.iter().enumerate() {
            let bytes = self.sections[i].clone().expect("not partial");
            header.extend_from_slice(&e.raw_kind.to_le_bytes());
            header.extend_from_slice(&(Encoding::Stored as u32).to_le_bytes());
            header.extend_from_slice(&offsets[i].to_le_bytes());
            header.extend_from_slice(&(bytes.as_ref().len() as u64).to_le_bytes());
            header.extend_from_slice(&crc32fast::hash(bytes.as_ref()).to_le_bytes());
            header.extend_from_slice(&0u32.to_le_bytes());
            sections.push((offsets[i], bytes));
        }
        let crc = crc32fast::hash(&header);
        header.extend_from_slice(&crc.to_le_bytes());
        let first = order.first().map_or(at, |&i| offsets[i]);
        header.resize(first as usize, 0);
        sections.sort_by_key(|(offset, _)| *offset);
        Ok(StoredCopy {
            header,
            sections,
            len: at,
        })
    }
}

/// The most bytes of padding between sections [`ContainerStream::window`] offers at once.
const GAP_WINDOW: usize = 4096;
/// The first reservation for a section's stored bytes when the file's length is unknown.
const STORED_STEP: usize = 1 << 20;

/// A model file read as it arrives (the browser's download), one section at a time.
///
/// The writer asks where the next bytes of the file go ([`ContainerStream::window`]), copies
/// them there and says how many it wrote ([`ContainerStream::wrote`]). Each section's stored
/// bytes go into a buffer of their own; when the last of them is in, the section is checked
/// (CRC-32, before anything is decoded), decoded if compressed, and its stored bytes are let
/// go. So the whole file is never in memory: what stays is the sections as the engine uses
/// them, and at most one section's stored bytes (plus the zstd decoder's window while it
/// decodes) on top.
///
/// The core sections (all but the LM ones) must be intact: a checksum or decoding error in one
/// is an error of `wrote`, as are a bad magic, version or table. An error in an LM section is
/// kept for [`ContainerStream::finish`] and the rest of the LM part is skipped, so the classic
/// engine still loads from [`ContainerStream::core`] (progressive loading: the core comes
/// first in the files we ship). Sections must not overlap each other or the table; bytes
/// between and after them are ignored.
///
/// ```
/// use henkan::model::{ContainerStream, SectionKind};
/// use henkan_builder::container::ContainerWriter;
///
/// let mut w = ContainerWriter::new();
/// w.add(SectionKind::Meta, b"name=doc\n".to_vec());
/// w.add(SectionKind::Ngram, vec![7; 40]);
/// let file = w.finish();
///
/// let mut stream = ContainerStream::new(Some(file.len() as u64));
/// for chunk in file.chunks(10) {
///     let mut rest = chunk;
///     while !rest.is_empty() && !stream.window().is_empty() {
///         let window = stream.window();
///         let n = window.len().min(rest.len());
///         window[..n].copy_from_slice(&rest[..n]);
///         stream.wrote(n).unwrap();
///         rest = &rest[n..];
///     }
///     if stream.core_ready() {
///         // the classic engine could be built now: the Meta section is in
///         let core = stream.core().unwrap();
///         assert!(core.section(SectionKind::Ngram).is_none());
///     }
/// }
/// assert!(stream.is_complete());
/// let container = stream.finish().unwrap();
/// assert_eq!(container.section(SectionKind::Ngram).unwrap().as_ref(), [7; 40]);
/// ```
#[derive(Debug, Default)]
pub struct ContainerStream {
    /// Bytes of the file received.
    received: u64,
    /// The file's length as the transport announced it (`Content-Length`), if known.
    expected: Option<u64>,
    /// The header and the section table, until they are in (sized to what is needed next).
    head: Vec<u8>,
    layout: Option<Layout>,
    /// Table indices in file order.
    order: Vec<usize>,
    /// How many of `order` are done (checked, or skipped after an LM error).
    done: usize,
    /// The stored bytes of the section `order[done]`, zero-filled ahead of the writer.
    stored: Vec<u8>,
    /// Its decoded bytes when it is compressed. Reserved before `stored`, so that what is let
    /// go once the section is decoded (the stored bytes, the decoder's window) lies past what
    /// stays, where the allocator reuses it for the next section: wasm linear memory then grows
    /// to about the peak of the load instead of the sum of its holes.
    out: Vec<u8>,
    /// Where bytes that belong to no section go (padding), to be forgotten.
    gap: Vec<u8>,
    /// Each checked section (same index as the table).
    sections: Vec<Option<SectionBytes>>,
    /// Why the LM sections are unusable (the first error in one of them).
    lm_error: Option<Error>,
}

impl ContainerStream {
    /// A stream expecting a file of `expected` bytes (a table that says otherwise is an
    /// error), or of any length.
    pub fn new(expected: Option<u64>) -> Self {
        ContainerStream {
            expected,
            head: vec![0; HEADER_LEN],
            ..ContainerStream::default()
        }
    }

    /// Where the next bytes of the file go (valid until the next call on the stream); empty
    /// once every section is in: the rest of the file, if any, is to be ignored.
    pub fn window(&mut self) -> &mut [u8] {
        let Some(layout) = &self.layout else {
            return &mut self.head[self.received as usize..];
        };
        let Some(e) = self.order.get(self.done).map(|&i| &layout.entries[i]) else {
            return &mut [];
        };
        if self.received < e.offset || self.skips(e) {
            let until = if self.received < e.offset {
                e.offset
            } else {
                e.offset + e.length
            };
            let n = (until - self.received).min(GAP_WINDOW as u64) as usize;
            self.gap.resize(n.max(self.gap.len()), 0);
            return &mut self.gap[..n];
        }
        let at = (self.received - e.offset) as usize;
        if at == self.stored.len() {
            // Without a known file length the stored bytes grow with what arrives (doubling,
            // from 1 MiB), so a length in the table reserves nothing the input does not fill.
            let grown = (2 * at).max(STORED_STEP).min(e.length as usize);
            self.stored.resize(grown, 0);
        }
        &mut self.stored[at..]
    }

    /// Takes note that `n` bytes were written into the [`ContainerStream::window`]; checks
    /// (and decodes) the section they complete. An error for a bad header or table and for a
    /// damaged core section (see the type's doc); after one, the stream is of no further use.
    pub fn wrote(&mut self, n: usize) -> Result<()> {
        let room = self.window().len();
        if n > room {
            return Err(Error::Malformed {
                section: "stream",
                detail: format!("{n} bytes written into a window of {room}"),
            });
        }
        self.received += n as u64;
        if self.layout.is_none() {
            self.read_head()?;
        }
        self.settle()
    }

    /// Bytes of the file received.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The layout, once the section table is in.
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// Whether every core section is in and checked ([`ContainerStream::core`]).
    pub fn core_ready(&self) -> bool {
        self.layout.as_ref().is_some_and(|l| {
            l.entries
                .iter()
                .zip(&self.sections)
                .all(|(e, s)| e.is_lm() || s.is_some())
        })
    }

    /// Whether every section is in (checked, or skipped after an error in the LM part).
    pub fn is_complete(&self) -> bool {
        self.layout.is_some() && self.done == self.order.len()
    }

    /// The core of the model: a partial container with every core section and the LM ones
    /// pending (complete when the model has no LM sections). [`Error::Truncated`] before the
    /// core is in.
    pub fn core(&self) -> Result<Container> {
        let layout = self.layout.as_ref().ok_or(Error::Truncated {
            needed: self.head.len() as u64,
            len: self.received,
        })?;
        if !self.core_ready() {
            return Err(Error::Truncated {
                needed: layout.core_end,
                len: self.received,
            });
        }
        let sections = layout
            .entries
            .iter()
            .zip(&self.sections)
            .map(|(e, s)| if e.is_lm() { None } else { s.clone() })
            .collect();
        Ok(Container {
            entries: layout.entries.clone(),
            sections,
            file: None,
            len: layout.file_end as usize,
        })
    }

    /// The whole model, once every section is in: the first error of an LM section, or
    /// [`Error::Truncated`] when some have not arrived.
    pub fn finish(self) -> Result<Container> {
        if let Some(e) = self.lm_error {
            return Err(e);
        }
        let container = self.core()?;
        let layout = self.layout.as_ref().expect("core() checked the layout");
        if !self.is_complete() {
            return Err(Error::Truncated {
                needed: layout.file_end,
                len: self.received,
            });
        }
        Ok(Container {
            sections: self.sections,
            ..container
        })
    }

    /// Whether the bytes of this section are skipped (an earlier LM section was damaged).
    fn skips(&self, e: &SectionEntry) -> bool {
        e.is_lm() && self.lm_error.is_some()
    }

    /// Reads the header and the table once their bytes are in (growing `head` to the table).
    fn read_head(&mut self) -> Result<()> {
        let have = self.received as usize;
        let magic = have.min(MAGIC.len());
        if self.head[..magic] != MAGIC[..magic] {
            return Err(Error::Magic);
        }
        if have < self.head.len() {
            return Ok(());
        }
        let layout = match layout(&self.head) {
            Err(Error::Truncated { needed, .. }) => {
                // read_table refuses absurd section counts before asking for their bytes
                self.head.resize(needed as usize, 0);
                return Ok(());
            }
            other => other?,
        };
        if let Some(expected) = self.expected.filter(|&x| layout.file_end > x) {
            return Err(Error::Truncated {
                needed: layout.file_end,
                len: expected,
            });
        }
        let mut order: Vec<usize> = (0..layout.entries.len()).collect();
        order.sort_by_key(|&i| layout.entries[i].offset);
        let mut end = self.head.len() as u64;
        for &i in &order {
            let e = &layout.entries[i];
            let section = e.kind.map(SectionKind::name).unwrap_or("unknown");
            if e.offset < end {
                return Err(Error::Malformed {
                    section,
                    detail: "overlaps the table or another section".into(),
                });
            }
            end = e.range()?.end;
        }
        self.sections = vec![None; layout.entries.len()];
        self.order = order;
        self.layout = Some(layout);
        self.head = Vec::new();
        self.start_section();
        Ok(())
    }

    /// Reserves the stored bytes of the section `order[done]` (unless it is skipped) when the
    /// file's length is known (the table was checked against it): then the section's bytes
    /// are on their way. Otherwise they are reserved as they arrive ([`ContainerStream::window`])
    /// and the decoded bytes once the stored ones are in and checked.
    fn start_section(&mut self) {
        let Some(e) = self.current() else { return };
        self.stored = Vec::new();
        if !self.skips(&e) && self.expected.is_some() {
            if e.encoding == Encoding::Zstd {
                self.out = Vec::with_capacity(e.decoded_length as usize);
            }
            self.stored = vec![0; e.length as usize];
        }
    }

    fn current(&self) -> Option<SectionEntry> {
        let layout = self.layout.as_ref()?;
        self.order
            .get(self.done)
            .map(|&i| layout.entries[i].clone())
    }

    /// Checks (and decodes) the sections whose bytes are all in, then reserves the next one.
    fn settle(&mut self) -> Result<()> {
        while let Some(e) = self.current() {
            if self.received < e.offset + e.length {
                break;
            }
            let i = self.order[self.done];
            self.done += 1;
            if self.skips(&e) {
                continue;
            }
            let stored = std::mem::take(&mut self.stored);
            let section = check(&stored, &e).and_then(|()| match e.encoding {
                Encoding::Stored => Ok(SectionBytes::from_vec(stored)),
                Encoding::Zstd => decode_into(&stored, &e, std::mem::take(&mut self.out))
                    .map(SectionBytes::from_vec),
            });
            match section {
                Ok(s) => self.sections[i] = Some(s),
                Err(err) if e.is_lm() => self.lm_error = Some(err),
                Err(err) => return Err(err),
            }
            self.start_section();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(stored: &[u8], decoded_length: u64) -> SectionEntry {
        SectionEntry {
            kind: Some(SectionKind::Emoji),
            raw_kind: SectionKind::Emoji as u32,
            encoding: Encoding::Zstd,
            offset: 0,
            length: stored.len() as u64,
            crc32: crc32fast::hash(stored),
            decoded_length,
        }
    }

    /// Text that compresses as model sections do (repeats at many distances).
    fn sample() -> Vec<u8> {
        let mut rng = fastrand::Rng::with_seed(12345);
        (0..200_000)
            .map(|i| {
                if i % 7 == 0 {
                    rng.u8(..)
                } else {
                    b"kyouhaiitenkidesune"[i % 19]
                }
            })
            .collect()
    }

    #[test]
    fn a_frame_decodes_to_its_decoded_length_only() {
        let data = sample();
        let frame = zstd::bulk::compress(&data, 19).unwrap();
        assert_eq!(
            decode(&frame, &entry(&frame, data.len() as u64)).unwrap(),
            data
        );
        // a table that says fewer or more bytes than the frame holds
        for n in [0, 1, data.len() as u64 - 1, data.len() as u64 + 1] {
            let err = decode(&frame, &entry(&frame, n)).unwrap_err();
            assert!(matches!(err, Error::Malformed { .. }), "{n}: {err}");
        }
    }

    #[test]
    fn damaged_frames_are_errors_never_crashes() {
        let data = sample();
        let frame = zstd::bulk::compress(&data, 19).unwrap();
        let mut rng = fastrand::Rng::with_seed(99);
        let mut refused = 0;
        for case in 0..3000 {
            let mut f = frame.clone();
            match case % 3 {
                0 => {
                    let at = rng.usize(..f.len().min(64));
                    f[at] ^= 1 << rng.u32(..8);
                }
                1 => {
                    for _ in 0..4 {
                        let at = rng.usize(..f.len());
                        f[at] = rng.u8(..);
                    }
                }
                _ => f.truncate(rng.usize(..f.len())),
            }
            match decode(&f, &entry(&f, data.len() as u64)) {
                Ok(out) => assert_eq!(out.len(), data.len()),
                Err(e) => {
                    assert!(matches!(e, Error::Malformed { .. }));
                    refused += 1;
                }
            }
        }
        assert!(refused > 1000, "{refused}");
    }
}

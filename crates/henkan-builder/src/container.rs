//! Writes model containers: the sections of a model into one file (the layout is
//! [`henkan::model`]'s), zstd-compressing each where that pays, and rewrites a container with
//! sections replaced or recompressed.

use crate::error::Result;
use henkan::model::{table_len, Container, Encoding, SectionKind, ALIGN, FORMAT_VERSION, MAGIC};

/// Writes a container from sections.
///
/// Sections are stored as they are unless [`ContainerWriter::compress`] (model builder only)
/// asks for zstd, which is kept for a section only when it saves at least 2% of its bytes.
#[derive(Debug, Default)]
pub struct ContainerWriter {
    sections: Vec<(SectionKind, Vec<u8>)>,
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
    pub fn compress(&mut self, level: i32) -> &mut Self {
        self.level = Some(level);
        self
    }

    /// One section as it goes into the file: (encoding, stored bytes, decoded length).
    fn encode<'a>(&self, bytes: &'a [u8]) -> (Encoding, std::borrow::Cow<'a, [u8]>, u32) {
        if let Some(level) = self.level {
            if bytes.len() >= 256 && u32::try_from(bytes.len()).is_ok() {
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
        let mut offset = align(table_len(n));
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
        out.extend_from_slice(&crc32fast::hash(&out).to_le_bytes());
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

/// The model with the section of `kind` replaced by (or, if it has none, extended with)
/// `section`, stored uncompressed (recompress with [`repack`]); the sections keep their order
/// ([`with_section`]).
pub fn replace_section(bytes: Vec<u8>, kind: SectionKind, section: Vec<u8>) -> Result<Vec<u8>> {
    Ok(with_section(&Container::from_bytes(bytes)?, kind, section))
}

/// A new file of `container`'s sections with the one of `kind` replaced by `section` where it
/// stands (when there is none: appended, or ahead of the language-model sections for a
/// dictionary-side kind), all stored uncompressed. The order is kept: the dictionary sections
/// stay ahead of the language models for a streaming loader.
pub fn with_section(container: &Container, kind: SectionKind, section: Vec<u8>) -> Vec<u8> {
    with_sections(container, vec![(kind, section)])
}

/// [`with_section`] for several sections at once.
pub fn with_sections(container: &Container, sections: Vec<(SectionKind, Vec<u8>)>) -> Vec<u8> {
    let mut w = ContainerWriter::new();
    let mut new: Vec<(SectionKind, Option<Vec<u8>>)> =
        sections.into_iter().map(|(k, b)| (k, Some(b))).collect();
    for e in container.entries() {
        let Some(k) = e.kind else { continue };
        if k.is_lm() {
            // New dictionary-side sections go ahead of the language models, so that a
            // streaming loader has the whole core first.
            for (kind, bytes) in new.iter_mut().filter(|(kind, _)| !kind.is_lm()) {
                if !container.entries().iter().any(|e| e.kind == Some(*kind)) {
                    if let Some(b) = bytes.take() {
                        w.add(*kind, b);
                    }
                }
            }
        }
        match new.iter_mut().find(|(kind, _)| *kind == k) {
            Some((_, bytes)) => {
                if let Some(b) = bytes.take() {
                    w.add(k, b);
                }
            }
            None => {
                if let Some(s) = container.section(k) {
                    w.add(k, s.as_ref().to_vec());
                }
            }
        }
    }
    for (k, bytes) in new {
        if let Some(b) = bytes {
            w.add(k, b);
        }
    }
    w.finish()
}

/// A new file of `container`'s sections but those of `kinds`, in their order, all stored
/// uncompressed.
pub fn without_sections(container: &Container, kinds: &[SectionKind]) -> Vec<u8> {
    let mut w = ContainerWriter::new();
    for e in container.entries() {
        let Some(k) = e.kind else { continue };
        if let Some(s) = container.section(k).filter(|_| !kinds.contains(&k)) {
            w.add(k, s.as_ref().to_vec());
        }
    }
    w.finish()
}

fn align(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::model::{layout, read_table, ContainerStream};
    use henkan::Error;

    fn sample() -> Vec<u8> {
        let mut w = ContainerWriter::new();
        w.add(SectionKind::Meta, b"name=test\n".to_vec());
        w.add(SectionKind::Connection, vec![1, 2, 3, 4, 5]);
        w.finish()
    }

    /// A dictionary-side section added to a model with language models goes ahead of them, so
    /// that the streaming loader's core stays whole (the `Emoji` section added to the shipped
    /// model was first appended after `Coherence`).
    #[test]
    fn a_new_core_section_goes_ahead_of_the_lm_part() {
        let mut w = ContainerWriter::new();
        w.add(SectionKind::Meta, b"name=test\n".to_vec());
        w.add(SectionKind::Lstm, vec![9; 40]);
        let with = with_section(
            &Container::from_bytes(w.finish()).unwrap(),
            SectionKind::Emoji,
            b"e".to_vec(),
        );
        let with_lm = with_section(
            &Container::from_bytes(with.clone()).unwrap(),
            SectionKind::Ngram,
            b"n".to_vec(),
        );
        let c = Container::from_bytes(with_lm.clone()).unwrap();
        let kinds: Vec<SectionKind> = c.entries().iter().filter_map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                SectionKind::Meta,
                SectionKind::Emoji,
                SectionKind::Lstm,
                SectionKind::Ngram
            ]
        );
        let l = layout(&with_lm).unwrap();
        assert!(l.core_end < l.file_end);
    }

    #[test]
    fn a_replaced_section_keeps_its_place() {
        let kinds = |b: Vec<u8>| -> Vec<SectionKind> {
            let c = Container::from_bytes(b).unwrap();
            c.entries().iter().filter_map(|e| e.kind).collect()
        };
        let b = replace_section(sample(), SectionKind::Meta, b"name=new\n".to_vec()).unwrap();
        assert_eq!(
            kinds(b.clone()),
            [SectionKind::Meta, SectionKind::Connection]
        );
        let c = Container::from_bytes(b).unwrap();
        assert_eq!(
            c.section(SectionKind::Meta).unwrap().as_ref(),
            b"name=new\n"
        );
        assert_eq!(
            c.section(SectionKind::Connection).unwrap().as_ref(),
            [1, 2, 3, 4, 5]
        );
        // a kind the file lacks is appended
        let b = replace_section(sample(), SectionKind::WordBias, vec![9]).unwrap();
        assert_eq!(
            kinds(b),
            [
                SectionKind::Meta,
                SectionKind::Connection,
                SectionKind::WordBias
            ]
        );
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

    fn compressed() -> Vec<u8> {
        let mut w = ContainerWriter::new();
        w.compress(3)
            .add(SectionKind::Meta, b"name=test\n".to_vec())
            .add(SectionKind::Connection, compressible())
            .add(SectionKind::Segmenter, noise(5000))
            .add(SectionKind::Lstm, compressible());
        w.finish()
    }

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
        reseal(&mut bad);
        assert!(Container::from_bytes(bad).is_err());
        // a decoded length that disagrees with the frame
        for wrong in [
            conn.decoded_length as u32 - 1,
            conn.decoded_length as u32 + 1,
            0,
        ] {
            let mut bad = b.clone();
            bad[at + 28..at + 32].copy_from_slice(&wrong.to_le_bytes());
            reseal(&mut bad);
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
        reseal(&mut bad);
        assert!(Container::from_bytes(bad).is_err());
        let mut bad = b.clone();
        bad[at + 4..at + 8].copy_from_slice(&9u32.to_le_bytes());
        reseal(&mut bad);
        assert!(Container::from_bytes(bad).is_err());
        // every truncation of a compressed file is a typed error
        for len in (0..b.len()).step_by(97) {
            assert!(Container::from_bytes(b[..len].to_vec()).is_err());
        }
    }

    /// Rewrites the table's CRC-32 after a test changed the table, so that the reader looks
    /// past it.
    fn reseal(b: &mut [u8]) {
        let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        let at = table_len(n) - 4;
        let crc = crc32fast::hash(&b[..at]);
        b[at..at + 4].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn a_damaged_table_is_a_checksum_error() {
        let b = sample();
        let n = read_table(&b).unwrap().len();
        for i in 16..table_len(n) {
            let mut bad = b.clone();
            bad[i] ^= 0x10;
            assert_eq!(
                Container::from_bytes(bad).unwrap_err(),
                Error::Checksum {
                    kind: "section table"
                },
                "byte {i}"
            );
        }
    }

    #[test]
    fn lengths_over_the_limits_are_refused_before_anything_is_reserved() {
        let b = compressed();
        let at = 16 + 32;
        // a stored length over the connection's ceiling, a decoded length over it, and one
        // the stored bytes cannot expand to
        let ceiling = SectionKind::Connection.max_len();
        for (field, value) in [
            (16..24, (ceiling + 1).to_le_bytes().to_vec()),
            (28..32, (ceiling as u32 + 1).to_le_bytes().to_vec()),
            (28..32, (ceiling as u32).to_le_bytes().to_vec()),
        ] {
            let mut bad = b.clone();
            bad[at + field.start..at + field.end].copy_from_slice(&value);
            reseal(&mut bad);
            let err = read_table(&bad).unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::Malformed {
                        section: "connection",
                        ..
                    }
                ),
                "{err:?}"
            );
            let mut s = ContainerStream::new(None);
            let n = s.window().len();
            s.window().copy_from_slice(&bad[..n]);
            s.wrote(n).unwrap();
            let n = s.window().len();
            s.window().copy_from_slice(&bad[16..16 + n]);
            assert!(s.wrote(n).is_err());
        }
    }

    #[test]
    fn other_versions_are_refused() {
        for v in [2u32, 3, 5] {
            let mut b = sample();
            b[8..12].copy_from_slice(&v.to_le_bytes());
            assert_eq!(
                Container::from_bytes(b).unwrap_err(),
                Error::Version {
                    expected: FORMAT_VERSION,
                    got: v
                }
            );
        }
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
        let l = layout(&b[..table_len(4)]).unwrap();
        let conn = &l.entries[1];
        assert_eq!(l.core_end, conn.offset + conn.length);
        let ngram = &l.entries[3];
        assert_eq!(l.file_end, ngram.offset + ngram.length);
        assert!(l.core_end < l.entries[2].offset);
        assert!(matches!(
            layout(&b[..table_len(4) - 1]).unwrap_err(),
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

    /// Feeds `file` into a stream `chunk` bytes at a time, as the browser's loader does.
    fn stream(
        file: &[u8],
        chunk: usize,
        expected: Option<u64>,
    ) -> henkan::error::Result<ContainerStream> {
        let mut s = ContainerStream::new(expected);
        for part in file.chunks(chunk) {
            let mut rest = part;
            while !rest.is_empty() && !s.window().is_empty() {
                let window = s.window();
                let n = window.len().min(rest.len());
                window[..n].copy_from_slice(&rest[..n]);
                s.wrote(n)?;
                rest = &rest[n..];
            }
        }
        Ok(s)
    }

    fn same_sections(a: &Container, b: &Container) {
        assert_eq!(a.entries(), b.entries());
        for at in 0..a.entries().len() {
            assert_eq!(
                a.section_at(at).map(|s| s.as_ref().to_vec()),
                b.section_at(at).map(|s| s.as_ref().to_vec()),
                "section {at}"
            );
        }
    }

    /// The copy the browser keeps after a load (every section stored, decoded) reads back to
    /// the sections it was made from, whole and streamed, with the core still first; it is the
    /// file `repack` writes without compression, byte for byte.
    #[test]
    fn a_stored_copy_reads_back_to_the_same_sections() {
        for file in [sample(), with_lm(), compressed()] {
            let whole = Container::from_bytes(file.clone()).unwrap();
            let streamed = stream(&file, 100, Some(file.len() as u64))
                .unwrap()
                .finish()
                .unwrap();
            for source in [&whole, &streamed] {
                let copy = source.stored_copy().unwrap();
                let bytes = copy.to_vec();
                assert_eq!(bytes.len() as u64, copy.len());
                assert_eq!(bytes.len() % ALIGN, 0);
                assert_eq!(bytes, repack(file.clone(), None).unwrap());
                let back = Container::from_bytes(bytes.clone()).unwrap();
                assert!(back
                    .entries()
                    .iter()
                    .all(|e| e.encoding == Encoding::Stored));
                let kinds = |c: &Container| c.entries().iter().map(|e| e.kind).collect::<Vec<_>>();
                assert_eq!(kinds(&back), kinds(source));
                for at in 0..source.entries().len() {
                    assert_eq!(
                        back.section_at(at).unwrap().as_ref(),
                        source.section_at(at).unwrap().as_ref()
                    );
                    assert_eq!(copy.sections()[at].0 % ALIGN as u64, 0);
                }
                for chunk in [7, 64, bytes.len()] {
                    let s = stream(&bytes, chunk, Some(bytes.len() as u64)).unwrap();
                    let again = s.finish().unwrap();
                    for at in 0..source.entries().len() {
                        assert_eq!(
                            again.section_at(at).unwrap().as_ref(),
                            source.section_at(at).unwrap().as_ref()
                        );
                    }
                }
                let (l, orig) = (layout(&bytes).unwrap(), layout(&file).unwrap());
                assert_eq!(l.core_end < l.file_end, orig.core_end < orig.file_end);
            }
        }
    }

    /// A damaged byte of a stored copy is caught by its CRC-32s (what makes the browser drop
    /// the copy and load the compressed model), and a container whose LM part is still pending
    /// has no copy.
    #[test]
    fn a_damaged_stored_copy_fails_its_crc_and_a_partial_container_has_none() {
        let file = compressed();
        let bytes = Container::from_bytes(file.clone())
            .unwrap()
            .stored_copy()
            .unwrap()
            .to_vec();
        let l = layout(&bytes).unwrap();
        for (at, kind) in [
            (20, "section table"),
            (l.entries[1].offset as usize + 9, "connection"),
        ] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            let err = stream(&bad, 64, Some(bad.len() as u64)).unwrap_err();
            assert_eq!(err, Error::Checksum { kind });
        }
        let l = layout(&file).unwrap();
        let core = Container::partial(file.clone(), l.core_end as usize).unwrap();
        assert!(matches!(
            core.stored_copy().unwrap_err(),
            Error::Truncated { .. }
        ));
    }

    #[test]
    fn a_stream_reads_what_the_whole_file_holds_in_any_chunking() {
        let files = [sample(), with_lm(), compressed()];
        for file in files {
            let whole = Container::from_bytes(file.clone()).unwrap();
            for chunk in [1, 3, 16, 17, 100, file.len()] {
                let mut padded = file.clone();
                padded.extend_from_slice(&[0xee; 40]); // past the last section: ignored
                let s = stream(&padded, chunk, None).unwrap();
                assert!(s.is_complete());
                assert!(s.core_ready());
                let core = s.core().unwrap();
                assert_eq!(core.len() as u64, layout(&file).unwrap().file_end);
                assert!(core.section(SectionKind::Meta).is_some());
                assert!(core.section(SectionKind::Lstm).is_none());
                same_sections(&s.finish().unwrap(), &whole);
            }
        }
    }

    #[test]
    fn a_stream_has_its_core_before_the_lm_part() {
        let file = with_lm();
        let l = layout(&file).unwrap();
        let core_end = l.core_end as usize;
        let s = stream(&file[..core_end - 1], 7, Some(file.len() as u64)).unwrap();
        assert!(!s.core_ready());
        assert!(matches!(s.core().unwrap_err(), Error::Truncated { .. }));
        let s = stream(&file[..core_end], 7, Some(file.len() as u64)).unwrap();
        assert!(s.core_ready() && !s.is_complete());
        let core = s.core().unwrap();
        assert!(core.is_partial());
        assert_eq!(
            core.section(SectionKind::Connection).unwrap().as_ref(),
            &[1, 2, 3, 4, 5]
        );
        // A partial container from a stream has no file to complete itself from.
        assert!(matches!(
            core.clone().complete(file.len()).unwrap_err(),
            Error::Truncated { .. }
        ));
        assert!(matches!(s.finish().unwrap_err(), Error::Truncated { .. }));
        // Nothing before the table.
        let s = stream(&file[..20], 7, None).unwrap();
        assert!(s.layout().is_none() && !s.core_ready());
        assert!(matches!(s.core().unwrap_err(), Error::Truncated { .. }));
    }

    #[test]
    fn a_damaged_core_stops_the_stream_a_damaged_lm_only_the_lm() {
        // not a model: refused at its first byte
        assert_eq!(stream(b"GIF89a", 1, None).unwrap_err(), Error::Magic);
        let mut b = sample();
        b[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(
            stream(&b, 5, None).unwrap_err(),
            Error::Version { got: 7, .. }
        ));
        // a damaged core section
        let mut b = with_lm();
        let l = layout(&b).unwrap();
        b[l.entries[1].offset as usize] ^= 1;
        assert_eq!(
            stream(&b, 9, None).unwrap_err(),
            Error::Checksum { kind: "connection" }
        );
        // a damaged LM section: the core loads, the rest is skipped, `finish` says why
        let mut b = with_lm();
        b[l.entries[2].offset as usize + 10] = 0;
        let s = stream(&b, 9, None).unwrap();
        assert!(s.is_complete());
        assert!(s.core().is_ok());
        assert_eq!(s.finish().unwrap_err(), Error::Checksum { kind: "lstm" });
        // a table that promises more than the transport announced
        let b = with_lm();
        assert!(matches!(
            stream(&b, 9, Some(b.len() as u64 - 20)).unwrap_err(),
            Error::Truncated { .. }
        ));
        // overlapping sections
        let mut b = with_lm();
        let second = l.entries[0].offset;
        b[16 + 32 + 8..16 + 32 + 16].copy_from_slice(&second.to_le_bytes());
        reseal(&mut b);
        assert!(matches!(
            stream(&b, 9, None).unwrap_err(),
            Error::Malformed { .. }
        ));
        // writing more than the window holds is refused
        let mut s = ContainerStream::new(None);
        let room = s.window().len();
        assert!(s.wrote(room + 1).is_err());
    }

    #[test]
    fn a_complete_container_lets_the_file_go() {
        let file = with_lm();
        let l = layout(&file).unwrap();
        let mut c = Container::partial(file.clone(), l.core_end as usize).unwrap();
        assert!(
            c.keeps_file(),
            "pending sections are read from the file later"
        );
        c.complete(file.len()).unwrap();
        assert!(!c.keeps_file());
        assert!(!Container::from_bytes(sample()).unwrap().keeps_file());
    }
}

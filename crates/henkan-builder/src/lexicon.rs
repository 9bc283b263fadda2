//! Writes the lexicon sections (the layout is [`henkan::lexicon`]'s): an `fst::Map` from
//! reading to postings offset, and the postings.

use crate::error::{Error, Result};
use henkan::lexicon::POSTINGS_MAGIC;

/// Appends a LEB128 varint.
pub fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Zigzag-encodes a signed cost.
pub fn zigzag(v: i32) -> u64 {
    ((v << 1) ^ (v >> 31)) as u32 as u64
}

/// The `LexiconPostings` section ([`henkan::lexicon`]): the cost step, the pair table, the
/// character table and the blob of posting lists.
pub fn postings_section(
    cost_step: i32,
    pairs: &[(u16, u16)],
    chars: &[char],
    blob: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(20 + 4 * (pairs.len() + chars.len()) + blob.len());
    out.extend_from_slice(POSTINGS_MAGIC);
    out.extend_from_slice(&(cost_step as u32).to_le_bytes());
    out.extend_from_slice(&(pairs.len() as u32).to_le_bytes());
    for &(l, r) in pairs {
        out.extend_from_slice(&l.to_le_bytes());
        out.extend_from_slice(&r.to_le_bytes());
    }
    out.extend_from_slice(&(chars.len() as u32).to_le_bytes());
    for &c in chars {
        out.extend_from_slice(&(c as u32).to_le_bytes());
    }
    out.extend_from_slice(blob);
    out
}

/// Appends how an entry's `surface` is written given its `reading` (the postings' tag and
/// character codes, [`henkan::lexicon::Surface`]): 0 for the reading itself, 1 for its
/// katakana, else the codes (`code_of`) of the characters before the longest tail shared with
/// the reading (at most 15 characters, leaving at least one code).
pub fn write_surface(
    blob: &mut Vec<u8>,
    surface: &str,
    reading: &str,
    mut code_of: impl FnMut(char) -> u64,
) {
    if surface == reading {
        write_varint(blob, 0);
        return;
    }
    if surface == henkan::composer::to_katakana(reading) {
        write_varint(blob, 1);
        return;
    }
    let s: Vec<char> = surface.chars().collect();
    let r: Vec<char> = reading.chars().collect();
    let mut shared = 0;
    while shared < 15
        && shared + 1 < s.len()
        && shared < r.len()
        && s[s.len() - 1 - shared] == r[r.len() - 1 - shared]
    {
        shared += 1;
    }
    let head = &s[..s.len() - shared];
    write_varint(blob, 2 + 16 * head.len() as u64 + shared as u64);
    for &c in head {
        let code = code_of(c);
        write_varint(blob, code);
    }
}

/// Builds lexicon sections from entries (used by the model builder and tests).
#[derive(Debug)]
pub struct LexiconWriter {
    entries: Vec<(String, u16, u16, i32, String)>,
    cost_step: i32,
}

impl Default for LexiconWriter {
    fn default() -> Self {
        LexiconWriter {
            entries: Vec::new(),
            cost_step: 1,
        }
    }
}

impl LexiconWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rounds word costs to multiples of `step` (≥ 1; fewer distinct values compress
    /// better; connection costs are coarser still).
    pub fn cost_step(&mut self, step: i32) -> &mut Self {
        self.cost_step = step.clamp(1, 1 << 16);
        self
    }

    /// Adds an entry: reading, left id, right id, cost, surface.
    pub fn add(&mut self, reading: &str, left_id: u16, right_id: u16, cost: i32, surface: &str) {
        self.entries.push((
            reading.to_string(),
            left_id,
            right_id,
            cost,
            surface.to_string(),
        ));
    }

    /// Number of entries added.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The (index, postings) section bytes.
    pub fn finish(mut self) -> Result<(Vec<u8>, Vec<u8>)> {
        // Stable: entries of one reading keep their insertion order.
        self.entries
            .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut pair_ids = std::collections::HashMap::new();
        let mut pairs = Vec::new();
        for e in &self.entries {
            pair_ids.entry((e.1, e.2)).or_insert_with(|| {
                pairs.push((e.1, e.2));
                pairs.len() - 1
            });
        }
        // Character table: every character of every coded surface, most frequent first.
        let mut freq = std::collections::HashMap::<char, u64>::new();
        for e in &self.entries {
            for c in e.4.chars() {
                *freq.entry(c).or_default() += 1;
            }
        }
        let mut chars: Vec<(char, u64)> = freq.into_iter().collect();
        chars.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let code_of: std::collections::HashMap<char, u64> = chars
            .iter()
            .enumerate()
            .map(|(i, &(c, _))| (c, i as u64))
            .collect();
        let mut blob = Vec::new();
        let mut builder = fst::MapBuilder::memory();
        let mut i = 0;
        while i < self.entries.len() {
            let reading = self.entries[i].0.clone();
            let mut j = i;
            while j < self.entries.len() && self.entries[j].0 == reading {
                j += 1;
            }
            builder
                .insert(reading.as_bytes(), blob.len() as u64)
                .map_err(|e| Error::Build(e.to_string()))?;
            write_varint(&mut blob, (j - i) as u64);
            for e in &self.entries[i..j] {
                write_varint(&mut blob, pair_ids[&(e.1, e.2)] as u64);
                let step = self.cost_step;
                write_varint(&mut blob, zigzag((e.3 + step / 2).div_euclid(step)));
                write_surface(&mut blob, &e.4, &reading, |c| code_of[&c]);
            }
            i = j;
        }
        let index = builder
            .into_inner()
            .map_err(|e| Error::Build(e.to_string()))?;
        let chars: Vec<char> = chars.into_iter().map(|(c, _)| c).collect();
        Ok((
            index,
            postings_section(self.cost_step, &pairs, &chars, &blob),
        ))
    }

    /// The lexicon itself, read back from the sections [`LexiconWriter::finish`] writes (for
    /// tools and tests that look words up without a model file).
    pub fn into_lexicon(self) -> Result<henkan::lexicon::Lexicon> {
        use henkan::model::SectionBytes;
        let (index, postings) = self.finish()?;
        Ok(henkan::lexicon::Lexicon::new(
            SectionBytes::from_vec(index),
            SectionBytes::from_vec(postings),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::lexicon::{read_varint, unzigzag, Lexicon, Surface};
    use henkan::model::SectionBytes;

    fn tiny() -> Lexicon {
        let mut w = LexiconWriter::new();
        w.add("きょう", 10, 10, 3000, "今日");
        w.add("きょう", 11, 11, 5000, "京");
        w.add("きょう", 12, 12, 9000, "キョウ");
        w.add("き", 10, 10, 4000, "木");
        w.add("は", 20, 21, 100, "は");
        w.into_lexicon().unwrap()
    }

    #[test]
    fn get_and_surfaces() {
        let lex = tiny();
        let e: Vec<_> = lex.get("きょう").collect();
        assert_eq!(e.len(), 3);
        assert_eq!(lex.surface_text(&e[0].surface, "きょう"), "今日");
        assert_eq!(e[2].surface, Surface::Katakana);
        assert_eq!(lex.surface_text(&e[2].surface, "きょう"), "キョウ");
        let ha: Vec<_> = lex.get("は").collect();
        assert_eq!((ha[0].left_id, ha[0].right_id, ha[0].cost), (20, 21, 100));
        assert_eq!(ha[0].surface, Surface::Reading);
        assert_eq!(lex.get("ない").count(), 0);
        let again = lex.entry(e[1].offset).unwrap();
        assert_eq!(lex.surface_text(&again.surface, "きょう"), "京");
    }

    #[test]
    fn costs_round_to_the_step() {
        let mut w = LexiconWriter::new();
        w.cost_step(16);
        w.add("あ", 1, 1, 3000, "亜");
        w.add("あ", 1, 1, 7, "阿");
        w.add("あ", 1, 1, -9, "吾");
        let lex = w.into_lexicon().unwrap();
        let costs: Vec<i32> = lex.get("あ").map(|e| e.cost).collect();
        assert_eq!(costs, vec![3008, 0, -16]);
    }

    #[test]
    fn postings_without_a_header_are_read_with_step_1() {
        let lex = tiny();
        let (i, p) = {
            let mut w = LexiconWriter::new();
            w.add("は", 20, 21, 100, "は");
            w.finish().unwrap()
        };
        let _ = lex;
        // the format-2 layout: the same bytes without magic and step
        let old = p[12..].to_vec();
        let lex = Lexicon::new(SectionBytes::from_vec(i), SectionBytes::from_vec(old)).unwrap();
        let e = lex.get("は").next().unwrap();
        assert_eq!((e.left_id, e.right_id, e.cost), (20, 21, 100));
    }

    #[test]
    fn okurigana_is_shared_with_the_reading() {
        let mut w = LexiconWriter::new();
        w.add("たべる", 1, 1, 1, "食べる");
        w.add("たべる", 1, 1, 2, "喰べる");
        w.add("る", 1, 1, 2, "る流");
        w.add("あ", 1, 1, 2, "亜");
        let lex = w.into_lexicon().unwrap();
        let got: Vec<String> = lex
            .get("たべる")
            .map(|e| lex.surface_text(&e.surface, "たべる"))
            .collect();
        assert_eq!(got, vec!["食べる", "喰べる"]);
        let e = lex.get("たべる").next().unwrap();
        assert!(matches!(
            e.surface,
            Surface::Coded {
                count: 1,
                shared: 2,
                ..
            }
        ));
        let r: Vec<String> = lex
            .get("る")
            .map(|e| lex.surface_text(&e.surface, "る"))
            .collect();
        assert_eq!(r, vec!["る流"]);
    }

    #[test]
    fn common_prefixes_stop_at_char_boundaries() {
        let lex = tiny();
        let lens: Vec<usize> = lex.common_prefixes("きょうは").map(|(l, _)| l).collect();
        assert_eq!(lens, vec![3, 9]);
        assert_eq!(lex.common_prefixes("").count(), 0);
    }

    #[test]
    fn predictive_search() {
        let lex = tiny();
        let r: Vec<String> = lex.predictive("き", 10).into_iter().map(|x| x.0).collect();
        assert_eq!(r, vec!["き", "きょう"]);
    }

    #[test]
    fn varints_round_trip() {
        for v in [0u64, 1, 127, 128, 300, 1 << 40, u64::MAX] {
            let mut b = Vec::new();
            write_varint(&mut b, v);
            let mut p = 0;
            assert_eq!(read_varint(&b, &mut p), Some(v));
        }
        for c in [0, 1, -1, 32767, -32768, i32::MAX, i32::MIN] {
            assert_eq!(unzigzag(zigzag(c)), c);
        }
        let mut p = 0;
        assert_eq!(read_varint(&[0x80, 0x80], &mut p), None);
    }

    #[test]
    fn garbage_postings_do_not_panic() {
        let lex = tiny();
        let (i, _) = {
            let mut w = LexiconWriter::new();
            w.add("あ", 1, 1, 1, "亜");
            w.finish().unwrap()
        };
        let _ = lex;
        let bad = Lexicon::new(
            SectionBytes::from_vec(i),
            SectionBytes::from_vec(vec![1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 5, 9, 0x99]),
        )
        .unwrap();
        for e in bad.get("あ") {
            let _ = bad.surface_text(&e.surface, "あ");
        }
        assert!(bad.entry(u32::MAX).is_none());
        assert!(Lexicon::new(
            SectionBytes::from_vec(vec![1, 2, 3]),
            SectionBytes::from_vec(vec![])
        )
        .is_err());
    }
}

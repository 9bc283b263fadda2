//! Reverse conversion (Mozc's 再変換): the reading of written text, so that text already in the
//! field can be converted again.
//!
//! The lexicon is indexed by reading, not by written form. On first use [`ReverseIndex`] collects
//! the entries written with kanji, by a hash of their written form; the reading of an entry
//! is the lexicon's index read backwards ([`Lexicon::reading_at`]). A run of kanji with its kana
//! is a word when the lexicon has an entry written exactly so (`書く` → `かく`, `大人` →
//! `おとな`). The text is read as the best path through such words and the lexicon's kana words
//! (Mozc's word and connection costs, as a conversion is scored); of the entries of one written
//! form and part of speech, only the word the LM knows as the most common takes part
//! ([`reading_of_ranked`]). A suffix of one kanji after another word is read as the lexicon's
//! compounds that end in the kanji read it (`道路法上` じょう, `入学者` しゃ), and a word read with
//! rendaku only where it can join the word before it (`作り` つくり after a comma, `人形作り`
//! にんぎょうづくり). Kanji numerals with a unit or a zero are read as a number (`二十八`
//! にじゅうはち, `二〇二四` にせんにじゅうよん) unless a word goes on past them (`二十日` はつか). A counter after digits or
//! such a number is read as text reads it after that number (`２８日` にち, `三千本` ぼん), and
//! `何` as なん before d, t and n (`何の` なんの, `何が` なにが). A kanji no word covers stays as
//! it is.
//! Measured with `henkan eval reverse` (BENCHMARKS.md, "Reconversion").

use crate::composer::{is_hiragana, is_kana, to_hiragana, unvoiced};
use crate::lexicon::{Entry, Lexicon, Surface};
use crate::pos::Connection;

/// Longest word tried, in chars.
const MAX_WORD_CHARS: usize = 6;
/// Longest hiragana or katakana word looked up, in chars.
const MAX_KANA_WORD_CHARS: usize = 8;
/// The cost of a kanji no word covers (kept as it is in the reading).
const LONE_KANJI: i64 = 20000;
/// The cost of a kana or letter that no word covers.
const UNKNOWN_CHAR: i64 = 8000;
/// The cost of a run of katakana or digits read as one unknown word.
const UNKNOWN_RUN: i64 = 4000;
/// The kana of a compound's reading kept to tell how it ends ([`ReverseIndex::ending`]; at most
/// 3, a byte each below the length in `pack_reading`).
const TAIL_KANA: usize = 3;
/// The connection cost from the sentence's start at and above which an entry is read as the
/// compounds ending in its kanji read it: Mozc's suffixes (名詞,接尾: 3,240 and more) and
/// dependent nouns (名詞,非自立) cost more, a noun that starts sentences less (名詞,一般 1,152,
/// 名詞,副詞可能 2,176). 2,500 reads the dev sets alike; 3,500 loses 5 kwdlc texts.
const SUFFIX_FROM_START: i32 = 3000;
/// The most kanji numerals read as one number ([`numeral_run`]; what
/// [`crate::lattice::number::kanji_value`] reads).
const MAX_NUMERALS: usize = 20;
/// The bit that marks a compound among the words while the index is built.
const COMPOUND: u64 = 1 << 31;

/// Whether `何` before `next` is read なん rather than なに: before a kana of d, t or n (`何だ`,
/// `何で`, `何て`, `何と`, `何な`, `何の`) and `じ` or `ぞ`, as speech shortens it. The two
/// readings share one LM word, so the rank cannot tell them apart.
fn nan_before(next: Option<&char>) -> bool {
    matches!(
        next,
        Some('だ' | 'で' | 'て' | 'と' | 'な' | 'の' | 'じ' | 'ぞ')
    )
}

/// Of a counter's `readings` (plain, voiced or semi-voiced: `ほん` `ぼん` `ぽん`), the one it
/// takes after a number whose last digit is `last`: semi-voiced after 1, 6, 8 and 0 (`いっぽん`,
/// `じゅっぷん`), voiced, else semi-voiced, after 3 (`さんぼん`, `さんぷん`), plain otherwise.
/// `None` without readings.
fn counter_after<'a>(last: u32, readings: &[&'a str]) -> Option<&'a str> {
    let mark = |r: &&&str| r.chars().next().and_then(unvoiced).map(|(_, m)| m);
    let semi = |r: &&&str| mark(r) == Some('゜');
    let voiced = |r: &&&str| mark(r) == Some('゛');
    let plain = readings
        .iter()
        .find(|r| mark(r).is_none())
        .or(readings.first());
    let pick = match last {
        1 | 6 | 8 | 0 => readings.iter().find(semi),
        3 => readings.iter().find(voiced).or(readings.iter().find(semi)),
        _ => None,
    };
    pick.or(plain).copied()
}

/// The value of a digit, ASCII or full width (`８`).
fn digit_value(c: char) -> Option<u32> {
    match c {
        '０'..='９' => Some(u32::from(c) - u32::from('０')),
        _ => c.to_digit(10),
    }
}

/// The run of kanji numerals around `chars[i]` where it is a number of two numerals or more
/// with a unit or a zero (`二十八`, `三百`, `二〇二四`): its first char, the char after it and its
/// value. A run that begins with `万` or `億` is not (`万一` is a word), nor digits alone
/// without a zero, which are mostly words read digit by digit (`七五三` しちごさん, `二三日`
/// にさんにち, `一二を争う`).
fn numeral_run(chars: &[char], i: usize) -> Option<(usize, usize, u64)> {
    use crate::lattice::number::{is_kanji_numeral, kanji_value, reading};
    if !chars.get(i).is_some_and(|&c| is_kanji_numeral(c)) {
        return None;
    }
    // a run longer than a number can be is none, and is not scanned further (a pasted run of
    // numerals costs each position at most twice this)
    let before = chars[..i]
        .iter()
        .rev()
        .take(MAX_NUMERALS)
        .take_while(|&&c| is_kanji_numeral(c))
        .count();
    let after = chars[i..]
        .iter()
        .take(MAX_NUMERALS)
        .take_while(|&&c| is_kanji_numeral(c))
        .count();
    let (start, end) = (i - before, i + after);
    let longer = |at: Option<&char>| at.is_some_and(|&c| is_kanji_numeral(c));
    if end - start < 2
        || end - start > MAX_NUMERALS
        || longer(start.checked_sub(1).and_then(|k| chars.get(k)))
        || longer(chars.get(end))
        || matches!(chars[start], '万' | '億')
        || !chars[start..end]
            .iter()
            .any(|c| matches!(c, '〇' | '十' | '百' | '千' | '万' | '億'))
    {
        return None;
    }
    let run: String = chars[start..end].iter().collect();
    kanji_value(&run)
        .filter(|&v| reading(v).is_some())
        .map(|v| (start, end, v))
}

/// The digit a counter's sound follows after a number of value `v` ([`counter_after`]): its
/// last digit, or 3 where the number ends in `千` or `万`, which end in ん as 3 does
/// (`三千本` さんぜんぼん, `一万本` いちまんぼん).
fn last_sound(v: u64) -> u32 {
    if v >= 1000 && v % 1000 == 0 && v % 100_000_000 != 0 {
        3
    } else {
        (v % 10) as u32
    }
}

fn is_katakana(c: char) -> bool {
    is_kana(c) && !is_hiragana(c)
}

/// Whether `reading` is one of `others` with its first kana voiced (`づくり` beside `つくり`):
/// the form a word takes as the second part of a compound (rendaku).
fn is_rendaku<'a>(reading: &str, mut others: impl Iterator<Item = &'a str>) -> bool {
    let mut chars = reading.chars();
    let Some((first, _)) = chars.next().and_then(unvoiced) else {
        return false;
    };
    let rest = chars.as_str();
    others.any(|o| o.strip_prefix(first) == Some(rest))
}

/// A kanji and a reading of it or of a compound ending in it, in 48 bits: the kanji (bits
/// 32..48), the reading's length (bits 24..31: its bytes / 3, its chars, the lexicon's readings
/// being kana) and its last [`TAIL_KANA`] kana (a byte each: the char's offset in the kana block
/// U+3000–U+30FF, the last in the low byte). `None` for a kanji outside the BMP, or where one
/// of those kana is outside the block. Read from the UTF-8 bytes (a kana is 3 of them): it runs
/// for every compound of the lexicon. Two readings of one kanji alone that differ only before
/// their last 3 kana and are as long share one (`ending` counts them together).
fn pack_reading(kanji: char, reading: &str) -> Option<u64> {
    let bytes = reading.as_bytes();
    if bytes.len() % 3 != 0 || u32::from(kanji) > 0xFFFF {
        return None;
    }
    let mut tail = 0u64;
    for (k, c) in bytes.rchunks_exact(3).take(TAIL_KANA).enumerate() {
        // U+3000..=U+30FF is E3 80..=83 80..=BF
        if c[0] != 0xE3 || c[1] & 0xFC != 0x80 {
            return None;
        }
        let b = u64::from(c[1] & 0x03) << 6 | u64::from(c[2] & 0x3F);
        if b == 0 {
            return None;
        }
        tail |= b << (8 * k);
    }
    let len = (bytes.len() / 3).min(0x7F) as u64;
    Some(u64::from(kanji) << 32 | len << 24 | tail)
}

fn is_kanji(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '々' | '〆' | '\u{F900}'..='\u{FAFF}')
}

/// What reverse conversion looks words up in, collected from the lexicon on first use: the
/// entries written with kanji, by their written form.
#[derive(Debug, Clone, Default)]
pub struct ReverseIndex {
    /// The hash of the written form (high 32 bits) and the entry offset (low 32 bits) of each
    /// entry of at most [`MAX_WORD_CHARS`] written characters with a kanji, sorted. 8 bytes an
    /// entry: the written forms and readings stay in the lexicon.
    words: Vec<u64>,
    /// For each kanji of several readings alone that ends compounds of the lexicon, and each
    /// of those readings: the kanji and the reading (`pack_reading`), and how many compounds
    /// end in the kanji read so. Sorted.
    endings: Vec<(u64, u32)>,
}

/// FNV-1a of a written form: the word index's key (collisions are told apart by the entry).
fn written_hash(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h: u32, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl ReverseIndex {
    /// One pass over the lexicon, decoding only the written forms that can hold a kanji.
    pub fn new(lexicon: &Lexicon) -> Self {
        // The words, and the compounds ending in a kanji, in one vector, so that the memory
        // the words need as the vector grows holds the compounds too (a vector of its own would
        // raise the peak by half): a word is its written form's hash (bits 32..) and its entry
        // offset (below 2³¹); a compound is `COMPOUND` and its last kanji and reading
        // (`pack_reading`).
        let mut words = Vec::new();
        // the readings of each kanji alone (`pack_reading`)
        let mut singles = Vec::new();
        let mut text = String::new();
        lexicon.for_each_entry(|reading, e| {
            let Surface::Coded { count, shared, .. } = e.surface else {
                return;
            };
            if count as usize + shared as usize > MAX_WORD_CHARS || e.offset & COMPOUND as u32 != 0
            {
                return;
            }
            lexicon.write_surface(&e.surface, reading, &mut text);
            if text.chars().any(is_kanji) {
                words.push(u64::from(written_hash(&text)) << 32 | u64::from(e.offset));
            }
            let mut back = text.chars().rev();
            let (Some(last), second) = (back.next(), back.next()) else {
                return;
            };
            let Some(packed) = Some(last)
                .filter(|&c| is_kanji(c))
                .and_then(|c| pack_reading(c, reading))
            else {
                return;
            };
            if second.is_some() {
                words.push(packed | COMPOUND);
            } else {
                singles.push(packed);
            }
        });
        // the compounds first, by kanji
        let mut compounds = 0;
        for k in 0..words.len() {
            if words[k] & COMPOUND != 0 {
                words.swap(compounds, k);
                compounds += 1;
            }
        }
        words[..compounds].sort_unstable();
        words[compounds..].sort_unstable();
        let tails = &words[..compounds];
        singles.sort_unstable();
        singles.dedup();
        let mut endings = Vec::new();
        for readings in singles.chunk_by(|a, b| a >> 32 == b >> 32) {
            if readings.len() < 2 {
                continue; // one reading: nothing to choose
            }
            let kanji = readings[0] >> 32;
            let from = tails.partition_point(|&t| t >> 32 < kanji);
            let to = tails.partition_point(|&t| t >> 32 <= kanji);
            for &single in readings {
                let len = (single >> 24 & 0x7F) as usize;
                // the reading's last kana, as many as are kept
                let mask = u32::MAX >> (32 - 8 * len.clamp(1, TAIL_KANA));
                let n = tails[from..to]
                    .iter()
                    .filter(|&&t| {
                        (t >> 24 & 0x7F) as usize > len && (t ^ single) as u32 & mask == 0
                    })
                    .count();
                if n > 0 {
                    endings.push((single, n as u32));
                }
            }
        }
        endings.shrink_to_fit();
        words.drain(..compounds);
        words.shrink_to_fit();
        ReverseIndex { words, endings }
    }

    /// How many compounds of the lexicon end in `kanji` read `reading` (`上` じょう in
    /// `法律上`, `事実上`, …).
    pub fn ending(&self, kanji: char, reading: &str) -> u32 {
        let Some(key) = pack_reading(kanji, reading) else {
            return 0;
        };
        match self.endings.binary_search_by_key(&key, |&(k, _)| k) {
            Ok(at) => self.endings[at].1,
            Err(_) => 0,
        }
    }

    /// Entries indexed (for measuring the index).
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether no entry is indexed.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The (reading, entry) of each entry written exactly `word`.
    pub fn written<'a>(
        &'a self,
        lexicon: &'a Lexicon,
        word: &'a str,
    ) -> impl Iterator<Item = (String, crate::lexicon::Entry<'a>)> + 'a {
        let h = u64::from(written_hash(word));
        let from = self.words.partition_point(|&w| w >> 32 < h);
        self.words[from..]
            .iter()
            .take_while(move |&&w| w >> 32 == h)
            .filter_map(move |&w| {
                let offset = w as u32;
                let e = lexicon.entry(offset)?;
                let reading = lexicon.reading_at(offset)?;
                (lexicon.surface_text(&e.surface, &reading) == word).then_some((reading, e))
            })
    }
}

/// The reading of `text`: kana as they are (in hiragana), words with kanji read as the
/// lexicon writes them; other characters (letters, digits, symbols) as they are.
///
/// ```no_run
/// let engine = henkan::Engine::from_bytes(std::fs::read("models/henkan.henkan").unwrap()).unwrap();
/// let index = henkan::reverse::ReverseIndex::new(&engine.lexicon);
/// let reading = henkan::reverse::reading_of(&engine.lexicon, &engine.connection, &index, "汽車で帰る");
/// assert_eq!(reading, "きしゃでかえる");
/// ```
pub fn reading_of(
    lexicon: &Lexicon,
    connection: &Connection,
    index: &ReverseIndex,
    text: &str,
) -> String {
    reading_of_ranked(lexicon, connection, index, text, &|_| None)
}

/// One reading of a span of the text.
struct Node {
    /// The span's first char.
    from: usize,
    left: u16,
    right: u16,
    cost: i64,
    reading: String,
}

/// [`reading_of`], where a word the lexicon writes so under several readings is read by the one
/// text uses most: `rank(entry)` is how common the entry is as a word of its own (the LM's id of
/// it, ids being frequency ranks; `None` for a word the LM does not know as itself): of the
/// entries written so with one part of speech, only the most common word's take part. By word
/// cost alone the noun `文` read `ふみ` (4,497, against `ぶん` 4,520), which converts back to
/// `踏み`.
///
/// The text is read as the best path through its words (Mozc's costs: word costs and the
/// connection costs between them), so that a word's kana after its kanji stay in the word
/// (`書く` かく, not the suffix `書` しょ and a `く`).
pub fn reading_of_ranked(
    lexicon: &Lexicon,
    connection: &Connection,
    index: &ReverseIndex,
    text: &str,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> String {
    pieces_of_ranked(lexicon, connection, index, text, rank)
        .into_iter()
        .map(|(_, reading)| reading)
        .collect()
}

/// [`reading_of_ranked`] word by word: the (written text, reading) of each word of the best
/// path, in order; the written texts make up `text`.
pub fn pieces_of_ranked(
    lexicon: &Lexicon,
    connection: &Connection,
    index: &ReverseIndex,
    text: &str,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> Vec<(String, String)> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    // nodes ending at each position, with the best total to them and the node before
    let mut nodes: Vec<Node> = Vec::new();
    let mut best: Vec<(i64, Option<usize>)> = Vec::new();
    let mut ending: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        if i > 0 && ending[i].is_empty() {
            continue;
        }
        for (to, node) in nodes_at(lexicon, connection, index, &chars, i, rank) {
            let mut here = (i64::MAX, None);
            if i == 0 {
                here = (i64::from(connection.cost(0, node.left)), None);
            }
            for &p in &ending[i] {
                let c = best[p].0 + i64::from(connection.cost(nodes[p].right, node.left));
                if c < here.0 {
                    here = (c, Some(p));
                }
            }
            best.push((here.0 + node.cost, here.1));
            nodes.push(node);
            ending[to].push(nodes.len() - 1);
        }
    }
    let last = ending[n]
        .iter()
        .min_by_key(|&&p| best[p].0 + i64::from(connection.cost(nodes[p].right, 0)));
    let Some(&last) = last else {
        return if text.is_empty() {
            Vec::new()
        } else {
            vec![(text.to_string(), to_hiragana(text))]
        };
    };
    let mut pieces = Vec::new();
    let (mut at, mut to) = (Some(last), n);
    while let Some(p) = at {
        let from = nodes[p].from;
        let written: String = chars[from..to].iter().collect();
        pieces.push((written, std::mem::take(&mut nodes[p].reading)));
        (at, to) = (best[p].1, from);
    }
    pieces.reverse();
    pieces
}

/// Keeps, of the entries `found` (rank, reading, entry), those read `reading`.
fn keep_only(kept: &mut [bool], found: &[(u32, String, Entry<'_>)], reading: &str) {
    for (keep, f) in kept.iter_mut().zip(found) {
        *keep = f.1 == reading;
    }
}

/// The nodes that start at char `i`, with the position each ends at: words written with kanji
/// (of one part of speech, only the most common word's entries by `rank`), hiragana and
/// katakana words of the lexicon, a run of katakana or of digits as one unknown word, and the
/// char alone (a kanji as it is, at a cost no word pays), so that every position is reached.
fn nodes_at(
    lexicon: &Lexicon,
    connection: &Connection,
    index: &ReverseIndex,
    chars: &[char],
    i: usize,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> Vec<(usize, Node)> {
    let special = connection.special;
    let n = chars.len();
    let mut out = Vec::new();
    let node = |left: u16, right: u16, cost: i64, reading: String| Node {
        from: i,
        left,
        right,
        cost,
        reading,
    };
    // a number in kanji numerals is read as a number (`二十八` にじゅうはち, not the word
    // にそはち; `二十五日` not `二十` + `五日` いつか): no word starts inside it or ends inside
    // or at its end, and it is one node; words that go on past it stay (`二十日` はつか)
    let number = numeral_run(chars, i);
    let inside_number = number.is_some_and(|(start, _, _)| start < i);
    let number_end = number.map_or(0, |(_, end, _)| end);
    let mut word = String::new();
    for to in i + 1..=(i + MAX_WORD_CHARS).min(n) {
        word.push(chars[to - 1]);
        if !word.chars().any(is_kanji) || inside_number || to <= number_end {
            continue;
        }
        let found: Vec<(u32, String, Entry<'_>)> = index
            .written(lexicon, &word)
            .map(|(r, e)| (rank(e.offset).unwrap_or(u32::MAX), r, e))
            .collect();
        // a word can join the one before it where that ends in a kanji or katakana; elsewhere
        // a word with kana is not read with rendaku (`作り` つくり, not づくり)
        let joins = i > 0 && (is_kanji(chars[i - 1]) || is_katakana(chars[i - 1]));
        let has_kana = word.chars().any(is_kana);
        let rendaku_alone: Vec<bool> = found
            .iter()
            .map(|f| has_kana && !joins && is_rendaku(&f.1, found.iter().map(|g| g.1.as_str())))
            .collect();
        // the most common word's rank among the entries of e's part of speech
        let top = |e: &Entry<'_>| {
            found
                .iter()
                .zip(&rendaku_alone)
                .filter(|(f, &alone)| {
                    !alone && (f.2.left_id, f.2.right_id) == (e.left_id, e.right_id)
                })
                .map(|(f, _)| f.0)
                .min()
        };
        let mut kept: Vec<bool> = found
            .iter()
            .zip(&rendaku_alone)
            .map(|(f, &alone)| !alone && Some(f.0) == top(&f.2))
            .collect();
        if joins && to == i + 1 {
            // a kanji alone after a word, read as the compounds ending in it read it
            let endings: Vec<u32> = found.iter().map(|f| index.ending(chars[i], &f.1)).collect();
            // of the entries that hardly start a sentence (suffixes, dependent nouns): a noun of
            // its own keeps the LM's reading (`日曜日朝` あさ, `時々雨` あめ)
            let suffix: Vec<bool> = found
                .iter()
                .map(|f| connection.cost(0, f.2.left_id) >= SUFFIX_FROM_START)
                .collect();
            let most = endings
                .iter()
                .zip(&suffix)
                .filter(|(_, &s)| s)
                .map(|(&n, _)| n)
                .max()
                .unwrap_or(0);
            if most > 0 {
                for (k, &s) in suffix.iter().enumerate() {
                    if s {
                        kept[k] = endings[k] == most;
                    }
                }
            }
        }
        let digit = (i > 0 && to == i + 1)
            .then(|| {
                digit_value(chars[i - 1]).or_else(|| {
                    numeral_run(chars, i - 1)
                        .filter(|&(_, end, _)| end == i)
                        .map(|(_, _, v)| last_sound(v))
                })
            })
            .flatten();
        if let Some(digit) = digit {
            // a counter after digits or a number in kanji numerals, read as text reads it
            // after that number (`２８日` にち, not the LM's ひ; `３分` ぷん, `５分` ふん,
            // `三千本` ぼん)
            let readings: Vec<&str> = crate::lattice::number::counter_readings(&word)
                .filter(|&r| found.iter().any(|f| f.1 == r))
                .collect();
            if let Some(reading) = counter_after(digit, &readings) {
                keep_only(&mut kept, &found, reading);
            }
        }
        // before a kanji (a counter: `何回`) the words and costs decide
        let before_kanji = chars.get(to).is_some_and(|&c| is_kanji(c));
        if word == "何" && !before_kanji {
            let reading = if nan_before(chars.get(to)) {
                "なん"
            } else {
                "なに"
            };
            if found.iter().any(|f| f.1 == reading) {
                keep_only(&mut kept, &found, reading);
            }
        }
        for ((_, r, e), keep) in found.into_iter().zip(kept) {
            if keep {
                out.push((to, node(e.left_id, e.right_id, i64::from(e.cost), r)));
            }
        }
    }
    let run = chars[i..].iter().take_while(|&&c| is_hiragana(c)).count();
    for to in i + 1..=i + run.min(MAX_KANA_WORD_CHARS) {
        let word: String = chars[i..to].iter().collect();
        for e in lexicon.get(&word) {
            if e.surface == Surface::Reading {
                out.push((
                    to,
                    node(e.left_id, e.right_id, i64::from(e.cost), word.clone()),
                ));
            }
        }
    }
    let run = chars[i..].iter().take_while(|&&c| is_katakana(c)).count();
    for to in i + 1..=i + run.min(MAX_KANA_WORD_CHARS) {
        let word = to_hiragana(&chars[i..to].iter().collect::<String>());
        for e in lexicon.get(&word) {
            if e.surface == Surface::Katakana {
                out.push((
                    to,
                    node(e.left_id, e.right_id, i64::from(e.cost), word.clone()),
                ));
            }
        }
    }
    if run > 0 {
        let reading = to_hiragana(&chars[i..i + run].iter().collect::<String>());
        let id = special.proper_noun;
        out.push((i + run, node(id, id, UNKNOWN_RUN, reading)));
    }
    if let Some((_, end, v)) = number.filter(|&(start, _, _)| start == i) {
        if let Some(reading) = crate::lattice::number::reading(v) {
            let id = special.number;
            out.push((end, node(id, id, UNKNOWN_RUN, reading)));
        }
    }
    let digits = chars[i..]
        .iter()
        .take_while(|c| c.is_numeric() && !crate::lattice::number::is_kanji_numeral(**c))
        .count();
    if digits > 0 {
        let reading: String = chars[i..i + digits].iter().collect();
        let id = special.number;
        out.push((i + digits, node(id, id, UNKNOWN_RUN, reading)));
    }
    let c = chars[i];
    let (id, cost, reading) = if is_kanji(c) {
        (special.noun, LONE_KANJI, c.to_string())
    } else if is_kana(c) {
        (special.noun, UNKNOWN_CHAR, to_hiragana(&c.to_string()))
    } else if c.is_alphanumeric() {
        (special.alphabet, UNKNOWN_CHAR, c.to_string())
    } else {
        (special.symbol, 0, c.to_string())
    };
    out.push((i + 1, node(id, id, cost, reading)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_after_a_digit_takes_the_number_s_sound() {
        let hon = ["ほん", "ぼん", "ぽん"];
        let expected = [
            (0, "ぽん"),
            (1, "ぽん"),
            (2, "ほん"),
            (3, "ぼん"),
            (5, "ほん"),
            (6, "ぽん"),
        ];
        for (d, reading) in expected {
            assert_eq!(counter_after(d, &hon), Some(reading), "{d}");
        }
        let fun = ["ふん", "ぷん"];
        assert_eq!(counter_after(3, &fun), Some("ぷん"));
        assert_eq!(counter_after(5, &fun), Some("ふん"));
        let kai = ["かい", "がい"];
        assert_eq!(counter_after(3, &kai), Some("がい"));
        assert_eq!(counter_after(1, &kai), Some("かい"));
        assert_eq!(counter_after(8, &["にち"]), Some("にち"));
        assert_eq!(counter_after(8, &[]), None);
    }

    #[test]
    fn rendaku_is_a_reading_voiced_beside_its_plain_one() {
        assert!(is_rendaku("づくり", ["つくり", "づくり"].into_iter()));
        assert!(is_rendaku("ぐろい", ["くろい"].into_iter()));
        assert!(!is_rendaku("つくり", ["づくり"].into_iter()));
        // a voiced reading without a plain twin is the word's own (`台` だい)
        assert!(!is_rendaku("だい", ["うてな"].into_iter()));
    }

    #[test]
    fn a_reading_packs_its_kanji_length_and_last_kana() {
        let p = |r| pack_reading('上', r);
        let jou = p("じょう").unwrap();
        // the compound's end matches the kanji's reading in its low bytes
        let houritsujou = p("ほうりつじょう").unwrap();
        assert_eq!((jou ^ houritsujou) & 0xFF_FFFF, 0);
        assert_eq!(jou >> 24 & 0x7F, 3);
        assert_eq!(houritsujou >> 24 & 0x7F, 7);
        assert_eq!(jou >> 32, u64::from(u32::from('上')));
        assert_ne!(p("うえ"), Some(jou));
        // kana only
        assert_eq!(p("abc"), None);
        assert_eq!(p("じょうa"), None);
        assert_eq!(pack_reading('𠮟', "しか"), None);
    }
}

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
//! ([`reading_of_ranked`]). A kanji no word covers stays as it is.
//! Measured with `henkan eval reverse` (BENCHMARKS.md, "Reconversion").

use crate::composer::{is_hiragana, is_kana, to_hiragana};
use crate::lexicon::{Entry, Lexicon, Surface};
use crate::pos::{Connection, SpecialIds};

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
        let mut words = Vec::new();
        lexicon.for_each_entry(|reading, e| {
            let Surface::Coded { count, shared, .. } = e.surface else {
                return;
            };
            if count as usize + shared as usize > MAX_WORD_CHARS {
                return;
            }
            let text = lexicon.surface_text(&e.surface, reading);
            if text.chars().any(is_kanji) {
                words.push(u64::from(written_hash(&text)) << 32 | u64::from(e.offset));
            }
        });
        words.sort_unstable();
        words.shrink_to_fit();
        ReverseIndex { words }
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
    let special = connection.special;
    // nodes ending at each position, with the best total to them and the node before
    let mut nodes: Vec<Node> = Vec::new();
    let mut best: Vec<(i64, Option<usize>)> = Vec::new();
    let mut ending: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        if i > 0 && ending[i].is_empty() {
            continue;
        }
        for (to, node) in nodes_at(lexicon, special, index, &chars, i, rank) {
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

/// The nodes that start at char `i`, with the position each ends at: words written with kanji
/// (of one part of speech, only the most common word's entries by `rank`), hiragana and
/// katakana words of the lexicon, a run of katakana or of digits as one unknown word, and the
/// char alone (a kanji as it is, at a cost no word pays), so that every position is reached.
fn nodes_at(
    lexicon: &Lexicon,
    special: SpecialIds,
    index: &ReverseIndex,
    chars: &[char],
    i: usize,
    rank: &dyn Fn(u32) -> Option<u32>,
) -> Vec<(usize, Node)> {
    let n = chars.len();
    let mut out = Vec::new();
    let node = |left: u16, right: u16, cost: i64, reading: String| Node {
        from: i,
        left,
        right,
        cost,
        reading,
    };
    let mut word = String::new();
    for to in i + 1..=(i + MAX_WORD_CHARS).min(n) {
        word.push(chars[to - 1]);
        if !word.chars().any(is_kanji) {
            continue;
        }
        let found: Vec<(u32, String, Entry<'_>)> = index
            .written(lexicon, &word)
            .map(|(r, e)| (rank(e.offset).unwrap_or(u32::MAX), r, e))
            .collect();
        // the most common word's rank among the entries of e's part of speech
        let top = |e: &Entry<'_>| {
            found
                .iter()
                .filter(|f| (f.2.left_id, f.2.right_id) == (e.left_id, e.right_id))
                .map(|f| f.0)
                .min()
        };
        let kept: Vec<bool> = found.iter().map(|f| Some(f.0) == top(&f.2)).collect();
        for ((_, r, e), keep) in found.into_iter().zip(kept) {
            if !keep {
                continue;
            }
            let cost = i64::from(e.cost);
            out.push((to, node(e.left_id, e.right_id, cost, r)));
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
    let is_katakana = |c: char| is_kana(c) && !is_hiragana(c);
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
    let digits = chars[i..].iter().take_while(|c| c.is_numeric()).count();
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

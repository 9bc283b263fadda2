//! The word lattice over a reading, built one character at a time.
//!
//! Terms:
//! - *position*: a boundary between characters of the reading, `0..=len`.
//! - *node*: a word candidate spanning `[begin, end)`: a lexicon entry or an *unknown*
//!   node (the characters themselves) so that any input has a path.
//!
//! Nodes are stored in one arena in the order of their end positions, so the nodes ending
//! at `p` are the contiguous range [`Lattice::ending_at`]. Appending a character runs the
//! live prefix walks of the lexicon index one step (one walk per start position that can
//! still reach a reading), so a key costs O(new nodes), and nothing before it is rebuilt.
//! [`Lattice::truncate`] keeps the capacity of every buffer.

pub mod acronym;
pub mod number;

use crate::lexicon::{Lexicon, Surface};
use crate::pos::SpecialIds;
use fst::raw::{CompiledAddr, Output};

/// `entry` value of unknown nodes.
pub const UNKNOWN_ENTRY: u32 = u32::MAX;
/// `entry` value of a number node: the reading parsed as a number ([`number::parse`]),
/// shown as Arabic digits with 万/億/兆 above 9999 ([`number::written`]), as a decimal
/// ([`number::decimal`]), or as a day of the month or a span of days (`24日`, `14日間`,
/// [`number::day_or_days`]).
pub const NUMBER_ENTRY: u32 = u32::MAX - 1;
/// `entry` value of a loanword node: a mora only loanwords have (`じぇ`, `ふぃ`, `でゅ`:
/// [`foreign_mora`]) written in katakana (`ジェ`). A word that begins on the small kana of such a
/// mora costs [`INSIDE_MORA_COST`] more, so a word the dictionary lacks is not cut before it
/// (`グランジ` + `ぇ`): the node keeps it whole where no dictionary word does (`グラン` + `ジェ`).
pub const LOANWORD_ENTRY: u32 = NUMBER_ENTRY - 1;
/// `entry` value of an acronym node: letter names written as the letters ([`acronym`]:
/// `えすえぬえす` → `SNS`).
pub const ACRONYM_ENTRY: u32 = LOANWORD_ENTRY - 1;
/// `entry` values from here on (below [`ACRONYM_ENTRY`]) are user words: `USER_ENTRY_BASE + i`
/// is word `i` of the user dictionary ([`crate::user_dictionary`]).
pub const USER_ENTRY_BASE: u32 = ACRONYM_ENTRY - crate::user_dictionary::MAX_ENTRIES as u32;

/// `entry` values from here on (below [`PHRASE_ENTRY_BASE`]) are digit twins:
/// `DIGIT_TWIN_BASE + e` is the dictionary entry `e`, a kanji numeral and its counter read with a
/// one-kana digit or with `しち` (`よにん` 四人, `くじすぎ` 九時過ぎ, `しちじはん` 七時半), or read as
/// written (`いっぽん` 一本), written with digits (`4人`, `9時過ぎ`, `7時半`, `1本`,
/// [`number::counted_twin`]). It has
/// `e`'s POS and cost and no word bias, so the digit prior that lowers `四人` lets its twin win;
/// the hybrid scores it as text writes it, the LM's number word and the counter's word
/// (`4 人`), the neural engine as `e`'s word (`NeuralDecoder::node_words`).
pub const DIGIT_TWIN_BASE: u32 = 1 << 31;

/// The dictionary entry a digit twin's `entry` stands for ([`DIGIT_TWIN_BASE`]).
pub fn twin_of(entry: u32) -> Option<u32> {
    (DIGIT_TWIN_BASE..PHRASE_ENTRY_BASE)
        .contains(&entry)
        .then(|| entry - DIGIT_TWIN_BASE)
}

/// The `entry` of the digit twin of dictionary entry `entry` (`None` past the twins' range).
pub fn twin_entry(entry: u32) -> Option<u32> {
    (entry < PHRASE_ENTRY_BASE - DIGIT_TWIN_BASE).then(|| DIGIT_TWIN_BASE + entry)
}

/// `entry` values from here on (below [`USER_ENTRY_BASE`]) are learned phrases:
/// `PHRASE_ENTRY_BASE + i` is phrase `i` of [`Lattice::set_phrases`].
pub const PHRASE_ENTRY_BASE: u32 = USER_ENTRY_BASE - 256;

/// The learned phrase a node's `entry` is, if it is one.
pub fn phrase_of(entry: u32) -> Option<u32> {
    (PHRASE_ENTRY_BASE..USER_ENTRY_BASE)
        .contains(&entry)
        .then(|| entry - PHRASE_ENTRY_BASE)
}

/// A learned phrase taken as one word ([`crate::history`]): a node over its reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhraseNode {
    /// Its reading.
    pub reading: String,
    /// Its text.
    pub text: String,
    /// Left POS id (of its first word).
    pub left_id: u16,
    /// Right POS id (of its last word).
    pub right_id: u16,
    /// Word cost.
    pub cost: i32,
}

/// The user-dictionary word a node's `entry` is, if it is one.
pub fn user_word_of(entry: u32) -> Option<u32> {
    (USER_ENTRY_BASE..ACRONYM_ENTRY)
        .contains(&entry)
        .then(|| entry - USER_ENTRY_BASE)
}

/// Whether a node of `entry` is the user's own: a learned phrase or a user-dictionary word.
pub fn is_own_word(entry: u32) -> bool {
    (PHRASE_ENTRY_BASE..ACRONYM_ENTRY).contains(&entry)
}

/// Whether a node of `entry` is no dictionary word but the reading span itself: an unknown node
/// ([`UNKNOWN_ENTRY`]), a loanword ([`LOANWORD_ENTRY`]) or an acronym ([`ACRONYM_ENTRY`]).
pub fn is_unknown(entry: u32) -> bool {
    entry == UNKNOWN_ENTRY || entry == LOANWORD_ENTRY || entry == ACRONYM_ENTRY
}

/// Cost of a number node.
pub const NUMBER_COST: i32 = 1_500;
/// `いっせん` alone, read as the number 1000: text reads 1000 `せん` and writes `一千` only
/// before more of a number (the analyzed training text: 一千 27 times, each before 万 or a
/// digit), so alone it is far more often a word (一線, 一戦, 一銭, 一閃).
const LONE_ISSEN: &str = "いっせん";
/// What the number node over [`LONE_ISSEN`] costs above [`NUMBER_COST`]: enough that the words
/// win in a phrase (`いっせんをひく` → `一線を引く`, `だいいっせんから` → `第一線から`; from 2,000
/// on), not so much that `1000円` falls behind `1千円` for `いっせんえん` (up to 4,000).
const LONE_ISSEN_COST: i32 = 3_000;
/// Longest number reading considered, in characters.
const MAX_NUMBER_CHARS: usize = 24;
/// Cost of a one-character unknown node (kept above any dictionary word).
pub const UNKNOWN_CHAR_COST: i32 = 8_000;
/// Base cost of a run of digits, Latin letters, katakana or symbols taken as one word.
pub const UNKNOWN_RUN_COST: i32 = 4_000;

/// One word candidate in the lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// First position (inclusive).
    pub begin: u16,
    /// Last position (exclusive).
    pub end: u16,
    /// Left POS id.
    pub left_id: u16,
    /// Right POS id.
    pub right_id: u16,
    /// Word cost.
    pub cost: i32,
    /// Entry offset in the lexicon, or [`UNKNOWN_ENTRY`] for an unknown node whose surface
    /// is its reading span.
    pub entry: u32,
}

#[derive(Debug, Clone, Copy)]
struct Walk {
    begin: u16,
    addr: CompiledAddr,
    out: u64,
    /// Whether it begins inside a foreign mora ([`INSIDE_MORA_COST`]).
    inside: bool,
}

/// Character classes for grouping unknown runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Hiragana,
    Katakana,
    Digit,
    Latin,
    Other,
}

fn class_of(c: char) -> CharClass {
    match c {
        'ぁ'..='ゖ' | 'ゝ' | 'ゞ' => CharClass::Hiragana,
        'ァ'..='ヺ' | 'ー' | 'ヽ' | 'ヾ' | 'ｦ'..='ﾟ' => CharClass::Katakana,
        '0'..='9' | '０'..='９' => CharClass::Digit,
        'a'..='z' | 'A'..='Z' | 'ａ'..='ｚ' | 'Ａ'..='Ｚ' => CharClass::Latin,
        _ => CharClass::Other,
    }
}

/// The vowel of a full-size hiragana letter (`'a'`, `'i'`, `'u'`, `'e'`, `'o'`), `None` for the
/// small kana, `ん`, `っ` and anything else.
fn vowel_of(c: char) -> Option<char> {
    const ROWS: [(char, &str); 5] = [
        ('a', "あかがさざただなはばぱまやらわ"),
        ('i', "いきぎしじちぢにひびぴみりゐ"),
        ('u', "うくぐすずつづぬふぶぷむゆるゔ"),
        ('e', "えけげせぜてでねへべぺめれゑ"),
        ('o', "おこごそぞとどのほぼぽもよろを"),
    ];
    ROWS.iter()
        .find(|(_, row)| row.contains(c))
        .map(|&(v, _)| v)
}

/// Whether a letter and the small kana after it make a mora that only loanwords have: a small
/// vowel of another vowel than its letter's (`じぇ`, `ふぃ`, `うぃ`, `てぃ`, `ゔぁ`; not the
/// lengthening `ねぇ`, `すごぉい`), or a small `ゃゅょ` after a letter not of the i-row (`でゅ`,
/// `ふゅ`; not `きゃ`).
pub fn foreign_mora(letter: char, small: char) -> bool {
    let Some(v) = vowel_of(letter) else {
        return false;
    };
    match small {
        'ぁ' => v != 'a',
        'ぃ' | 'ゃ' | 'ゅ' | 'ょ' => v != 'i',
        'ぅ' => v != 'u',
        'ぇ' => v != 'e',
        'ぉ' => v != 'o',
        _ => false,
    }
}

/// Whether `c` is a digit, half or full width.
pub fn is_digit(c: char) -> bool {
    class_of(c) == CharClass::Digit
}

/// Whether `c` is a katakana (full or half width) or the prolonged sound mark.
pub fn is_katakana(c: char) -> bool {
    class_of(c) == CharClass::Katakana
}

/// What a word beginning on the small kana of a foreign mora costs more (`グランジ` + `ぇ`, see
/// [`LOANWORD_ENTRY`]): enough that it never wins against the mora kept whole, while a segment
/// boundary the user puts inside the mora still has a path.
pub const INSIDE_MORA_COST: i32 = 10_000;

/// Longest reading (in characters) a lexicon walk may follow; also bounds unknown runs.
pub const MAX_WORD_CHARS: usize = 64;

/// The longest loanword node over hiragana ending in `ー` (`Lattice::add_lengthened`), `ー`
/// included.
pub const LENGTHENED_CHARS: usize = 6;

/// The cost of a loanword node over hiragana ending in `ー` (`Lattice::add_lengthened`): a
/// word the dictionary lacks, typed in hiragana, is written in katakana whole (`らずなー` →
/// `ラズナー`, not `ラズ` + `な` + `ー`), while words lengthened in speech keep their spelling
/// (`いいなー`, `そうだねー`, `やったー`). Measured on the dev sets (BENCHMARKS.md, "Loanwords
/// typed in hiragana"): at 10,000 kwdlc's `でしょーとだうんひる` breaks into `デショーと…`; from
/// 14,000 on `らずなー` stays `ラズなー`.
pub const LENGTHENED_COST: i32 = 12_000;

/// The cost of an acronym node ([`ACRONYM_ENTRY`]), a noun: below Mozc's katakana spellings of
/// letter names (`ピーシー` 7,209, `エーアイ` 6,268), above its acronyms spelled in letters (`CD`
/// 4,259), so that what the dictionary has stays as it has it.
pub const ACRONYM_COST: i32 = 6_000;

/// How digits in converted text are written: numbers read in kana and the digits of
/// dictionary words (`12月`, `１つ`), like Mozc's character-form setting for digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DigitWidth {
    /// `１８日`: full width, as digits typed in hiragana mode show in the preedit (MS-IME's
    /// conversion default).
    Full,
    /// `18日`: half width, Google Japanese Input's default for conversion results.
    #[default]
    Half,
}

impl DigitWidth {
    /// Writes the digits of `s` in this width, and the percent sign with them (Mozc's dictionary
    /// has `%` for ぱーせんと: `９０%` would mix widths). Surfaces with Latin letters (`MP3`,
    /// `Ｗｉｎ１０`) keep their digits as the dictionary has them.
    pub fn apply(self, s: &str) -> String {
        let full = self == DigitWidth::Full;
        let digit = |c: char| {
            if full {
                c.is_ascii_digit() || c == '%'
            } else {
                ('０'..='９').contains(&c) || c == '％'
            }
        };
        let letter = |c: char| {
            if full {
                c.is_ascii_alphabetic()
            } else {
                ('Ａ'..='Ｚ').contains(&c) || ('ａ'..='ｚ').contains(&c)
            }
        };
        if !s.chars().any(digit) || s.chars().any(letter) {
            return s.to_string();
        }
        // full-width digits are ASCII + U+FEE0; so are the decimal point and the thousands
        // separator between two digits
        let chars: Vec<char> = s.chars().collect();
        let point = |i: usize| {
            let c = chars[i];
            (if full {
                c == '.' || c == ','
            } else {
                c == '．' || c == '，'
            }) && i > 0
                && i + 1 < chars.len()
                && digit(chars[i - 1])
                && digit(chars[i + 1])
        };
        (0..chars.len())
            .map(|i| {
                let c = chars[i];
                match (full, digit(c) || point(i)) {
                    (true, true) => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
                    (false, true) => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                    _ => c,
                }
            })
            .collect()
    }
}

/// The lattice and its scratch state.
#[derive(Debug, Clone, Default)]
pub struct Lattice {
    reading: String,
    /// byte offset of each position, `len + 1` items
    offsets: Vec<usize>,
    nodes: Vec<Node>,
    /// `end_start[p]` = first node index ending at `p` (for p ≥ 1); `end_start[len+1]` = nodes.len()
    end_start: Vec<u32>,
    walks: Vec<Walk>,
    /// Entries written otherwise (the user history's respellings); kept by `clear`.
    respell: std::collections::HashMap<u32, String>,
    /// Learned phrases, a node each over their readings; kept by `clear`.
    phrases: Vec<PhraseNode>,
    /// The user's words, a node each over their readings; kept by `clear`.
    user: Option<std::sync::Arc<crate::user_dictionary::UserDictionary>>,
    walks_next: Vec<Walk>,
    /// How numbers are written in surfaces.
    pub digits: DigitWidth,
}

impl Lattice {
    /// An empty lattice.
    pub fn new() -> Self {
        let mut l = Lattice::default();
        l.clear();
        l
    }

    /// Removes everything, keeping capacity.
    pub fn clear(&mut self) {
        self.reading.clear();
        self.offsets.clear();
        self.offsets.push(0);
        self.nodes.clear();
        self.end_start.clear();
        self.end_start.push(0); // position 0: no node ends there
        self.end_start.push(0);
        self.walks.clear();
    }

    /// An empty lattice with this one's settings (respellings, phrases, the user dictionary,
    /// the digit width) and none of its buffers.
    pub fn empty_like(&self) -> Self {
        let mut l = Lattice {
            respell: self.respell.clone(),
            phrases: self.phrases.clone(),
            user: self.user.clone(),
            digits: self.digits,
            ..Lattice::default()
        };
        l.clear();
        l
    }

    /// This lattice after `words`, a path over `reading` (nodes in order, positions within
    /// `reading`; the words committed before this input): the joined reading, `words` as nodes
    /// `0..words.len()` and this lattice's nodes after them, their positions moved past
    /// `reading`. What the final beam's rescoring reads, so that it sees the committed words
    /// before a path (`Session::continue_sentence`); no walks, nothing to extend.
    pub fn after_words(&self, reading: &str, words: &[Node]) -> Lattice {
        let shift = reading.chars().count() as u16;
        let mut l = self.empty_like();
        l.reading = format!("{reading}{}", self.reading);
        l.offsets = l
            .reading
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(l.reading.len()))
            .collect();
        l.nodes = words.to_vec();
        l.nodes.extend(self.nodes.iter().map(|n| Node {
            begin: n.begin + shift,
            end: n.end + shift,
            ..*n
        }));
        // nodes in end order (the words' path, then this lattice's, all ending past them)
        l.end_start = vec![0; l.offsets.len() + 1];
        let mut i = 0;
        for p in 1..=l.len() + 1 {
            l.end_start[p] = i as u32;
            while i < l.nodes.len() && l.nodes[i].end as usize == p {
                i += 1;
            }
        }
        l
    }

    /// The bytes of the buffers that grow with the reading (nodes, offsets, live walks).
    pub fn buffer_bytes(&self) -> usize {
        self.reading.capacity()
            + self.offsets.capacity() * std::mem::size_of::<usize>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.end_start.capacity() * std::mem::size_of::<u32>()
            + (self.walks.capacity() + self.walks_next.capacity()) * std::mem::size_of::<Walk>()
    }

    /// Empties the lattice and frees those buffers; the settings (respellings, phrases, the
    /// user dictionary, the digit width) stay.
    pub fn free_buffers(&mut self) {
        self.reading = String::new();
        self.offsets = Vec::new();
        self.nodes = Vec::new();
        self.end_start = Vec::new();
        self.walks = Vec::new();
        self.walks_next = Vec::new();
        self.clear();
    }

    /// The reading the lattice covers.
    pub fn reading(&self) -> &str {
        &self.reading
    }

    /// Number of characters (the last position).
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether the reading is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All nodes, ordered by end position.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Index range of the nodes ending at position `p` (empty for 0 or out of range).
    pub fn ending_at(&self, p: usize) -> std::ops::Range<usize> {
        if p == 0 || p > self.len() {
            return 0..0;
        }
        self.end_start[p] as usize..self.end_start[p + 1] as usize
    }

    /// The reading between two positions.
    pub fn span(&self, begin: usize, end: usize) -> &str {
        &self.reading[self.offsets[begin]..self.offsets[end]]
    }

    /// The surface of a node.
    pub fn surface(&self, lexicon: &Lexicon, node: &Node) -> String {
        let reading = self.span(node.begin as usize, node.end as usize);
        if node.entry == UNKNOWN_ENTRY {
            // typed digits convert in the session's width, and so do the separators between
            // them (１，０００ → 1,000): the width is applied with one character of context
            // on each side
            let (b, e) = (node.begin as usize, node.end as usize);
            let before = self.span(b.saturating_sub(1), b);
            let after = self.span(e, (e + 1).min(self.len()));
            let wide = self.digits.apply(&[before, reading, after].concat());
            let n = reading.chars().count();
            return wide.chars().skip(before.chars().count()).take(n).collect();
        }
        if node.entry == LOANWORD_ENTRY {
            return crate::composer::to_katakana(reading);
        }
        if node.entry == ACRONYM_ENTRY {
            return acronym::letters_of(reading).unwrap_or_else(|| reading.to_string());
        }
        if let Some(i) = phrase_of(node.entry) {
            return match self.phrases.get(i as usize) {
                Some(p) => self.digits.apply(&p.text),
                None => reading.to_string(),
            };
        }
        if let Some(i) = user_word_of(node.entry) {
            return match self.user.as_ref().and_then(|u| u.word(i)) {
                Some(w) => w.word.clone(),
                None => reading.to_string(),
            };
        }
        if let Some(t) = self.respell.get(&node.entry) {
            return self.digits.apply(t);
        }
        if let Some(e) = twin_of(node.entry).and_then(|e| lexicon.entry(e)) {
            let kanji = lexicon.surface_text(&e.surface, reading);
            if let Some(digits) = number::counted_twin(reading, &kanji) {
                return self.digits.apply(&digits);
            }
        }
        if node.entry == NUMBER_ENTRY {
            return match number::parse(reading) {
                Some(v) => self.digits.apply(&number::written(v)),
                None => match (
                    number::decimal(reading),
                    number::day_or_days(
                        &self.reading[..self.offsets[node.begin as usize]],
                        reading,
                    ),
                ) {
                    (Some(d), _) => self.digits.apply(&d),
                    (None, Some((v, unit))) => {
                        self.digits.apply(&format!("{}{unit}", number::written(v)))
                    }
                    (None, None) => reading.to_string(),
                },
            };
        }
        match lexicon.entry(node.entry).map(|e| e.surface) {
            Some(s @ Surface::Coded { .. }) => {
                self.digits.apply(&lexicon.surface_text(&s, reading))
            }
            Some(s) => lexicon.surface_text(&s, reading),
            None => reading.to_string(),
        }
    }

    /// Writes these entries as the given texts in [`Lattice::surface`] (the user history's
    /// respellings, [`crate::history::History::respelling`]); empty: as the lexicon has them.
    pub fn set_respellings(&mut self, respell: std::collections::HashMap<u32, String>) {
        self.respell = respell;
    }

    /// Adds a node over the reading of every word of `user` that conversions use (at
    /// [`crate::user_dictionary::USER_WORD_COST`], with its POS id on both sides); `None`:
    /// none. Takes effect for the characters pushed from now on (clear the lattice to apply
    /// it to all).
    pub fn set_user_dictionary(
        &mut self,
        user: Option<std::sync::Arc<crate::user_dictionary::UserDictionary>>,
    ) {
        self.user = user.filter(|u| u.max_reading_chars() > 0);
    }

    /// Adds a node over the reading of every phrase (the user history's learned phrases, at
    /// most 256); takes effect for the characters pushed from now on.
    pub fn set_phrases(&mut self, mut phrases: Vec<PhraseNode>) {
        phrases.truncate(256);
        self.phrases = phrases;
    }

    /// The user dictionary the lattice adds words from.
    pub fn user_dictionary(&self) -> Option<&crate::user_dictionary::UserDictionary> {
        self.user.as_deref()
    }

    /// Takes the respellings out (surfaces are the lexicon's until they are set again).
    pub fn take_respellings(&mut self) -> std::collections::HashMap<u32, String> {
        std::mem::take(&mut self.respell)
    }

    /// Adds `extra(node)` to the cost of every node ending after position `from` (the nodes
    /// a [`Lattice::sync`] returning `from` made): the user history's cost changes.
    pub fn add_costs(&mut self, from: usize, extra: impl Fn(&Node) -> i32) {
        let first = if from + 1 < self.end_start.len() {
            self.end_start[from + 1] as usize
        } else {
            self.nodes.len()
        };
        for n in &mut self.nodes[first..] {
            n.cost = n.cost.saturating_add(extra(n));
        }
    }

    /// Cuts the lattice back to its first `len` characters.
    pub fn truncate(&mut self, lexicon: &Lexicon, len: usize) {
        if len >= self.len() {
            return;
        }
        self.reading.truncate(self.offsets[len]);
        self.offsets.truncate(len + 1);
        self.nodes.truncate(self.end_start[len + 1] as usize);
        self.end_start.truncate(len + 2);
        // Rebuild the live walks: those from starts within reach that still match.
        self.walks.clear();
        let index = lexicon.index();
        let first = len.saturating_sub(MAX_WORD_CHARS);
        for begin in first..len {
            let inside = !self.begins_word(begin);
            let bytes = &self.reading.as_bytes()[self.offsets[begin]..];
            if let Some((node, out)) = advance(index, index.root(), Output::zero(), bytes) {
                self.walks.push(Walk {
                    begin: begin as u16,
                    addr: node.addr(),
                    out: out.value(),
                    inside,
                });
            }
        }
    }

    /// Makes the lattice cover `reading`, keeping the common prefix and extending from it.
    /// Returns the first position whose nodes changed.
    pub fn sync(&mut self, lexicon: &Lexicon, special: &SpecialIds, reading: &str) -> usize {
        let common = self
            .reading
            .chars()
            .zip(reading.chars())
            .take_while(|(a, b)| a == b)
            .count();
        self.truncate(lexicon, common);
        for c in reading.chars().skip(common) {
            self.push(lexicon, special, c);
        }
        common
    }

    /// Appends one character and adds every node that ends after it.
    pub fn push(&mut self, lexicon: &Lexicon, special: &SpecialIds, c: char) {
        let n = self.len();
        if n + 1 >= u16::MAX as usize {
            // Beyond the lattice's reach: keep the text, add only the unknown node.
            self.reading.push(c);
            self.offsets.push(self.reading.len());
            self.add_unknown(special, n, c, false);
            self.end_start.push(self.nodes.len() as u32);
            return;
        }
        self.reading.push(c);
        self.offsets.push(self.reading.len());
        let joins = !self.begins_word(n);
        let end = (n + 1) as u16;
        let index = lexicon.index();
        self.walks.push(Walk {
            begin: n as u16,
            addr: index.root().addr(),
            out: 0,
            inside: joins,
        });
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        self.walks_next.clear();
        for w in self.walks.drain(..) {
            let Some((node, out)) = advance(index, index.node(w.addr), Output::new(w.out), bytes)
            else {
                continue;
            };
            if node.is_final() {
                let value = out.cat(node.final_output()).value();
                for e in lexicon.entries(value) {
                    self.nodes.push(Node {
                        begin: w.begin,
                        end,
                        left_id: e.left_id,
                        right_id: e.right_id,
                        cost: if w.inside {
                            e.cost.saturating_add(INSIDE_MORA_COST)
                        } else {
                            e.cost
                        },
                        entry: e.offset,
                    });
                }
            }
            if (n + 1 - w.begin as usize) < MAX_WORD_CHARS && !node.is_empty_transitions() {
                self.walks_next.push(Walk {
                    begin: w.begin,
                    addr: node.addr(),
                    out: out.value(),
                    inside: w.inside,
                });
            }
        }
        std::mem::swap(&mut self.walks, &mut self.walks_next);
        self.add_unknown(special, n, c, joins);
        if joins {
            self.add_loanword(special, n + 1);
        }
        if c == 'ー' {
            self.add_lengthened(special, n + 1);
        }
        self.add_acronyms(special, n + 1);
        self.add_numbers(lexicon, special, n + 1);
        self.add_user_words(special, n + 1);
        self.end_start.push(self.nodes.len() as u32);
    }

    /// Adds a node for every user word and learned phrase whose reading ends at `end`.
    fn add_user_words(&mut self, special: &SpecialIds, end: usize) {
        let here = &self.reading[..self.offsets[end]];
        for (i, p) in self.phrases.iter().enumerate() {
            if here.ends_with(p.reading.as_str()) {
                let chars = p.reading.chars().count();
                self.nodes.push(Node {
                    begin: (end - chars) as u16,
                    end: end as u16,
                    left_id: p.left_id,
                    right_id: p.right_id,
                    cost: p.cost,
                    entry: PHRASE_ENTRY_BASE + i as u32,
                });
            }
        }
        let Some(user) = self.user.as_ref() else {
            return;
        };
        for begin in end.saturating_sub(user.max_reading_chars())..end {
            let span = &self.reading[self.offsets[begin]..self.offsets[end]];
            for &i in user.lookup(span) {
                let Some(w) = user.word(i) else {
                    continue;
                };
                let id = w.pos.pos_id(special);
                self.nodes.push(Node {
                    begin: begin as u16,
                    end: end as u16,
                    left_id: id,
                    right_id: id,
                    cost: crate::user_dictionary::USER_WORD_COST,
                    entry: USER_ENTRY_BASE + i,
                });
            }
        }
    }

    /// Adds a node for every span ending at `end` that reads as a number, a decimal, a day or a
    /// span of days ([`number::day_or_days`]), and the digit twins of the dictionary words that
    /// are a kanji numeral with its counter ([`number::counted_twin`]).
    fn add_numbers(&mut self, lexicon: &Lexicon, special: &SpecialIds, end: usize) {
        let first = self.end_start[end] as usize;
        for begin in end.saturating_sub(MAX_NUMBER_CHARS)..end.saturating_sub(1) {
            let span = &self.reading[self.offsets[begin]..self.offsets[end]];
            let before = &self.reading[..self.offsets[begin]];
            if number::parse(span).is_some()
                || number::decimal(span).is_some()
                || number::day_or_days(before, span).is_some()
            {
                self.nodes.push(Node {
                    begin: begin as u16,
                    end: end as u16,
                    left_id: special.number,
                    right_id: special.number,
                    cost: if span == LONE_ISSEN {
                        NUMBER_COST + LONE_ISSEN_COST
                    } else {
                        NUMBER_COST
                    },
                    entry: NUMBER_ENTRY,
                });
            } else if number::may_begin_number(span) {
                let twins = self.twins(lexicon, first, begin, span);
                self.nodes.extend(twins);
            }
        }
    }

    /// The digit twins of the dictionary's kanji words for a number and its counter (`よにん`
    /// 四人 → 4人, `くじすぎ` 九時過ぎ → 9時過ぎ, `いっぽん` 一本 → 1本, [`DIGIT_TWIN_BASE`]): nodes with the
    /// kanji word's POS and cost, so each wins where its kanji word would (`よねんまえ` 4年前,
    /// but `よねんがない` 余念がない). The dictionary words ending at the current end start at
    /// node `first`.
    fn twins(&self, lexicon: &Lexicon, first: usize, begin: usize, span: &str) -> Vec<Node> {
        self.nodes[first..]
            .iter()
            .filter(|n| n.begin as usize == begin)
            .filter_map(|n| {
                let entry = twin_entry(n.entry)?;
                let e = lexicon.entry(n.entry)?;
                number::twin_parts(span, &lexicon.surface_text(&e.surface, span))?;
                Some(Node { entry, ..*n })
            })
            .collect()
    }

    /// Adds the loanword node ([`LOANWORD_ENTRY`]) over the foreign mora whose small kana is
    /// the character before `end`: a word the dictionary lacks keeps the mora whole.
    fn add_loanword(&mut self, special: &SpecialIds, end: usize) {
        self.nodes.push(Node {
            begin: (end - 2) as u16,
            end: end as u16,
            left_id: special.noun,
            right_id: special.noun,
            cost: UNKNOWN_RUN_COST,
            entry: LOANWORD_ENTRY,
        });
    }

    /// Adds loanword nodes ([`LOANWORD_ENTRY`], written in katakana) over the hiragana before a
    /// `ー` that ends at `end` and the `ー` itself, 2 to [`LENGTHENED_CHARS`] characters long.
    fn add_lengthened(&mut self, special: &SpecialIds, end: usize) {
        let run = self.reading[..self.offsets[end - 1]]
            .chars()
            .rev()
            .take(LENGTHENED_CHARS - 1)
            .take_while(|&x| class_of(x) == CharClass::Hiragana)
            .count();
        for len in 1..=run {
            let begin = end - 1 - len;
            if !self.begins_word(begin) {
                continue;
            }
            self.nodes.push(Node {
                begin: begin as u16,
                end: end as u16,
                left_id: special.noun,
                right_id: special.noun,
                cost: LENGTHENED_COST,
                entry: LOANWORD_ENTRY,
            });
        }
    }

    /// Adds acronym nodes ([`ACRONYM_ENTRY`]) over the runs of letter names ending at `end`
    /// ([`acronym::acronyms_ending`]).
    fn add_acronyms(&mut self, special: &SpecialIds, end: usize) {
        let from = end.saturating_sub(acronym::MAX_CHARS);
        let before = &self.reading[self.offsets[from]..self.offsets[end]];
        for (len, _) in acronym::acronyms_ending(before) {
            self.nodes.push(Node {
                begin: (end - len) as u16,
                end: end as u16,
                left_id: special.noun,
                right_id: special.noun,
                cost: ACRONYM_COST,
                entry: ACRONYM_ENTRY,
            });
        }
    }

    /// Whether a word may begin at position `p` at its own cost: not on a small kana that makes a
    /// [`foreign_mora`] with the letter before it (`じ|ぇ`, [`INSIDE_MORA_COST`]).
    fn begins_word(&self, p: usize) -> bool {
        let mut before = self.reading[..self.offsets[p]].chars().rev();
        let at = self.reading[self.offsets[p]..].chars().next();
        match (before.next(), at) {
            (Some(letter), Some(small)) => !foreign_mora(letter, small),
            _ => true,
        }
    }

    /// Adds the unknown node over character `n` (`c`), at [`INSIDE_MORA_COST`] more when it is
    /// the small kana of a foreign mora (`inside`), and the run of its class ending there.
    fn add_unknown(&mut self, special: &SpecialIds, n: usize, c: char, inside: bool) {
        let end = (n + 1).min(u16::MAX as usize) as u16;
        let class = class_of(c);
        let single_id = match class {
            CharClass::Hiragana => special.noun,
            CharClass::Katakana => special.proper_noun,
            CharClass::Digit => special.number,
            CharClass::Latin => special.alphabet,
            CharClass::Other => special.symbol,
        };
        let single_cost = match class {
            CharClass::Hiragana | CharClass::Katakana => UNKNOWN_CHAR_COST,
            _ => UNKNOWN_RUN_COST,
        } + if inside { INSIDE_MORA_COST } else { 0 };
        self.nodes.push(Node {
            begin: n as u16,
            end,
            left_id: single_id,
            right_id: single_id,
            cost: single_cost,
            entry: UNKNOWN_ENTRY,
        });
        if class == CharClass::Hiragana {
            return;
        }
        // A run of the same class ending here, taken as one word.
        let chars: Vec<char> = self.reading[self.offsets[n.saturating_sub(MAX_WORD_CHARS)]..]
            .chars()
            .collect();
        let run = chars
            .iter()
            .rev()
            .take_while(|&&x| class_of(x) == class)
            .count();
        if run > 1 {
            self.nodes.push(Node {
                begin: (n + 1 - run) as u16,
                end,
                left_id: single_id,
                right_id: single_id,
                cost: UNKNOWN_RUN_COST,
                entry: UNKNOWN_ENTRY,
            });
        }
    }
}

/// Follows `bytes` from `node` in the index automaton, accumulating the output; `None`
/// when the walk leaves the automaton.
fn advance<'f>(
    index: &'f fst::raw::Fst<crate::model::SectionBytes>,
    mut node: fst::raw::Node<'f>,
    mut out: Output,
    bytes: &[u8],
) -> Option<(fst::raw::Node<'f>, Output)> {
    for &b in bytes {
        let tr = node.transition(node.find_input(b)?);
        out = out.cat(tr.out);
        node = index.node(tr.addr);
    }
    Some((node, out))
}

trait EmptyTransitions {
    fn is_empty_transitions(&self) -> bool;
}

impl EmptyTransitions for fst::raw::Node<'_> {
    fn is_empty_transitions(&self) -> bool {
        self.transitions().next().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_width_applies_to_dictionary_digits() {
        assert_eq!(DigitWidth::Full.apply("12月"), "１２月");
        assert_eq!(DigitWidth::Full.apply("2010"), "２０１０");
        assert_eq!(DigitWidth::Full.apply("MP3"), "MP3");
        assert_eq!(DigitWidth::Full.apply("月"), "月");
        assert_eq!(DigitWidth::Half.apply("１２月"), "12月");
        assert_eq!(DigitWidth::Half.apply("12月"), "12月");
        assert_eq!(DigitWidth::Half.apply("Ｗｉｎ１０"), "Ｗｉｎ１０");
        // the percent sign goes with the digits (Mozc has % for ぱーせんと)
        assert_eq!(DigitWidth::Full.apply("%"), "％");
        assert_eq!(DigitWidth::Full.apply("100%"), "１００％");
        assert_eq!(DigitWidth::Half.apply("％"), "%");
        assert_eq!(DigitWidth::Full.apply("#&"), "#&");
        // and so does a decimal point between two digits, not a full stop elsewhere
        assert_eq!(DigitWidth::Full.apply("3.14"), "３．１４");
        assert_eq!(DigitWidth::Half.apply("３．１４"), "3.14");
        assert_eq!(DigitWidth::Full.apply("3."), "３.");
        assert_eq!(DigitWidth::Half.apply("．５"), "．5");
        assert_eq!(DigitWidth::Full.apply("1,234"), "１，２３４");
        assert_eq!(DigitWidth::Half.apply("１，２３４"), "1,234");
        assert_eq!(DigitWidth::Full.apply("1, 2"), "１, ２");
    }
}

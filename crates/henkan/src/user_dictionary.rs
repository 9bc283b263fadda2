//! The user dictionary (ユーザー辞書): words the user adds, by reading, with a part of speech.
//!
//! Terms:
//! - *user word*: (reading, word, [`UserPos`], comment). Its reading is hiragana (katakana are
//!   read as hiragana), at most [`MAX_READING_CHARS`]; the dictionary holds at most
//!   [`MAX_ENTRIES`].
//! - *user POS*: the short list of parts of speech a user picks from, named as Mozc names them
//!   in its `user_pos.def` (`名詞`, `人名`, `地名`, …). Each is one of Mozc's POS ids
//!   ([`UserPos::feature`]); the lattice gives the word that id on both sides.
//! - *suggestion only* (`短縮よみ`): a word offered among the completions of its reading (and of
//!   the kana that start it), never in conversions.
//!
//! Every engine converts with the user words: each is a lattice node over its reading
//! ([`crate::lattice::Lattice::set_user_dictionary`]) at [`USER_WORD_COST`], and the LM
//! engines prefer it over the other nodes of its reading as they do a learned spelling
//! ([`crate::decoder::neural`]).
//!
//! Import and export speak the user-dictionary text of Mozc / Google Japanese Input
//! (`reading<TAB>word<TAB>POS<TAB>comment`, UTF-8, `#` comment lines) and of MS-IME's
//! dictionary tool (UTF-16LE with a byte-order mark, `!` header lines,
//! `reading<TAB>word<TAB>品詞`). A bad line is reported and skipped, never fatal.

use crate::composer::to_hiragana;
use crate::error::{Error, Result};
use crate::pos::SpecialIds;
use serde::Serialize;
use std::collections::HashMap;

/// The most words a user dictionary holds.
pub const MAX_ENTRIES: usize = 10_000;
/// Longest reading, in characters (a lattice word is at most this long).
pub const MAX_READING_CHARS: usize = crate::lattice::MAX_WORD_CHARS;
/// Longest word, in characters.
pub const MAX_WORD_CHARS: usize = 64;
/// Longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 256;
/// The most bad lines an import report lists (it counts them all).
pub const MAX_REPORTED: usize = 20;
/// Word cost of a user word in the lattice: that of a common noun in Mozc's dictionary (about
/// e^-7 at 500 units per nat), so a user word beats the compounds and unknown words over its
/// reading, and still yields to particles and words around it that a context demands.
pub const USER_WORD_COST: i32 = 3_500;
/// The first line of an MS-IME export.
const MS_IME_HEADER: &str = "!Microsoft IME Dictionary Tool";

/// A user word's part of speech (Mozc's user POS list, `user_pos.def`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum UserPos {
    /// 名詞: a noun.
    Noun,
    /// 固有名詞: a proper noun.
    ProperNoun,
    /// 人名: a person's name.
    PersonName,
    /// 姓: a family name.
    Surname,
    /// 名: a given name.
    GivenName,
    /// 地名: a place.
    Place,
    /// 組織: an organization.
    Organization,
    /// 名詞サ変: a noun that takes する.
    SuruNoun,
    /// 名詞形動: a noun that takes な.
    AdjectivalNoun,
    /// 形容詞: an i-adjective, in its dictionary form.
    Adjective,
    /// 副詞: an adverb.
    Adverb,
    /// 感動詞: an interjection.
    Interjection,
    /// 接続詞: a conjunction.
    Conjunction,
    /// 連体詞: a pre-noun adjectival.
    Prenominal,
    /// 記号: a symbol (also 顔文字).
    Symbol,
    /// 短縮よみ: offered among completions only.
    SuggestionOnly,
}

impl UserPos {
    /// Every user POS, in the order a picker lists them.
    pub const ALL: [UserPos; 16] = [
        UserPos::Noun,
        UserPos::ProperNoun,
        UserPos::PersonName,
        UserPos::Surname,
        UserPos::GivenName,
        UserPos::Place,
        UserPos::Organization,
        UserPos::SuruNoun,
        UserPos::AdjectivalNoun,
        UserPos::Adjective,
        UserPos::Adverb,
        UserPos::Interjection,
        UserPos::Conjunction,
        UserPos::Prenominal,
        UserPos::Symbol,
        UserPos::SuggestionOnly,
    ];

    /// Its name as Mozc writes it (`名詞`, `人名`, …): what exports write.
    pub fn name(self) -> &'static str {
        match self {
            UserPos::Noun => "名詞",
            UserPos::ProperNoun => "固有名詞",
            UserPos::PersonName => "人名",
            UserPos::Surname => "姓",
            UserPos::GivenName => "名",
            UserPos::Place => "地名",
            UserPos::Organization => "組織",
            UserPos::SuruNoun => "名詞サ変",
            UserPos::AdjectivalNoun => "名詞形動",
            UserPos::Adjective => "形容詞",
            UserPos::Adverb => "副詞",
            UserPos::Interjection => "感動詞",
            UserPos::Conjunction => "接続詞",
            UserPos::Prenominal => "連体詞",
            UserPos::Symbol => "記号",
            UserPos::SuggestionOnly => "短縮よみ",
        }
    }

    /// The user POS named `name`: Mozc's names, MS-IME's (`さ変名詞`, `形動名詞`, `顔文字`,
    /// `組織名`, `独立語`) and the English names of [`UserPos`] in camelCase (`noun`,
    /// `personName`, …).
    pub fn from_name(name: &str) -> Option<UserPos> {
        let name = name.trim();
        if let Some(p) = UserPos::ALL.iter().find(|p| p.name() == name) {
            return Some(*p);
        }
        Some(match name {
            "さ変名詞" | "サ変名詞" => UserPos::SuruNoun,
            "形動名詞" | "形容動詞" => UserPos::AdjectivalNoun,
            "顔文字" => UserPos::Symbol,
            "組織名" => UserPos::Organization,
            "独立語" => UserPos::Interjection,
            "noun" => UserPos::Noun,
            "properNoun" => UserPos::ProperNoun,
            "personName" | "name" => UserPos::PersonName,
            "surname" => UserPos::Surname,
            "givenName" => UserPos::GivenName,
            "place" => UserPos::Place,
            "organization" => UserPos::Organization,
            "suruNoun" => UserPos::SuruNoun,
            "adjectivalNoun" => UserPos::AdjectivalNoun,
            "adjective" => UserPos::Adjective,
            "adverb" => UserPos::Adverb,
            "interjection" => UserPos::Interjection,
            "conjunction" => UserPos::Conjunction,
            "prenominal" => UserPos::Prenominal,
            "symbol" => UserPos::Symbol,
            "suggestionOnly" => UserPos::SuggestionOnly,
            _ => return None,
        })
    }

    /// Its POS in Mozc's `id.def` (the feature `user_pos.def` gives it; adjectives in their
    /// dictionary form).
    pub fn feature(self) -> &'static str {
        self.mozc().1
    }

    /// Mozc's POS id and feature (`id.def` of the Mozc release the model is built from).
    fn mozc(self) -> (u16, &'static str) {
        match self {
            UserPos::Noun | UserPos::SuggestionOnly => (1851, "名詞,一般,*,*,*,*,*"),
            UserPos::ProperNoun => (1920, "名詞,固有名詞,一般,*,*,*,*"),
            UserPos::PersonName => (1921, "名詞,固有名詞,人名,一般,*,*,*"),
            UserPos::Surname => (1923, "名詞,固有名詞,人名,姓,*,*,*"),
            UserPos::GivenName => (1922, "名詞,固有名詞,人名,名,*,*,*"),
            UserPos::Place => (1924, "名詞,固有名詞,地域,一般,*,*,*"),
            UserPos::Organization => (1929, "名詞,固有名詞,組織,*,*,*,*"),
            UserPos::SuruNoun => (1841, "名詞,サ変接続,*,*,*,*,*"),
            UserPos::AdjectivalNoun => (1931, "名詞,形容動詞語幹,*,*,*,*,*"),
            UserPos::Adjective => (2425, "形容詞,自立,*,*,形容詞・アウオ段,基本形,*"),
            UserPos::Adverb => (12, "副詞,一般,*,*,*,*,*"),
            UserPos::Interjection => (2591, "感動詞,*,*,*,*,*,*"),
            UserPos::Conjunction => (2593, "接続詞,*,*,*,*,*,*"),
            UserPos::Prenominal => (2659, "連体詞,*,*,*,*,*,*"),
            UserPos::Symbol => (2644, "記号,一般,*,*,*,*,*"),
        }
    }

    /// Its POS id in a model whose special ids are `special`. The model keeps no POS names,
    /// only the ids of a few roles; when those are the ids of Mozc's `id.def` this table was
    /// read from, the table's id, else (a model built from another `id.def`) the model's
    /// general noun, or proper noun for names, places and organizations.
    pub fn pos_id(self, special: &SpecialIds) -> u16 {
        if special.noun == 1851 && special.proper_noun == 1920 && special.symbol == 2644 {
            return self.mozc().0;
        }
        match self {
            UserPos::ProperNoun
            | UserPos::PersonName
            | UserPos::Surname
            | UserPos::GivenName
            | UserPos::Place
            | UserPos::Organization => special.proper_noun,
            UserPos::Symbol => special.symbol,
            _ => special.noun,
        }
    }
}

/// One word of the user dictionary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserWord {
    /// The reading (hiragana).
    pub reading: String,
    /// The word written.
    pub word: String,
    /// Its part of speech.
    pub pos: UserPos,
    /// The user's note (may be empty).
    pub comment: String,
}

/// A text format of user dictionaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DictionaryFormat {
    /// Mozc / Google Japanese Input: UTF-8, `reading<TAB>word<TAB>POS<TAB>comment`.
    Mozc,
    /// MS-IME's dictionary tool: UTF-16LE with a byte-order mark, `!` headers,
    /// `reading<TAB>word<TAB>品詞`, CRLF.
    MsIme,
}

impl DictionaryFormat {
    /// The format named `name` (`mozc`, `google`, `msime`, `ms-ime`).
    pub fn from_name(name: &str) -> Option<DictionaryFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "mozc" | "google" | "gboard" => Some(DictionaryFormat::Mozc),
            "msime" | "ms-ime" | "microsoft" => Some(DictionaryFormat::MsIme),
            _ => None,
        }
    }
}

/// A line an import skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BadLine {
    /// Its number (1 = the first).
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Words added.
    pub added: usize,
    /// Lines that were already in the dictionary (their comment is updated).
    pub duplicates: usize,
    /// Lines skipped (every bad line counts).
    pub skipped: usize,
    /// The first [`MAX_REPORTED`] bad lines.
    pub bad_lines: Vec<BadLine>,
}

/// Why a word cannot be added.
fn check(reading: &str, word: &str, comment: &str) -> std::result::Result<String, &'static str> {
    let reading = to_hiragana(reading.trim());
    let word = word.trim();
    if reading.is_empty() {
        return Err("empty reading");
    }
    if word.is_empty() {
        return Err("empty word");
    }
    if reading.chars().count() > MAX_READING_CHARS {
        return Err("reading too long");
    }
    if word.chars().count() > MAX_WORD_CHARS {
        return Err("word too long");
    }
    if comment.chars().count() > MAX_COMMENT_CHARS {
        return Err("comment too long");
    }
    let bad = |c: char| c.is_control();
    if reading.chars().any(bad) || word.chars().any(bad) || comment.chars().any(bad) {
        return Err("control character");
    }
    Ok(reading)
}

/// The user's words (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct UserDictionary {
    words: Vec<UserWord>,
    /// Reading → indices into `words` of the words conversions use (not suggestion only).
    by_reading: HashMap<String, Vec<u32>>,
    /// Longest reading of a word conversions use, in characters.
    max_chars: usize,
    /// Bumped on every change.
    version: u64,
}

impl UserDictionary {
    /// An empty dictionary.
    pub fn new() -> Self {
        UserDictionary::default()
    }

    /// The words, in the order they were added.
    pub fn words(&self) -> &[UserWord] {
        &self.words
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether it has no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// A number that changes whenever the dictionary does.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Word `index` ([`UserDictionary::words`]).
    pub fn word(&self, index: u32) -> Option<&UserWord> {
        self.words.get(index as usize)
    }

    /// Indices of the words conversions use for `reading` (hiragana).
    pub fn lookup(&self, reading: &str) -> &[u32] {
        self.by_reading.get(reading).map_or(&[], Vec::as_slice)
    }

    /// Longest reading of a word conversions use, in characters (0 when none).
    pub fn max_reading_chars(&self) -> usize {
        self.max_chars
    }

    /// Adds a word (katakana in the reading are read as hiragana; surrounding spaces are
    /// trimmed). The same (reading, word, POS) again only updates its comment. Returns
    /// whether it was new; an error for an empty or too long field, a control character, or
    /// a full dictionary.
    pub fn add(&mut self, reading: &str, word: &str, pos: UserPos, comment: &str) -> Result<bool> {
        let bad = |detail: &str| Error::UserData {
            line: 0,
            detail: detail.to_string(),
        };
        let reading = check(reading, word, comment).map_err(bad)?;
        let word = word.trim();
        if let Some(w) = self
            .words
            .iter_mut()
            .find(|w| w.reading == reading && w.word == word && w.pos == pos)
        {
            if w.comment != comment {
                w.comment = comment.to_string();
                self.version += 1;
            }
            return Ok(false);
        }
        if self.words.len() >= MAX_ENTRIES {
            return Err(bad("the dictionary is full"));
        }
        if pos != UserPos::SuggestionOnly {
            self.by_reading
                .entry(reading.clone())
                .or_default()
                .push(self.words.len() as u32);
            self.max_chars = self.max_chars.max(reading.chars().count());
        }
        self.words.push(UserWord {
            reading,
            word: word.to_string(),
            pos,
            comment: comment.to_string(),
        });
        self.version += 1;
        Ok(true)
    }

    /// Removes the word (reading, word) (of any POS; `pos` given: of that POS only). Returns
    /// how many were removed.
    pub fn remove(&mut self, reading: &str, word: &str, pos: Option<UserPos>) -> usize {
        let reading = to_hiragana(reading.trim());
        let word = word.trim();
        let before = self.words.len();
        self.words.retain(|w| {
            !(w.reading == reading && w.word == word && pos.is_none_or(|p| p == w.pos))
        });
        let removed = before - self.words.len();
        if removed > 0 {
            self.reindex();
        }
        removed
    }

    /// Removes every word.
    pub fn clear(&mut self) {
        self.words.clear();
        self.reindex();
    }

    fn reindex(&mut self) {
        self.by_reading.clear();
        self.max_chars = 0;
        for (i, w) in self.words.iter().enumerate() {
            if w.pos == UserPos::SuggestionOnly {
                continue;
            }
            self.by_reading
                .entry(w.reading.clone())
                .or_default()
                .push(i as u32);
            self.max_chars = self.max_chars.max(w.reading.chars().count());
        }
        self.version += 1;
    }

    /// The words whose reading starts with `query` (hiragana), suggestion-only words
    /// included: exact readings first, then shorter readings, in the order added.
    pub fn completions(&self, query: &str, limit: usize) -> Vec<&UserWord> {
        if query.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<&UserWord> = self
            .words
            .iter()
            .filter(|w| w.reading.starts_with(query))
            .collect();
        found.sort_by_key(|w| w.reading.len());
        found.truncate(limit);
        found
    }

    /// Adds the words of a user-dictionary text (either format; [`UserDictionary::import`]
    /// for bytes). Lines starting with `!` (MS-IME headers) or `#` (comments) and empty lines
    /// are skipped; a line that is not `reading<TAB>word<TAB>POS[<TAB>comment]` with a known
    /// POS, or that [`UserDictionary::add`] refuses, is reported and skipped.
    pub fn import_text(&mut self, text: &str) -> ImportReport {
        let mut report = ImportReport::default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('!') || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let result = if f.len() < 3 {
                Err("expected reading<TAB>word<TAB>POS".to_string())
            } else if let Some(pos) = UserPos::from_name(f[2]) {
                let comment = f.get(3).copied().unwrap_or("");
                self.add(f[0], f[1], pos, comment).map_err(|e| match e {
                    Error::UserData { detail, .. } => detail,
                    e => e.to_string(),
                })
            } else {
                Err(format!("unknown part of speech {:?}", truncate(f[2], 20)))
            };
            match result {
                Ok(true) => report.added += 1,
                Ok(false) => report.duplicates += 1,
                Err(reason) => {
                    report.skipped += 1;
                    if report.bad_lines.len() < MAX_REPORTED {
                        report.bad_lines.push(BadLine {
                            line: i + 1,
                            reason,
                        });
                    }
                }
            }
        }
        report
    }

    /// Adds the words of a user-dictionary file: UTF-16 with a byte-order mark (MS-IME), else
    /// UTF-8 (with or without one). Bytes that are neither are an error (nothing is added).
    pub fn import(&mut self, bytes: &[u8]) -> Result<ImportReport> {
        let text = decode(bytes)?;
        Ok(self.import_text(&text))
    }

    /// The dictionary as a file of `format`: Mozc's UTF-8 text, or MS-IME's UTF-16LE text with
    /// its byte-order mark and headers. MS-IME has no suggestion-only words: they are written
    /// as `短縮よみ`, which its tool reads as such.
    pub fn export(&self, format: DictionaryFormat) -> Vec<u8> {
        match format {
            DictionaryFormat::Mozc => self.export_mozc().into_bytes(),
            DictionaryFormat::MsIme => {
                let mut text = String::from(MS_IME_HEADER);
                text.push_str(
                    "\r\n!Version:\r\n!Format:WORDLIST\r\n!User Dictionary Name: henkan\r\n\r\n",
                );
                self.write_lines(&mut text, false, "\r\n");
                let mut out = vec![0xFF, 0xFE];
                for u in text.encode_utf16() {
                    out.extend_from_slice(&u.to_le_bytes());
                }
                out
            }
        }
    }

    /// The dictionary as Mozc's user-dictionary text (UTF-8).
    pub fn export_mozc(&self) -> String {
        let mut out = String::new();
        self.write_lines(&mut out, true, "\n");
        out
    }

    /// `reading<TAB>word<TAB>POS[<TAB>comment]` per word, each ended by `newline`.
    fn write_lines(&self, out: &mut String, comments: bool, newline: &str) {
        for w in &self.words {
            for (k, field) in [w.reading.as_str(), &w.word, w.pos.name()]
                .iter()
                .enumerate()
            {
                if k > 0 {
                    out.push('\t');
                }
                out.push_str(field);
            }
            if comments {
                out.push('\t');
                out.push_str(&w.comment);
            }
            out.push_str(newline);
        }
    }
}

/// The first `n` characters of `s`.
fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Text of a user-dictionary file: UTF-16LE/BE after a byte-order mark, else UTF-8.
fn decode(bytes: &[u8]) -> Result<String> {
    let bad = |detail: &str| Error::UserData {
        line: 0,
        detail: detail.to_string(),
    };
    let utf16 = |rest: &[u8], le: bool| -> Result<String> {
        if rest.len() % 2 != 0 {
            return Err(bad("odd number of bytes in UTF-16 text"));
        }
        let units = rest.chunks_exact(2).map(|c| {
            if le {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        });
        char::decode_utf16(units)
            .collect::<std::result::Result<String, _>>()
            .map_err(|_| bad("invalid UTF-16 text"))
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, true),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, false),
        _ => {
            let b = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
            String::from_utf8(b.to_vec()).map_err(|_| bad("neither UTF-8 nor UTF-16 text"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in UserPos::ALL {
            assert_eq!(UserPos::from_name(p.name()), Some(p));
        }
        assert_eq!(UserPos::from_name("さ変名詞"), Some(UserPos::SuruNoun));
        assert_eq!(UserPos::from_name("動詞ワ行五段"), None);
    }

    #[test]
    fn bounded_and_checked() {
        let mut d = UserDictionary::new();
        assert!(d.add("", "x", UserPos::Noun, "").is_err());
        assert!(d.add("あ", "", UserPos::Noun, "").is_err());
        assert!(d.add(&"あ".repeat(65), "x", UserPos::Noun, "").is_err());
        assert!(d.add("あ", "x\ny", UserPos::Noun, "").is_err());
        assert!(d.add("テスト", "試験", UserPos::Noun, "").unwrap());
        assert_eq!(d.words()[0].reading, "てすと");
        assert!(!d.add("てすと", "試験", UserPos::Noun, "note").unwrap());
        assert_eq!(d.words()[0].comment, "note");
        assert_eq!(d.lookup("てすと"), &[0]);
        assert_eq!(d.remove("てすと", "試験", None), 1);
        assert!(d.is_empty() && d.lookup("てすと").is_empty());
    }
}

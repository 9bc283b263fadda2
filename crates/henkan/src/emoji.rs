//! Emoji by reading (`ねこ` → 🐱, `はーと` → ❤️, `えがお` → 😀), from the Unicode CLDR Japanese
//! annotations; the model's `Emoji` section (built by `henkan model attach emoji`).
//!
//! The IME offers them after a segment's other candidates when the segment's reading is one of
//! an emoji's keywords, as Mozc's emoji rewriter does.
//!
//! Section format (UTF-8 text): a first line `henkan-emoji 1`, then one line per reading,
//! sorted by reading: `reading<TAB>emoji<SPACE>emoji…`.

use crate::error::{Error, Result};
use std::collections::HashMap;

/// The first line of the section.
pub const MAGIC: &str = "henkan-emoji 1";

/// Longest reading kept, in bytes (a keyword line longer than this is malformed).
const MAX_READING_BYTES: usize = 256;

/// Reading → emoji, best first.
#[derive(Debug, Clone, Default)]
pub struct EmojiTable {
    by_reading: HashMap<String, Vec<String>>,
}

impl EmojiTable {
    /// Reads the `Emoji` section; a malformed one is an error, never a panic.
    ///
    /// ```
    /// let t = henkan::emoji::EmojiTable::from_section("henkan-emoji 1\nねこ\t🐱 🐈\n".as_bytes()).unwrap();
    /// assert_eq!(t.get("ねこ"), ["🐱", "🐈"]);
    /// assert!(t.get("いぬ").is_empty());
    /// ```
    pub fn from_section(bytes: &[u8]) -> Result<Self> {
        let bad = |why: &str| Error::Malformed {
            section: "emoji",
            detail: why.to_string(),
        };
        let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(bad("no header"));
        }
        let mut by_reading = HashMap::new();
        for line in lines.filter(|l| !l.is_empty()) {
            let (reading, emoji) = line
                .split_once('\t')
                .ok_or_else(|| bad("a line without a tab"))?;
            if reading.is_empty() || reading.len() > MAX_READING_BYTES {
                return Err(bad("a reading out of bounds"));
            }
            let list: Vec<String> = emoji
                .split(' ')
                .filter(|e| !e.is_empty())
                .map(str::to_string)
                .collect();
            by_reading.insert(reading.to_string(), list);
        }
        Ok(EmojiTable { by_reading })
    }

    /// The emoji of a reading (hiragana), best first; empty when it has none.
    pub fn get(&self, reading: &str) -> &[String] {
        self.by_reading.get(reading).map_or(&[], Vec::as_slice)
    }

    /// Number of readings.
    pub fn len(&self) -> usize {
        self.by_reading.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_reading.is_empty()
    }
}

//! User history (学習): the spellings the user committed, preferred in later conversions.
//!
//! Terms:
//! - *learned reading*: a reading the user committed a word for, with the text written
//!   (`ください` written `下さい`).
//! - *respelled entries*: the kana entries of a learned reading written otherwise (`ください`
//!   when `下さい` was learned, `ダメ` when `だめ` was): a kana entry is the reading itself, so
//!   it is the same word whatever was learned. Every later conversion writes them as learned
//!   ([`History::respelling`]) while their costs and LM probabilities stay what they were: the
//!   learned spelling comes first exactly where the word does, and nothing else changes.
//! - *nudged entries*: the entries written as learned cost one below the cheapest other kanji
//!   spelling of the reading with the same POS ids ([`History::adjustment`]): 京 over 今日,
//!   ください over 下さい, こと over 事. Kanji spellings are not respelled, as they may be other
//!   words (機関 and 期間; こと is 事 or 琴), and the nudge is one a clear context overrules
//!   (a strong preference buries the other word in text by several writers: measured with
//!   `henkan eval conversion --learn`).
//!
//! As in Mozc and MS-IME, the last spelling committed for a reading wins; the history keeps
//! the `capacity` most recently learned readings (50 by default: on the dev sets, many
//! writers with opposite habits, a longer memory carries one writer's choices to the next).

use crate::lexicon::Lexicon;
use std::collections::HashMap;

/// Readings kept by default.
pub const CAPACITY: usize = 50;
/// Shorter readings are not learned: one kana (particles, prefixes, single digits) has too
/// many unrelated spellings for one choice to say anything about the next.
pub const MIN_READING_CHARS: usize = 2;

#[derive(Debug, Clone)]
struct Learned {
    /// The history's version when it was learned last (the oldest is evicted first).
    version: u64,
    /// The entries it respells or whose cost it changes.
    entries: Vec<u32>,
}

/// The learned readings of one user (one IME, one eval run).
#[derive(Debug, Clone)]
pub struct History {
    readings: HashMap<String, Learned>,
    /// Variant entry offset → the learned text it is written as.
    respell: HashMap<u32, String>,
    /// Entry offset → its cost change (an entry belongs to one reading).
    changes: HashMap<u32, i32>,
    capacity: usize,
    /// Bumped on every change (copies of one history compare by it).
    version: u64,
}

impl Default for History {
    fn default() -> Self {
        History::new(CAPACITY)
    }
}

impl History {
    /// An empty history keeping at most `capacity` readings.
    pub fn new(capacity: usize) -> Self {
        History {
            readings: HashMap::new(),
            respell: HashMap::new(),
            changes: HashMap::new(),
            capacity: capacity.max(1),
            version: 0,
        }
    }

    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.readings.clear();
        self.respell.clear();
        self.changes.clear();
        self.version += 1;
    }

    /// A number that changes whenever the history does (a copy keeps it until it changes).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Number of learned readings.
    pub fn len(&self) -> usize {
        self.readings.len()
    }

    /// Whether nothing is learned.
    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    /// The learned text `entry` is written as, when it is a variant of a learned spelling.
    pub fn respelling(&self, entry: u32) -> Option<&str> {
        if self.respell.is_empty() {
            return None;
        }
        self.respell.get(&entry).map(String::as_str)
    }

    /// Every respelled entry with its learned text.
    pub fn respellings(&self) -> &HashMap<u32, String> {
        &self.respell
    }

    /// What the word cost of `entry` changes by (≤ 0: a learned kanji word over its
    /// homophones), else 0.
    pub fn adjustment(&self, entry: u32) -> i32 {
        if self.changes.is_empty() {
            return 0;
        }
        self.changes.get(&entry).copied().unwrap_or(0)
    }

    /// The user committed `text` for `reading` (one word of committed text). Returns whether
    /// the reading was learned: `false` when no entry of `reading` is written `text`, for a
    /// reading shorter than [`MIN_READING_CHARS`], or when nothing would change (one spelling
    /// only; a kanji word already the cheapest of its homophones).
    pub fn learn(&mut self, lexicon: &Lexicon, reading: &str, text: &str) -> bool {
        if reading.chars().count() < MIN_READING_CHARS {
            return false;
        }
        let mut all = Vec::new();
        for e in lexicon.get(reading) {
            let t = lexicon.surface_text(&e.surface, reading);
            let kanji = has_kanji(&t);
            all.push((e.offset, (e.left_id, e.right_id), e.cost, t == text, kanji));
        }
        if !all.iter().any(|a| a.3) {
            return false;
        }
        let mut respell = Vec::new();
        let mut changes = Vec::new();
        for &(offset, pos, cost, same, kanji) in &all {
            if same {
                // one below the cheapest kanji spelling with the same POS ids
                let rival = all
                    .iter()
                    .filter(|c| !c.3 && c.4 && c.1 == pos)
                    .map(|c| c.2)
                    .min();
                if let Some(r) = rival.filter(|r| r - 1 < cost) {
                    changes.push((offset, r - 1 - cost));
                }
            } else if !kanji {
                respell.push(offset);
            }
        }
        if respell.is_empty() && changes.is_empty() {
            return false;
        }
        self.forget(reading);
        self.version += 1;
        let mut entries = Vec::with_capacity(respell.len() + changes.len());
        for offset in respell {
            self.respell.insert(offset, text.to_string());
            entries.push(offset);
        }
        for (offset, change) in changes {
            self.changes.insert(offset, change);
            entries.push(offset);
        }
        self.readings.insert(
            reading.to_string(),
            Learned {
                version: self.version,
                entries,
            },
        );
        if self.readings.len() > self.capacity {
            if let Some(oldest) = self
                .readings
                .iter()
                .min_by_key(|(_, l)| l.version)
                .map(|(r, _)| r.clone())
            {
                self.forget(&oldest);
            }
        }
        true
    }

    fn forget(&mut self, reading: &str) {
        if let Some(old) = self.readings.remove(reading) {
            for offset in old.entries {
                self.respell.remove(&offset);
                self.changes.remove(&offset);
            }
        }
    }
}

/// Whether `s` has a CJK ideograph (or the iteration mark 々).
fn has_kanji(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '々')
    })
}

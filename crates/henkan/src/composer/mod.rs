//! The composer: typed keys → kana, driven by a romaji table, in the manner of Mozc's
//! composer.
//!
//! Terms:
//! - *rule*: one line of the romaji table (`romaji.tsv`): *input* keys, the *output*
//!   they emit and the keys left *pending* afterwards (`kya` → `きゃ`; `tt` → `っ`,
//!   pending `t`; `n` → `ん`). Keys are matched in lower case.
//! - *pending* letters: typed keys that do not yet make a rule (`k`, `ky`), or make a rule
//!   that a longer rule could still extend (`n` before `na`; `ww` before `www`). They
//!   settle when the next key cannot extend them: the longest rule that fits is applied
//!   (`n` then `k` → `ん` and pending `k`), and keys no rule starts with pass through as
//!   they are (kana typed directly, `漢`, an emoji; a stray `k` before `あ`).
//! - *kana*: the settled text. Mostly hiragana, but it holds whatever was settled:
//!   symbols (`ー`, `！`, `１`), kana typed directly, letters that made no rule.
//! - *unit*: the kana one rule (or one passed-through key) produced, with the *raw* keys
//!   that produced it. Backspace removes the last pending letter, else the last kana
//!   character together with its raw keys.
//! - *raw*: the keys as typed (case kept), for the F9/F10 transliterations.
//!
//! The composer offers separate views of the same input: [`Composer::preedit`] (what to
//! show), [`Composer::submission`] (what to commit or convert), [`Composer::query`] (what
//! to predict from) and [`Composer::transliterate`] (F6–F10).
//!
//! ```
//! use henkan::composer::{Composer, Transliteration};
//!
//! let mut composer = Composer::new();
//! composer.insert_str("kyouhan");
//! assert_eq!(composer.kana(), "きょうは");
//! assert_eq!(composer.pending(), "n");
//! assert_eq!(composer.preedit(), "きょうはn");
//! assert_eq!(composer.submission(), "きょうはん");
//! assert_eq!(composer.transliterate(Transliteration::Katakana), "キョウハン");
//! ```

mod kana;
mod table;

pub use kana::{to_full_ascii, to_half_katakana, to_hiragana, to_katakana};

pub(crate) use kana::to_half_ascii;
use table::{Rule, Table};

/// A transliteration of the whole composition (the F6–F10 keys of Japanese IMEs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transliteration {
    /// F6: hiragana (`きょうは`); letters in full width.
    Hiragana,
    /// F7: full-width katakana (`キョウハ`); letters in full width.
    Katakana,
    /// F8: half-width katakana (`ｷｮｳﾊ`); letters in half width.
    HalfKatakana,
    /// F9: the keys as typed, in full width (`ｋｙｏｕｈａ`).
    FullAscii,
    /// F10: the keys as typed, in half width (`kyouha`).
    HalfAscii,
}

/// Where one unit ends in the kana and in the raw keys. A unit starts where the previous
/// one ends (or at 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    kana_end: usize,
    raw_end: usize,
}

/// Romaji → kana composition for one text field.
///
/// Invariant: `raw` is the raw keys of every unit, in order, followed by exactly one raw
/// key per pending letter.
///
/// ```
/// use henkan::composer::Composer;
///
/// let mut composer = Composer::new();
/// composer.insert_str("kky");
/// assert_eq!(composer.preedit(), "っky");
/// composer.backspace();
/// assert_eq!(composer.preedit(), "っk");
/// composer.insert('a');
/// assert_eq!(composer.preedit(), "っか");
/// assert_eq!(composer.raw(), "kka");
/// ```
#[derive(Clone)]
pub struct Composer {
    table: &'static Table,
    kana: String,
    units: Vec<Unit>,
    pending: String,
    raw: String,
}

impl Default for Composer {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Composer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Composer")
            .field("kana", &self.kana)
            .field("pending", &self.pending)
            .field("raw", &self.raw)
            .field("units", &self.units)
            .finish()
    }
}

impl Composer {
    /// An empty composer using the built-in romaji table.
    pub fn new() -> Self {
        Composer {
            table: Table::builtin(),
            kana: String::new(),
            units: Vec::new(),
            pending: String::new(),
            raw: String::new(),
        }
    }

    /// Adds one typed character. ASCII letters count in lower case; characters no rule
    /// starts with (kana, kanji, emoji, control characters) pass through unchanged.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert('K');
    /// composer.insert('a');
    /// composer.insert('ア');
    /// assert_eq!(composer.kana(), "かア");
    /// ```
    pub fn insert(&mut self, c: char) {
        self.raw.push(c);
        self.pending.push(c.to_ascii_lowercase());
        self.settle();
    }

    /// Adds each character of `s` in turn, as [`insert`](Self::insert) does.
    pub fn insert_str(&mut self, s: &str) {
        for c in s.chars() {
            self.insert(c);
        }
    }

    /// Removes the last pending letter if there is one, else the last kana character and
    /// the raw keys that produced it. When the unit had more kana (`きょ` from `kyo`),
    /// what is left is re-spelt by the table (`き`, raw `ki`). Does nothing when empty.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert_str("kyo");
    /// composer.backspace();
    /// assert_eq!((composer.kana(), composer.raw()), ("き", "ki"));
    /// ```
    pub fn backspace(&mut self) {
        if self.pending.pop().is_some() {
            self.raw.pop();
            return;
        }
        let Some(unit) = self.units.pop() else {
            return;
        };
        let (kana_start, raw_start) = self.ends();
        self.kana.pop();
        if self.kana.len() > kana_start {
            let rest = &self.kana[kana_start..];
            let typed = &self.raw[raw_start..unit.raw_end];
            let spelling = self
                .table
                .spelling(rest, typed)
                .unwrap_or_else(|| rest.to_string());
            self.raw.truncate(raw_start);
            self.raw.push_str(&spelling);
            self.units.push(Unit {
                kana_end: self.kana.len(),
                raw_end: self.raw.len(),
            });
        } else {
            self.raw.truncate(raw_start);
        }
    }

    /// Empties the composer.
    pub fn clear(&mut self) {
        self.kana.clear();
        self.units.clear();
        self.pending.clear();
        self.raw.clear();
    }

    /// Whether nothing is composed (no kana, no pending letters).
    pub fn is_empty(&self) -> bool {
        self.kana.is_empty() && self.pending.is_empty()
    }

    /// The settled kana, without the pending letters.
    pub fn kana(&self) -> &str {
        &self.kana
    }

    /// The pending letters, in lower case (`k`, `ky`, `n`).
    pub fn pending(&self) -> &str {
        &self.pending
    }

    /// What to display: the kana followed by the pending letters (`きょうh`).
    pub fn preedit(&self) -> String {
        let mut preedit = String::with_capacity(self.kana.len() + self.pending.len());
        preedit.push_str(&self.kana);
        preedit.push_str(&self.pending);
        preedit
    }

    /// What to commit or convert: the kana, then the pending letters as they are, except
    /// that pending letters which are a complete rule with nothing left pending are settled
    /// by it (a trailing `n` → `ん`). So `kyouh` → `きょうh`, `kan` → `かん`, `ww` → `ww`.
    pub fn submission(&self) -> String {
        let mut submission = self.kana.clone();
        match self.settling_rule() {
            Some(rule) => submission.push_str(&rule.output),
            None => submission.push_str(&self.pending),
        }
        submission
    }

    /// What to predict from: the settled kana without the pending letters, except that a
    /// trailing `n` (pending letters that are a complete rule with nothing left pending)
    /// counts as its output `ん`. So `kyouh` → `きょう`, `kan` → `かん`.
    pub fn query(&self) -> String {
        let mut query = self.kana.clone();
        if let Some(rule) = self.settling_rule() {
            query.push_str(&rule.output);
        }
        query
    }

    /// The keys typed so far, as typed (case kept), less those backspace removed.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The keys typed for the characters `range` of the [`submission`](Self::submission) (one
    /// segment of a conversion), as typed: the raw keys of each unit that starts in the range
    /// and of the pending letters in it. The kana of a unit that began before the range (a
    /// segment boundary inside `きゃ`) are kept as they are. What F9/F10 transliterate when a
    /// conversion has segments (Mozc: the composition's sub-transliterations).
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert_str("KyouHaiin");
    /// assert_eq!(composer.submission(), "きょうはいいん");
    /// assert_eq!(composer.raw_range(0..3), "Kyou");
    /// assert_eq!(composer.raw_range(3..7), "Haiin");
    /// assert_eq!(composer.raw_range(1..3), "ょu");
    /// composer.insert_str("Kk");
    /// assert_eq!(composer.submission(), "きょうはいいんっk");
    /// assert_eq!(composer.raw_range(7..9), "Kk");
    /// ```
    pub fn raw_range(&self, range: std::ops::Range<usize>) -> String {
        let mut out = String::new();
        let (mut kana_start, mut raw_start, mut at) = (0, 0, 0);
        for unit in &self.units {
            let kana = &self.kana[kana_start..unit.kana_end];
            let end = at + kana.chars().count();
            if range.contains(&at) {
                out.push_str(&self.raw[raw_start..unit.raw_end]);
            } else if at < range.start && range.start < end {
                let n = range.end.min(end) - range.start;
                out.extend(kana.chars().skip(range.start - at).take(n));
            }
            (kana_start, raw_start, at) = (unit.kana_end, unit.raw_end, end);
        }
        // The pending letters: one raw key each, or one settled character (`n` → `ん`).
        let pending = &self.raw[raw_start..];
        if self.settling_rule().is_some() {
            if range.contains(&at) {
                out.push_str(pending);
            }
        } else {
            let keys = pending.chars().enumerate();
            out.extend(
                keys.filter(|(i, _)| range.contains(&(at + i)))
                    .map(|(_, c)| c),
            );
        }
        out
    }

    /// The whole composition in another script or width (F6–F10). F6–F8 transliterate the
    /// [`submission`](Self::submission); F9 and F10 the [`raw`](Self::raw) keys.
    ///
    /// ```
    /// use henkan::composer::{Composer, Transliteration::*};
    ///
    /// let mut composer = Composer::new();
    /// composer.insert_str("kyouha");
    /// assert_eq!(composer.transliterate(Hiragana), "きょうは");
    /// assert_eq!(composer.transliterate(Katakana), "キョウハ");
    /// assert_eq!(composer.transliterate(HalfKatakana), "ｷｮｳﾊ");
    /// assert_eq!(composer.transliterate(FullAscii), "ｋｙｏｕｈａ");
    /// assert_eq!(composer.transliterate(HalfAscii), "kyouha");
    /// ```
    pub fn transliterate(&self, t: Transliteration) -> String {
        match t {
            Transliteration::Hiragana => to_full_ascii(&to_hiragana(&self.submission())),
            Transliteration::Katakana => to_full_ascii(&to_katakana(&self.submission())),
            Transliteration::HalfKatakana => to_half_katakana(&self.submission()),
            Transliteration::FullAscii => to_full_ascii(&self.raw),
            Transliteration::HalfAscii => to_half_ascii(&self.raw),
        }
    }

    /// The rule the pending letters spell exactly, if it leaves nothing pending: the rule
    /// that ending the input here would apply (`n` → `ん`). Pending letters that spell a
    /// rule are waiting only because a longer rule could still extend them.
    fn settling_rule(&self) -> Option<&'static Rule> {
        if self.pending.is_empty() {
            return None;
        }
        let table: &'static Table = self.table;
        table
            .probe(&self.pending)
            .exact
            .filter(|rule| rule.pending.is_empty())
    }

    /// Where the last unit ends in the kana and in the raw keys.
    fn ends(&self) -> (usize, usize) {
        self.units
            .last()
            .map_or((0, 0), |unit| (unit.kana_end, unit.raw_end))
    }

    /// Settles the pending letters as far as the table allows. Each round either stops or
    /// removes at least one pending letter, so this ends.
    fn settle(&mut self) {
        let table: &'static Table = self.table;
        while !self.pending.is_empty() {
            let probe = table.probe(&self.pending);
            if probe.longer {
                // A longer rule may still match: wait for the next key.
                return;
            }
            if let Some(rule) = probe.exact {
                self.apply(rule);
                return;
            }
            // No rule starts with all the pending letters: the longest rule that starts
            // them wins (`nk` → `ん` + `k`), else the first letter passes through as is.
            match table.longest_prefix(&self.pending) {
                Some(rule) => self.apply(rule),
                None => self.pass_first(),
            }
        }
    }

    /// Applies `rule`, whose input starts the pending letters: its output becomes a unit
    /// and its pending suffix stays pending.
    fn apply(&mut self, rule: &Rule) {
        let used = rule.input.len() - rule.pending.len();
        let used_chars = self.pending[..used].chars().count();
        let (_, raw_start) = self.ends();
        let raw_used: usize = self.raw[raw_start..]
            .chars()
            .take(used_chars)
            .map(char::len_utf8)
            .sum();
        self.pending.drain(..used);
        // After a digit, `.` `,` `-` belong to the number, in the digits' full width as Mozc
        // types them: 3.14 → ３．１４, 1,000 → １，０００, 090-1234 → ０９０－１２３４ (not the
        // Japanese full stop, comma and long vowel mark of the table).
        let number_form = match &*rule.input {
            "." => Some("．"),
            "," => Some("，"),
            "-" => Some("－"),
            _ => None,
        }
        .filter(|_| {
            let last = self.kana.chars().next_back();
            last.is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
        });
        self.push_unit(number_form.unwrap_or(&rule.output), raw_start + raw_used);
    }

    /// Moves the first pending letter to the kana as it is.
    fn pass_first(&mut self) {
        let Some(first) = self.pending.chars().next() else {
            return;
        };
        let (_, raw_start) = self.ends();
        let raw_used = self.raw[raw_start..]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
        self.pending.drain(..first.len_utf8());
        let mut buf = [0; 4];
        self.push_unit(first.encode_utf8(&mut buf), raw_start + raw_used);
    }

    fn push_unit(&mut self, kana: &str, raw_end: usize) {
        self.kana.push_str(kana);
        self.units.push(Unit {
            kana_end: self.kana.len(),
            raw_end,
        });
    }
}

#[cfg(test)]
mod tests;

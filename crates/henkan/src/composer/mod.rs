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
mod kana_layout;
mod table;

pub use kana::{is_hiragana, is_kana, to_full_ascii, to_half_katakana, to_hiragana, to_katakana};
pub use kana_layout::{is_voiced_mark, jis_kana, join_voiced_marks, unvoiced, voiced};

/// The marks that `,` and `.` type (Mozc's and MS-IME's 句読点 setting): `、` and `。` by
/// default; `，` and `．` as scientific and legal text writes them, or one of each. After a digit
/// they stay the number's `，` `．` whatever the setting (`3.14` → `３．１４`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Punctuation {
    /// What `,` types.
    pub comma: char,
    /// What `.` types.
    pub period: char,
}

impl Default for Punctuation {
    fn default() -> Self {
        Punctuation {
            comma: '、',
            period: '。',
        }
    }
}

impl Punctuation {
    /// The setting written as its two marks: `"、。"`, `"，．"`, `"、．"` or `"，。"`; `None` for
    /// anything else.
    ///
    /// ```
    /// use henkan::composer::{Composer, Punctuation};
    ///
    /// let mut composer = Composer::new();
    /// composer.set_punctuation(Punctuation::parse("，．").unwrap());
    /// composer.insert_str("hai,sou.");
    /// assert_eq!(composer.kana(), "はい，そう．");
    /// assert!(Punctuation::parse(",.").is_none());
    /// ```
    pub fn parse(marks: &str) -> Option<Self> {
        let mut chars = marks.chars();
        let (comma, period) = (chars.next()?, chars.next()?);
        let ok =
            chars.next().is_none() && matches!(comma, '、' | '，') && matches!(period, '。' | '．');
        ok.then_some(Punctuation { comma, period })
    }
}

pub(crate) use kana::to_half_ascii;
use std::sync::Arc;
pub use table::{RomajiTable, MAX_RULE_CHARS, MAX_TABLE_BYTES, MAX_TABLE_RULES};
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

/// The length of one unit in the kana and in the raw keys, in bytes. Units tile the kana
/// and the raw keys in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    kana_len: usize,
    raw_len: usize,
}

/// A caret movement inside the composition (←, →, Home, End).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaretMove {
    /// One unit to the left.
    Left,
    /// One unit to the right.
    Right,
    /// Before the first unit.
    Start,
    /// After the last unit.
    End,
}

/// Romaji → kana composition for one text field, with a caret.
///
/// The *caret* sits between two units (at the end after every key typed at the end). Keys
/// are typed at the caret: the pending letters are always at the caret, and moving the caret
/// settles them first (a lone `n` becomes `ん`, other letters stay letters), as in Mozc.
///
/// Invariant: `units` tile `kana` and `raw`; `caret ≤ units.len()`; one raw key per pending
/// letter in `pending_raw`.
///
/// ```
/// use henkan::composer::{CaretMove, Composer};
///
/// let mut composer = Composer::new();
/// composer.insert_str("kky");
/// assert_eq!(composer.preedit(), "っky");
/// composer.backspace();
/// assert_eq!(composer.preedit(), "っk");
/// composer.insert('a');
/// assert_eq!(composer.preedit(), "っか");
/// assert_eq!(composer.raw(), "kka");
///
/// // A stray letter fixed in place: ← then Backspace deletes the `m`, then `ma` is typed there.
/// composer.clear();
/// composer.insert_str("gozaimsu");
/// assert_eq!(composer.preedit(), "ございmす");
/// composer.move_caret(CaretMove::Left);
/// composer.backspace();
/// composer.insert_str("ma");
/// assert_eq!(composer.preedit(), "ございます");
/// assert_eq!(composer.caret(), 4);
/// ```
#[derive(Clone)]
pub struct Composer {
    table: Arc<Table>,
    kana: String,
    units: Vec<Unit>,
    /// Units before the caret.
    caret: usize,
    pending: String,
    /// The pending letters as typed (case kept).
    pending_raw: String,
    raw: String,
    /// Alphanumeric input: keys pass through as typed (Shift+letter, as Google Japanese
    /// Input does), until [`set_ascii`](Self::set_ascii)`(false)` or [`clear`](Self::clear).
    ascii: bool,
    /// What `,` and `.` type.
    punctuation: Punctuation,
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
            .field("pending_raw", &self.pending_raw)
            .field("units", &self.units)
            .field("caret", &self.caret)
            .field("ascii", &self.ascii)
            .finish()
    }
}

impl Composer {
    /// An empty composer using the built-in romaji table.
    pub fn new() -> Self {
        Composer {
            table: Arc::clone(Table::builtin()),
            kana: String::new(),
            units: Vec::new(),
            caret: 0,
            pending: String::new(),
            pending_raw: String::new(),
            raw: String::new(),
            ascii: false,
            punctuation: Punctuation::default(),
        }
    }

    /// What `,` and `.` type from now on ([`Punctuation`]); kana typed before stay as they are.
    pub fn set_punctuation(&mut self, punctuation: Punctuation) {
        self.punctuation = punctuation;
    }

    /// What `,` and `.` type.
    pub fn punctuation(&self) -> Punctuation {
        self.punctuation
    }

    /// The romaji table from now on ([`RomajiTable`]): kana typed before stay as they are, and
    /// letters still pending settle by the new table as the next keys come.
    pub fn set_table(&mut self, table: RomajiTable) {
        self.table = table.0;
    }

    /// Adds one typed character at the caret. ASCII letters count in lower case; characters
    /// no rule starts with (kana, kanji, emoji, control characters) pass through unchanged,
    /// but a voiced mark after a kana that takes it, which makes one kana with it
    /// ([`Composer::insert_kana`]). In alphanumeric input every character passes through as
    /// typed.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert('K');
    /// composer.insert('a');
    /// composer.insert('ア');
    /// assert_eq!(composer.kana(), "かア");
    /// ```
    pub fn insert(&mut self, c: char) {
        if self.ascii {
            let mut buf = [0; 4];
            let s = c.encode_utf8(&mut buf);
            self.push_unit(s, s);
            return;
        }
        if self.pending.is_empty() && is_voiced_mark(c) {
            // a voiced mark (pasted, or NFD text) after a kana that takes it makes one kana
            let mut buf = [0; 4];
            if self.join_mark(c, c.encode_utf8(&mut buf)) {
                return;
            }
        }
        self.pending_raw.push(c);
        self.pending.push(c.to_ascii_lowercase());
        self.settle();
    }

    /// Adds one kana typed in kana input ([`jis_kana`]) at the caret, with `key`, the character
    /// its key types without the IME (the raw key that F9 and F10 give back: `t` for `か`).
    /// The marks `゛` and `゜` join the kana before the caret when it takes them ([`voiced`]):
    /// `か` then `゛` is one unit `が` of two keys, which Backspace removes whole. `、` and `。`
    /// are the punctuation setting's marks. In alphanumeric input `key` goes in as typed.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// for (kana, key) in [('か', 't'), ('゛', '@'), ('き', 'g')] {
    ///     composer.insert_kana(kana, key);
    /// }
    /// assert_eq!(composer.kana(), "がき");
    /// assert_eq!(composer.raw(), "t@g");
    /// composer.backspace();
    /// composer.backspace();
    /// assert_eq!(composer.kana(), "");
    /// ```
    pub fn insert_kana(&mut self, kana: char, key: char) {
        let mut raw = [0; 4];
        let raw = key.encode_utf8(&mut raw);
        if self.ascii {
            self.push_unit(raw, raw);
            return;
        }
        self.flush_pending();
        if self.join_mark(kana, raw) {
            return;
        }
        let kana = match kana {
            '、' => self.punctuation.comma,
            '。' => self.punctuation.period,
            k => k,
        };
        let mut buf = [0; 4];
        self.push_unit(kana.encode_utf8(&mut buf), raw);
    }

    /// Adds each character of `s` in turn, as [`insert`](Self::insert) does.
    pub fn insert_str(&mut self, s: &str) {
        for c in s.chars() {
            self.insert(c);
        }
    }

    /// Alphanumeric input on or off. On settles the pending letters first; then every key
    /// passes through as typed (`Google`, the `Phone` of `iPhone`), as after a Shift+letter in
    /// Google Japanese Input.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert('i');
    /// composer.set_ascii(true);
    /// composer.insert_str("Phone");
    /// assert_eq!(composer.submission(), "いPhone");
    /// ```
    pub fn set_ascii(&mut self, on: bool) {
        if on && !self.ascii {
            self.flush_pending();
        }
        self.ascii = on;
    }

    /// Whether keys pass through as typed ([`set_ascii`](Self::set_ascii)).
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// Removes the pending letter before the caret if there is one, else the last kana
    /// character before the caret together with the raw keys that produced it. When the unit
    /// had more kana (`きょ` from `kyo`), what is left is re-spelt by the table (`き`, raw
    /// `ki`). Does nothing at the start.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert_str("kyo");
    /// composer.backspace();
    /// assert_eq!(composer.kana(), "き");
    /// assert_eq!(composer.raw(), "ki");
    /// ```
    pub fn backspace(&mut self) {
        if self.pending.pop().is_some() {
            self.pending_raw.pop();
            return;
        }
        if self.caret == 0 {
            return;
        }
        self.caret -= 1;
        if self.cut_unit(self.caret, true) {
            self.caret += 1;
        }
    }

    /// Removes the first kana character after the caret (the Delete key), with the raw keys
    /// of its unit; the rest of a longer unit is re-spelt by the table. Settles the pending
    /// letters first. Does nothing at the end.
    ///
    /// ```
    /// use henkan::composer::{CaretMove, Composer};
    ///
    /// let mut composer = Composer::new();
    /// composer.insert_str("sushi");
    /// composer.move_caret(CaretMove::Start);
    /// composer.delete();
    /// assert_eq!(composer.preedit(), "し");
    /// ```
    pub fn delete(&mut self) {
        self.flush_pending();
        if self.caret >= self.units.len() {
            return;
        }
        self.cut_unit(self.caret, false);
    }

    /// Moves the caret by one unit or to either end, after settling the pending letters.
    pub fn move_caret(&mut self, to: CaretMove) {
        self.flush_pending();
        self.caret = match to {
            CaretMove::Left => self.caret.saturating_sub(1),
            CaretMove::Right => (self.caret + 1).min(self.units.len()),
            CaretMove::Start => 0,
            CaretMove::End => self.units.len(),
        };
    }

    /// Where the caret is in the [`preedit`](Self::preedit), in chars (after the pending
    /// letters).
    pub fn caret(&self) -> usize {
        let (kana, _) = self.offsets(self.caret);
        self.kana[..kana].chars().count() + self.pending.chars().count()
    }

    /// Whether the caret is after the last unit (where keys are typed without a caret move).
    pub fn caret_at_end(&self) -> bool {
        self.caret == self.units.len()
    }

    /// How many settled kana characters lie before the caret (the pending letters are not
    /// among them): how much [`drop_head`](Self::drop_head) can remove.
    pub fn kana_before_caret(&self) -> usize {
        let (kana, _) = self.offsets(self.caret);
        self.kana[..kana].chars().count()
    }

    /// Removes the first `chars` characters of the kana (at most
    /// [`kana_before_caret`](Self::kana_before_caret)) with the raw keys of their units: the
    /// head of a long composition was committed. A unit cut in two (`きゃ` from `kya`, its
    /// `き` committed) keeps the rest of its kana as its keys (`ゃ`), as
    /// [`raw_range`](Self::raw_range) does. The caret stays before the same text.
    ///
    /// ```
    /// let mut composer = henkan::composer::Composer::new();
    /// composer.insert_str("kyoumokyaku");
    /// assert_eq!(composer.kana(), "きょうもきゃく");
    /// composer.drop_head(5);
    /// assert_eq!(composer.kana(), "ゃく");
    /// assert_eq!(composer.raw(), "ゃku");
    /// composer.insert_str("sann");
    /// assert_eq!(composer.preedit(), "ゃくさん");
    /// ```
    pub fn drop_head(&mut self, chars: usize) {
        let mut left = chars;
        let (mut kana_at, mut raw_at, mut units) = (0, 0, 0);
        let mut rest: Option<usize> = None;
        for u in &self.units[..self.caret] {
            if left == 0 {
                break;
            }
            let kana = &self.kana[kana_at..kana_at + u.kana_len];
            match kana.char_indices().nth(left) {
                // the unit is cut: its first `left` characters go
                Some((cut, _)) => {
                    rest = Some(cut);
                    break;
                }
                None => {
                    left -= kana.chars().count();
                    kana_at += u.kana_len;
                    raw_at += u.raw_len;
                    units += 1;
                }
            }
        }
        let Some(cut) = rest else {
            self.kana.drain(..kana_at);
            self.raw.drain(..raw_at);
            self.units.drain(..units);
            self.caret -= units;
            return;
        };
        let unit = self.units[units];
        let kept = self.kana[kana_at + cut..kana_at + unit.kana_len].to_string();
        self.raw.replace_range(..raw_at + unit.raw_len, &kept);
        self.kana.drain(..kana_at + cut);
        self.units.drain(..units);
        self.units[0] = Unit {
            kana_len: kept.len(),
            raw_len: kept.len(),
        };
        self.caret -= units;
    }

    /// Empties the composer (and ends alphanumeric input).
    pub fn clear(&mut self) {
        self.kana.clear();
        self.units.clear();
        self.caret = 0;
        self.pending.clear();
        self.pending_raw.clear();
        self.raw.clear();
        self.ascii = false;
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

    /// What to display: the kana with the pending letters at the caret (`きょうh`).
    pub fn preedit(&self) -> String {
        self.with_at_caret(&self.pending)
    }

    /// What to commit or convert: the kana with the pending letters as they are, except
    /// that pending letters which are a complete rule with nothing left pending are settled
    /// by it (a trailing `n` → `ん`). So `kyouh` → `きょうh`, `kan` → `かん`, `ww` → `ww`.
    pub fn submission(&self) -> String {
        match self.settling_rule() {
            Some(rule) => self.with_at_caret(&rule.output),
            None => self.with_at_caret(&self.pending),
        }
    }

    /// What to predict from: the settled kana without the pending letters, except that a
    /// trailing `n` (pending letters that are a complete rule with nothing left pending)
    /// counts as its output `ん`. So `kyouh` → `きょう`, `kan` → `かん`.
    pub fn query(&self) -> String {
        match self.settling_rule() {
            Some(rule) => self.with_at_caret(&rule.output),
            None => self.kana.clone(),
        }
    }

    /// The keys typed so far, as typed (case kept), less those backspace removed.
    pub fn raw(&self) -> String {
        let (_, at) = self.offsets(self.caret);
        let mut raw = String::with_capacity(self.raw.len() + self.pending_raw.len());
        raw.push_str(&self.raw[..at]);
        raw.push_str(&self.pending_raw);
        raw.push_str(&self.raw[at..]);
        raw
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
        // (kana, raw) pieces in order: the units before the caret, the pending letters (one
        // raw key each, or one settled character: `n` → `ん`), the units after the caret.
        let mut pieces: Vec<(std::borrow::Cow<'_, str>, &str)> = Vec::new();
        let (mut kana_start, mut raw_start) = (0, 0);
        let mut unit_pieces = Vec::with_capacity(self.units.len());
        for unit in &self.units {
            let kana = &self.kana[kana_start..kana_start + unit.kana_len];
            let raw = &self.raw[raw_start..raw_start + unit.raw_len];
            unit_pieces.push((kana, raw));
            kana_start += unit.kana_len;
            raw_start += unit.raw_len;
        }
        for &(kana, raw) in &unit_pieces[..self.caret] {
            pieces.push((kana.into(), raw));
        }
        if let Some(rule) = self.settling_rule() {
            pieces.push((rule.output.to_string().into(), &self.pending_raw));
        } else {
            let mut at = 0;
            for (c, r) in self.pending.chars().zip(self.pending_raw.chars()) {
                let raw = &self.pending_raw[at..at + r.len_utf8()];
                at += r.len_utf8();
                pieces.push((c.to_string().into(), raw));
            }
        }
        for &(kana, raw) in &unit_pieces[self.caret..] {
            pieces.push((kana.into(), raw));
        }
        let mut out = String::new();
        let mut at = 0;
        for (kana, raw) in &pieces {
            let end = at + kana.chars().count();
            if range.contains(&at) {
                out.push_str(raw);
            } else if at < range.start && range.start < end {
                let n = range.end.min(end) - range.start;
                out.extend(kana.chars().skip(range.start - at).take(n));
            }
            at = end;
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
            Transliteration::FullAscii => to_full_ascii(&self.raw()),
            Transliteration::HalfAscii => to_half_ascii(&self.raw()),
        }
    }

    /// The kana with `middle` at the caret.
    fn with_at_caret(&self, middle: &str) -> String {
        let (at, _) = self.offsets(self.caret);
        let mut s = String::with_capacity(self.kana.len() + middle.len());
        s.push_str(&self.kana[..at]);
        s.push_str(middle);
        s.push_str(&self.kana[at..]);
        s
    }

    /// The rule the pending letters spell exactly, if it leaves nothing pending: the rule
    /// that ending the input here would apply (`n` → `ん`). Pending letters that spell a
    /// rule are waiting only because a longer rule could still extend them.
    fn settling_rule(&self) -> Option<&Rule> {
        settling_rule(&self.table, &self.pending)
    }

    /// Where the first `units` units end in the kana and in the raw keys (bytes).
    fn offsets(&self, units: usize) -> (usize, usize) {
        self.units[..units]
            .iter()
            .fold((0, 0), |(k, r), u| (k + u.kana_len, r + u.raw_len))
    }

    /// Settles the pending letters for good (the caret moves, alphanumeric input starts):
    /// a complete rule is applied (`n` → `ん`), other letters stay letters.
    fn flush_pending(&mut self) {
        let table = Arc::clone(&self.table);
        if let Some(rule) = settling_rule(&table, &self.pending) {
            self.apply(rule);
        }
        while !self.pending.is_empty() {
            self.pass_first();
        }
    }

    /// Settles the pending letters as far as the table allows. Each round either stops or
    /// removes at least one pending letter, so this ends.
    /// Joins the voiced mark `mark` to the kana before the caret when that unit is one kana that
    /// takes it ([`voiced`]): `か` then `゛` is one unit `が` whose raw keys are both, which
    /// Backspace removes whole. Whether it joined.
    fn join_mark(&mut self, mark: char, raw: &str) -> bool {
        if self.caret == 0 {
            return false;
        }
        let (k, r) = self.offsets(self.caret - 1);
        let unit = self.units[self.caret - 1];
        let mut before = self.kana[k..k + unit.kana_len].chars();
        let (Some(b), None) = (before.next(), before.next()) else {
            return false;
        };
        let Some(v) = voiced(b, mark) else {
            return false;
        };
        let mut buf = [0; 4];
        let v = v.encode_utf8(&mut buf);
        self.kana.replace_range(k..k + unit.kana_len, v);
        self.raw.insert_str(r + unit.raw_len, raw);
        self.units[self.caret - 1] = Unit {
            kana_len: v.len(),
            raw_len: unit.raw_len + raw.len(),
        };
        true
    }

    fn settle(&mut self) {
        let table = Arc::clone(&self.table);
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
        let raw_used: usize = self
            .pending_raw
            .chars()
            .take(used_chars)
            .map(char::len_utf8)
            .sum();
        self.pending.drain(..used);
        let raw: String = self.pending_raw.drain(..raw_used).collect();
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
            let (at, _) = self.offsets(self.caret);
            let last = self.kana[..at].chars().next_back();
            last.is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
        });
        let mut buf = [0; 4];
        let mark = match &*rule.input {
            "," if &*rule.output == "、" => Some(&*self.punctuation.comma.encode_utf8(&mut buf)),
            "." if &*rule.output == "。" => Some(&*self.punctuation.period.encode_utf8(&mut buf)),
            _ => None,
        };
        self.push_unit(number_form.or(mark).unwrap_or(&rule.output), &raw);
    }

    /// Moves the first pending letter to the kana as it is.
    fn pass_first(&mut self) {
        let Some(first) = self.pending.chars().next() else {
            return;
        };
        self.pending.drain(..first.len_utf8());
        let raw_first = self.pending_raw.chars().next().map_or(0, char::len_utf8);
        let raw: String = self.pending_raw.drain(..raw_first).collect();
        let mut buf = [0; 4];
        self.push_unit(first.encode_utf8(&mut buf), &raw);
    }

    /// A new unit at the caret; the caret moves past it.
    fn push_unit(&mut self, kana: &str, raw: &str) {
        self.insert_unit(self.caret, kana, raw);
        self.caret += 1;
    }

    /// Removes the last (`last`) or first kana character of unit `index` with the unit's raw
    /// keys; what is left of a longer unit (`き` of `きょ`) stays as a unit of its own, re-spelt
    /// by the table (`ki`). Returns whether such a rest was left.
    fn cut_unit(&mut self, index: usize, last: bool) -> bool {
        let (kana_start, raw_start) = self.offsets(index);
        let unit = self.units.remove(index);
        let kana: String = self
            .kana
            .drain(kana_start..kana_start + unit.kana_len)
            .collect();
        let typed: String = self
            .raw
            .drain(raw_start..raw_start + unit.raw_len)
            .collect();
        let mut chars = kana.chars();
        if last {
            chars.next_back();
        } else {
            chars.next();
        }
        let rest = chars.as_str();
        if rest.is_empty() {
            return false;
        }
        let spelling = self
            .table
            .spelling(rest, &typed)
            .unwrap_or_else(|| rest.to_string());
        self.insert_unit(index, rest, &spelling);
        true
    }

    fn insert_unit(&mut self, index: usize, kana: &str, raw: &str) {
        let (k, r) = self.offsets(index);
        self.kana.insert_str(k, kana);
        self.raw.insert_str(r, raw);
        self.units.insert(
            index,
            Unit {
                kana_len: kana.len(),
                raw_len: raw.len(),
            },
        );
    }
}

/// The rule that `pending` spells exactly in `table`, if it leaves nothing pending
/// ([`Composer::settling_rule`]).
fn settling_rule<'t>(table: &'t Table, pending: &str) -> Option<&'t Rule> {
    if pending.is_empty() {
        return None;
    }
    table
        .probe(pending)
        .exact
        .filter(|rule| rule.pending.is_empty())
}

#[cfg(test)]
mod tests;

//! The input method's key state machine: what each key does, MS-IME / Mozc style.
//!
//! Terms:
//! - **direct**: the IME is off; every key goes to the text field unchanged (not *consumed*).
//! - **precomposition**: the IME is on and nothing is being composed.
//! - **composing**: typed romaji/kana are in the composer; the *preedit* (hiragana plus pending
//!   romaji) is shown underlined where the text goes.
//! - **converting**: the preedit has been converted; it is split into *segments* (文節), one of
//!   them *focused*, each with a list of *candidates* and a selected one. The *candidate window*
//!   lists the focused segment's candidates in pages of [`PAGE_SIZE`].
//! - **commit**: text leaves the IME and goes into the field ([`ImeOutput::committed`]).
//! - **suggestions** ([`ImeOutput::completions`]): while composing, *completions* of the kana
//!   (words and short phrases whose reading starts with them); right after a commit, *next-word
//!   predictions*. Both come from the backend ([`Backend::suggest`], the n-gram of
//!   [`crate::predict`]) in the context of the text committed before. They are only offered:
//!   **Tab** (or ↓ while composing) moves the focus into the list (state
//!   [`State::Suggesting`], [`ImeOutput::focused_completion`]), and only then do Enter and 1–9
//!   pick. Unfocused, every key does what it did without them.
//!
//! Keys (see [`Machine::key`] for the whole table):
//!
//! | key | composing | converting |
//! | --- | --- | --- |
//! | letters, kana | into the composer, at its caret | commit, then into the composer |
//! | Shift+letter | alphanumeric input until Space/Enter | commit, then alphanumeric input |
//! | Space / 変換 | convert | next candidate (opens the window) |
//! | Shift+Space | convert | previous candidate |
//! | ↑ / ↓ | ↓: the caret to the end (with suggestions shown: into the list) | previous / next candidate |
//! | Ctrl+↓ | – | commit the segments up to the focused one; the rest stays converted |
//! | Enter | commit the kana | commit the conversion |
//! | Esc | cancel | back to the kana |
//! | Backspace | delete one before the caret | back to the kana |
//! | Delete | delete one after the caret | back to the kana (Mozc's MS-IME keys) |
//! | ← / →, Home / End | move the caret in the kana | move the segment focus |
//! | Shift+← / Shift+→ | – | shrink / grow the focused segment |
//! | 1–9 | (text) | pick from the open window's page |
//! | PageUp / PageDown, Shift+↑ / Shift+↓ | – | page the candidate window |
//! | Tab / Shift+Tab | into the suggestion list (first / last item) | – |
//! | Shift+Enter | commit the first suggestion (the kana without one) | commit the conversion |
//! | Ctrl+Delete | in the suggestion list: forget the focused item from the recent words | – |
//! | ↓ after a commit | into the next-word predictions (Tab: the page's) | – |
//! | F6 F7 F8 | whole input as hiragana / katakana / half-width katakana | the focused segment so |
//! | F9 F10 | whole input as full-width / half-width ASCII (the keys as typed) | the focused segment's keys so |
//! | 無変換 | whole input as katakana (Shift: as F9) | the focused segment: hiragana → katakana → half-width katakana → hiragana (Shift: as F9) |
//! | Ctrl+Space, 半角/全角, Alt+\` | commit, toggle the IME | commit, toggle the IME |
//! | Shift+カタカナひらがな / カタカナひらがな | katakana / hiragana input ([`Mode::Katakana`]) | the same |
//! | Alt+カタカナひらがな | kana input (かな入力) or romaji input ([`Machine::set_kana_input`]) | the same |
//! | 無変換 before anything is composed | hiragana ↔ katakana input (Mozc's InputModeSwitchKanaType) | – |
//! | Ctrl+Shift+Space before anything is composed | an ideographic space, whatever Space types | – |
//!
//! In kana input each key of the JIS kana layout types its kana ([`Machine::kana_key`]; `゛`
//! and `゜` join the kana before them, `か` `゛` → `が`); F9 and F10 give back the keys as they
//! type without the IME, and a digit key picks from the open window by its digit.
//!
//! MS-IME's Ctrl keys stand for some of these while composing or converting (Mozc's MS-IME
//! keymap; `ms_ime_alias`): Ctrl+U / I / O / P / T are F6–F10, Ctrl+M Enter, and so on.
//!
//! In precomposition Space inserts an ideographic space (U+3000), Shift+Space a plain one (not
//! consumed); the other way round with [`Machine::set_half_width_space`]. Other keys with
//! Ctrl/Alt/Meta than those of the table are never consumed outside a composition (so copy,
//! paste, undo behave natively) and are swallowed inside one (so they cannot edit around the
//! preedit).
//!
//! With the suggestion list shown but not focused, after a commit (precomposition): ↓ enters
//! it, Esc hides it; every other key hides it and does what it does without it (Enter,
//! Backspace, arrows stay the field's). With the focus in the list (Suggesting): ↑ / ↓, Tab /
//! Shift+Tab and Space move the focus (wrapping), Enter or 1–9 pick (the pick replaces the
//! composition and is committed; then the next words are predicted), Esc and ← / → leave the
//! list, Backspace leaves it and deletes as in composing, another character commits the
//! focused suggestion and starts a new composition (as after a conversion). While composing,
//! Space converts as before.
//!
//! The machine is generic over a [`Backend`] (the composer and converter); [`Ime`] runs it over
//! a [`Session`] and an [`Engine`], and the tests run it over a small fake.

pub mod key;

pub use key::{Key, KeyEvent, ALT, CTRL, META, SHIFT};

use crate::composer::{
    is_hiragana, to_full_ascii, to_half_ascii, to_half_katakana, to_hiragana, to_katakana,
    CaretMove, Transliteration,
};
use crate::decoder::neural::Scoring;
use crate::predict::suggest::{Suggester, MAX_SUGGESTIONS};
use crate::session::Conversion;
use crate::{Engine, Session};
use serde::Serialize;

/// Candidates per page of the candidate window (picked with 1–9).
pub const PAGE_SIZE: usize = 9;

/// Whether the IME converts typed keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// Off: keys go to the field unchanged.
    Direct,
    /// On: romaji become hiragana and can be converted.
    Hiragana,
    /// On, katakana input (MS-IME's 全角カタカナ mode, for a フリガナ field): the composition is
    /// shown and committed in katakana; Space converts it as in hiragana.
    Katakana,
}

/// Where the state machine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum State {
    /// The IME is off.
    Direct,
    /// The IME is on, nothing is composed.
    Precomposition,
    /// Kana are being composed.
    Composing,
    /// The composition has been converted into segments.
    Converting,
    /// The focus is in the suggestion list; the preedit shows the focused suggestion.
    Suggesting,
}

/// One range of the preedit, in UTF-16 code units of [`Preedit::text`] (JavaScript string indices).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreeditSegment {
    /// First code unit.
    pub start: usize,
    /// One past the last code unit.
    pub end: usize,
    /// The focused segment (highlighted) while converting.
    pub focused: bool,
    /// True once converted (segments of a conversion), false for raw kana.
    pub converted: bool,
}

/// The uncommitted text to show at the caret.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preedit {
    /// The text (kana while composing, the selected candidates while converting).
    pub text: String,
    /// Its segments (one while composing).
    pub segments: Vec<PreeditSegment>,
    /// The caret, in UTF-16 code units.
    pub cursor: usize,
}

/// The focused segment's candidates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateList {
    /// All candidates, best first.
    pub items: Vec<String>,
    /// The form annotation of each item (`[全]カタカナ`, `[半]数字`, `[環境依存]`, …;
    /// empty: none), as the candidate window shows it beside the item
    /// ([`crate::annotation`]).
    pub annotations: Vec<String>,
    /// The selected one.
    pub selected: usize,
    /// Candidates per page; the page shown is the one holding `selected`.
    pub page_size: usize,
    /// Whether the candidate window is open (after the second Space, ↑/↓ or paging).
    pub open: bool,
    /// Index of the segment these belong to.
    pub segment: usize,
}

/// A segment of the current conversion, for display (the demo's segment view).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentView {
    /// Its kana reading.
    pub reading: String,
    /// Its selected (or best) surface.
    pub surface: String,
}

/// Everything the text field needs after one key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImeOutput {
    /// The IME used the key: the field must not see it.
    pub consumed: bool,
    /// Text to insert into the field (before the preedit), often empty.
    pub committed: String,
    /// The kana reading of what `committed` holds of conversions and kana (empty for a picked
    /// suggestion or a space): what a form's フリガナ field takes from a name typed here.
    pub committed_reading: String,
    /// The uncommitted text.
    pub preedit: Preedit,
    /// Index of the focused segment while converting.
    pub focused: Option<usize>,
    /// The focused segment's candidates while converting.
    pub candidates: Option<CandidateList>,
    /// The suggestion list: completions of the composition while composing, next-word
    /// predictions right after a commit; empty when there are none (or they are off).
    pub completions: Vec<String>,
    /// The focused suggestion (state [`State::Suggesting`]).
    pub focused_completion: Option<usize>,
    /// Whole-input conversions, best first (while composing, of the live conversion).
    pub nbest: Vec<String>,
    /// The segments of the current (or live) conversion.
    pub segments: Vec<SegmentView>,
    /// On or off.
    pub mode: Mode,
    /// Kana input (かな入力, [`Machine::set_kana_input`]) rather than romaji input.
    pub kana_input: bool,
    /// The state after the key.
    pub state: State,
    /// The key's character was refused: the composition holds [`MAX_COMPOSITION_CHARS`] and
    /// the caret is at its start, so no head could be committed to make room (the widget shows
    /// it). Typing with the caret further on commits the head instead.
    pub refused: bool,
}

/// What the state machine needs of the composer and converter.
pub trait Backend {
    /// Types one character into the composer.
    fn insert(&mut self, c: char);
    /// Types one kana in kana input, with the character its key types without the IME
    /// ([`crate::composer::Composer::insert_kana`]).
    fn insert_kana(&mut self, kana: char, key: char);
    /// Deletes the composed unit (or pending letter) before the caret.
    fn backspace(&mut self);
    /// Deletes the kana after the caret (the Delete key).
    fn delete(&mut self);
    /// Moves the caret inside the composition.
    fn move_caret(&mut self, to: CaretMove);
    /// Where the caret is in the [`preedit`](Self::preedit), in chars.
    fn caret(&self) -> usize;
    /// Alphanumeric input (keys pass through as typed) on or off.
    fn set_ascii(&mut self, on: bool);
    /// Whether keys pass through as typed.
    fn ascii(&self) -> bool;
    /// How many characters at the start of the composition are settled kana before the
    /// caret: what [`drop_head`](Self::drop_head) can remove.
    fn kana_before_caret(&self) -> usize;
    /// The first `chars` characters of the composition (at most
    /// [`kana_before_caret`](Self::kana_before_caret)) were committed: they leave the
    /// composer, the rest stays.
    fn drop_head(&mut self, chars: usize);
    /// Empties the composer.
    fn clear(&mut self);
    /// True when nothing is composed.
    fn is_empty(&self) -> bool;
    /// What to show while composing (kana plus pending romaji).
    fn preedit(&self) -> String;
    /// What Enter commits and what is converted (pending romaji resolved, e.g. a final `n`).
    fn submission(&self) -> String;
    /// The whole input in another script (F6–F10).
    fn transliterate(&self, t: Transliteration) -> String;
    /// The keys typed for the characters `range` of the submission (a segment's reading), as
    /// typed: what F9/F10 write for the focused segment.
    fn raw_keys(&self, range: std::ops::Range<usize>) -> String;
    /// Converts the submission; the leading segments have the reading lengths in `fixed`.
    fn convert(&mut self, fixed: &[usize]) -> Conversion;
    /// [`convert`](Self::convert) with the segments after the fixed ones converted cheaply,
    /// by the dictionary alone, where the backend leaves the LM's work for later
    /// ([`catch_up`](Self::catch_up)): what a resize shows at once. `None`: `convert` is as
    /// quick. Default: none.
    fn convert_quick(&mut self, _fixed: &[usize]) -> Option<Conversion> {
        None
    }
    /// The best conversion of the composition as it stands, cheaply (live conversion), or
    /// `None` when there is none to show (the caret inside the kana, no model). Default: none.
    fn live_text(&mut self) -> Option<String> {
        None
    }
    /// What suggestions are computed for (the composer's prediction query); the list is
    /// computed again only when it changes.
    fn query(&self) -> String {
        self.submission()
    }
    /// At most `limit` suggestions, best first: completions of the composition, or next-word
    /// predictions when nothing is composed, in the context of what was committed before.
    /// Default: none.
    fn suggest(&mut self, _limit: usize) -> Vec<String> {
        Vec::new()
    }
    /// Suggestion `index` of the last [`suggest`](Self::suggest) list was committed.
    fn accept_suggestion(&mut self, _index: usize) {}
    /// The user deleted suggestion `index` of the last [`suggest`](Self::suggest) list
    /// (Ctrl+Delete on it): what the user's own commits added to it is forgotten. Returns
    /// whether there was any (the list is computed again). Default: none.
    fn forget_suggestion(&mut self, _index: usize) -> bool {
        false
    }
    /// These pieces (reading, surface) of the composition are being committed (the segments
    /// of a conversion, or the kana); called before the composer is cleared. `shown` are the
    /// pieces the conversion first showed for the same reading (the engine's own choice; the
    /// kana when the kana are committed unconverted, nothing after F6–F10 on the whole input):
    /// where they differ, the user corrected the engine.
    fn committed(&mut self, _pieces: &[(&str, &str)], _shown: &[(&str, &str)]) {}
    /// Text the backend cannot analyze was committed (a full-width space).
    fn committed_other(&mut self) {}
    /// Runs the work keys left for later (the LM's forward pass, [`Session::settle_lm`]).
    /// Returns whether there was any. Default: none.
    fn catch_up(&mut self) -> bool {
        false
    }
    /// After [`catch_up`](Self::catch_up): the last [`suggest`](Self::suggest) list as it is
    /// once what it had to wait for is known, when it had to (`None`: it is final). Default:
    /// none.
    fn settled_suggestions(&mut self) -> Option<Vec<String>> {
        None
    }
    /// The context of what was committed before is gone (the caret moved, the focus left,
    /// a new line began).
    fn reset_context(&mut self) {}
}

/// The [`Backend`] methods that only read a session's composer, the same for every backend
/// over a [`Session`] (`self.session`).
macro_rules! composer_views {
    () => {
        fn caret(&self) -> usize {
            self.session.composer().caret()
        }
        fn ascii(&self) -> bool {
            self.session.composer().ascii()
        }
        fn kana_before_caret(&self) -> usize {
            self.session.composer().kana_before_caret()
        }
        fn is_empty(&self) -> bool {
            self.session.composer().is_empty()
        }
        fn preedit(&self) -> String {
            self.session.composer().preedit()
        }
        fn submission(&self) -> String {
            self.session.composer().submission()
        }
        fn transliterate(&self, t: Transliteration) -> String {
            self.session.composer().transliterate(t)
        }
        fn raw_keys(&self, range: std::ops::Range<usize>) -> String {
            self.session.composer().raw_range(range)
        }
    };
}

/// A [`Session`] with the [`Engine`] it runs on, as a [`Backend`].
pub struct SessionBackend<'a> {
    /// The per-field session.
    pub session: &'a mut Session,
    /// The field's predictions (context and list).
    pub suggester: &'a mut Suggester,
    /// The loaded model.
    pub engine: &'a Engine,
}

impl SessionBackend<'_> {
    /// Emoji by reading after a segment's other candidates (Mozc's emoji rewriter).
    fn with_emoji(&self, mut conversion: Conversion) -> Conversion {
        if let Some(emoji) = &self.engine.emoji {
            for seg in &mut conversion.segments {
                for e in emoji.get(&seg.reading) {
                    if !seg.candidates.contains(e) {
                        seg.candidates.push(e.clone());
                    }
                }
            }
        }
        conversion
    }
}

impl Backend for SessionBackend<'_> {
    composer_views!();
    fn insert(&mut self, c: char) {
        self.session.insert(self.engine, c);
    }
    fn insert_kana(&mut self, kana: char, key: char) {
        self.session.insert_kana(self.engine, kana, key);
    }
    fn backspace(&mut self) {
        self.session.backspace(self.engine);
    }
    fn delete(&mut self) {
        self.session.delete(self.engine);
    }
    fn move_caret(&mut self, to: CaretMove) {
        self.session.move_caret(self.engine, to);
    }
    fn drop_head(&mut self, chars: usize) {
        self.session.drop_head(self.engine, chars);
    }
    fn set_ascii(&mut self, on: bool) {
        if self.session.composer().ascii() != on {
            self.session.set_ascii(self.engine, on);
        }
    }
    fn clear(&mut self) {
        self.session.clear();
    }
    fn convert(&mut self, fixed: &[usize]) -> Conversion {
        let conversion = if fixed.is_empty() {
            self.session.convert(self.engine)
        } else {
            self.session.convert_with_fixed(self.engine, fixed)
        };
        self.with_emoji(conversion)
    }
    fn convert_quick(&mut self, fixed: &[usize]) -> Option<Conversion> {
        let lm = self.engine.neural.is_some() && self.session.scoring() != Scoring::Classic;
        if !lm || !self.session.lm_deferred() || fixed.is_empty() {
            return None;
        }
        let conversion = self.session.convert_with_fixed_quick(self.engine, fixed);
        Some(self.with_emoji(conversion))
    }
    fn query(&self) -> String {
        self.session.composer().query()
    }
    fn live_text(&mut self) -> Option<String> {
        let composer = self.session.composer();
        if !composer.caret_at_end() {
            return None;
        }
        let pending = composer.pending().to_string();
        self.session.settle_lm(self.engine);
        Some(self.session.best_text(self.engine) + &pending)
    }
    fn suggest(&mut self, limit: usize) -> Vec<String> {
        let composer = self.session.composer();
        let (query, best, kana) = if composer.is_empty() {
            (String::new(), String::new(), String::new())
        } else {
            // What Space and Enter give is not worth a suggestion; the best conversion may
            // wait for the LM (then `settled_suggestions` leaves it out).
            let best = if self.session.lm_pending() {
                String::new()
            } else {
                self.session.best_text(self.engine)
            };
            (composer.query(), best, composer.submission())
        };
        let provisional = !kana.is_empty() && best.is_empty();
        let exclude: Vec<&str> = [best.as_str(), kana.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        let asked = if provisional { limit + 1 } else { limit };
        let mut list: Vec<String> = self
            .suggester
            .suggest_with(
                self.engine,
                self.session.user_dictionary(),
                &query,
                &exclude,
                asked,
            )
            .iter()
            .map(|s| s.surface.clone())
            .collect();
        if provisional {
            self.suggester.set_provisional(Some(limit));
            list.truncate(limit);
        }
        list
    }
    fn settled_suggestions(&mut self) -> Option<Vec<String>> {
        if !self.suggester.is_provisional() {
            return None;
        }
        self.session.settle_lm(self.engine);
        let best = self.session.best_text(self.engine);
        let list = self.suggester.settle(&best)?;
        Some(list.iter().map(|s| s.surface.clone()).collect())
    }
    fn accept_suggestion(&mut self, index: usize) {
        match self.suggester.accept(self.engine, index) {
            // the pick goes on with the sentence, as a conversion committed there would
            Some(s) => self
                .session
                .continue_sentence_with(self.engine, &s.reading, &s.surface),
            None => self.session.end_sentence(),
        }
    }
    fn forget_suggestion(&mut self, index: usize) -> bool {
        self.suggester.forget(index)
    }
    fn committed(&mut self, pieces: &[(&str, &str)], shown: &[(&str, &str)]) {
        self.suggester
            .commit_text(self.engine, self.session.lattice(), pieces);
        self.session.remember_spellings(self.engine, pieces);
        self.session.learn_commit(self.engine, pieces, shown);
        self.session.continue_sentence(self.engine, pieces);
    }
    fn committed_other(&mut self) {
        self.suggester.commit_unknown(self.engine);
        self.session.end_sentence();
    }
    fn catch_up(&mut self) -> bool {
        self.session.settle_lm(self.engine)
    }
    fn reset_context(&mut self) {
        self.suggester.reset();
        self.session.end_sentence();
    }
}

/// A session's composer alone, as a [`Backend`]: keys typed before the model has arrived are
/// composed (romaji → kana needs no model), and Space offers the kana, katakana and the keys as
/// typed. Nothing is learned or predicted.
pub struct ComposerBackend<'a> {
    /// The per-field session (only its composer is used).
    pub session: &'a mut Session,
}

impl Backend for ComposerBackend<'_> {
    composer_views!();
    fn insert(&mut self, c: char) {
        self.session.composer_mut().insert(c);
    }
    fn insert_kana(&mut self, kana: char, key: char) {
        self.session.composer_mut().insert_kana(kana, key);
    }
    fn backspace(&mut self) {
        self.session.composer_mut().backspace();
    }
    fn delete(&mut self) {
        self.session.composer_mut().delete();
    }
    fn move_caret(&mut self, to: CaretMove) {
        self.session.composer_mut().move_caret(to);
    }
    fn drop_head(&mut self, chars: usize) {
        self.session.composer_mut().drop_head(chars);
    }
    fn set_ascii(&mut self, on: bool) {
        self.session.composer_mut().set_ascii(on);
    }
    fn clear(&mut self) {
        self.session.clear();
    }
    fn convert(&mut self, fixed: &[usize]) -> Conversion {
        let composer = self.session.composer();
        let reading = composer.submission();
        let chars: Vec<char> = reading.chars().collect();
        let mut cuts: Vec<usize> = fixed.to_vec();
        let fixed_len: usize = fixed.iter().sum();
        if fixed_len < chars.len() {
            cuts.push(chars.len() - fixed_len);
        }
        let mut segments = Vec::new();
        let mut start = 0;
        for len in cuts.into_iter().filter(|&l| l > 0) {
            let end = (start + len).min(chars.len());
            let seg: String = chars[start..end].iter().collect();
            let mut candidates = vec![seg.clone()];
            for c in [
                to_katakana(&seg),
                to_full_ascii(&composer.raw_range(start..end)),
            ] {
                if !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
            segments.push(crate::session::Segment {
                reading: seg,
                start,
                len: end - start,
                candidates,
            });
            start = end;
        }
        Conversion {
            nbest: vec![reading.clone()],
            reading,
            segments,
        }
    }
}

/// One segment while converting.
#[derive(Debug, Clone)]
struct Seg {
    reading: String,
    /// Reading length in chars.
    len: usize,
    candidates: Vec<String>,
    selected: usize,
}

impl Seg {
    fn surface(&self) -> &str {
        self.candidates
            .get(self.selected)
            .map(String::as_str)
            .unwrap_or(&self.reading)
    }

    /// Selects `text`, adding it to the candidates if it is not one.
    fn select_text(&mut self, text: String) {
        match self.candidates.iter().position(|c| *c == text) {
            Some(i) => self.selected = i,
            None => {
                self.candidates.push(text);
                self.selected = self.candidates.len() - 1;
            }
        }
    }
}

/// The conversion state.
#[derive(Debug, Clone)]
struct Converting {
    segs: Vec<Seg>,
    focus: usize,
    window: bool,
    nbest: Vec<String>,
    /// The (reading, first candidate) of the segments as first converted: what the engine
    /// chose before the user changed anything (learning compares the commit with it).
    shown: Vec<(String, String)>,
    /// After a resize whose rest was converted quickly ([`Backend::convert_quick`]): the fixed
    /// segments' lengths, for the LM's conversion of the rest ([`Machine::catch_up`], or the
    /// next key first).
    quick: Option<Vec<usize>>,
}

impl Converting {
    /// Takes `next`, the conversion after a resize of the focused segment (or its rest
    /// converted again): the segments before the focused one keep their choices where their
    /// readings are the same, the focus stays, and what the engine first showed is kept.
    fn renew(&mut self, mut next: Converting) {
        let i = self.focus;
        for (old, new) in self.segs[..i].iter().zip(next.segs.iter_mut()) {
            if old.reading == new.reading {
                new.select_text(old.surface().to_string());
            }
        }
        next.focus = i.min(next.segs.len() - 1);
        next.shown = std::mem::take(&mut self.shown);
        *self = next;
    }

    /// Puts written text first in the segments it spells: `pieces` are the (written text,
    /// reading) of the words of the reading converted, and a segment whose reading starts and
    /// ends at their boundaries takes their text there as its first candidate; segments that
    /// split a word are joined into one first (their own text its second candidate). Text of
    /// hiragana alone (left unconverted, which reconversion is to convert) is left to the
    /// engine. What the engine shows first (`shown`, the learning's reference) is then that text.
    fn show_first(&mut self, pieces: &[(String, String)]) {
        // Hiragana alone are there to be converted (text typed and left unconverted).
        let hiragana = pieces.iter().all(|(t, _)| t.chars().all(is_hiragana));
        if hiragana || !self.spells(pieces) {
            return;
        }
        // reading offset (chars) → written offset (chars), at each word boundary
        let mut at = vec![(0usize, 0usize)];
        let (mut r, mut w) = (0, 0);
        for (written, reading) in pieces {
            r += reading.chars().count();
            w += written.chars().count();
            at.push((r, w));
        }
        let written: Vec<char> = pieces.iter().flat_map(|(t, _)| t.chars()).collect();
        let to_written = |r: usize| at.iter().find(|&&(x, _)| x == r).map(|&(_, w)| w);
        // Segments grouped until a group ends at a word boundary (it starts at one): a group of
        // several (a word the conversion splits, `モールデン` → `モール`|`電`) becomes one segment.
        let mut segs: Vec<Seg> = Vec::with_capacity(self.segs.len());
        let (mut start, mut group): (usize, Vec<Seg>) = (0, Vec::new());
        for seg in std::mem::take(&mut self.segs) {
            group.push(seg);
            let end = start + group.iter().map(|s| s.len).sum::<usize>();
            let (Some(a), Some(z)) = (to_written(start), to_written(end)) else {
                continue;
            };
            let text: String = written[a..z].iter().collect();
            let mut seg = if group.len() == 1 {
                group.remove(0)
            } else {
                let surface: String = group.iter().map(|s| s.surface()).collect();
                Seg {
                    reading: group.iter().map(|s| s.reading.as_str()).collect(),
                    len: end - start,
                    candidates: vec![surface],
                    selected: 0,
                }
            };
            group.clear();
            seg.candidates.retain(|c| *c != text);
            seg.candidates.insert(0, text);
            seg.selected = 0;
            segs.push(seg);
            start = end;
        }
        // (the last group always ends at the last boundary: the readings are the same)
        segs.append(&mut group);
        self.segs = segs;
        self.focus = 0;
        let text = self.text();
        if self.nbest.first() != Some(&text) {
            self.nbest.retain(|t| *t != text);
            self.nbest.insert(0, text);
        }
        self.shown = self
            .segs
            .iter()
            .map(|s| (s.reading.clone(), s.surface().to_string()))
            .collect();
    }

    /// Whether the segments' readings make up the pieces' readings, char for char.
    fn spells(&self, pieces: &[(String, String)]) -> bool {
        let segs = self.segs.iter().flat_map(|s| s.reading.chars());
        segs.eq(pieces.iter().flat_map(|(_, r)| r.chars()))
    }

    fn from_conversion(c: Conversion) -> Option<Self> {
        if c.segments.is_empty() {
            return None;
        }
        let segs: Vec<Seg> = c
            .segments
            .into_iter()
            .map(|s| {
                let mut candidates = s.candidates;
                if candidates.is_empty() {
                    candidates.push(s.reading.clone());
                }
                Seg {
                    len: s.reading.chars().count(),
                    reading: s.reading,
                    candidates,
                    selected: 0,
                }
            })
            .collect();
        let shown = segs
            .iter()
            .map(|s| (s.reading.clone(), s.surface().to_string()))
            .collect();
        Some(Converting {
            segs,
            focus: 0,
            window: false,
            nbest: c.nbest,
            shown,
            quick: None,
        })
    }

    fn text(&self) -> String {
        self.segs.iter().map(Seg::surface).collect()
    }

    fn focused(&mut self) -> &mut Seg {
        &mut self.segs[self.focus]
    }

    /// F6–F10 on the focused segment only, as Mozc does (F9/F10: the keys typed for it).
    fn transliterate_focused<B: Backend + ?Sized>(&mut self, b: &B, n: u8) {
        let start: usize = self.segs[..self.focus].iter().map(|s| s.len).sum();
        let seg = self.focused();
        let text = match n {
            6 => to_hiragana(&seg.reading),
            7 => to_katakana(&seg.reading),
            8 => to_half_katakana(&seg.reading),
            9 => to_full_ascii(&b.raw_keys(start..start + seg.len)),
            _ => to_half_ascii(&b.raw_keys(start..start + seg.len)),
        };
        seg.select_text(text);
        self.window = false;
    }

    /// 無変換 on the focused segment (Mozc's SwitchKanaType): its hiragana becomes katakana
    /// (F7), its katakana half-width katakana (F8), anything else hiragana (F6): `漢字` →
    /// `かんじ` → `カンジ` → `ｶﾝｼﾞ` → `かんじ`.
    fn next_kana_type(&self) -> u8 {
        let seg = &self.segs[self.focus];
        let text = &seg.candidates[seg.selected];
        if *text == to_hiragana(&seg.reading) {
            7
        } else if *text == to_katakana(&seg.reading) {
            8
        } else {
            6
        }
    }

    fn step_candidate(&mut self, forward: bool) {
        self.window = true;
        let seg = self.focused();
        let n = seg.candidates.len();
        seg.selected = if forward {
            (seg.selected + 1) % n
        } else {
            (seg.selected + n - 1) % n
        };
    }

    fn page(&mut self, forward: bool) {
        self.window = true;
        let seg = self.focused();
        let n = seg.candidates.len();
        let page_start = seg.selected / PAGE_SIZE * PAGE_SIZE;
        seg.selected = if forward {
            if page_start + PAGE_SIZE < n {
                page_start + PAGE_SIZE
            } else {
                0
            }
        } else if page_start >= PAGE_SIZE {
            page_start - PAGE_SIZE
        } else {
            (n - 1) / PAGE_SIZE * PAGE_SIZE
        };
    }
}

/// The suggestion list as shown.
#[derive(Debug, Clone, Default)]
struct Suggestions {
    /// The items (empty: no list).
    items: Vec<String>,
    /// The query they complete; `None` for next-word predictions (or no list).
    query: Option<String>,
    /// The focused item (state [`State::Suggesting`]).
    focus: Option<usize>,
}

/// The key state machine, over any [`Backend`].
#[derive(Debug, Clone)]
pub struct Machine {
    enabled: bool,
    live: bool,
    /// The preedit shows the best conversion while composing ([`Machine::set_live_conversion`]).
    live_conversion: bool,
    predictions: bool,
    /// Katakana input ([`Mode::Katakana`], [`Machine::set_katakana`]).
    katakana: bool,
    /// Kana input ([`Machine::set_kana_input`]).
    kana_input: bool,
    /// Space types a plain space outside a composition ([`Machine::set_half_width_space`]).
    half_width_space: bool,
    conv: Option<Converting>,
    sugg: Suggestions,
    /// A commit just happened that next-word predictions should follow.
    predict_next: bool,
    /// What was committed lately, newest last: reconverting such text reads it back exactly.
    recent: Vec<Commit>,
    /// The readings of this key's commits ([`ImeOutput::committed_reading`]).
    commit_reading: String,
    /// The key's character was refused: the composition is full and nothing before the caret
    /// could be committed ([`ImeOutput::refused`]).
    refused: bool,
}

/// The longest composition, in characters of the preedit, as in Mozc (`kMaxPreeditLength`,
/// 256): a character typed into a full composition first commits its head
/// ([`Machine::key`]). Equal to [`crate::MAX_PIECE_CHARS`], so that every conversion of a
/// composition is one piece.
pub const MAX_COMPOSITION_CHARS: usize = crate::session::MAX_PIECE_CHARS;
/// What stays composed (at least) when the head of a full composition is committed, in
/// characters: the sentence being typed goes on in the composition.
pub const KEPT_TAIL_CHARS: usize = 32;

/// Commits remembered for reconversion.
const RECENT_COMMITS: usize = 64;

/// One commit, remembered for reconversion ([`Machine::reconvert`]).
#[derive(Clone, Debug)]
struct Commit {
    /// The text committed.
    text: String,
    /// Its reading, as typed.
    reading: String,
    /// The (written text, reading) of its segments, where it was committed from a conversion:
    /// reconverting it shows them first without reading the text back. Empty for kana
    /// committed as typed or as live conversion showed it (one piece, no segments).
    pieces: Vec<(String, String)>,
}

/// The longest text reconverted, in chars (a longer selection is left to the field).
pub const MAX_RECONVERT_CHARS: usize = 100;

impl Default for Machine {
    fn default() -> Self {
        Machine {
            enabled: true,
            live: true,
            live_conversion: false,
            predictions: true,
            katakana: false,
            kana_input: false,
            half_width_space: false,
            conv: None,
            sugg: Suggestions::default(),
            predict_next: false,
            recent: Vec::new(),
            commit_reading: String::new(),
            refused: false,
        }
    }
}

/// MS-IME's Ctrl keys (Mozc's MS-IME keymap) as the keys they stand for, while composing or
/// converting (`converting`); any other key as it is. Both: Ctrl+U / I / O / P / T are F6–F10
/// (hiragana, katakana, half width, full-width and half-width letters), Ctrl+M and Ctrl+Enter
/// Enter. Composing: Ctrl+A / E / ↑ / ← to the start, Ctrl+F / X / N / ↓ / → to the end,
/// Ctrl+K / S ←, Ctrl+L / D →, Ctrl+H and Ctrl+Backspace Backspace, Ctrl+G Delete.
/// Converting: Ctrl+A / ← the first segment, Ctrl+F / → the last, Ctrl+S / D the segment to the
/// left / right, Ctrl+K / L shrink / grow it, Ctrl+E / ↑ / X the previous / next candidate, Ctrl+N
/// Ctrl+↓ (commit up to the focused segment), Ctrl+H / G / Backspace Esc. Not Mozc's Ctrl+Z
/// (cancel): a Ctrl+Z out of habit (the undo of what was typed before) would throw the
/// composition away; it stays swallowed. (A browser keeps some for itself: Chromium gives a page
/// no Ctrl+N or Ctrl+T.)
fn ms_ime_alias(ev: KeyEvent, converting: bool) -> KeyEvent {
    if !ev.ctrl || ev.shift || ev.alt || ev.meta {
        return ev;
    }
    let plain = |key| KeyEvent::plain(key);
    let transliterate = |n| Some(plain(Key::F(n)));
    // (Caps Lock gives Ctrl+A as `A`.)
    let key = match ev.key {
        Key::Char(c) => Key::Char(c.to_ascii_lowercase()),
        key => key,
    };
    let alias = match (key, converting) {
        (Key::Char('u'), _) => transliterate(6),
        (Key::Char('i'), _) => transliterate(7),
        (Key::Char('o'), _) => transliterate(8),
        (Key::Char('p'), _) => transliterate(9),
        (Key::Char('t'), _) => transliterate(10),
        (Key::Char('m') | Key::Enter, _) => Some(plain(Key::Enter)),
        (Key::Char('a' | 'e') | Key::Up | Key::Left, false) => Some(plain(Key::Home)),
        (Key::Char('f' | 'x' | 'n') | Key::Down | Key::Right, false) => Some(plain(Key::End)),
        (Key::Char('k' | 's'), false) => Some(plain(Key::Left)),
        (Key::Char('l' | 'd'), false) => Some(plain(Key::Right)),
        (Key::Char('h') | Key::Backspace, false) => Some(plain(Key::Backspace)),
        (Key::Char('g'), false) => Some(plain(Key::Delete)),
        (Key::Char('a') | Key::Left, true) => Some(plain(Key::Home)),
        (Key::Char('f') | Key::Right, true) => Some(plain(Key::End)),
        (Key::Char('s'), true) => Some(plain(Key::Left)),
        (Key::Char('d'), true) => Some(plain(Key::Right)),
        (Key::Char('k'), true) => Some(KeyEvent {
            shift: true,
            ..plain(Key::Left)
        }),
        (Key::Char('l'), true) => Some(KeyEvent {
            shift: true,
            ..plain(Key::Right)
        }),
        (Key::Char('e') | Key::Up, true) => Some(plain(Key::Up)),
        (Key::Char('x'), true) => Some(plain(Key::Down)),
        (Key::Char('n'), true) => Some(KeyEvent {
            ctrl: true,
            ..plain(Key::Down)
        }),
        (Key::Char('h' | 'g') | Key::Backspace, true) => Some(plain(Key::Escape)),
        _ => None,
    };
    alias.unwrap_or(ev)
}

/// The (written text, reading) of converted segments, as [`Commit::pieces`] keeps them.
fn segment_pieces(segs: &[Seg]) -> Vec<(String, String)> {
    segs.iter()
        .map(|s| (s.surface().to_string(), s.reading.clone()))
        .collect()
}

fn is_toggle(ev: &KeyEvent) -> bool {
    match ev.key {
        Key::Space => ev.ctrl && !ev.shift && !ev.alt && !ev.meta,
        Key::ZenkakuHankaku => !ev.has_command_modifier(),
        Key::Char('`') => ev.alt && !ev.ctrl && !ev.meta,
        _ => false,
    }
}

/// Types `c` into the composer. A Shift+letter starts alphanumeric input, which lasts until
/// the composition is converted or committed (Google Japanese Input): `Google` stays
/// `Google`, `iPhone` is `いPhone`, not `いp骨`. Caps Lock letters (no Shift) are romaji.
fn type_char<B: Backend + ?Sized>(b: &mut B, c: char, shift: bool) {
    if shift && c.is_ascii_uppercase() && !b.ascii() {
        b.set_ascii(true);
    }
    b.insert(c);
}

/// Whether a key types text: a character (not a control character) or a kana of kana input.
fn types_text(key: Key) -> bool {
    match key {
        Key::Char(c) => !c.is_control(),
        Key::Kana(..) => true,
        _ => false,
    }
}

/// Types the text of a key that [`types_text`]: a character as [`type_char`] does, a kana of
/// kana input with its raw key (Shift types the layout's second kana, never letters).
fn type_key<B: Backend + ?Sized>(b: &mut B, ev: KeyEvent) {
    match ev.key {
        Key::Kana(kana, key) => b.insert_kana(kana, key),
        Key::Char(c) => type_char(b, c, ev.shift),
        _ => {}
    }
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

impl Machine {
    /// A machine with the IME on and live conversion while composing.
    pub fn new() -> Self {
        Machine::default()
    }

    /// Whether the IME is on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Live conversion: while composing, every key also converts the preedit, so the output
    /// carries the n-best list and segments (the demo shows them). On by default.
    pub fn set_live(&mut self, live: bool) {
        self.live = live;
    }

    /// Live conversion as macOS and Windows 11 IMEs have it: while composing, the preedit shows
    /// the best conversion of what is typed (pending romaji at its end), and Enter (or a blur)
    /// commits what is shown; Space opens the conversion as usual. Off by default. The best
    /// conversion comes from the forward pass each key runs anyway ([`Backend::live_text`]).
    pub fn set_live_conversion(&mut self, on: bool) {
        self.live_conversion = on;
    }

    /// Suggestions (completions and next-word predictions) on or off; on by default (a backend
    /// without a model for them offers none). Off hides the list.
    pub fn set_predictions(&mut self, on: bool) {
        self.predictions = on;
        if !on {
            self.sugg = Suggestions::default();
            self.predict_next = false;
        }
    }

    /// Whether suggestions are on.
    pub fn predictions(&self) -> bool {
        self.predictions
    }

    /// Katakana input on or off ([`Mode::Katakana`]): MS-IME's 全角カタカナ mode, for a field
    /// that asks for katakana (フリガナ). The composition is shown and committed in katakana, not
    /// learned, and offers no suggestions; Space converts it as usual. Shift+カタカナひらがな
    /// (or the `Katakana` key) turns it on, カタカナひらがな alone off, as in MS-IME.
    pub fn set_katakana(&mut self, on: bool) {
        self.katakana = on;
    }

    /// Whether katakana input is on.
    pub fn katakana(&self) -> bool {
        self.katakana
    }

    /// Kana input (かな入力) on or off: each key of the JIS kana layout types its kana
    /// ([`crate::composer::jis_kana`], [`Machine::kana_key`]) instead of a romaji letter, as the
    /// desktop IMEs' kana input does. Alt+カタカナひらがな turns it on and off, as in MS-IME.
    /// Off by default.
    pub fn set_kana_input(&mut self, on: bool) {
        self.kana_input = on;
    }

    /// Whether kana input is on.
    pub fn kana_input(&self) -> bool {
        self.kana_input
    }

    /// What Space types outside a composition (Mozc's and MS-IME's スペースの入力 setting): an
    /// ideographic space (U+3000, the IME's) by default and with Shift a plain one (the field's);
    /// on, the plain space without Shift and the ideographic one with Shift.
    pub fn set_half_width_space(&mut self, on: bool) {
        self.half_width_space = on;
    }

    /// The key event as kana input types it: with kana input on, a key of one character
    /// without Ctrl, Alt or Meta whose place on the keyboard (`code`, the DOM's
    /// `KeyboardEvent.code`) is a key of the JIS kana layout is [`Key::Kana`], with the
    /// character it types without the IME as its raw key; any other event is left as it is
    /// (the number pad types digits, Ctrl+C copies).
    ///
    /// ```
    /// use henkan::ime::{Key, KeyEvent, Machine, SHIFT};
    /// let mut m = Machine::new();
    /// let t = KeyEvent::from_dom("t", 0);
    /// assert_eq!(m.kana_key(t, "KeyT"), t);
    /// m.set_kana_input(true);
    /// assert_eq!(m.kana_key(t, "KeyT").key, Key::Kana('か', 't'));
    /// assert_eq!(m.kana_key(KeyEvent::from_dom(")", SHIFT), "Digit0").key, Key::Kana('を', ')'));
    /// assert_eq!(m.kana_key(KeyEvent::from_dom("1", 0), "Numpad1").key, Key::Char('1'));
    /// ```
    pub fn kana_key(&self, ev: KeyEvent, code: &str) -> KeyEvent {
        match ev.key {
            Key::Char(c) if self.kana_input && !ev.has_command_modifier() => {
                match crate::composer::jis_kana(code, ev.shift) {
                    Some(kana) => KeyEvent {
                        key: Key::Kana(kana, c),
                        ..ev
                    },
                    None => ev,
                }
            }
            _ => ev,
        }
    }

    /// The state (given the backend's composer).
    pub fn state<B: Backend + ?Sized>(&self, b: &B) -> State {
        if !self.enabled {
            State::Direct
        } else if self.conv.is_some() {
            State::Converting
        } else if self.sugg.focus.is_some() {
            State::Suggesting
        } else if b.is_empty() {
            State::Precomposition
        } else {
            State::Composing
        }
    }

    /// Handles one key; see the module docs for the key table.
    pub fn key<B: Backend + ?Sized>(&mut self, b: &mut B, ev: KeyEvent) -> ImeOutput {
        // a key after a quick resize acts on the LM's conversion, unless it resizes again
        let resize = self.conv.is_some() && ev.shift && matches!(ev.key, Key::Left | Key::Right);
        if !resize {
            self.settle_rest(b);
        }
        let mut committed = String::new();
        let consumed = self.handle(b, ev, &mut committed);
        self.refresh_suggestions(b);
        self.output(b, consumed, committed)
    }

    /// Selects candidate `index` of the focused segment (a click in the candidate window) and
    /// closes the window; outside the conversion state, picks suggestion `index` (a click in the
    /// suggestion list: it is committed). Does nothing past the list.
    pub fn select_candidate<B: Backend + ?Sized>(&mut self, b: &mut B, index: usize) -> ImeOutput {
        self.settle_rest(b);
        let mut consumed = false;
        let mut committed = String::new();
        if let Some(conv) = &mut self.conv {
            let seg = conv.focused();
            if index < seg.candidates.len() {
                seg.selected = index;
                conv.window = false;
                consumed = true;
            }
        } else if self.enabled && index < self.sugg.items.len() {
            consumed = self.pick(b, index, &mut committed);
            self.refresh_suggestions(b);
        }
        self.output(b, consumed, committed)
    }

    /// Runs the work the last keys left for later ([`Backend::catch_up`]: the LM's forward pass,
    /// which the browser runs once the key's preedit is on screen). Returns the new state when
    /// what is shown changed (the suggestions listed while the best conversion was not known
    /// yet held it: what Space gives is no suggestion; the rest after a resize, converted
    /// quickly by the dictionary, now by the LM), else `None`.
    pub fn catch_up<B: Backend + ?Sized>(&mut self, b: &mut B) -> Option<ImeOutput> {
        if self.settle_rest(b) {
            return Some(self.output(b, false, String::new()));
        }
        if !b.catch_up() || self.sugg.focus.is_some() || self.conv.is_some() {
            return None;
        }
        let items = b.settled_suggestions()?;
        if items == self.sugg.items {
            return None;
        }
        self.sugg.items = items;
        Some(self.output(b, false, String::new()))
    }

    /// The current state with the live conversion of the composition (n-best and segments), whatever
    /// [`set_live`](Self::set_live) says: for a view that updates when typing pauses, so that
    /// keys stay cheap. Changes nothing.
    pub fn preview<B: Backend + ?Sized>(&mut self, b: &mut B) -> ImeOutput {
        let live = std::mem::replace(&mut self.live, true);
        let out = self.output(b, false, String::new());
        self.live = live;
        out
    }

    /// Commits whatever is composed or converted (the field lost focus, the user clicked
    /// elsewhere in it). The IME stays on.
    pub fn flush<B: Backend + ?Sized>(&mut self, b: &mut B) -> ImeOutput {
        self.settle_rest(b);
        let mut committed = String::new();
        self.commit_all(b, &mut committed);
        self.forget(b);
        self.output(b, false, committed)
    }

    /// Turns the IME on or off; turning it off commits the composition.
    pub fn set_enabled<B: Backend + ?Sized>(&mut self, b: &mut B, on: bool) -> ImeOutput {
        self.settle_rest(b);
        let mut committed = String::new();
        if !on {
            self.commit_all(b, &mut committed);
            self.forget(b);
        }
        self.enabled = on;
        self.output(b, false, committed)
    }

    /// Drops the composition (and the suggestions) without committing it.
    pub fn cancel<B: Backend + ?Sized>(&mut self, b: &mut B) {
        self.conv = None;
        b.clear();
        self.forget(b);
    }

    /// Commits what is shown: the conversion, the focused suggestion, or the kana. The backend
    /// hears what was committed (the context of the next predictions).
    fn commit_all<B: Backend + ?Sized>(&mut self, b: &mut B, out: &mut String) {
        if let Some(conv) = self.conv.take() {
            let text = conv.text();
            let pieces: Vec<(&str, &str)> = conv
                .segs
                .iter()
                .map(|s| (s.reading.as_str(), s.surface()))
                .collect();
            let shown: Vec<(&str, &str)> = conv
                .shown
                .iter()
                .map(|(r, s)| (r.as_str(), s.as_str()))
                .collect();
            b.committed(&pieces, &shown);
            self.remember(text.clone(), segment_pieces(&conv.segs));
            out.push_str(&text);
        } else if let Some(i) = self.sugg.focus {
            self.pick(b, i, out);
            return;
        } else if !b.is_empty() {
            let kana = b.submission();
            let text = if self.katakana {
                to_katakana(&kana)
            } else {
                // With live conversion, what is shown goes in (as shown: nothing to learn).
                self.live_conversion
                    .then(|| b.live_text())
                    .flatten()
                    .unwrap_or_else(|| kana.clone())
            };
            if self.katakana {
                // Katakana input: nothing to learn, and the reading's other spellings keep their
                // places (a フリガナ field's ヤマダ is no choice of spelling for やまだ).
                b.committed_other();
            } else {
                b.committed(&[(&kana, &text)], &[(&kana, &text)]);
            }
            self.remember_typed(&text, kana);
            out.push_str(&text);
        }
        b.clear();
    }

    /// Commits the segments from the first to the focused one (MS-IME's 部分確定, Ctrl+↓; Mozc's
    /// CommitHeadToFocusedSegments): their text goes into the field, and the rest stays
    /// converted as it was shown, the focus on its first segment. With the focus on the last
    /// segment, everything is committed, as by Enter. What is learned compares the committed
    /// segments with what the engine first showed over their reading, where its segments end
    /// at the same place; else nothing is learned of them (a resize made the cut).
    fn commit_to_focus<B: Backend + ?Sized>(&mut self, b: &mut B, out: &mut String) {
        let Some(conv) = self.conv.as_mut() else {
            return;
        };
        if conv.focus + 1 >= conv.segs.len() {
            self.commit_all(b, out);
            self.predict_next = true;
            return;
        }
        let head: Vec<Seg> = conv.segs.drain(..=conv.focus).collect();
        let cut: usize = head.iter().map(|s| s.len).sum();
        let pieces: Vec<(&str, &str)> = head
            .iter()
            .map(|s| (s.reading.as_str(), s.surface()))
            .collect();
        // The first shown segments when they end at the cut.
        let mut end = 0;
        let shown_head = conv
            .shown
            .iter()
            .position(|(r, _)| {
                end += r.chars().count();
                end >= cut
            })
            .filter(|_| end == cut)
            .map(|i| i + 1);
        let shown_owned: Vec<(String, String)> = match shown_head {
            Some(n) => conv.shown.drain(..n).collect(),
            None => {
                // The rest is compared with itself as it is shown now.
                conv.shown = conv
                    .segs
                    .iter()
                    .map(|s| (s.reading.clone(), s.surface().to_string()))
                    .collect();
                Vec::new()
            }
        };
        let shown: Vec<(&str, &str)> = match shown_head {
            Some(_) => shown_owned
                .iter()
                .map(|(r, t)| (r.as_str(), t.as_str()))
                .collect(),
            None => pieces.clone(),
        };
        b.committed(&pieces, &shown);
        conv.focus = 0;
        conv.window = false;
        conv.quick = None;
        conv.nbest = vec![conv.text()];
        let text: String = head.iter().map(Seg::surface).collect();
        self.remember(text.clone(), segment_pieces(&head));
        out.push_str(&text);
        b.drop_head(cut);
    }

    /// Commits the head of a full composition: the leading segments of its conversion that
    /// end before the caret and at least [`KEPT_TAIL_CHARS`] before the end (where none does,
    /// the characters up to there as one segment). The committed text goes into the field
    /// before the preedit, as any commit; the rest stays composed, so nothing typed is lost.
    /// False when nothing is before the caret.
    fn commit_head<B: Backend + ?Sized>(&mut self, b: &mut B, out: &mut String) -> bool {
        let len = b.submission().chars().count();
        let bound = b
            .kana_before_caret()
            .min(len.saturating_sub(KEPT_TAIL_CHARS));
        if bound == 0 {
            return false;
        }
        let first = |s: &crate::session::Segment| {
            let text = s.candidates.first().unwrap_or(&s.reading);
            (s.reading.clone(), text.clone())
        };
        let mut head: Vec<(String, String)> = b
            .convert(&[])
            .segments
            .iter()
            .take_while(|s| s.start + s.len <= bound)
            .map(first)
            .collect();
        if head.is_empty() {
            head.extend(b.convert(&[bound]).segments.first().map(first));
        }
        let cut: usize = head.iter().map(|(r, _)| r.chars().count()).sum();
        if cut == 0 || cut > bound {
            return false;
        }
        let pieces: Vec<(&str, &str)> =
            head.iter().map(|(r, t)| (r.as_str(), t.as_str())).collect();
        // What the engine chose is committed as it is: accepted, nothing corrected.
        b.committed(&pieces, &pieces);
        let text: String = head.iter().map(|(_, t)| t.as_str()).collect();
        let pieces = head.into_iter().map(|(r, t)| (t, r)).collect();
        self.remember(text.clone(), pieces);
        out.push_str(&text);
        b.drop_head(cut);
        true
    }

    /// Remembers a commit of converted segments, `pieces` their (written text, reading), for
    /// reconversion.
    fn remember(&mut self, text: String, pieces: Vec<(String, String)>) {
        let reading: String = pieces.iter().map(|(_, r)| r.as_str()).collect();
        self.push_commit(Commit {
            text,
            reading,
            pieces,
        });
    }

    /// Remembers a commit of kana as typed (or as live conversion showed it) for reconversion.
    fn remember_typed(&mut self, text: &str, reading: String) {
        self.push_commit(Commit {
            text: text.to_string(),
            reading,
            pieces: Vec::new(),
        });
    }

    fn push_commit(&mut self, commit: Commit) {
        if self.recent.len() == RECENT_COMMITS {
            self.recent.remove(0);
        }
        self.commit_reading.push_str(&commit.reading);
        self.recent.push(commit);
    }

    /// The (written text, reading) of the segments of `text` where recent commits of converted
    /// segments wrote it, one commit or several in a row (the newest such run).
    fn recent_pieces(&self, text: &str) -> Option<Vec<(String, String)>> {
        for end in (0..self.recent.len()).rev() {
            let mut rest = text;
            for start in (0..=end).rev() {
                let c = &self.recent[start];
                if c.pieces.is_empty() || c.text.is_empty() {
                    break;
                }
                let Some(before) = rest.strip_suffix(c.text.as_str()) else {
                    break;
                };
                rest = before;
                if rest.is_empty() {
                    let run = &self.recent[start..=end];
                    return Some(run.iter().flat_map(|c| c.pieces.clone()).collect());
                }
            }
        }
        None
    }

    /// Reconversion (Mozc's 再変換): `text`, selected in the field, is converted again — its
    /// reading (that of a recent commit of the same text, else `guess`'s, the (written text,
    /// reading) of each of its words) is composed and converted, and the commit replaces the
    /// selection. Only from precomposition. A recent commit of converted segments (or several
    /// in a row that wrote the text) is not guessed at all: it is converted cut into its
    /// segments again, which are the pieces, so that undoing a commit with Ctrl+Backspace
    /// brings back the conversion as it was (as Mozc's undo does) and does not wait for the
    /// guess (which reads the whole lexicon the first time).
    ///
    /// The conversion shows the text as it was, as MS-IME's reconversion does: each segment
    /// whose reading begins and ends where a piece (a word of `guess`) does has that text as its
    /// first candidate (the engine's own choice next, for Space; segments that split a word
    /// joined), so that 変換 then Enter changes nothing; text of hiragana alone is converted. The
    /// engine's choice differs from the text in one phrase of seven (BENCHMARKS.md,
    /// "Reconversion").
    pub fn reconvert<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        text: &str,
        guess: &dyn Fn(&str) -> Vec<(String, String)>,
    ) -> ImeOutput {
        let len = text.chars().count();
        if !self.enabled
            || self.conv.is_some()
            || !b.is_empty()
            || len == 0
            || len > MAX_RECONVERT_CHARS
        {
            return self.output(b, false, String::new());
        }
        // A recent commit is read back as it was typed, cut and shown as it was committed (its
        // segments' lengths fixed, as Mozc's and MS-IME's undo bring back the conversion), and
        // so is text that commits in a row wrote (the clause before the caret, committed
        // phrase by phrase): the guess (which reads the lexicon once per page) is left for
        // text from elsewhere.
        let latest = self.recent.iter().rev().find(|c| c.text == text);
        let committed = match latest {
            Some(c) if c.pieces.is_empty() => None,
            _ => self.recent_pieces(text),
        };
        let (reading, pieces, fixed) = if let Some(pieces) = committed {
            let reading: String = pieces.iter().map(|(_, r)| r.as_str()).collect();
            let fixed = pieces.iter().map(|(_, r)| r.chars().count()).collect();
            (reading, pieces, fixed)
        } else {
            match latest {
                Some(c) if c.text.chars().all(is_hiragana) => {
                    (c.reading.clone(), Vec::new(), Vec::new())
                }
                Some(c) => {
                    let pieces = guess(text);
                    let guessed: String = pieces.iter().map(|(_, r)| r.as_str()).collect();
                    let pieces = if guessed == c.reading {
                        pieces
                    } else {
                        Vec::new()
                    };
                    (c.reading.clone(), pieces, Vec::new())
                }
                None => {
                    let pieces = guess(text);
                    let reading = pieces.iter().map(|(_, r)| r.as_str()).collect();
                    (reading, pieces, Vec::new())
                }
            }
        };
        self.sugg = Suggestions::default();
        self.predict_next = false;
        b.clear();
        for c in reading.chars() {
            b.set_ascii(c.is_ascii_graphic());
            b.insert(c);
        }
        b.set_ascii(false);
        self.conv = Converting::from_conversion(b.convert(&fixed));
        if let Some(conv) = self.conv.as_mut() {
            if !pieces.is_empty() {
                conv.show_first(&pieces);
            }
        }
        self.output(b, true, String::new())
    }

    /// Commits suggestion `index` in place of the composition; next words follow.
    fn pick<B: Backend + ?Sized>(&mut self, b: &mut B, index: usize, out: &mut String) -> bool {
        let Some(text) = self.sugg.items.get(index).cloned() else {
            return false;
        };
        out.push_str(&text);
        b.accept_suggestion(index);
        b.clear();
        self.conv = None;
        self.sugg = Suggestions::default();
        self.predict_next = true;
        true
    }

    /// The caret or the focus moved: no list, no context.
    fn forget<B: Backend + ?Sized>(&mut self, b: &mut B) {
        self.sugg = Suggestions::default();
        self.predict_next = false;
        b.reset_context();
    }

    /// After a key: the completions of the composition (computed again when its query
    /// changed), next-word predictions after a commit, nothing while converting.
    fn refresh_suggestions<B: Backend + ?Sized>(&mut self, b: &mut B) {
        if !self.enabled || !self.predictions || self.katakana || self.conv.is_some() {
            self.sugg = Suggestions::default();
            self.predict_next = false;
            return;
        }
        if self.sugg.focus.is_some() {
            return;
        }
        if !b.is_empty() {
            self.predict_next = false;
            let query = b.query();
            if self.sugg.query.as_deref() != Some(query.as_str()) {
                self.sugg.items = if query.is_empty() {
                    Vec::new()
                } else {
                    b.suggest(MAX_SUGGESTIONS)
                };
                self.sugg.query = Some(query);
            }
        } else if std::mem::take(&mut self.predict_next) {
            self.sugg.items = b.suggest(MAX_SUGGESTIONS);
            self.sugg.query = None;
        } else if self.sugg.query.is_some() {
            // The composition ended without a commit (Esc, Backspace).
            self.sugg = Suggestions::default();
        }
    }

    fn handle<B: Backend + ?Sized>(&mut self, b: &mut B, ev: KeyEvent, out: &mut String) -> bool {
        if is_toggle(&ev) {
            self.commit_all(b, out);
            self.forget(b);
            self.enabled = !self.enabled;
            return true;
        }
        match ev.key {
            // MS-IME's Alt+カタカナひらがな: kana input or romaji input
            Key::ImeOn if ev.alt && !ev.ctrl && !ev.meta => {
                self.kana_input = !self.kana_input;
                return true;
            }
            Key::ImeOn | Key::KatakanaMode if !ev.has_command_modifier() => {
                let katakana = ev.key == Key::KatakanaMode || ev.shift;
                let was = (self.enabled, self.katakana);
                self.enabled = true;
                self.katakana = katakana;
                return was != (true, katakana);
            }
            Key::ImeOff if !ev.has_command_modifier() => {
                let was = self.enabled;
                self.commit_all(b, out);
                self.forget(b);
                self.enabled = false;
                return was;
            }
            _ => {}
        }
        if !self.enabled {
            return false;
        }
        let ev = if self.conv.is_some() {
            ms_ime_alias(ev, true)
        } else if self.sugg.focus.is_none() && !b.is_empty() {
            ms_ime_alias(ev, false)
        } else {
            ev
        };
        if self.conv.is_some() {
            self.key_converting(b, ev, out)
        } else if self.sugg.focus.is_some() {
            self.key_suggesting(b, ev, out)
        } else if b.is_empty() {
            self.key_precomposition(b, ev, out)
        } else {
            self.key_composing(b, ev, out)
        }
    }

    fn key_precomposition<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        ev: KeyEvent,
        out: &mut String,
    ) -> bool {
        let listed = !self.sugg.items.is_empty();
        match ev.key {
            // A lone modifier (Shift before Shift+Tab) changes nothing.
            Key::Other => false,
            // Mozc's InsertFullSpace: the ideographic space whatever Space types
            Key::Space if ev.ctrl && ev.shift && !ev.alt && !ev.meta => {
                out.push('\u{3000}');
                self.sugg = Suggestions::default();
                b.committed_other();
                true
            }
            _ if ev.has_command_modifier() => {
                // Undo, paste…: what was committed before may be gone.
                self.forget(b);
                false
            }
            _ if types_text(ev.key) => {
                self.sugg = Suggestions::default();
                type_key(b, ev);
                true
            }
            Key::Space if ev.shift == self.half_width_space => {
                out.push('\u{3000}');
                self.sugg = Suggestions::default();
                b.committed_other();
                true
            }
            // Mozc's InputModeSwitchKanaType: hiragana input ↔ katakana input (there is no
            // half-width katakana input); with Shift the field's (Mozc's alphanumeric mode)
            Key::NonConvert if !ev.shift => {
                self.katakana = !self.katakana;
                self.sugg = Suggestions::default();
                true
            }
            // After a commit the list is only offered: ↓ enters it (a web combobox's key), and
            // Tab stays the page's (focus moves on; the list goes with the blur).
            Key::Down if listed => {
                self.sugg.focus = Some(0);
                true
            }
            Key::Escape if listed => {
                self.sugg = Suggestions::default();
                true
            }
            // Enter (a new line), Backspace, arrows…: the field's, and the context is gone.
            _ => {
                self.forget(b);
                false
            }
        }
    }

    fn key_suggesting<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        ev: KeyEvent,
        out: &mut String,
    ) -> bool {
        let n = self.sugg.items.len();
        if ev.has_command_modifier() {
            let delete = ev.key == Key::Delete && ev.ctrl && !ev.alt && !ev.meta;
            if let Some(i) = self.sugg.focus.filter(|&i| delete && i < n) {
                // Mozc's DeleteSelectedCandidate: the focused item leaves the user's history;
                // the list is computed again, the focus kept at its place.
                if b.forget_suggestion(i) {
                    self.sugg.items = b.suggest(MAX_SUGGESTIONS);
                    let len = self.sugg.items.len();
                    self.sugg.focus = (len > 0).then(|| i.min(len - 1));
                }
            }
            return true;
        }
        let Some(i) = self.sugg.focus.filter(|&i| i < n) else {
            self.sugg.focus = None;
            return false;
        };
        let next = (i + 1) % n;
        let prev = (i + n - 1) % n;
        match ev.key {
            Key::Down => self.sugg.focus = Some(next),
            Key::Up => self.sugg.focus = Some(prev),
            Key::Tab => self.sugg.focus = Some(if ev.shift { prev } else { next }),
            Key::Space | Key::Convert if b.is_empty() => {
                self.sugg.focus = Some(if ev.shift { prev } else { next })
            }
            Key::Space | Key::Convert => {
                self.sugg.focus = None;
                self.start_conversion(b);
            }
            Key::Enter => {
                self.pick(b, i, out);
            }
            Key::Char(d @ '1'..='9') | Key::Kana(_, d @ '1'..='9') if !ev.shift => {
                let k = d as usize - '1' as usize;
                if k < n {
                    self.pick(b, k, out);
                }
            }
            Key::Escape | Key::Left | Key::Right | Key::Home | Key::End => self.sugg.focus = None,
            Key::Backspace => {
                self.sugg.focus = None;
                if !b.is_empty() {
                    b.backspace();
                }
            }
            _ if types_text(ev.key) => {
                self.pick(b, i, out);
                type_key(b, ev);
            }
            Key::F(n @ 6..=10) => {
                self.sugg.focus = None;
                if !b.is_empty() {
                    self.transliterate_all(b, n);
                }
            }
            Key::NonConvert => {
                self.sugg.focus = None;
                if !b.is_empty() {
                    self.transliterate_all(b, if ev.shift { 9 } else { 7 });
                }
            }
            Key::F(_) | Key::Other => return false,
            _ => {}
        }
        true
    }

    fn key_composing<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        ev: KeyEvent,
        out: &mut String,
    ) -> bool {
        if ev.has_command_modifier() {
            return true;
        }
        match ev.key {
            _ if types_text(ev.key) => {
                let full = b.preedit().chars().count() >= MAX_COMPOSITION_CHARS;
                // With the caret at the start nothing can be committed before it: the
                // character is refused (consumed, nothing typed) rather than typed past the
                // limit.
                if !full || self.commit_head(b, out) {
                    type_key(b, ev);
                } else {
                    self.refused = true;
                }
            }
            Key::Space | Key::Convert => self.start_conversion(b),
            Key::Tab if !self.sugg.items.is_empty() => {
                self.sugg.focus = Some(if ev.shift {
                    self.sugg.items.len() - 1
                } else {
                    0
                });
            }
            Key::Down if !self.sugg.items.is_empty() => self.sugg.focus = Some(0),
            // Mozc's MS-IME keys: ↓ without suggestions takes the caret to the end
            Key::Down => b.move_caret(CaretMove::End),
            // Mozc's CommitFirstSuggestion: the first completion goes in without entering the list.
            Key::Enter if ev.shift && !self.sugg.items.is_empty() => {
                self.pick(b, 0, out);
            }
            Key::Enter => {
                self.commit_all(b, out);
                self.predict_next = true;
            }
            Key::Escape => b.clear(),
            Key::Backspace => b.backspace(),
            Key::Delete => b.delete(),
            Key::Left => b.move_caret(CaretMove::Left),
            Key::Right => b.move_caret(CaretMove::Right),
            Key::Home => b.move_caret(CaretMove::Start),
            Key::End => b.move_caret(CaretMove::End),
            Key::F(n @ 6..=10) => self.transliterate_all(b, n),
            // 無変換 (Mozc's SwitchKanaType): the whole input as katakana, one segment; with
            // Shift as full-width letters (F9)
            Key::NonConvert => self.transliterate_all(b, if ev.shift { 9 } else { 7 }),
            Key::F(_) | Key::Other => return false,
            // ↑, PageUp…: nothing to do inside a composition, and not the field's.
            _ => {}
        }
        true
    }

    fn key_converting<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        ev: KeyEvent,
        out: &mut String,
    ) -> bool {
        if ev.ctrl && !ev.alt && !ev.meta && !ev.shift && ev.key == Key::Down {
            self.commit_to_focus(b, out);
            return true;
        }
        if ev.has_command_modifier() {
            return true;
        }
        let Some(conv) = self.conv.as_mut() else {
            return false;
        };
        match ev.key {
            Key::Space | Key::Convert => conv.step_candidate(!ev.shift),
            Key::PageDown => conv.page(true),
            Key::PageUp => conv.page(false),
            Key::Down if ev.shift => conv.page(true),
            Key::Up if ev.shift => conv.page(false),
            Key::Down => conv.step_candidate(true),
            Key::Up => conv.step_candidate(false),
            Key::Enter => {
                self.commit_all(b, out);
                self.predict_next = true;
            }
            Key::Escape | Key::Backspace | Key::Delete => self.conv = None,
            Key::Left | Key::Right if ev.shift => {
                self.resize(b, if ev.key == Key::Left { -1 } else { 1 })
            }
            Key::Left => {
                conv.focus = (conv.focus + conv.segs.len() - 1) % conv.segs.len();
                conv.window = false;
            }
            Key::Right => {
                conv.focus = (conv.focus + 1) % conv.segs.len();
                conv.window = false;
            }
            Key::Home => {
                conv.focus = 0;
                conv.window = false;
            }
            Key::End => {
                conv.focus = conv.segs.len() - 1;
                conv.window = false;
            }
            Key::Char(d @ '1'..='9') | Key::Kana(_, d @ '1'..='9') if conv.window && !ev.shift => {
                let seg = conv.focused();
                let index = seg.selected / PAGE_SIZE * PAGE_SIZE + (d as usize - '1' as usize);
                if index < seg.candidates.len() {
                    seg.selected = index;
                    conv.window = false;
                }
            }
            _ if types_text(ev.key) => {
                self.commit_all(b, out);
                type_key(b, ev);
            }
            Key::F(n @ 6..=10) => conv.transliterate_focused(b, n),
            Key::NonConvert if ev.shift => conv.transliterate_focused(b, 9),
            Key::NonConvert => {
                let n = conv.next_kana_type();
                conv.transliterate_focused(b, n);
            }
            Key::F(_) | Key::Other => return false,
            _ => {}
        }
        true
    }

    fn start_conversion<B: Backend + ?Sized>(&mut self, b: &mut B) {
        b.set_ascii(false);
        self.conv = Converting::from_conversion(b.convert(&[]));
    }

    /// F6–F10 on the whole input: one segment holding the transliteration.
    fn transliterate_all<B: Backend + ?Sized>(&mut self, b: &mut B, n: u8) {
        let t = match n {
            6 => Transliteration::Hiragana,
            7 => Transliteration::Katakana,
            8 => Transliteration::HalfKatakana,
            9 => Transliteration::FullAscii,
            _ => Transliteration::HalfAscii,
        };
        let text = b.transliterate(t);
        let reading = b.submission();
        if reading.is_empty() && text.is_empty() {
            return;
        }
        let mut candidates = vec![text];
        for c in [reading.clone(), to_katakana(&reading)] {
            if !candidates.contains(&c) {
                candidates.push(c);
            }
        }
        let len = reading.chars().count();
        let nbest = vec![candidates[0].clone()];
        self.conv = Some(Converting {
            segs: vec![Seg {
                reading,
                len,
                candidates,
                selected: 0,
            }],
            focus: 0,
            window: false,
            nbest,
            shown: Vec::new(),
            quick: None,
        });
    }

    /// Shift+←/→: the focused segment's reading gets `delta` chars longer; the segments before it
    /// keep their lengths and choices, the rest is converted again.
    fn resize<B: Backend + ?Sized>(&mut self, b: &mut B, delta: isize) {
        let Some(conv) = self.conv.as_mut() else {
            return;
        };
        let i = conv.focus;
        let start: usize = conv.segs[..i].iter().map(|s| s.len).sum();
        let total: usize = conv.segs.iter().map(|s| s.len).sum();
        let new_len = conv.segs[i].len as isize + delta;
        if new_len < 1 || start + new_len as usize > total {
            return;
        }
        let mut fixed: Vec<usize> = conv.segs[..i].iter().map(|s| s.len).collect();
        fixed.push(new_len as usize);
        // where the LM's work waits for the catch-up, the rest is the dictionary's until then
        let (conversion, quick) = match b.convert_quick(&fixed) {
            Some(c) => (c, Some(fixed)),
            None => (b.convert(&fixed), None),
        };
        let Some(mut next) = Converting::from_conversion(conversion) else {
            return;
        };
        next.quick = quick;
        conv.renew(next);
    }

    /// Replaces a resize's quick rest ([`Backend::convert_quick`]) by the LM's conversion of
    /// it. Returns whether there was one.
    fn settle_rest<B: Backend + ?Sized>(&mut self, b: &mut B) -> bool {
        let Some(conv) = self.conv.as_mut() else {
            return false;
        };
        let Some(fixed) = conv.quick.take() else {
            return false;
        };
        if let Some(next) = Converting::from_conversion(b.convert(&fixed)) {
            conv.renew(next);
        }
        true
    }

    fn output<B: Backend + ?Sized>(
        &mut self,
        b: &mut B,
        consumed: bool,
        committed: String,
    ) -> ImeOutput {
        let state = self.state(b);
        let mode = match (self.enabled, self.katakana) {
            (false, _) => Mode::Direct,
            (true, false) => Mode::Hiragana,
            (true, true) => Mode::Katakana,
        };
        let committed_reading = std::mem::take(&mut self.commit_reading);
        let mut out = ImeOutput {
            consumed,
            committed_reading: if committed.is_empty() {
                String::new()
            } else {
                committed_reading
            },
            committed,
            preedit: Preedit::default(),
            focused: None,
            candidates: None,
            completions: self.sugg.items.clone(),
            focused_completion: self.sugg.focus,
            nbest: Vec::new(),
            segments: Vec::new(),
            mode,
            kana_input: self.kana_input,
            state,
            refused: std::mem::take(&mut self.refused),
        };
        if let Some(conv) = &self.conv {
            let mut pos = 0;
            for (i, seg) in conv.segs.iter().enumerate() {
                let surface = seg.surface();
                out.preedit.text.push_str(surface);
                let end = pos + utf16_len(surface);
                out.preedit.segments.push(PreeditSegment {
                    start: pos,
                    end,
                    focused: i == conv.focus,
                    converted: true,
                });
                out.segments.push(SegmentView {
                    reading: seg.reading.clone(),
                    surface: surface.to_string(),
                });
                pos = end;
            }
            out.preedit.cursor = pos;
            out.focused = Some(conv.focus);
            let seg = &conv.segs[conv.focus];
            out.candidates = Some(CandidateList {
                items: seg.candidates.clone(),
                annotations: crate::annotation::annotate(&seg.candidates),
                selected: seg.selected,
                page_size: PAGE_SIZE,
                open: conv.window,
                segment: conv.focus,
            });
            out.nbest = conv.nbest.clone();
        } else if let Some(text) = self.sugg.focus.and_then(|i| self.sugg.items.get(i)) {
            let end = utf16_len(text);
            out.preedit = Preedit {
                segments: vec![PreeditSegment {
                    start: 0,
                    end,
                    focused: true,
                    converted: true,
                }],
                cursor: end,
                text: text.clone(),
            };
        } else if !b.is_empty() {
            let text = b.preedit();
            // katakana input: one katakana for each hiragana, so the caret stays where it is
            let text = if self.katakana {
                to_katakana(&text)
            } else {
                text
            };
            let end = utf16_len(&text);
            let cursor = text.chars().take(b.caret()).map(char::len_utf16).sum();
            out.preedit = Preedit {
                segments: vec![PreeditSegment {
                    start: 0,
                    end,
                    focused: false,
                    converted: false,
                }],
                cursor,
                text,
            };
            if let Some(text) = (self.live_conversion && !self.katakana)
                .then(|| b.live_text())
                .flatten()
            {
                let end = utf16_len(&text);
                out.preedit.segments[0].end = end;
                out.preedit.cursor = end;
                out.preedit.text = text;
            }
            if self.live {
                let live = b.convert(&[]);
                out.segments = live
                    .segments
                    .iter()
                    .map(|s| SegmentView {
                        reading: s.reading.clone(),
                        surface: s
                            .candidates
                            .first()
                            .cloned()
                            .unwrap_or_else(|| s.reading.clone()),
                    })
                    .collect();
                out.nbest = live.nbest;
            }
        }
        out
    }
}

/// The IME of one text field: a [`Session`] driven by the key [`Machine`].
///
/// ```no_run
/// use henkan::ime::{Ime, Key, KeyEvent, State};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let engine = henkan::Engine::from_bytes(std::fs::read("models/henkan.henkan")?)?;
/// let mut ime = Ime::new();
/// for c in "kyouha".chars() {
///     ime.key(&engine, KeyEvent::plain(Key::Char(c)));
/// }
/// let out = ime.key(&engine, KeyEvent::plain(Key::Space));
/// assert_eq!(out.state, State::Converting);
/// assert_eq!(out.preedit.text, "今日は");
/// let out = ime.key(&engine, KeyEvent::plain(Key::Enter));
/// assert_eq!(out.committed, "今日は");
/// # Ok(())
/// # }
/// ```
pub struct Ime {
    session: Session,
    suggester: Suggester,
    machine: Machine,
    /// Keys were composed without the engine: the lattice must be built before the next call
    /// with one.
    unsynced: bool,
}

impl Default for Ime {
    fn default() -> Self {
        Ime::new()
    }
}

/// Runs a [`Machine`] method over the IME's session and suggester.
macro_rules! with_backend {
    ($ime:expr, $engine:expr, |$m:ident, $b:ident| $body:expr) => {{
        if std::mem::take(&mut $ime.unsynced) {
            $ime.session.resync($engine);
        }
        let $m = &mut $ime.machine;
        // One instance of the machine's code for both backends (dyn): a smaller wasm module.
        let $b: &mut dyn Backend = &mut SessionBackend {
            session: &mut $ime.session,
            suggester: &mut $ime.suggester,
            engine: $engine,
        };
        $body
    }};
}

impl Ime {
    /// A new IME, on, with an empty composition and suggestions on.
    pub fn new() -> Self {
        Ime {
            session: Session::new(),
            suggester: Suggester::new(),
            machine: Machine::new(),
            unsynced: false,
        }
    }

    /// Runs a [`Machine`] method over the composer alone ([`ComposerBackend`]).
    fn without_model<R>(&mut self, f: impl FnOnce(&mut Machine, &mut dyn Backend) -> R) -> R {
        self.unsynced = true;
        f(
            &mut self.machine,
            &mut ComposerBackend {
                session: &mut self.session,
            },
        )
    }

    /// Handles one key before any model is loaded: the composer works (romaji → kana, the caret,
    /// F6–F10), Space offers the kana and katakana, Enter commits. The first call with an engine
    /// converts what is composed then.
    pub fn key_without_model(&mut self, ev: KeyEvent) -> ImeOutput {
        self.without_model(|m, b| m.key(b, ev))
    }

    /// Reconversion of text selected in the field ([`Machine::reconvert`]): its reading is
    /// that of a recent commit of the same text, else the lexicon's guess
    /// ([`Engine::reading_pieces`], which collects the reverse index on first use).
    pub fn reconvert(&mut self, engine: &Engine, text: &str) -> ImeOutput {
        let guess = |t: &str| engine.reading_pieces(t);
        with_backend!(self, engine, |m, b| m.reconvert(b, text, &guess))
    }

    /// [`flush`](Self::flush) before any model is loaded.
    pub fn flush_without_model(&mut self) -> ImeOutput {
        self.without_model(|m, b| m.flush(b))
    }

    /// [`set_enabled`](Self::set_enabled) before any model is loaded.
    pub fn set_enabled_without_model(&mut self, on: bool) -> ImeOutput {
        self.without_model(|m, b| m.set_enabled(b, on))
    }

    /// [`select_candidate`](Self::select_candidate) before any model is loaded.
    pub fn select_candidate_without_model(&mut self, index: usize) -> ImeOutput {
        self.without_model(|m, b| m.select_candidate(b, index))
    }

    /// The session, to change its settings (e.g. [`Session::set_scoring`]).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Handles one key.
    pub fn key(&mut self, engine: &Engine, ev: KeyEvent) -> ImeOutput {
        with_backend!(self, engine, |m, b| m.key(b, ev))
    }

    /// Selects a candidate of the focused segment (a click in the candidate window), or picks
    /// a suggestion outside a conversion (a click in the suggestion list).
    pub fn select_candidate(&mut self, engine: &Engine, index: usize) -> ImeOutput {
        with_backend!(self, engine, |m, b| m.select_candidate(b, index))
    }

    /// Runs the work keys left for later (see [`Machine::catch_up`]): the new state when what
    /// is shown changed.
    pub fn catch_up(&mut self, engine: &Engine) -> Option<ImeOutput> {
        with_backend!(self, engine, |m, b| m.catch_up(b))
    }

    /// Keys leave the LM's forward pass for [`Ime::catch_up`] ([`Session::set_lm_deferred`]).
    pub fn set_lm_deferred(&mut self, on: bool) {
        self.session.set_lm_deferred(on);
    }

    /// The state with the live conversion of the composition (see [`Machine::preview`]).
    pub fn preview(&mut self, engine: &Engine) -> ImeOutput {
        with_backend!(self, engine, |m, b| m.preview(b))
    }

    /// Commits whatever is composed (focus lost, click elsewhere); the prediction context is
    /// forgotten.
    pub fn flush(&mut self, engine: &Engine) -> ImeOutput {
        with_backend!(self, engine, |m, b| m.flush(b))
    }

    /// Turns the IME on or off (off commits the composition).
    pub fn set_enabled(&mut self, engine: &Engine, on: bool) -> ImeOutput {
        with_backend!(self, engine, |m, b| m.set_enabled(b, on))
    }

    /// Whether the IME is on.
    pub fn enabled(&self) -> bool {
        self.machine.enabled()
    }

    /// Katakana input on or off (see [`Machine::set_katakana`]).
    pub fn set_katakana(&mut self, on: bool) {
        self.machine.set_katakana(on);
    }

    /// Kana input on or off (see [`Machine::set_kana_input`]).
    pub fn set_kana_input(&mut self, on: bool) {
        self.machine.set_kana_input(on);
    }

    /// What Space types outside a composition (see [`Machine::set_half_width_space`]).
    pub fn set_half_width_space(&mut self, on: bool) {
        self.machine.set_half_width_space(on);
    }

    /// The key event as kana input types it (see [`Machine::kana_key`]).
    pub fn kana_key(&self, ev: KeyEvent, code: &str) -> KeyEvent {
        self.machine.kana_key(ev, code)
    }

    /// Live conversion while composing (see [`Machine::set_live`]).
    pub fn set_live(&mut self, live: bool) {
        self.machine.set_live(live);
    }

    /// Live conversion: the preedit shows the best conversion as you type (see
    /// [`Machine::set_live_conversion`]).
    pub fn set_live_conversion(&mut self, on: bool) {
        self.machine.set_live_conversion(on);
    }

    /// Suggestions (completions while composing, next-word predictions after a commit) on or
    /// off; on by default, offered only when the model has an n-gram.
    pub fn set_predictions(&mut self, on: bool) {
        self.machine.set_predictions(on);
        if !on {
            self.suggester.reset();
        }
    }

    /// Learning from what is committed (the spellings chosen for a reading come first next
    /// time, [`crate::history`]; the recent words raise their predictions,
    /// [`crate::predict::recent`]) on or off; on by default. Off forgets what was learned.
    pub fn set_learning(&mut self, on: bool) {
        self.session.set_learning(on);
        self.suggester.set_keep_recent(on);
    }

    /// Takes the recent words out of this field's predictions, to hand them to another field
    /// ([`Ime::set_recent_words`]).
    pub fn take_recent_words(&mut self) -> crate::predict::recent::RecentWords {
        self.suggester.take_recent()
    }

    /// Gives this field's predictions the recent words (dropped with learning off).
    pub fn set_recent_words(&mut self, recent: crate::predict::recent::RecentWords) {
        self.suggester.set_recent(recent);
    }

    /// Suggestions of one kana (`の`, `は`) on or off; off by default: such a word takes as many
    /// keys to type as to pick, so only words of two kana or more and phrases are suggested.
    pub fn set_short_suggestions(&mut self, on: bool) {
        self.suggester.set_short_words(on);
    }

    /// How the digits of conversion results are written: half width (`2025年`, the default, as
    /// Google Japanese Input) or full width (`２０２５年`). Digits typed while composing show as
    /// the composer gives them (full width in hiragana mode).
    pub fn set_digit_width(&mut self, digits: crate::lattice::DigitWidth) {
        self.session.set_digit_width(digits);
    }

    /// What `,` and `.` type: `、` `。` (the default), `，` `．`, or one of each
    /// ([`crate::composer::Punctuation`]).
    pub fn set_punctuation(&mut self, punctuation: crate::composer::Punctuation) {
        self.session.set_punctuation(punctuation);
    }

    /// The romaji table from now on ([`crate::composer::RomajiTable`]).
    pub fn set_romaji_table(&mut self, table: crate::composer::RomajiTable) {
        self.session.set_romaji_table(table);
    }

    /// Whether learning is on.
    pub fn learning(&self) -> bool {
        self.session.learning()
    }

    /// Converts and completes with the words of `user` too ([`crate::user_dictionary`]);
    /// `None`: without. The composition is kept.
    pub fn set_user_dictionary(
        &mut self,
        user: Option<std::sync::Arc<crate::user_dictionary::UserDictionary>>,
    ) {
        self.session.set_user_dictionary(user);
    }

    /// Drops the composition without committing it.
    pub fn cancel(&mut self) {
        self.machine.conv = None;
        self.machine.sugg = Suggestions::default();
        self.machine.predict_next = false;
        self.session.clear();
        self.suggester.reset();
    }

    /// The session (composer, lattice).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The field's predictions (context, last list).
    pub fn suggester(&self) -> &Suggester {
        &self.suggester
    }
}

#[cfg(test)]
mod tests;

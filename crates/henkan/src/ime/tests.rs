//! State machine tests over a fake backend: the "composer" keeps letters as they are, the
//! "converter" cuts the reading into the fixed lengths and then pairs of letters, and offers
//! each segment in upper case (best), as typed, and with a star. A reading `zz` has 20
//! candidates `c0`…`c19` (for paging).
//!
//! ```text
//! typed  a b c d e      convert → [AB][CD][E]       Shift+→ on the first → [ABC][DE]
//! ```

use super::*;
use crate::session::{Conversion, Segment};

#[derive(Default)]
struct Fake {
    input: String,
    converts: usize,
    /// The caret, in chars of `input`.
    caret: usize,
    ascii: bool,
}

impl Fake {
    fn byte(&self, chars: usize) -> usize {
        self.input
            .char_indices()
            .nth(chars)
            .map_or(self.input.len(), |(i, _)| i)
    }
}

impl Backend for Fake {
    fn insert(&mut self, c: char) {
        let at = self.byte(self.caret);
        // alphanumeric input is marked by a leading `#` on each letter
        if self.ascii {
            self.input.insert(at, '#');
            self.caret += 1;
        }
        let at = self.byte(self.caret);
        self.input.insert(at, c);
        self.caret += 1;
    }
    fn insert_kana(&mut self, kana: char, _key: char) {
        self.insert(kana);
    }
    fn backspace(&mut self) {
        if self.caret > 0 {
            self.caret -= 1;
            let at = self.byte(self.caret);
            self.input.remove(at);
        }
    }
    fn delete(&mut self) {
        if self.caret < self.input.chars().count() {
            let at = self.byte(self.caret);
            self.input.remove(at);
        }
    }
    fn move_caret(&mut self, to: CaretMove) {
        let n = self.input.chars().count();
        self.caret = match to {
            CaretMove::Left => self.caret.saturating_sub(1),
            CaretMove::Right => (self.caret + 1).min(n),
            CaretMove::Start => 0,
            CaretMove::End => n,
        };
    }
    fn caret(&self) -> usize {
        self.caret
    }
    fn kana_before_caret(&self) -> usize {
        self.caret
    }
    fn drop_head(&mut self, chars: usize) {
        let at = self.byte(chars);
        self.input.drain(..at);
        self.caret -= chars;
    }
    fn set_ascii(&mut self, on: bool) {
        self.ascii = on;
    }
    fn ascii(&self) -> bool {
        self.ascii
    }
    fn clear(&mut self) {
        self.input.clear();
        self.caret = 0;
        self.ascii = false;
    }
    fn is_empty(&self) -> bool {
        self.input.is_empty()
    }
    fn preedit(&self) -> String {
        self.input.clone()
    }
    fn submission(&self) -> String {
        self.input.clone()
    }
    fn transliterate(&self, t: Transliteration) -> String {
        match t {
            Transliteration::Katakana => format!("K:{}", self.input),
            Transliteration::FullAscii => format!("F:{}", self.input),
            _ => format!("T:{}", self.input),
        }
    }
    fn raw_keys(&self, range: std::ops::Range<usize>) -> String {
        self.input
            .chars()
            .skip(range.start)
            .take(range.len())
            .collect()
    }
    fn convert(&mut self, fixed: &[usize]) -> Conversion {
        self.converts += 1;
        let chars: Vec<char> = self.input.chars().collect();
        let mut lens: Vec<usize> = fixed.to_vec();
        let mut pos: usize = lens.iter().sum();
        while pos < chars.len() {
            let l = 2.min(chars.len() - pos);
            lens.push(l);
            pos += l;
        }
        let mut start = 0;
        let mut segments = Vec::new();
        for len in lens {
            let reading: String = chars[start..start + len].iter().collect();
            let candidates = if reading == "zz" {
                (0..20).map(|i| format!("c{i}")).collect()
            } else {
                vec![
                    reading.to_uppercase(),
                    reading.clone(),
                    format!("{reading}*"),
                ]
            };
            segments.push(Segment {
                reading,
                start,
                len,
                candidates,
            });
            start += len;
        }
        let best: String = segments.iter().map(|s| s.candidates[0].clone()).collect();
        Conversion {
            reading: self.input.clone(),
            segments,
            nbest: vec![best, self.input.clone()],
        }
    }
}

fn press(m: &mut Machine, b: &mut Fake, name: &str, mods: u32) -> ImeOutput {
    m.key(b, KeyEvent::from_dom(name, mods))
}

fn typed(m: &mut Machine, b: &mut Fake, text: &str) {
    for c in text.chars() {
        let out = press(m, b, &c.to_string(), 0);
        assert!(out.consumed, "{c}");
    }
}

/// A machine converting `text` (typed, then Space).
fn converting(text: &str) -> (Machine, Fake) {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, text);
    press(&mut m, &mut b, " ", 0);
    (m, b)
}

fn surfaces(out: &ImeOutput) -> Vec<&str> {
    out.segments.iter().map(|s| s.surface.as_str()).collect()
}

#[test]
fn type_convert_commit() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abcde");
    let out = press(&mut m, &mut b, "Backspace", 0);
    assert_eq!(out.state, State::Composing);
    assert_eq!(out.preedit.text, "abcd");
    assert_eq!(
        out.preedit.segments,
        vec![PreeditSegment {
            start: 0,
            end: 4,
            focused: false,
            converted: false
        }]
    );
    assert_eq!(out.nbest[0], "ABCD", "live conversion while composing");
    typed(&mut m, &mut b, "e");
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, "ABCDE");
    assert_eq!(surfaces(&out), ["AB", "CD", "E"]);
    assert!(out.preedit.segments[0].focused && !out.preedit.segments[1].focused);
    assert!(!out.candidates.as_ref().unwrap().open);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert!(out.consumed);
    assert_eq!(out.committed, "ABCDE");
    assert_eq!(out.state, State::Precomposition);
    assert!(out.preedit.text.is_empty() && out.candidates.is_none());
}

#[test]
fn candidates_focus_and_pick() {
    let (mut m, mut b) = converting("abcde");
    // Second Space opens the window on the next candidate.
    let out = press(&mut m, &mut b, " ", 0);
    let list = out.candidates.unwrap();
    assert!(list.open);
    assert_eq!((list.selected, list.segment), (1, 0));
    assert_eq!(out.preedit.text, "abCDE");
    // Shift+Space and ↑ go back, wrapping.
    let out = press(&mut m, &mut b, " ", SHIFT);
    assert_eq!(out.candidates.unwrap().selected, 0);
    let out = press(&mut m, &mut b, "ArrowUp", 0);
    assert_eq!(out.candidates.unwrap().selected, 2);
    // → moves the focus and closes the window; ← from the first wraps to the last.
    let out = press(&mut m, &mut b, "ArrowRight", 0);
    assert!(out.preedit.segments[1].focused);
    assert!(!out.candidates.as_ref().unwrap().open);
    let out = press(&mut m, &mut b, "ArrowLeft", 0);
    let out2 = press(&mut m, &mut b, "ArrowLeft", 0);
    assert!(out.preedit.segments[0].focused && out2.preedit.segments[2].focused);
    // Digits pick only while the window is open.
    press(&mut m, &mut b, "ArrowDown", 0);
    let out = press(&mut m, &mut b, "3", 0);
    assert_eq!(out.preedit.text, "ab*CDe*");
    assert!(!out.candidates.unwrap().open);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ab*CDe*");
}

#[test]
fn digit_without_window_commits_and_composes() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "ab");
    press(&mut m, &mut b, "Convert", 0);
    let out = press(&mut m, &mut b, "x", 0);
    assert_eq!(out.committed, "AB");
    assert_eq!(out.state, State::Composing);
    assert_eq!(out.preedit.text, "x");
}

#[test]
fn resize_keeps_earlier_choices() {
    let (mut m, mut b) = converting("abcdefg");
    // Pick the second candidate of the first segment, move right, grow the second segment.
    press(&mut m, &mut b, " ", 0);
    press(&mut m, &mut b, "ArrowRight", 0);
    let out = press(&mut m, &mut b, "ArrowRight", SHIFT);
    assert_eq!(surfaces(&out), ["ab", "CDE", "FG"]);
    assert_eq!(out.focused, Some(1));
    assert!(out.preedit.segments[1].focused);
    let out = press(&mut m, &mut b, "ArrowLeft", SHIFT);
    assert_eq!(surfaces(&out), ["ab", "CD", "EF", "G"]);
    let out = press(&mut m, &mut b, "ArrowLeft", SHIFT);
    assert_eq!(surfaces(&out), ["ab", "C", "DE", "FG"]);
    // Cannot shrink below one char.
    let out = press(&mut m, &mut b, "ArrowLeft", SHIFT);
    assert_eq!(surfaces(&out), ["ab", "C", "DE", "FG"]);
    // The last segment cannot grow past the end.
    press(&mut m, &mut b, "End", 0);
    let converts = b.converts;
    let out = press(&mut m, &mut b, "ArrowRight", SHIFT);
    assert_eq!(surfaces(&out), ["ab", "C", "DE", "FG"]);
    assert_eq!(b.converts, converts, "no conversion for a refused resize");
}

#[test]
fn escape_backspace_and_cancel() {
    let (mut m, mut b) = converting("abc");
    let out = press(&mut m, &mut b, "Escape", 0);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Composing, "abc")
    );
    press(&mut m, &mut b, " ", 0);
    let out = press(&mut m, &mut b, "Backspace", 0);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Composing, "abc")
    );
    let out = press(&mut m, &mut b, "Escape", 0);
    assert!(out.consumed && out.committed.is_empty());
    assert_eq!(out.state, State::Precomposition);
    // Nothing composed: Backspace, Enter, arrows are the field's.
    for k in ["Backspace", "Enter", "ArrowLeft", "Tab", "Escape"] {
        assert!(!press(&mut m, &mut b, k, 0).consumed, "{k}");
    }
}

#[test]
fn preview_converts_without_live_mode() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    m.set_live(false);
    typed(&mut m, &mut b, "abc");
    let converts = b.converts;
    let out = press(&mut m, &mut b, "d", 0);
    assert!(out.nbest.is_empty() && out.segments.is_empty());
    assert_eq!(b.converts, converts, "no conversion per key");
    let out = m.preview(&mut b);
    assert_eq!(out.nbest[0], "ABCD");
    assert_eq!(surfaces(&out), ["AB", "CD"]);
    assert!(!out.consumed && out.committed.is_empty());
    assert_eq!(out.state, State::Composing);
    assert!(
        press(&mut m, &mut b, "e", 0).nbest.is_empty(),
        "live mode unchanged"
    );
}

#[test]
fn enter_commits_kana() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abc");
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(
        (out.committed.as_str(), out.state),
        ("abc", State::Precomposition)
    );
}

#[test]
fn function_keys() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abcd");
    let out = press(&mut m, &mut b, "F7", 0);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, "K:abcd");
    assert_eq!(out.preedit.segments.len(), 1);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "K:abcd");
    // F7 on a focused segment: katakana of its reading (kana readings in real use).
    typed(&mut m, &mut b, "きょうは");
    press(&mut m, &mut b, " ", 0);
    let out = press(&mut m, &mut b, "F7", 0);
    assert_eq!(surfaces(&out), ["キョ", "うは"]);
    let out = press(&mut m, &mut b, "F8", 0);
    assert_eq!(surfaces(&out), ["ｷｮ", "うは"]);
    // Other function keys belong to the browser.
    assert!(!press(&mut m, &mut b, "F5", 0).consumed);
}

/// 無変換 (Mozc's MS-IME keymap, SwitchKanaType): while composing, the whole input as katakana
/// in one segment; on a segment, hiragana → katakana → half-width katakana → hiragana from
/// whatever it shows (`漢字` → `かんじ`); with Shift, as F9.
#[test]
fn nonconvert_switches_the_kana_type() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abcd");
    let out = press(&mut m, &mut b, "NonConvert", 0);
    assert_eq!(out.state, State::Converting);
    assert_eq!(surfaces(&out), ["K:abcd"]);
    assert!(out.consumed);
    press(&mut m, &mut b, "Escape", 0);
    let out = press(&mut m, &mut b, "NonConvert", SHIFT);
    assert_eq!(surfaces(&out), ["F:abcd"]);
    press(&mut m, &mut b, "Escape", 0);
    press(&mut m, &mut b, "Escape", 0);
    // on the focused segment of a conversion
    typed(&mut m, &mut b, "きょうは");
    let converted = press(&mut m, &mut b, " ", 0);
    let first: Vec<String> = surfaces(&converted).iter().map(|s| s.to_string()).collect();
    assert_eq!(first.len(), 2);
    let mut seen = Vec::new();
    for _ in 0..4 {
        let out = press(&mut m, &mut b, "NonConvert", 0);
        assert_eq!(out.state, State::Converting);
        assert_eq!(out.focused, Some(0));
        assert_eq!(
            surfaces(&out)[1],
            first[1],
            "the other segment keeps its choice"
        );
        seen.push(surfaces(&out)[0].to_string());
    }
    assert_eq!(first[0], "きょ", "the fake converts kana to itself");
    assert_eq!(seen, ["キョ", "ｷｮ", "きょ", "キョ"]);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, format!("キョ{}", first[1]));
    // nothing composed: katakana input (`nonconvert_and_ctrl_shift_space_before_a_composition`)
    assert_eq!(press(&mut m, &mut b, "NonConvert", 0).mode, Mode::Katakana);
}

/// F9/F10 in a conversion: the focused segment only, in full / half width, from the keys typed
/// for it (Mozc), like F6–F8; the other segments keep their choice (regression: they replaced
/// the whole conversion by one segment of the whole input).
#[test]
fn f9_f10_transliterate_the_focused_segment() {
    let (mut m, mut b) = converting("abcDe");
    let out = press(&mut m, &mut b, "ArrowRight", 0);
    assert_eq!(surfaces(&out), ["AB", "CD", "E"]);
    let out = press(&mut m, &mut b, "F9", 0);
    assert_eq!(surfaces(&out), ["AB", "ｃＤ", "E"]);
    assert_eq!((out.state, out.focused), (State::Converting, Some(1)));
    let out = press(&mut m, &mut b, "F10", 0);
    assert_eq!(surfaces(&out), ["AB", "cD", "E"]);
    // The last segment.
    press(&mut m, &mut b, "End", 0);
    let out = press(&mut m, &mut b, "F9", 0);
    assert_eq!(surfaces(&out), ["AB", "cD", "ｅ"]);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ABcDｅ");
    // Without segments (composing) F9/F10 take the whole input.
    typed(&mut m, &mut b, "ab");
    let out = press(&mut m, &mut b, "F10", 0);
    assert_eq!(surfaces(&out), ["T:ab"]);
}

#[test]
fn paging() {
    let (mut m, mut b) = converting("zz");
    let out = press(&mut m, &mut b, "PageDown", 0);
    assert_eq!(out.candidates.unwrap().selected, 9);
    // 1–9 pick on the current page.
    let out = press(&mut m, &mut b, "PageDown", 0);
    assert_eq!(out.candidates.unwrap().selected, 18);
    let out = press(&mut m, &mut b, "PageDown", 0);
    assert_eq!(
        out.candidates.unwrap().selected,
        0,
        "wraps to the first page"
    );
    let out = press(&mut m, &mut b, "PageUp", 0);
    assert_eq!(
        out.candidates.unwrap().selected,
        18,
        "wraps to the last page"
    );
    let out = press(&mut m, &mut b, "2", 0);
    assert_eq!(out.preedit.text, "c19");
    press(&mut m, &mut b, "PageDown", 0);
    let out = press(&mut m, &mut b, "5", 0);
    assert_eq!(out.preedit.text, "c4");
    // A digit past the last candidate of the page does nothing.
    press(&mut m, &mut b, "PageUp", 0);
    let out = press(&mut m, &mut b, "9", 0);
    assert!(out.consumed && out.candidates.unwrap().open);
}

/// Mozc's MS-IME keys in a conversion: Shift+↓ / Shift+↑ page the candidate window, Delete
/// goes back to the kana as Esc and Backspace do.
#[test]
fn shift_arrows_page_and_delete_cancels_a_conversion() {
    let (mut m, mut b) = converting("zz");
    let out = press(&mut m, &mut b, "ArrowDown", SHIFT);
    assert_eq!(out.candidates.unwrap().selected, 9);
    let out = press(&mut m, &mut b, "ArrowDown", SHIFT);
    assert_eq!(out.candidates.unwrap().selected, 18);
    let out = press(&mut m, &mut b, "ArrowUp", SHIFT);
    assert_eq!(out.candidates.unwrap().selected, 9);
    let out = press(&mut m, &mut b, "ArrowDown", 0);
    assert_eq!(out.candidates.unwrap().selected, 10, "↓ alone steps");
    let out = press(&mut m, &mut b, "Delete", 0);
    assert!(out.consumed);
    assert_eq!(out.state, State::Composing);
    assert_eq!(out.preedit.text, "zz");
}

/// Katakana input (MS-IME's 全角カタカナ mode, for a フリガナ field): Shift+カタカナひらがな or
/// the Katakana key turns it on, カタカナひらがな alone off; the composition is shown and
/// committed in katakana, the caret where it was; Space still converts; the IME toggled off and
/// on again keeps it.
#[test]
fn katakana_input_shows_and_commits_katakana() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    let out = press(&mut m, &mut b, "KanaMode", SHIFT);
    assert!(out.consumed);
    assert_eq!(out.mode, Mode::Katakana);
    typed(&mut m, &mut b, "やまだ");
    let out = press(&mut m, &mut b, "ArrowLeft", 0);
    assert_eq!(
        (out.preedit.text.as_str(), out.preedit.cursor),
        ("ヤマダ", 2)
    );
    assert!(out.completions.is_empty());
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ヤマダ");
    assert_eq!(
        (out.mode, out.state),
        (Mode::Katakana, State::Precomposition)
    );
    // Space converts as in hiragana input
    typed(&mut m, &mut b, "abc");
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!(out.state, State::Converting);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ABC");
    // off and on again: still katakana
    press(&mut m, &mut b, " ", CTRL);
    let out = press(&mut m, &mut b, " ", CTRL);
    assert_eq!(out.mode, Mode::Katakana);
    // カタカナひらがな alone: hiragana input; again: nothing to change, the page's key
    let out = press(&mut m, &mut b, "KanaMode", 0);
    assert!(out.consumed);
    assert_eq!(out.mode, Mode::Hiragana);
    assert!(!press(&mut m, &mut b, "KanaMode", 0).consumed);
    typed(&mut m, &mut b, "やまだ");
    assert_eq!(press(&mut m, &mut b, "Enter", 0).committed, "やまだ");
    // the Katakana key (X11's), and the setter a page's option uses
    assert_eq!(press(&mut m, &mut b, "Katakana", 0).mode, Mode::Katakana);
    m.set_katakana(false);
    typed(&mut m, &mut b, "や");
    assert_eq!(press(&mut m, &mut b, "Enter", 0).mode, Mode::Hiragana);
}

#[test]
fn toggle_and_direct_mode() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "ab");
    let out = press(&mut m, &mut b, " ", CTRL);
    assert!(out.consumed);
    assert_eq!(out.committed, "ab", "turning off commits");
    assert_eq!((out.mode, out.state), (Mode::Direct, State::Direct));
    for (k, mods) in [
        ("a", 0),
        (" ", 0),
        ("Enter", 0),
        ("z", CTRL),
        ("F7", 0),
        ("Backspace", 0),
    ] {
        let out = press(&mut m, &mut b, k, mods);
        assert!(!out.consumed && out.committed.is_empty(), "{k}");
    }
    assert!(b.is_empty());
    let out = press(&mut m, &mut b, "ZenkakuHankaku", 0);
    assert_eq!((out.consumed, out.mode), (true, Mode::Hiragana));
    // ImeOn when already on is not consumed; ImeOff turns off.
    assert!(!press(&mut m, &mut b, "KanaMode", 0).consumed);
    assert!(press(&mut m, &mut b, "Lang2", 0).consumed);
    assert!(!m.enabled());
    assert!(press(&mut m, &mut b, "`", ALT).consumed);
    assert!(m.enabled());
}

#[test]
fn shortcuts_native_outside_swallowed_inside() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    for k in ["z", "c", "v", "a"] {
        assert!(!press(&mut m, &mut b, k, CTRL).consumed, "Ctrl+{k}");
        assert!(!press(&mut m, &mut b, k, META).consumed, "Meta+{k}");
    }
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!((out.consumed, out.committed.as_str()), (true, "\u{3000}"));
    assert!(!press(&mut m, &mut b, " ", SHIFT).consumed);
    typed(&mut m, &mut b, "ab");
    let out = press(&mut m, &mut b, "z", CTRL);
    assert!(out.consumed && out.committed.is_empty());
    assert_eq!(out.preedit.text, "ab");
    // A lone modifier key press is not consumed.
    assert!(!press(&mut m, &mut b, "Shift", SHIFT).consumed);
}

/// The スペースの入力 setting: half-width Space is the field's own, Shift+Space the ideographic
/// one; while composing Space converts either way.
#[test]
fn half_width_space_outside_a_composition() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    m.set_half_width_space(true);
    assert!(!press(&mut m, &mut b, " ", 0).consumed);
    let out = press(&mut m, &mut b, " ", SHIFT);
    assert_eq!((out.consumed, out.committed.as_str()), (true, "\u{3000}"));
    typed(&mut m, &mut b, "ab");
    assert_eq!(press(&mut m, &mut b, " ", 0).state, State::Converting);
}

/// Before anything is composed, 無変換 switches hiragana and katakana input (Mozc's MS-IME
/// keys, InputModeSwitchKanaType) and Ctrl+Shift+Space types the ideographic space whatever
/// Space types (InsertFullSpace).
#[test]
fn nonconvert_and_ctrl_shift_space_before_a_composition() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    let out = press(&mut m, &mut b, "NonConvert", 0);
    assert!(out.consumed);
    assert_eq!(out.mode, Mode::Katakana);
    assert_eq!(press(&mut m, &mut b, "NonConvert", 0).mode, Mode::Hiragana);
    assert!(!press(&mut m, &mut b, "NonConvert", SHIFT).consumed);
    m.set_half_width_space(true);
    let out = press(&mut m, &mut b, " ", CTRL | SHIFT);
    assert_eq!((out.consumed, out.committed.as_str()), (true, "\u{3000}"));
}

/// In a conversion Ctrl+↑ is the previous candidate (Mozc's MS-IME keys); Tab changes nothing
/// (an editor's Tab binding must not fire, and the conversion stays as it is).
#[test]
fn ctrl_up_steps_the_candidates_tab_changes_nothing() {
    let (mut m, mut b) = converting("abc");
    let out = press(&mut m, &mut b, "Tab", 0);
    assert!(out.consumed);
    assert_eq!(out.candidates.unwrap().selected, 0);
    assert_eq!(
        press(&mut m, &mut b, " ", 0).candidates.unwrap().selected,
        1
    );
    assert_eq!(
        press(&mut m, &mut b, "ArrowUp", CTRL)
            .candidates
            .unwrap()
            .selected,
        0
    );
}

#[test]
fn flush_and_select() {
    let (mut m, mut b) = converting("abc");
    let out = m.select_candidate(&mut b, 2);
    assert_eq!(out.preedit.text, "ab*C");
    assert!(!m.select_candidate(&mut b, 99).consumed);
    let out = m.flush(&mut b);
    assert_eq!(out.committed, "ab*C");
    assert_eq!(out.state, State::Precomposition);
    typed(&mut m, &mut b, "de");
    let out = m.set_enabled(&mut b, false);
    assert_eq!((out.committed.as_str(), out.mode), ("de", Mode::Direct));
}

#[test]
fn utf16_ranges() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    // 𠮷 is one char, two UTF-16 code units.
    typed(&mut m, &mut b, "𠮷ab");
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!(out.preedit.text, "𠮷AB");
    let ranges: Vec<(usize, usize)> = out
        .preedit
        .segments
        .iter()
        .map(|s| (s.start, s.end))
        .collect();
    assert_eq!(ranges, [(0, 3), (3, 4)]);
    assert_eq!(out.preedit.cursor, 4);
}

#[test]
fn the_caret_moves_inside_the_kana() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abcd");
    let out = press(&mut m, &mut b, "ArrowLeft", 0);
    assert!(out.consumed);
    assert_eq!((out.preedit.text.as_str(), out.preedit.cursor), ("abcd", 3));
    let out = press(&mut m, &mut b, "Backspace", 0);
    assert_eq!((out.preedit.text.as_str(), out.preedit.cursor), ("abd", 2));
    let out = press(&mut m, &mut b, "x", 0);
    assert_eq!((out.preedit.text.as_str(), out.preedit.cursor), ("abxd", 3));
    let out = press(&mut m, &mut b, "Home", 0);
    assert_eq!(out.preedit.cursor, 0);
    let out = press(&mut m, &mut b, "Delete", 0);
    assert_eq!((out.preedit.text.as_str(), out.preedit.cursor), ("bxd", 0));
    let out = press(&mut m, &mut b, "End", 0);
    assert_eq!(out.preedit.cursor, 3);
    let out = press(&mut m, &mut b, "ArrowRight", 0);
    assert!(out.consumed, "→ at the end stays in the preedit");
    assert_eq!(out.preedit.cursor, 3);
    // ↓ without suggestions: to the end (Mozc's MS-IME keys)
    press(&mut m, &mut b, "Home", 0);
    let out = press(&mut m, &mut b, "ArrowDown", 0);
    assert!(out.consumed);
    assert_eq!(out.preedit.cursor, 3);
    // Space converts the whole composition, wherever the caret is
    press(&mut m, &mut b, "Home", 0);
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!(out.preedit.text, "BXD");
    // Delete of the last kana ends the composition
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "a");
    press(&mut m, &mut b, "ArrowLeft", 0);
    let out = press(&mut m, &mut b, "Delete", 0);
    assert_eq!(out.state, State::Precomposition);
}

#[test]
fn shift_letter_starts_alphanumeric_input_until_space_or_enter() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    press(&mut m, &mut b, "i", 0);
    press(&mut m, &mut b, "P", SHIFT);
    let out = press(&mut m, &mut b, "h", 0);
    assert_eq!(out.preedit.text, "i#P#h");
    // Space converts and ends it
    press(&mut m, &mut b, " ", 0);
    assert!(!b.ascii);
    press(&mut m, &mut b, "Escape", 0);
    let out = press(&mut m, &mut b, "a", 0);
    assert_eq!(out.preedit.text, "i#P#ha");
    // Enter commits and ends it; a capital without Shift (Caps Lock) is romaji
    press(&mut m, &mut b, "G", SHIFT);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "i#P#ha#G");
    let out = press(&mut m, &mut b, "G", 0);
    assert_eq!(out.preedit.text, "G");
}

/// A composition never grows past [`MAX_COMPOSITION_CHARS`]: the character that would take
/// it past commits the head first (the fake's segments are pairs of letters, in upper case),
/// and the committed text and the preedit are always what was typed.
#[test]
fn a_full_composition_commits_its_head() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    m.set_live(false);
    let text: String = (0..1000).map(|i| (b'a' + (i % 26) as u8) as char).collect();
    let mut committed = String::new();
    let mut heads = 0;
    for c in text.chars() {
        let out = press(&mut m, &mut b, &c.to_string(), 0);
        assert!(out.consumed);
        assert!(out.preedit.text.chars().count() <= MAX_COMPOSITION_CHARS);
        if !out.committed.is_empty() {
            heads += 1;
            // the head is whole segments, and what stays is the tail at least
            assert!(out.preedit.text.chars().count() > KEPT_TAIL_CHARS);
        }
        committed.push_str(&out.committed);
        assert_eq!(
            committed.to_lowercase() + &out.preedit.text,
            text[..committed.len() + out.preedit.text.len()]
        );
    }
    assert!(heads >= 3, "{heads} heads");
    let out = press(&mut m, &mut b, "Enter", 0);
    committed.push_str(&out.committed);
    assert_eq!(committed.to_lowercase(), text);
}

/// With the caret inside a full composition only what is before the caret can go; with the
/// caret at the start nothing can, and the character is refused rather than typed past the
/// limit.
#[test]
fn a_full_composition_commits_only_before_the_caret() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    m.set_live(false);
    let text = "x".repeat(MAX_COMPOSITION_CHARS);
    typed(&mut m, &mut b, &text);
    for _ in 0..MAX_COMPOSITION_CHARS - 10 {
        press(&mut m, &mut b, "ArrowLeft", 0);
    }
    let out = press(&mut m, &mut b, "y", 0);
    // The 10 before the caret, as 5 segments of 2.
    assert!(!out.refused);
    assert_eq!(out.committed, "XXXXXXXXXX");
    assert_eq!(out.preedit.text, format!("y{}", &text[10..]));
    assert_eq!(out.preedit.cursor, 1);
    press(&mut m, &mut b, "Home", 0);
    let before = b.input.clone();
    typed(&mut m, &mut b, &"q".repeat(9));
    assert_eq!(b.input.chars().count(), MAX_COMPOSITION_CHARS);
    let out = press(&mut m, &mut b, "q", 0);
    assert!(out.consumed);
    assert_eq!(out.committed, "QQQQQQQQ");
    assert_eq!(out.preedit.text, format!("qq{}", before));
    press(&mut m, &mut b, "Home", 0);
    let room = MAX_COMPOSITION_CHARS - b.input.chars().count();
    typed(&mut m, &mut b, &"w".repeat(room));
    let full = b.input.clone();
    press(&mut m, &mut b, "Home", 0);
    let out = press(&mut m, &mut b, "v", 0);
    assert!(out.consumed && out.refused);
    assert_eq!(out.committed, "");
    assert_eq!(out.preedit.text, full);
    // the sign lasts one key
    assert!(!press(&mut m, &mut b, "End", 0).refused);
}

#[test]
fn ctrl_down_commits_up_to_the_focus_and_keeps_the_rest_converted() {
    let (mut m, mut b) = converting("abcdefg");
    // The first segment's second candidate, the focus on the second segment.
    press(&mut m, &mut b, " ", 0);
    press(&mut m, &mut b, "ArrowRight", 0);
    let out = press(&mut m, &mut b, "ArrowDown", CTRL);
    assert!(out.consumed);
    assert_eq!(out.committed, "abCD");
    assert_eq!(out.state, State::Converting);
    assert_eq!(surfaces(&out), ["EF", "G"], "the rest as it was shown");
    assert_eq!(out.focused, Some(0));
    assert!(out.preedit.segments[0].focused);
    assert_eq!(b.input, "efg", "the committed kana left the composer");
    // Keys act on the rest: its second segment's next candidate, then Enter.
    press(&mut m, &mut b, "ArrowRight", 0);
    let out = press(&mut m, &mut b, " ", 0);
    assert_eq!(out.preedit.text, "EFg");
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "EFg");
    assert_eq!(out.state, State::Precomposition);
}

#[test]
fn ctrl_down_on_the_last_segment_commits_everything() {
    let (mut m, mut b) = converting("abcde");
    press(&mut m, &mut b, "End", 0);
    let out = press(&mut m, &mut b, "ArrowDown", CTRL);
    assert_eq!(out.committed, "ABCDE");
    assert_eq!(out.state, State::Precomposition);
    assert!(out.preedit.text.is_empty());
    // Outside a conversion Ctrl+↓ is the field's.
    let out = press(&mut m, &mut b, "ArrowDown", CTRL);
    assert!(!out.consumed);
}

/// MS-IME's Ctrl keys (Mozc's MS-IME keymap) while composing: the caret, Backspace, Delete, the
/// transliterations, commit and cancel.
#[test]
fn ms_ime_ctrl_keys_while_composing() {
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "abcd");
    assert!(press(&mut m, &mut b, "A", CTRL).consumed, "Caps Lock on");
    assert_eq!(b.caret, 0);
    press(&mut m, &mut b, "l", CTRL);
    press(&mut m, &mut b, "d", CTRL);
    assert_eq!(b.caret, 2);
    press(&mut m, &mut b, "k", CTRL);
    assert_eq!(b.caret, 1);
    press(&mut m, &mut b, "g", CTRL);
    assert_eq!(b.input, "acd", "Ctrl+G deletes after the caret");
    press(&mut m, &mut b, "f", CTRL);
    press(&mut m, &mut b, "h", CTRL);
    assert_eq!(
        (b.input.as_str(), b.caret),
        ("ac", 2),
        "Ctrl+H deletes before it"
    );
    let out = press(&mut m, &mut b, "i", CTRL);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Converting, "K:ac")
    );
    let out = press(&mut m, &mut b, "m", CTRL);
    assert_eq!(out.committed, "K:ac");
    typed(&mut m, &mut b, "xy");
    let out = press(&mut m, &mut b, "z", CTRL);
    assert_eq!(out.preedit.text, "xy", "Ctrl+Z keeps the composition");
    press(&mut m, &mut b, "Escape", 0);
    // Nothing composed: Ctrl keys are the field's.
    assert!(!press(&mut m, &mut b, "a", CTRL).consumed);
}

/// MS-IME's Ctrl keys while converting: the segment focus and width, candidates, partial commit,
/// cancel.
#[test]
fn ms_ime_ctrl_keys_while_converting() {
    let (mut m, mut b) = converting("abcdefg");
    let out = press(&mut m, &mut b, "f", CTRL);
    assert_eq!(out.focused, Some(3));
    let out = press(&mut m, &mut b, "s", CTRL);
    assert_eq!(out.focused, Some(2));
    let out = press(&mut m, &mut b, "l", CTRL);
    assert_eq!(surfaces(&out), ["AB", "CD", "EFG"]);
    let out = press(&mut m, &mut b, "k", CTRL);
    assert_eq!(surfaces(&out), ["AB", "CD", "EF", "G"]);
    press(&mut m, &mut b, "a", CTRL);
    let out = press(&mut m, &mut b, "x", CTRL);
    assert_eq!(out.preedit.text, "abCDEFG", "Ctrl+X: the next candidate");
    let out = press(&mut m, &mut b, "e", CTRL);
    assert_eq!(out.preedit.text, "ABCDEFG", "Ctrl+E: the previous one");
    let out = press(&mut m, &mut b, "n", CTRL);
    assert_eq!(out.committed, "AB", "Ctrl+N: up to the focused segment");
    let out = press(&mut m, &mut b, "p", CTRL);
    assert_eq!(
        surfaces(&out),
        ["ｃｄ", "EF", "G"],
        "Ctrl+P: F9 on the focused segment"
    );
    let out = press(&mut m, &mut b, "h", CTRL);
    assert_eq!(out.state, State::Composing, "Ctrl+H: back to the kana");
}

#[test]
fn a_commit_says_its_reading() {
    // a conversion: the segments' readings
    let (mut m, mut b) = converting("abcde");
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(
        (out.committed.as_str(), out.committed_reading.as_str()),
        ("ABCDE", "abcde")
    );
    // the segments up to the focused one (Ctrl+↓), then the rest
    let (mut m, mut b) = converting("abcde");
    press(&mut m, &mut b, "ArrowRight", 0);
    let out = press(&mut m, &mut b, "ArrowDown", CTRL);
    assert_eq!(
        (out.committed.as_str(), out.committed_reading.as_str()),
        ("ABCD", "abcd")
    );
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(
        (out.committed.as_str(), out.committed_reading.as_str()),
        ("E", "e")
    );
    // the kana as typed, and in katakana input the kana it was typed in
    let (mut m, mut b) = (Machine::new(), Fake::default());
    typed(&mut m, &mut b, "やまだ");
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed_reading, "やまだ");
    press(&mut m, &mut b, "KanaMode", SHIFT);
    typed(&mut m, &mut b, "やまだ");
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(
        (out.committed.as_str(), out.committed_reading.as_str()),
        ("ヤマダ", "やまだ")
    );
    // nothing committed, no reading
    let out = press(&mut m, &mut b, "a", 0);
    assert_eq!(
        (out.committed.as_str(), out.committed_reading.as_str()),
        ("", "")
    );
}

/// A recent commit is reconverted from its own segments: shown as committed, without the
/// reverse conversion (`guess`, which reads the whole lexicon the first time); text from
/// elsewhere is read by the guess. (Greek letters: the fake composer marks ASCII ones.)
#[test]
fn reconversion_of_a_recent_commit_needs_no_guess() {
    let (mut m, mut b) = converting("αβγδε");
    press(&mut m, &mut b, "ArrowRight", 0);
    press(&mut m, &mut b, " ", 0);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ΑΒγδΕ");
    let no_guess = |_: &str| -> Vec<(String, String)> { panic!("a recent commit was guessed") };
    let out = m.reconvert(&mut b, "ΑΒγδΕ", &no_guess);
    assert_eq!(out.state, State::Converting);
    assert_eq!(out.preedit.text, "ΑΒγδΕ", "shown as committed");
    assert_eq!(surfaces(&out), ["ΑΒ", "γδ", "Ε"]);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ΑΒγδΕ");
    // committed by the reconversion: recent again
    let out = m.reconvert(&mut b, "ΑΒγδΕ", &no_guess);
    assert_eq!(out.preedit.text, "ΑΒγδΕ");
    press(&mut m, &mut b, "Escape", 0);
    press(&mut m, &mut b, "Escape", 0);
    // a commit of segments the user resized comes back cut so (the conversion alone cuts
    // `ΑΒ|ΓΔ|Ε`)
    typed(&mut m, &mut b, "αβγδε");
    press(&mut m, &mut b, " ", 0);
    press(&mut m, &mut b, "ArrowRight", SHIFT);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ΑΒΓΔΕ");
    let out = m.reconvert(&mut b, "ΑΒΓΔΕ", &no_guess);
    assert_eq!(surfaces(&out), ["ΑΒΓ", "ΔΕ"]);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ΑΒΓΔΕ");
    // commits in a row (the clause before the caret, committed phrase by phrase): their
    // segments together
    for typed_text in ["ζη", "θικ"] {
        typed(&mut m, &mut b, typed_text);
        press(&mut m, &mut b, " ", 0);
        press(&mut m, &mut b, "Enter", 0);
    }
    let out = m.reconvert(&mut b, "ΖΗΘΙΚ", &no_guess);
    assert_eq!(surfaces(&out), ["ΖΗ", "ΘΙ", "Κ"]);
    let out = press(&mut m, &mut b, "Enter", 0);
    assert_eq!(out.committed, "ΖΗΘΙΚ");
    // text from elsewhere: the guess reads it, and its words are shown first
    let calls = std::cell::Cell::new(0);
    let guess = |t: &str| {
        calls.set(calls.get() + 1);
        vec![(t.to_string(), t.to_lowercase())]
    };
    let out = m.reconvert(&mut b, "ΧψΖ", &guess);
    assert_eq!(calls.get(), 1);
    assert_eq!(out.preedit.text, "ΧψΖ");
    assert_eq!(
        surfaces(&out),
        ["ΧψΖ"],
        "the word the conversion splits, joined"
    );
}

//! Key events, as the state machine sees them.
//!
//! A [`KeyEvent`] is a [`Key`] plus the modifier flags. The browser widget sends the DOM
//! `KeyboardEvent.key` string and a bit set of modifiers; [`KeyEvent::from_dom`] maps them
//! (names as in the UI Events `key` specification, including the Japanese keys `Convert`
//! (変換), `NonConvert` (無変換), `ZenkakuHankaku`, `KanaMode`, `Eisu`, `Lang1`/`Lang2`).

/// A key, independent of the keyboard layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A key that produces one character (`a`, `A`, `-`, `1`, `、`…).
    Char(char),
    /// A key of the kana layout in kana input (かな入力, [`crate::composer::jis_kana`]): the
    /// kana it types and the character it types without the IME (`Kana('か', 't')`), which F9
    /// and F10 give back and whose digit picks a candidate from the window.
    Kana(char, char),
    /// The space bar.
    Space,
    /// Enter / Return.
    Enter,
    /// Escape.
    Escape,
    /// Backspace.
    Backspace,
    /// Delete (forward delete).
    Delete,
    /// Tab.
    Tab,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// A function key, `F(1)` … `F(24)`.
    F(u8),
    /// 変換 (Henkan): convert, next candidate.
    Convert,
    /// 無変換 (Muhenkan).
    NonConvert,
    /// 半角/全角 (Zenkaku/Hankaku): toggles the IME.
    ZenkakuHankaku,
    /// A key that turns the IME on (かな, `KanaMode`, `Hiragana`, Mac `Lang1`).
    ImeOn,
    /// A key that turns the IME off (英数, `Eisu`, `Alphanumeric`, Mac `Lang2`).
    ImeOff,
    /// A key that turns katakana input on (`Katakana`; Shift+カタカナひらがな is [`Key::ImeOn`]
    /// with Shift).
    KatakanaMode,
    /// Anything else (modifier keys alone, media keys, `Unidentified`…).
    Other,
}

/// Modifier bit for Shift in [`KeyEvent::from_dom`]'s `mods`.
pub const SHIFT: u32 = 1;
/// Modifier bit for Control.
pub const CTRL: u32 = 2;
/// Modifier bit for Alt (Option).
pub const ALT: u32 = 4;
/// Modifier bit for Meta (Command / Windows).
pub const META: u32 = 8;

/// A key press with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyEvent {
    /// The key.
    pub key: Key,
    /// Shift held.
    pub shift: bool,
    /// Control held.
    pub ctrl: bool,
    /// Alt / Option held.
    pub alt: bool,
    /// Meta / Command held.
    pub meta: bool,
}

impl KeyEvent {
    /// A key with no modifiers.
    pub fn plain(key: Key) -> Self {
        KeyEvent {
            key,
            shift: false,
            ctrl: false,
            alt: false,
            meta: false,
        }
    }

    /// A key with Shift.
    pub fn shifted(key: Key) -> Self {
        KeyEvent {
            shift: true,
            ..KeyEvent::plain(key)
        }
    }

    /// A key with Control.
    pub fn ctrl(key: Key) -> Self {
        KeyEvent {
            ctrl: true,
            ..KeyEvent::plain(key)
        }
    }

    /// Maps a DOM `KeyboardEvent.key` and a modifier bit set ([`SHIFT`], [`CTRL`], [`ALT`], [`META`]).
    ///
    /// ```
    /// use henkan::ime::{Key, KeyEvent, SHIFT};
    /// assert_eq!(KeyEvent::from_dom("a", 0).key, Key::Char('a'));
    /// assert_eq!(KeyEvent::from_dom(" ", SHIFT), KeyEvent::shifted(Key::Space));
    /// assert_eq!(KeyEvent::from_dom("F7", 0).key, Key::F(7));
    /// assert_eq!(KeyEvent::from_dom("Convert", 0).key, Key::Convert);
    /// ```
    pub fn from_dom(key: &str, mods: u32) -> Self {
        let k = match key {
            " " | "Spacebar" => Key::Space,
            "Enter" => Key::Enter,
            "Escape" | "Esc" => Key::Escape,
            "Backspace" => Key::Backspace,
            "Delete" | "Del" => Key::Delete,
            "Tab" => Key::Tab,
            "ArrowLeft" | "Left" => Key::Left,
            "ArrowRight" | "Right" => Key::Right,
            "ArrowUp" | "Up" => Key::Up,
            "ArrowDown" | "Down" => Key::Down,
            "Home" => Key::Home,
            "End" => Key::End,
            "PageUp" => Key::PageUp,
            "PageDown" => Key::PageDown,
            "Convert" => Key::Convert,
            "NonConvert" => Key::NonConvert,
            "ZenkakuHankaku" | "Zenkaku" | "Hankaku" => Key::ZenkakuHankaku,
            "KanaMode" | "Hiragana" | "HiraganaKatakana" | "Lang1" => Key::ImeOn,
            "Katakana" => Key::KatakanaMode,
            "Eisu" | "Alphanumeric" | "Lang2" => Key::ImeOff,
            _ => {
                let mut chars = key.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Key::Char(c),
                    _ => match key.strip_prefix('F').and_then(|n| n.parse::<u8>().ok()) {
                        Some(n) if (1..=24).contains(&n) => Key::F(n),
                        _ => Key::Other,
                    },
                }
            }
        };
        KeyEvent {
            key: k,
            shift: mods & SHIFT != 0,
            ctrl: mods & CTRL != 0,
            alt: mods & ALT != 0,
            meta: mods & META != 0,
        }
    }

    /// True when Control, Alt or Meta is held (a shortcut, never text).
    pub fn has_command_modifier(&self) -> bool {
        self.ctrl || self.alt || self.meta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dom_names() {
        let cases: &[(&str, u32, Key)] = &[
            ("a", 0, Key::Char('a')),
            ("A", SHIFT, Key::Char('A')),
            ("ー", 0, Key::Char('ー')),
            (" ", 0, Key::Space),
            ("Enter", 0, Key::Enter),
            ("Escape", 0, Key::Escape),
            ("Backspace", 0, Key::Backspace),
            ("ArrowLeft", SHIFT, Key::Left),
            ("ArrowRight", 0, Key::Right),
            ("F6", 0, Key::F(6)),
            ("F10", 0, Key::F(10)),
            ("F25", 0, Key::Other),
            ("Fn", 0, Key::Other),
            ("Shift", SHIFT, Key::Other),
            ("Unidentified", 0, Key::Other),
            ("Convert", 0, Key::Convert),
            ("ZenkakuHankaku", 0, Key::ZenkakuHankaku),
            ("Lang2", 0, Key::ImeOff),
        ];
        for &(name, mods, key) in cases {
            assert_eq!(KeyEvent::from_dom(name, mods).key, key, "{name}");
        }
        let e = KeyEvent::from_dom(" ", CTRL | META);
        assert!(e.ctrl && e.meta && !e.shift && !e.alt);
        assert!(e.has_command_modifier());
    }
}

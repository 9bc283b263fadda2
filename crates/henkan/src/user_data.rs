//! What the user taught the IME, as one text to store: the history ([`crate::history`]) and the
//! user dictionary ([`crate::user_dictionary`]).
//!
//! The text is versioned and made of counted sections, so it is read back exactly and refused
//! whole when it is anything else:
//!
//! ```text
//! henkan-user-data<TAB>1
//! history<TAB>N        N lines: History::export
//! dictionary<TAB>M     M lines: the user dictionary in Mozc's format
//! ```
//!
//! Words are stored by reading and text, never by entry offsets, so the text survives a new
//! model (what the new model has no word for is dropped on import).

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::history::History;
use crate::user_dictionary::{ImportReport, UserDictionary, MAX_ENTRIES};

/// The first line.
pub const HEADER: &str = "henkan-user-data\t1";

/// The history and the user dictionary as one text (see the module docs).
pub fn export(history: &History, dictionary: &UserDictionary) -> String {
    let h = history.export();
    let d = dictionary.export_mozc();
    let mut out = String::with_capacity(h.len() + d.len() + 64);
    out.push_str(HEADER);
    out.push('\n');
    out.push_str(&format!("history\t{}\n", h.lines().count()));
    out.push_str(&h);
    out.push_str(&format!("dictionary\t{}\n", d.lines().count()));
    out.push_str(&d);
    out
}

/// What [`import`] read.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The history, learned against the engine (capacity `capacity`).
    pub history: History,
    /// The user dictionary.
    pub dictionary: UserDictionary,
    /// What the dictionary section held (bad lines are skipped, not fatal).
    pub report: ImportReport,
}

/// Reads an [`export`]: the history is learned again against `engine` with room for
/// `capacity` readings. Another header, a missing or miscounted section or a bad history line
/// is an error; bad dictionary lines are reported and skipped.
pub fn import(engine: &Engine, text: &str, capacity: usize) -> Result<Imported> {
    let bad = |line: usize, detail: &str| Error::UserData {
        line,
        detail: detail.to_string(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    if lines.first() != Some(&HEADER) {
        return Err(bad(1, "not henkan user data (header)"));
    }
    let mut at = 1;
    let mut section = |name: &str, max: usize| -> Result<String> {
        let head = lines
            .get(at)
            .ok_or_else(|| bad(at + 1, "section missing"))?;
        let n = head
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('\t'))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n <= max)
            .ok_or_else(|| bad(at + 1, "bad section header"))?;
        let body = lines
            .get(at + 1..at + 1 + n)
            .ok_or_else(|| bad(at + 1, "section truncated"))?;
        at += 1 + n;
        let mut s = body.join("\n");
        s.push('\n');
        Ok(s)
    };
    let h = section("history", crate::history::MAX_CAPACITY + 1)?;
    let d = section("dictionary", MAX_ENTRIES)?;
    if lines[at..].iter().any(|l| !l.is_empty()) {
        return Err(bad(at + 1, "text after the last section"));
    }
    let mut history = History::new(capacity);
    history.import(engine, &h)?;
    let mut dictionary = UserDictionary::new();
    let report = dictionary.import_text(&d);
    Ok(Imported {
        history,
        dictionary,
        report,
    })
}

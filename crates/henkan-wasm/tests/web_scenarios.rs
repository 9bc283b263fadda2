//! Keystroke scenarios through [`Ime`] with the shipped model, written as one readable trace.
//!
//! The same scenarios run natively (this file's test) and in wasm (`web_node.rs` in node,
//! `web_browser.rs` in headless Chromium include this file), and all must produce the golden
//! trace `tests/e2e/golden/ime-scenarios.txt`: the browser build behaves exactly as the native one.
//!
//! The golden's first line names the model it was made with (CRC-32 and length). Natively, a
//! golden made with another model is rewritten (a new model converts differently; run this test
//! before the wasm tests); with the same model a different trace fails (re-bless a deliberate
//! change with `HENKAN_BLESS=1 cargo test -p henkan-wasm --test web_scenarios`). The wasm tests compare with
//! the golden and fail if it was made with another model than the one they embed.
//!
//! A scenario is a list of keys separated by spaces: DOM key names (`Space`, `Enter`, `F7`,
//! `ArrowLeft`), with `Shift+`/`Ctrl+` prefixes; any other word is typed letter by letter.
//! Each trace line: the key, `*` when consumed, the committed text in `«»`, the preedit with
//! segments in `[]` (focused `[*…]`), the candidate window when open, and the state.
#![allow(dead_code)]

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::ime::{Ime, ImeOutput, KeyEvent, CTRL, SHIFT};
use henkan::{Engine, Session};
use std::fmt::Write;

/// (name, keys)
pub const SCENARIOS: &[(&str, &str)] = &[
    ("convert and commit", "kyouhaiitenkidesune Space Enter"),
    ("next candidates, pick, commit", "kyouha Space Space Space ArrowDown ArrowUp 1 Enter"),
    ("move and resize segments", "watashihanihonjindesu Space Shift+ArrowRight Shift+ArrowLeft Shift+ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Shift+ArrowRight ArrowLeft Space Enter"),
    ("F7 katakana, F6 hiragana, F10 ascii", "konpyu-ta- F7 F6 F10 Enter"),
    ("F7 on a focused segment", "kyouhaiitenki Space ArrowRight F7 Enter"),
    ("F9 / F10 on a focused segment: its keys as typed", "kyouhaIitenki Space ArrowRight F9 F10 Enter"),
    ("backspace and escape", "kyouhaa Backspace Space Escape Backspace Escape"),
    ("typing after a conversion commits it", "kyou Space ha Enter"),
    ("pending n settles on enter", "nihon Enter"),
    ("toggle off and on", "aiu Ctrl+Space abc Ctrl+Space ka Enter"),
    ("space in precomposition, shortcuts", "Space Shift+Space Ctrl+z Ctrl+c"),
    ("a loanword keeps its mora whole, a resize may cut it", "guranje Space Shift+ArrowLeft Enter"),
    ("a count and a resize after it", "yoninnnohito Space Shift+ArrowLeft Shift+ArrowRight Enter"),
];

const NAMES: &[&str] = &[
    "Space",
    "Enter",
    "Escape",
    "Backspace",
    "Delete",
    "Tab",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Convert",
    "NonConvert",
    "ZenkakuHankaku",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
];

/// The key events of a scenario, as (DOM key, modifiers).
pub fn parse(keys: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for word in keys.split_whitespace() {
        let (mods, name) = match word.split_once('+') {
            Some(("Shift", n)) if !n.is_empty() => (SHIFT, n),
            Some(("Ctrl", n)) if !n.is_empty() => (CTRL, n),
            _ => (0, word),
        };
        if NAMES.contains(&name) || mods != 0 {
            let dom = if name == "Space" { " " } else { name };
            out.push((dom.to_string(), mods));
        } else {
            out.extend(name.chars().map(|c| (c.to_string(), 0)));
        }
    }
    out
}

fn describe(key: &str, mods: u32, out: &ImeOutput) -> String {
    let mut line = String::new();
    if mods & SHIFT != 0 {
        line.push_str("Shift+");
    }
    if mods & CTRL != 0 {
        line.push_str("Ctrl+");
    }
    line.push_str(if key == " " { "Space" } else { key });
    if out.consumed {
        line.push('*');
    }
    if !out.committed.is_empty() {
        let _ = write!(line, " «{}»", out.committed);
    }
    if !out.preedit.text.is_empty() {
        let units: Vec<u16> = out.preedit.text.encode_utf16().collect();
        line.push(' ');
        for s in &out.preedit.segments {
            let text = String::from_utf16_lossy(&units[s.start..s.end]);
            let mark = if s.focused { "*" } else { "" };
            if s.converted {
                let _ = write!(line, "[{mark}{text}]");
            } else {
                let _ = write!(line, "{text}");
            }
        }
    }
    if let Some(c) = &out.candidates {
        if c.open {
            let page = c.selected / c.page_size * c.page_size;
            let shown: Vec<&str> = c
                .items
                .iter()
                .skip(page)
                .take(5)
                .map(String::as_str)
                .collect();
            let _ = write!(
                line,
                " {{{}/{}: {}}}",
                c.selected + 1,
                c.items.len(),
                shown.join(" ")
            );
        }
    }
    let _ = write!(line, " ({:?})", out.state);
    line
}

/// Runs one scenario on a fresh IME.
pub fn run(engine: &Engine, keys: &str) -> String {
    let mut ime = Ime::new();
    ime.set_live(false);
    let mut trace = String::new();
    for (key, mods) in parse(keys) {
        let out = ime.key(engine, KeyEvent::from_dom(&key, mods));
        trace.push_str(&describe(&key, mods, &out));
        trace.push('\n');
    }
    trace
}

/// The golden's first line for a model.
pub fn model_line(model: &[u8]) -> String {
    format!(
        "# model crc32 {:08x}, {} bytes\n",
        crc32fast::hash(model),
        model.len()
    )
}

/// Readings converted by every engine of the model (the last section of the trace): the
/// neural and hybrid engines in wasm must convert exactly as natively.
pub const READINGS: &[&str] = &[
    "きょうはいいてんきですね",
    "きしゃのきしゃがきしゃできしゃした",
    "わたしはにほんごをべんきょうしています",
    "あしたはあめがふるでしょう",
    "かのじょはとうきょうだいがくのがくせいです",
    // a digit twin, which the hybrid reads as the number and its counter
    "よにんのひと",
];

/// One line per reading and engine: the best sentence and the next two of the n-best.
pub fn engine_lines(engine: &Engine) -> String {
    let mut out = String::new();
    for name in engine.engines() {
        let scoring = match name {
            "neural" => Scoring::Neural,
            "hybrid" => Scoring::Hybrid,
            _ => Scoring::Classic,
        };
        let mut session = Session::new();
        session.set_scoring(scoring, NeuralOptions::default());
        for reading in READINGS {
            let c = session.convert_reading(engine, reading);
            let rest: Vec<&str> = c.nbest.iter().skip(1).take(2).map(String::as_str).collect();
            let _ = writeln!(
                out,
                "{name} {reading} → {} | {}",
                c.text(),
                rest.join(" / ")
            );
        }
    }
    out
}

/// All scenarios, one section each, after the model line; then the readings by engine.
pub fn trace_all(engine: &Engine, model: &[u8]) -> String {
    let mut all = model_line(model);
    for (name, keys) in SCENARIOS {
        let _ = writeln!(all, "## {name}: {keys}");
        all.push_str(&run(engine, keys));
        all.push('\n');
    }
    let _ = writeln!(all, "## engines: {}", engine.engines().join(", "));
    all.push_str(&engine_lines(engine));
    all
}

/// The expected trace.
pub const GOLDEN: &str = include_str!("../../../tests/e2e/golden/ime-scenarios.txt");

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn scenarios_match_golden() {
    let path =
        std::env::var("HENKAN_WEB_MODEL").unwrap_or_else(|_| env!("HENKAN_WEB_MODEL").to_string());
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (the shipped model is committed; `make model`)"));
    let engine = Engine::from_bytes(bytes.clone()).expect("the shipped model loads");
    let trace = trace_all(&engine, &bytes);
    let golden = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/e2e/golden/ime-scenarios.txt"
    );
    // Read at run time: the test may have rewritten it since it was compiled.
    let current = std::fs::read_to_string(golden).unwrap_or_default();
    let same_model = current.starts_with(&model_line(&bytes));
    if std::env::var_os("HENKAN_BLESS").is_some() || !same_model {
        if current != trace {
            eprintln!("wrote {golden} for this model (review the diff)");
            std::fs::write(golden, &trace).unwrap();
        }
        return;
    }
    assert_eq!(
        trace, current,
        "re-bless with HENKAN_BLESS=1 if the change is intended"
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn parse_keys() {
    assert_eq!(
        parse("ka Space Shift+ArrowLeft Ctrl+Space F7"),
        [
            ("k", 0),
            ("a", 0),
            (" ", 0),
            ("ArrowLeft", SHIFT),
            (" ", CTRL),
            ("F7", 0)
        ]
        .map(|(k, m)| (k.to_string(), m))
    );
}

//! Keys that leave the LM's forward pass for later (`Session::set_lm_deferred`, what the browser
//! does): every conversion, best text and suggestion list comes out as when each key runs it.
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use henkan::composer::CaretMove;
use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::ime::{Ime, KeyEvent, SHIFT};
use henkan::Session;

const LINES: &[&str] = &[
    "kyouhaiitenkidesune",
    "watashihanihongowobenkyoushiteimasu",
    "ashitanokaigihajuujikaradesu",
];

fn session(scoring: Scoring, deferred: bool) -> Session {
    let mut s = Session::new();
    s.set_scoring(scoring, NeuralOptions::default());
    s.set_lm_deferred(deferred);
    s
}

/// Typed key by key, with Backspace and caret moves on the way: the deferred session has LM work
/// pending after every key, and converts as the eager one does, whether it caught up after each
/// key, after some, or only when converting.
#[test]
fn a_deferred_session_converts_as_an_eager_one() {
    let engine = shipped_engine();
    for scoring in [Scoring::Hybrid, Scoring::Neural] {
        for catch_up_every in [1, 3, usize::MAX] {
            let mut eager = session(scoring, false);
            let mut lazy = session(scoring, true);
            for line in LINES {
                for (i, c) in line.chars().enumerate() {
                    eager.insert(&engine, c);
                    lazy.insert(&engine, c);
                    assert!(lazy.lm_pending(), "{scoring:?} {line} {i}");
                    assert!(!eager.lm_pending());
                    if i % 7 == 6 {
                        for s in [&mut eager, &mut lazy] {
                            s.backspace(&engine);
                            s.insert(&engine, c);
                        }
                    }
                    if (i + 1) % catch_up_every == 0 {
                        assert!(lazy.settle_lm(&engine));
                        assert!(!lazy.settle_lm(&engine), "nothing left");
                        assert_eq!(lazy.best_text(&engine), eager.best_text(&engine));
                    }
                }
                for s in [&mut eager, &mut lazy] {
                    s.move_caret(&engine, CaretMove::Left);
                    s.backspace(&engine);
                    s.move_caret(&engine, CaretMove::End);
                }
                let (a, b) = (eager.convert(&engine), lazy.convert(&engine));
                assert!(!lazy.lm_pending(), "a conversion catches up");
                assert_eq!(a, b, "{scoring:?} {line} every {catch_up_every}");
                eager.clear();
                lazy.clear();
            }
        }
    }
}

fn ime(deferred: bool) -> Ime {
    let mut ime = Ime::new();
    ime.session_mut()
        .set_scoring(Scoring::Hybrid, NeuralOptions::default());
    ime.set_live(false);
    ime.set_lm_deferred(deferred);
    ime
}

/// Through the key machine: the preedit of each key is the same; after `catch_up` so are the
/// suggestions (a suggestion equal to what Space gives is taken out then); Space converts the
/// same, caught up or not.
#[test]
fn the_ime_with_deferred_keys_shows_and_converts_as_the_eager_one() {
    let engine = shipped_engine();
    for catch_up in [true, false] {
        let mut eager = ime(false);
        let mut lazy = ime(true);
        for line in ["kyouha", "arigatou", "watashihagakuseidesu"] {
            for c in line.chars() {
                let key = KeyEvent::from_dom(&c.to_string(), 0);
                let a = eager.key(&engine, key);
                let mut b = lazy.key(&engine, key);
                assert_eq!(a.preedit, b.preedit);
                if catch_up {
                    if let Some(out) = lazy.catch_up(&engine) {
                        b = out;
                    }
                    assert_eq!(a.completions, b.completions, "{line} {c}");
                    assert_eq!(lazy.catch_up(&engine), None, "nothing left");
                }
            }
            let space = KeyEvent::from_dom(" ", 0);
            let (a, b) = (eager.key(&engine, space), lazy.key(&engine, space));
            assert_eq!(a.preedit, b.preedit, "{line}");
            assert_eq!(a.candidates, b.candidates, "{line}");
            let enter = KeyEvent::from_dom("Enter", 0);
            let (a, b) = (eager.key(&engine, enter), lazy.key(&engine, enter));
            assert_eq!(a.committed, b.committed, "{line}");
        }
    }
}

/// Types `romaji`, converts it and shortens the first segment by one kana (Shift+←).
fn resized(engine: &henkan::Engine, ime: &mut Ime, romaji: &str) -> henkan::ime::ImeOutput {
    for c in romaji.chars() {
        ime.key(engine, KeyEvent::from_dom(&c.to_string(), 0));
    }
    ime.key(engine, KeyEvent::from_dom(" ", 0));
    ime.key(engine, KeyEvent::from_dom("ArrowLeft", SHIFT))
}

/// A resize with deferred keys shows the rest as the dictionary converts it at once (the
/// classic engine's conversion of the same resize), and the LM's conversion of it at the
/// catch-up, the same as without deferring; a key before the catch-up acts on the LM's
/// conversion, and another resize waits for none.
#[test]
fn a_deferred_resize_shows_the_lms_rest_at_the_catch_up() {
    let engine = shipped_engine();
    // `ねこの` shortened: the classic engine reads the rest `ノ本`, the LM `の本`
    let romaji = "nekonohon";
    let mut classic = Ime::new();
    classic
        .session_mut()
        .set_scoring(Scoring::Classic, NeuralOptions::default());
    let quick = resized(&engine, &mut classic, romaji);
    let eager = resized(&engine, &mut ime(false), romaji);
    assert_ne!(
        quick.preedit.text, eager.preedit.text,
        "no difference to see"
    );
    let mut lazy = ime(true);
    let shown = resized(&engine, &mut lazy, romaji);
    assert_eq!(shown.preedit, quick.preedit);
    assert_eq!(shown.focused, eager.focused);
    let settled = lazy.catch_up(&engine).expect("the LM's rest");
    assert_eq!(settled.preedit, eager.preedit);
    assert_eq!(settled.candidates, eager.candidates);
    assert_eq!(lazy.catch_up(&engine), None, "nothing left");
    // Enter right after the resize commits the LM's conversion
    let mut lazy = ime(true);
    resized(&engine, &mut lazy, romaji);
    let enter = KeyEvent::from_dom("Enter", 0);
    let mut eager = ime(false);
    resized(&engine, &mut eager, romaji);
    assert_eq!(
        lazy.key(&engine, enter).committed,
        eager.key(&engine, enter).committed
    );
    // a second resize before the catch-up: the rest stays quick until then
    let mut lazy = ime(true);
    resized(&engine, &mut lazy, romaji);
    let again = lazy.key(&engine, KeyEvent::from_dom("ArrowRight", SHIFT));
    let mut eager = ime(false);
    resized(&engine, &mut eager, romaji);
    let want = eager.key(&engine, KeyEvent::from_dom("ArrowRight", SHIFT));
    let settled = lazy.catch_up(&engine).unwrap_or(again);
    assert_eq!(settled.preedit, want.preedit);
}

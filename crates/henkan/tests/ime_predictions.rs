//! Suggestions through the key state machine over a real [`Session`]: the tiny model plus an
//! n-gram section counted from a tiny corpus, typed key by key through [`Ime`].
//!
//! The corpus, and the n-gram facts the expectations follow from (stupid backoff, α = 0.4):
//!
//! ```text
//! <s> 今日 は 木        ×2     after <s>: 今日 3/4, 京 1/4
//! <s> 今日 は 京               after 今日: は 1      after 今日 は: 木 2/3, 京 1/3
//! <s> 京 は 葉                 after 京 は: 葉 1
//! ```
//!
//! Typing `kyo` gives the query きょ (the tiny lexicon has no word きょ, so Space would give 木ょ);
//! its completions are 今日, 今日は木, 京は葉, 京: a phrase scores as its first word plus its
//! followers' log2 scores (今日は木: 今日 + 0 + log2 2/3; 京は葉: 京 + 0 + 0), and a longer
//! reading ranks higher (`suggest::LENGTH_WEIGHT`), so 京は葉, whose words follow 京 for sure,
//! comes before 京.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::ime::{Ime, ImeOutput, KeyEvent, State, CTRL, SHIFT};
use henkan::Engine;

const CORPUS: &str = "今日/きょう/1/1 は/は/6/6 木/き/1/1
今日/きょう/1/1 は/は/6/6 木/き/1/1
今日/きょう/1/1 は/は/6/6 京/きょう/1/1
京/きょう/1/1 は/は/6/6 葉/は/1/1
";

fn engine() -> Engine {
    common::tiny_engine_with_ngram(CORPUS)
}

fn press(ime: &mut Ime, engine: &Engine, key: &str, mods: u32) -> ImeOutput {
    ime.key(engine, KeyEvent::from_dom(key, mods))
}

/// Types letters one by one; returns the last output.
fn typed(ime: &mut Ime, engine: &Engine, text: &str) -> ImeOutput {
    let mut last = None;
    for c in text.chars() {
        let out = press(ime, engine, &c.to_string(), 0);
        assert!(out.consumed, "{c}");
        last = Some(out);
    }
    last.expect("some text")
}

/// The words of the tiny corpus have one kana mostly (は, 木, 葉): these tests offer them too.
/// Learning is off, so that the lists follow the n-gram alone (the recent words would raise
/// what each test committed before: `recent_words_come_first_next_time`).
fn ime() -> Ime {
    let mut ime = Ime::new();
    ime.set_live(false);
    ime.set_short_suggestions(true);
    ime.set_learning(false);
    ime
}

/// By default a word of one kana is not suggested: it takes as many keys to type (`ha`) as to
/// pick. After 今日 the next words began with は; now its phrase は木 is offered instead. Words of
/// two kana and phrases stay.
#[test]
fn words_of_one_kana_are_not_suggested_by_default() {
    let engine = engine();
    let mut ime = Ime::new();
    ime.set_live(false);
    let out = typed(&mut ime, &engine, "kyo");
    assert_eq!(out.completions, ["今日", "今日は木", "京は葉", "京"]);
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, "1", 0);
    assert_eq!(out.committed, "今日");
    // after 今日: は (its only follower) is left out, its phrases offered (木 follows 今日 は;
    // 京 and 葉 follow は; after a commit a phrase goes on only where the n-gram is nearly sure,
    // so は京 stops before は葉); then the frequent words, which lead to no phrase after a commit
    assert_eq!(out.completions, ["は木", "は京", "は葉", "今日", "京"]);
}

#[test]
fn completions_in_ngram_order_with_phrases() {
    let engine = engine();
    let mut ime = ime();
    let out = typed(&mut ime, &engine, "kyo");
    assert_eq!(out.state, State::Composing);
    assert_eq!(out.preedit.text, "きょ");
    assert_eq!(out.completions, ["今日", "今日は木", "京は葉", "京"]);
    assert_eq!(out.focused_completion, None);
    // A pending letter does not change the query: the same list.
    let out = press(&mut ime, &engine, "u", 0);
    assert_eq!(out.preedit.text, "きょう");
    // Space's conversion (今日) and the kana are left out.
    assert_eq!(out.completions, ["今日は木", "京は葉", "京"]);
}

/// An IME that learns, with 京 picked from the completions of きょ twice, each time in a new
/// context, and きょ typed again: 京 and its phrase take a fifth (λ) of the list's probability, so
/// 京は葉 passes 今日は木.
fn ime_with_kyo_picked_twice(engine: &Engine) -> Ime {
    let mut ime = ime();
    ime.set_learning(true);
    for _ in 0..2 {
        let out = typed(&mut ime, engine, "kyo");
        let at = out
            .completions
            .iter()
            .position(|c| c == "京")
            .expect("京 is a completion");
        press(&mut ime, engine, "Tab", 0);
        let out = press(&mut ime, engine, &(at + 1).to_string(), 0);
        assert_eq!(out.committed, "京");
        ime.flush(engine);
    }
    let out = typed(&mut ime, engine, "kyo");
    assert_eq!(out.completions, ["今日", "京は葉", "今日は木", "京"]);
    ime
}

/// The words the user committed lately raise their predictions (`predict::recent`): once 京
/// was picked twice (each time in a new context), its phrase 京は葉 passes 今日は木 among the
/// completions of きょ; learning off forgets it.
#[test]
fn recent_words_come_first_next_time() {
    let engine = engine();
    let mut ime = ime_with_kyo_picked_twice(&engine);
    press(&mut ime, &engine, "Escape", 0);
    ime.set_learning(false);
    let out = typed(&mut ime, &engine, "kyo");
    assert_eq!(out.completions, ["今日", "今日は木", "京は葉", "京"]);
}

/// Ctrl+Delete on a focused suggestion forgets what the user's commits added to it (Mozc's
/// DeleteSelectedCandidate in the prediction list): after 京 was picked twice, 京は葉 passes
/// 今日は木; deleted, the list is the n-gram's again and the focus stays at its place. An item
/// the user's commits did not raise stays where it is.
#[test]
fn ctrl_delete_forgets_a_suggestion_from_the_recent_words() {
    let engine = engine();
    let mut ime = ime_with_kyo_picked_twice(&engine);
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, "Down", 0);
    assert_eq!(out.focused_completion, Some(1));
    let out = press(&mut ime, &engine, "Delete", CTRL);
    assert!(out.consumed);
    assert_eq!(out.state, State::Suggesting);
    assert_eq!(out.completions, ["今日", "今日は木", "京は葉", "京"]);
    assert_eq!(out.focused_completion, Some(1));
    assert_eq!(out.preedit.text, "今日は木");
    // Not raised by the user: nothing changes.
    let again = press(&mut ime, &engine, "Delete", CTRL);
    assert_eq!(again.completions, out.completions);
    assert_eq!(again.focused_completion, Some(1));
    // Forgotten for good: the next time too.
    press(&mut ime, &engine, "Escape", 0);
    press(&mut ime, &engine, "Escape", 0);
    let out = typed(&mut ime, &engine, "kyo");
    assert_eq!(out.completions, ["今日", "今日は木", "京は葉", "京"]);
}

#[test]
fn tab_and_digit_pick_then_next_words_then_pick_again() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    let out = press(&mut ime, &engine, "Tab", 0);
    assert!(out.consumed);
    assert_eq!(out.state, State::Suggesting);
    assert_eq!(out.focused_completion, Some(0));
    assert_eq!(
        out.preedit.text, "今日",
        "the preedit shows the focused completion"
    );
    assert!(out.preedit.segments[0].focused && out.preedit.segments[0].converted);
    let out = press(&mut ime, &engine, "1", 0);
    assert_eq!(out.committed, "今日");
    assert_eq!(out.state, State::Precomposition);
    // Next words after 今日: は is its only follower, then the frequent words.
    assert_eq!(out.completions[0], "は");
    assert_eq!(out.focused_completion, None);
    // ↓ enters the predictions; pick は: the next words follow 今日 は.
    let out = press(&mut ime, &engine, "ArrowDown", 0);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Suggesting, "は")
    );
    let out = press(&mut ime, &engine, "Enter", 0);
    assert!(out.consumed);
    assert_eq!(out.committed, "は");
    assert_eq!(out.completions[..2], ["木", "京"]);
}

/// Shift+Enter while composing commits the first completion without entering the list (Mozc's
/// CommitFirstSuggestion); without completions it commits the kana, as Enter does.
#[test]
fn shift_enter_commits_the_first_completion() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    let out = press(&mut ime, &engine, "Enter", SHIFT);
    assert!(out.consumed);
    assert_eq!(out.committed, "今日");
    assert_eq!(out.state, State::Precomposition);
    assert_eq!(out.completions[0], "は", "the next words follow 今日");
    let mut quiet = self::ime();
    quiet.set_predictions(false);
    typed(&mut quiet, &engine, "kyo");
    let out = press(&mut quiet, &engine, "Enter", SHIFT);
    assert_eq!(out.committed, "きょ");
}

#[test]
fn conversion_commit_sets_the_context() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyouha");
    press(&mut ime, &engine, " ", 0);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "今日は");
    // The lattice words 今日 + は are the context: 木 (2/3) before 京 (1/3).
    assert_eq!(out.completions[..2], ["木", "京"]);
    // A picked candidate other than the best counts too: 京 は → 葉.
    typed(&mut ime, &engine, "kyouha");
    let out = press(&mut ime, &engine, " ", 0);
    let items = out.candidates.expect("a segment").items;
    let kyo = items
        .iter()
        .position(|c| c == "京は")
        .expect("京は is a candidate");
    ime.select_candidate(&engine, kyo);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "京は");
    assert_eq!(out.completions[0], "葉");
}

#[test]
fn a_typed_letter_dismisses_predictions() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "今日");
    assert!(!out.completions.is_empty());
    let out = press(&mut ime, &engine, "k", 0);
    assert!(out.consumed);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Composing, "k")
    );
    assert!(out.completions.is_empty(), "{:?}", out.completions);
    // The context stays: after 今日, は is left out (it is the kana Enter commits) but leads
    // its phrases は木 (木 follows 今日 は), は京は葉, は葉, then 葉.
    let out = press(&mut ime, &engine, "Backspace", 0);
    assert_eq!(out.state, State::Precomposition);
    let out = typed(&mut ime, &engine, "ha");
    assert_eq!(out.preedit.text, "は");
    assert_eq!(out.completions, ["は木", "は京は葉", "は葉", "葉"]);
}

#[test]
fn unfocused_predictions_leave_keys_to_the_field() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyouha");
    press(&mut ime, &engine, " ", 0);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert!(!out.completions.is_empty());
    // Tab after a commit is the page's too: the focus moves on, the list goes.
    for key in ["Enter", "Backspace", "ArrowUp", "ArrowLeft", "Tab"] {
        typed(&mut ime, &engine, "kyouha");
        press(&mut ime, &engine, " ", 0);
        let out = press(&mut ime, &engine, "Enter", 0);
        assert!(!out.completions.is_empty(), "{key}");
        let out = press(&mut ime, &engine, key, 0);
        assert!(!out.consumed, "{key} is the field's");
        assert!(out.completions.is_empty(), "{key} hides the predictions");
        assert_eq!(out.state, State::Precomposition);
        // The caret moved (or a new line began): ↓ is the field's again.
        assert!(!press(&mut ime, &engine, "ArrowDown", 0).consumed, "{key}");
    }
    // Esc hides them (consumed, as a native autocomplete popup does).
    typed(&mut ime, &engine, "kyouha");
    press(&mut ime, &engine, " ", 0);
    press(&mut ime, &engine, "Enter", 0);
    let out = press(&mut ime, &engine, "Escape", 0);
    assert!(out.consumed && out.completions.is_empty());
    assert!(!press(&mut ime, &engine, "Escape", 0).consumed);
}

#[test]
fn digits_type_while_the_list_is_not_focused() {
    let engine = engine();
    let mut ime = ime();
    let out = typed(&mut ime, &engine, "kyo");
    assert!(!out.completions.is_empty());
    let out = press(&mut ime, &engine, "1", 0);
    assert!(out.consumed && out.committed.is_empty());
    assert_eq!(
        out.preedit.text, "きょ１",
        "a full-width digit, as typed without the list"
    );
    assert_eq!(out.state, State::Composing);
}

#[test]
fn moving_in_the_list_and_leaving_it() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    // ↓ enters at the first item while composing; ↑ wraps to the last.
    let out = press(&mut ime, &engine, "ArrowDown", 0);
    assert_eq!(out.focused_completion, Some(0));
    let out = press(&mut ime, &engine, "ArrowUp", 0);
    assert_eq!(out.focused_completion, Some(3));
    assert_eq!(out.preedit.text, "京");
    let out = press(&mut ime, &engine, "Tab", 0);
    assert_eq!(out.focused_completion, Some(0));
    let out = press(&mut ime, &engine, "Tab", SHIFT);
    assert_eq!(out.focused_completion, Some(3));
    // Esc goes back to the composition, the list stays.
    let out = press(&mut ime, &engine, "Escape", 0);
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Composing, "きょ")
    );
    assert_eq!(out.focused_completion, None);
    assert_eq!(out.completions.len(), 4);
    // Shift+Tab enters at the last item; a digit picks by number, whatever is focused.
    press(&mut ime, &engine, "Tab", SHIFT);
    let out = press(&mut ime, &engine, "3", 0);
    assert_eq!(out.committed, "京は葉");
    // Space still converts.
    typed(&mut ime, &engine, "kyouha");
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, " ", 0);
    assert_eq!(out.state, State::Converting);
    assert!(out.completions.is_empty());
}

#[test]
fn a_letter_commits_the_focused_suggestion_and_composes() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, "h", 0);
    assert_eq!(out.committed, "今日");
    assert_eq!(
        (out.state, out.preedit.text.as_str()),
        (State::Composing, "h")
    );
    // Backspace in the list leaves it and deletes from the composition.
    let out = typed(&mut ime, &engine, "a");
    assert_eq!(out.completions, ["は木", "は京は葉", "は葉", "葉"]);
    press(&mut ime, &engine, "Tab", 0);
    let out = press(&mut ime, &engine, "Backspace", 0);
    assert_eq!(out.state, State::Precomposition);
    assert!(out.preedit.text.is_empty() && out.completions.is_empty());
}

#[test]
fn a_click_picks_a_suggestion() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    let out = ime.select_candidate(&engine, 3);
    assert!(out.consumed);
    assert_eq!(out.committed, "京");
    // は follows 京, and 葉 always follows 京 は: the phrase takes the word's place
    // (`suggest::REPLACE_MIN_LOG2`).
    assert_eq!(out.completions[0], "は葉");
    assert!(!out.completions.iter().any(|s| s == "は"));
    assert!(!ime.select_candidate(&engine, 99).consumed);
}

#[test]
fn predictions_off_and_models_without_an_ngram_offer_nothing() {
    let engine = engine();
    let mut ime = ime();
    ime.set_predictions(false);
    let out = typed(&mut ime, &engine, "kyo");
    assert!(out.completions.is_empty());
    let out = press(&mut ime, &engine, "Tab", 0);
    assert_eq!(out.state, State::Composing);
    let out = press(&mut ime, &engine, "Enter", 0);
    assert_eq!(out.committed, "きょ");
    assert!(out.completions.is_empty());
    assert!(!press(&mut ime, &engine, "Tab", 0).consumed);
    // Back on: offered again.
    ime.set_predictions(true);
    assert!(!typed(&mut ime, &engine, "kyo").completions.is_empty());

    let plain = Engine::from_bytes(common::tiny_model_bytes()).unwrap();
    assert!(plain.ngram.is_none());
    let mut ime = self::ime();
    let out = typed(&mut ime, &plain, "kyo");
    assert!(out.completions.is_empty());
    press(&mut ime, &plain, "Enter", 0);
    assert!(!press(&mut ime, &plain, "Tab", 0).consumed);
}

#[test]
fn flush_forgets_the_context() {
    let engine = engine();
    let mut ime = ime();
    typed(&mut ime, &engine, "kyo");
    press(&mut ime, &engine, "Tab", 0);
    // Blur while a suggestion is focused: what is shown is committed, no list follows.
    let out = ime.flush(&engine);
    assert_eq!(out.committed, "今日");
    assert!(out.completions.is_empty());
    assert_eq!(ime.suggester().context(), henkan::predict::Context::new());
}

//! Long inputs with the shipped model. A reading of thousands of kana once took the hybrid
//! half a minute and 2 GB in one lattice; it is converted in pieces now (sentences, or cuts at
//! segment boundaries), each engine covering the whole reading. Typed key by key, a
//! composition stops at [`MAX_COMPOSITION_CHARS`]: the next character commits its head, and
//! nothing typed is lost. (Time and memory are measured by `henkan bench memory`, not here.)

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::ime::{Ime, KeyEvent, KEPT_TAIL_CHARS, MAX_COMPOSITION_CHARS};
use henkan::{Conversion, Engine, Scoring, Session, MAX_PIECE_CHARS};

/// Sentences with their ends, then a run of phrases without one (no sentence end for
/// thousands of kana), `chars` kana in all.
fn long_reading(chars: usize) -> String {
    let sentences = "きょうはいいてんきですね。わたしはまいにちがっこうへいきます。\
        えきのまえにあたらしいみせができました！どこへいきますか？";
    let run = "やまのうえからみえるけしきはとてもきれいでこころがやすまるのでまたきたいとおもう";
    let half = chars / 2;
    let mut text: String = sentences.chars().cycle().take(half).collect();
    text.extend(run.chars().cycle().take(chars - half));
    text
}

/// The segments tile the reading in order, each with candidates; the n-best start with the
/// best text.
fn assert_covers(conv: &Conversion, reading: &str) {
    assert_eq!(conv.reading, reading);
    let mut at = 0;
    let mut joined = String::new();
    for seg in &conv.segments {
        assert_eq!(seg.start, at, "{seg:?}");
        assert_eq!(seg.len, seg.reading.chars().count());
        assert!(!seg.candidates.is_empty());
        at += seg.len;
        joined.push_str(&seg.reading);
    }
    assert_eq!(joined, reading);
    assert_eq!(conv.nbest.first(), Some(&conv.text()));
}

#[test]
fn a_long_reading_converts_whole_in_every_engine() {
    let engine = common::shipped_engine();
    let reading = long_reading(5000);
    for name in engine.engines() {
        let mut session = Session::new();
        session.set_scoring(Scoring::from_name(name).unwrap(), Default::default());
        let conv = session.convert_reading(&engine, &reading);
        assert_covers(&conv, &reading);
        // converted, not left as kana
        assert!(conv.text().contains("今日"), "{name}");
        assert!(conv.text().contains("山"), "{name}");
        // the session converts short input as before afterwards
        let short = session.convert_reading(&engine, "きょうはいいてんきですね");
        assert_eq!(short.text(), "今日はいい天気ですね", "{name}");
    }
}

/// Past [`MAX_PIECE_CHARS`], each sentence is converted as it would be alone.
#[test]
fn a_long_reading_converts_each_sentence_as_alone() {
    let engine = common::shipped_engine();
    let sentence = "えきのまえにあたらしいみせができました。";
    let n = sentence.chars().count();
    let reading = sentence.repeat(MAX_PIECE_CHARS / n + 2);
    for name in engine.engines() {
        let scoring = Scoring::from_name(name).unwrap();
        let mut session = Session::new();
        session.set_scoring(scoring, Default::default());
        let alone = session.convert_reading(&engine, sentence);
        let conv = session.convert_reading(&engine, &reading);
        assert_covers(&conv, &reading);
        assert_eq!(conv.text(), alone.text().repeat(MAX_PIECE_CHARS / n + 2));
        for (a, b) in alone.segments.iter().zip(&conv.segments) {
            assert_eq!(a.candidates, b.candidates);
        }
    }
}

/// Typed before the model is in, a long composition commits its head as kana: the committed
/// text and the preedit are exactly what was typed, and the preedit stays within the limit.
#[test]
fn a_long_composition_commits_its_head_without_losing_text() {
    let reading = long_reading(1500);
    let mut ime = Ime::new();
    let mut committed = String::new();
    let mut heads = 0;
    for c in reading.chars() {
        let out = ime.key_without_model(KeyEvent::from_dom(&c.to_string(), 0));
        assert!(out.consumed);
        let shown = out.preedit.text.chars().count();
        assert!(shown <= MAX_COMPOSITION_CHARS);
        heads += usize::from(!out.committed.is_empty());
        committed.push_str(&out.committed);
        let typed: String = reading
            .chars()
            .take(committed.chars().count() + shown)
            .collect();
        assert_eq!(format!("{committed}{}", out.preedit.text), typed);
    }
    assert!(heads >= 5, "{heads}");
    committed.push_str(&ime.flush_without_model().committed);
    assert_eq!(committed, reading);
}

/// With the model (the hybrid), the head is converted; what stays composed is always the end of
/// what was typed, at least [`KEPT_TAIL_CHARS`] long after a head commit.
#[test]
fn a_long_composition_commits_its_converted_head() {
    let engine: Engine = common::shipped_engine();
    let reading = long_reading(700);
    let mut ime = Ime::new();
    ime.set_live(false);
    let mut committed = String::new();
    let mut heads = 0;
    for (i, c) in reading.chars().enumerate() {
        let out = ime.key(&engine, KeyEvent::from_dom(&c.to_string(), 0));
        assert!(out.consumed);
        let kana = ime.session().composer().submission();
        let n = kana.chars().count();
        assert!(n <= MAX_COMPOSITION_CHARS);
        let typed: String = reading.chars().take(i + 1).collect();
        assert!(
            typed.ends_with(&kana),
            "{kana} is not the end of what was typed"
        );
        if !out.committed.is_empty() {
            heads += 1;
            assert!(n > KEPT_TAIL_CHARS);
            assert_ne!(out.committed, typed[..typed.len() - kana.len()]);
        }
        committed.push_str(&out.committed);
    }
    assert!(heads >= 2, "{heads}");
    assert!(committed.contains("今日"), "{committed}");
}

/// A long conversion frees the decoder's buffers at its end: asking the freed decoder for its
/// final sentences gives none (it once read the rows of a vocabulary that was gone).
#[test]
fn a_freed_decoder_has_no_finals() {
    let engine = common::shipped_engine();
    let mut session = Session::new();
    session.set_scoring(Scoring::Hybrid, Default::default());
    session.convert_reading(&engine, &long_reading(1000));
    let lm = engine.neural.as_ref().unwrap();
    let decoder = session.neural_decoder();
    assert!(decoder.finals(&engine.connection, lm).is_empty());
    assert!(decoder.directions(&engine.connection, lm).is_empty());
}

//! The `Emoji` section ([`henkan::emoji`]) from the Unicode CLDR Japanese annotations
//! (`annotations/ja/annotations.json` of the npm package `cldr-annotations-full`).
//!
//! Each emoji's keywords become readings: keywords in kana as they are (in hiragana:
//! `ネコ` → `ねこ`), keywords with kanji through the dictionary (`笑顔` → `えがお`, the reading of
//! its cheapest entry). Single-kanji keywords (`上`, `手`, `顔`) and one-character readings are
//! left out: they would put emoji after the candidates of too many common words; so are
//! readings longer than [`MAX_READING_CHARS`]. Per reading,
//! the emoji whose *tts* name is the keyword come first, then in the file's order.

use crate::error::{Error, Result};
use henkan::composer::{is_kana, to_hiragana};
use henkan::emoji::MAGIC;
use std::collections::BTreeMap;

/// What went into the section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmojiReport {
    /// Emoji with at least one reading.
    pub emoji: usize,
    /// Distinct readings.
    pub readings: usize,
    /// (reading, emoji) pairs.
    pub pairs: usize,
    /// Keywords left out (single kanji, no reading in the dictionary, too short).
    pub skipped: usize,
}

/// Emoji shown per reading at most.
pub const MAX_PER_READING: usize = 8;
/// Longest reading kept (chars): a segment is rarely longer, and the section stays small.
pub const MAX_READING_CHARS: usize = 6;

/// Builds the section from the annotations JSON; `reading_of` gives the reading of a word
/// written with kanji (from the dictionary), if it knows one.
///
/// ```
/// let json = r#"{"annotations":{"annotations":{
///   "🐱":{"default":["ネコ","猫","顔"],"tts":["ネコの顔"]},
///   "😀":{"default":["笑顔","にっこり"],"tts":["にっこり笑う"]}}}}"#;
/// let reading = |w: &str| (w == "笑顔").then(|| "えがお".to_string());
/// let (bytes, report) = henkan_builder::emoji::build_section(json, &reading).unwrap();
/// let table = henkan::emoji::EmojiTable::from_section(&bytes).unwrap();
/// assert_eq!(table.get("ねこ"), ["🐱"]);
/// assert_eq!(table.get("えがお"), ["😀"]);
/// assert_eq!(report.skipped, 2); // 猫 and 顔: single kanji
/// ```
pub fn build_section(
    annotations_json: &str,
    reading_of: &dyn Fn(&str) -> Option<String>,
) -> Result<(Vec<u8>, EmojiReport)> {
    let json: serde_json::Value = serde_json::from_str(annotations_json)
        .map_err(|e| Error::Build(format!("emoji annotations: {e}")))?;
    let map = json
        .pointer("/annotations/annotations")
        .and_then(serde_json::Value::as_object)
        .ok_or_else(|| {
            Error::Build("emoji annotations: no annotations.annotations object".into())
        })?;
    let mut report = EmojiReport::default();
    // reading → (emoji, whether the keyword is its tts name, file order)
    let mut by_reading: BTreeMap<String, Vec<(String, bool, usize)>> = BTreeMap::new();
    for (order, (emoji, a)) in map.iter().enumerate() {
        if emoji.contains(['\t', '\n', ' ']) {
            continue;
        }
        let words = |key: &str| -> Vec<String> {
            a.get(key)
                .and_then(serde_json::Value::as_array)
                .map(|v| {
                    v.iter()
                        .filter_map(|w| w.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let tts = words("tts");
        let mut any = false;
        for word in words("default") {
            let reading = if word.chars().all(is_kana) {
                Some(to_hiragana(&word))
            } else if word.chars().count() >= 2 && !word.is_ascii() {
                reading_of(&word)
            } else {
                None
            };
            let fits = |r: &String| (2..=MAX_READING_CHARS).contains(&r.chars().count());
            let Some(reading) = reading.filter(fits) else {
                report.skipped += 1;
                continue;
            };
            let list = by_reading.entry(reading).or_default();
            if !list.iter().any(|(e, _, _)| e == emoji) {
                list.push((emoji.clone(), tts.contains(&word), order));
                report.pairs += 1;
                any = true;
            }
        }
        report.emoji += usize::from(any);
    }
    let mut text = String::from(MAGIC);
    text.push('\n');
    for (reading, mut list) in by_reading {
        list.sort_by_key(|(_, tts, order)| (!tts, *order));
        list.truncate(MAX_PER_READING);
        let emoji: Vec<&str> = list.iter().map(|(e, _, _)| e.as_str()).collect();
        text.push_str(&reading);
        text.push('\t');
        text.push_str(&emoji.join(" "));
        text.push('\n');
        report.readings += 1;
    }
    Ok((text.into_bytes(), report))
}

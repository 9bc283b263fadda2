//! Readings added to a finished model (`henkan_builder::readings`), on the shipped model: every
//! entry keeps its POS ids, cost, LM word, word vector and bias, the new entries take their
//! word's, the model loads and converts as before, and bad lists are errors.

#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::lm::lstm::WordMatch;
use henkan::{Engine, Session};
use henkan_builder::readings::{add_readings, parse_readings, AddedReading};
use std::collections::HashMap;

/// What an entry is to the engine: POS ids, cost, LM word, vector row, bias.
type Facts = (i32, (u32, WordMatch), Option<u16>, i32);

/// Every entry of the engine's lexicon by `reading surface left right`.
fn facts(engine: &Engine) -> HashMap<String, Facts> {
    let lm = engine
        .neural
        .as_ref()
        .expect("the shipped model has an LSTM");
    let mut out = HashMap::new();
    engine.lexicon.for_each_entry(|reading, e| {
        let key = format!(
            "{reading} {} {} {}",
            engine.lexicon.surface_text(&e.surface, reading),
            e.left_id,
            e.right_id
        );
        let row = lm.coherence.as_ref().and_then(|c| c.row(e.offset));
        let bias = (lm.bias.get(e.offset) * 1000.0).round() as i32;
        out.insert(key, (e.cost, lm.vocab.lm_word(e.offset), row, bias));
    });
    out
}

fn added(reading: &str, surface: &str, like: &str) -> AddedReading {
    AddedReading {
        reading: reading.into(),
        surface: surface.into(),
        like: like.into(),
    }
}

fn convert(engine: &Engine, reading: &str) -> String {
    Session::new().convert_reading(engine, reading).text()
}

/// Entries of `surface` under `reading`: (offset, cost).
fn entries_of(engine: &Engine, reading: &str, surface: &str) -> Vec<(u32, i32)> {
    engine
        .lexicon
        .get(reading)
        .filter(|e| engine.lexicon.surface_text(&e.surface, reading) == surface)
        .map(|e| (e.offset, e.cost))
        .collect()
}

#[test]
fn a_reading_joins_a_list_and_every_entry_keeps_what_it_had() {
    let before_bytes = common::shipped_bytes();
    let before = Engine::from_bytes(before_bytes.clone()).unwrap();
    // ないまく has entries already (内幕): its list moves, with 内膜 (in Mozc's OSS dictionary
    // as うちまく only) after them; so does けんさ's (検査, with an LM word, a vector and the
    // rest), with a made-up 検討; and 検討 is copied under a made-up reading the lexicon has not
    let list = [
        added("ないまく", "内膜", "うちまく"),
        added("けんさ", "検討", "けんとう"),
        added("けんとうう", "検討", "けんとう"),
    ];
    let (bytes, report) = add_readings(before_bytes, &list).unwrap();
    assert!(report.added >= 2, "{report:?}");
    let after = Engine::from_bytes(bytes.clone()).unwrap();

    let (old, new) = (facts(&before), facts(&after));
    for (key, f) in &old {
        assert_eq!(new.get(key), Some(f), "{key} changed");
    }
    assert_eq!(new.len(), old.len() + report.added);
    // the copies have their word's cost, vector and bias, and its LM word as a spelling
    for (reading, surface, like) in [
        ("ないまく", "内膜", "うちまく"),
        ("けんさ", "検討", "けんとう"),
        ("けんとうう", "検討", "けんとう"),
    ] {
        let copies: Vec<_> = new
            .iter()
            .filter(|(k, _)| k.starts_with(&format!("{reading} {surface} ")))
            .collect();
        assert!(!copies.is_empty(), "{surface} under {reading}");
        for (key, f) in copies {
            let twin = key.replacen(reading, like, 1);
            let t = old.get(&twin).unwrap_or_else(|| panic!("{twin}"));
            assert_eq!((f.0, f.2, f.3), (t.0, t.2, t.3), "{key}");
            let lm_unk = after.neural.as_ref().unwrap().vocab.unk_id;
            match t.1 {
                (id, WordMatch::Own) if id != lm_unk => {
                    assert_eq!(f.1, (id, WordMatch::Spelling { extra_cost: 0 }), "{key}")
                }
                other => assert_eq!(f.1, other, "{key}"),
            }
        }
    }
    // the moved and the copied entries have what there is to keep
    let lm = after.neural.as_ref().unwrap();
    let rich = |reading: &str, surface: &str| {
        entries_of(&after, reading, surface).iter().any(|&(o, _)| {
            lm.vocab.lm_id(o) != lm.vocab.unk_id && lm.coherence.as_ref().unwrap().row(o).is_some()
        })
    };
    assert!(rich("けんさ", "検査") && rich("けんとうう", "検討"));

    // the model converts as before where the readings are not typed, and offers the new word
    for reading in [
        "きょうはいいてんきですね",
        "きかいがこしょうした",
        "しけんのけっかがでた",
    ] {
        assert_eq!(
            convert(&after, reading),
            convert(&before, reading),
            "{reading}"
        );
    }
    let mut s = Session::new();
    let conv = s.convert_reading(&after, "ないまく");
    let all = &conv.segments[0].candidates;
    assert!(all.iter().any(|c| c == "内膜"), "{all:?}");

    // adding the list again changes nothing
    let (again, r) = add_readings(bytes.clone(), &list).unwrap();
    assert_eq!((r.added, r.present), (0, 3));
    assert_eq!(again, bytes);
}

#[test]
fn the_shipped_model_reads_kyuunenchuu() {
    let engine = common::shipped_engine();
    let list = parse_readings(include_str!("../../../training/readings.tsv")).unwrap();
    assert!(list.iter().any(|r| r.surface == "旧年中"));
    for r in &list {
        assert!(
            !entries_of(&engine, &r.reading, &r.surface).is_empty(),
            "the shipped model lacks {} read {}: run `make readings MODEL=models/henkan.henkan`",
            r.surface,
            r.reading
        );
    }
    assert_eq!(
        convert(&engine, "きゅうねんちゅうはおせわになりました"),
        "旧年中はお世話になりました"
    );
    let (bytes, report) = add_readings(common::shipped_bytes(), &list).unwrap();
    assert_eq!((report.added, report.present), (0, list.len()));
    assert_eq!(bytes, common::shipped_bytes());
}

#[test]
fn bad_lists_are_errors() {
    for bad in [
        "きゅうねんちゅう\t旧年中\n",
        "kyuunenchuu\t旧年中\tきゅうねんじゅう\n",
        "キュウネンチュウ\t旧年中\tきゅうねんじゅう\n",
        "\t旧年中\tきゅうねんじゅう\n",
    ] {
        assert!(parse_readings(bad).is_err(), "{bad:?}");
    }
    let ok =
        parse_readings("# comment\n\nきゅうねんちゅう\t旧年中\tきゅうねんじゅう\twhy\n").unwrap();
    assert_eq!(
        ok,
        [added("きゅうねんちゅう", "旧年中", "きゅうねんじゅう")]
    );

    let bytes = common::shipped_bytes();
    // a word the lexicon does not have under that reading, and a word under its own reading
    for list in [
        [added("きゅうねんちゅう", "旧年中", "きゅうねん")],
        [added("きゅうねんじゅう", "旧年中", "きゅうねんじゅう")],
    ] {
        let e = add_readings(bytes.clone(), &list).unwrap_err().to_string();
        assert!(e.contains("旧年中"), "{e}");
    }
}

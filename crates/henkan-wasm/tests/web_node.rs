//! wasm-bindgen tests in node: the keystroke scenarios give the native trace, and the wasm
//! handle loads the model, answers keys with plain objects and rejects broken models.
//!
//! ```text
//! cargo test -p henkan-wasm --target wasm32-unknown-unknown --test web_node
//! ```
#![cfg(target_arch = "wasm32")]

use henkan::Engine;
use henkan_wasm::Henkan;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "web_scenarios.rs"]
mod scenarios;

/// The shipped model (`HENKAN_WEB_MODEL`, default `models/henkan.henkan`, set in .cargo/config.toml).
static MODEL: &[u8] = include_bytes!(env!("HENKAN_WEB_MODEL"));

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |v, k| {
        js_sys::Reflect::get(&v, &JsValue::from_str(k)).unwrap()
    })
}

#[wasm_bindgen_test]
fn scenarios_match_native_golden() {
    assert!(
        scenarios::GOLDEN.starts_with(&scenarios::model_line(MODEL)),
        "the golden trace was made with another model: run `cargo test --test web_scenarios` first"
    );
    let engine = Engine::from_bytes(MODEL.to_vec()).unwrap();
    let trace = scenarios::trace_all(&engine, MODEL);
    assert_eq!(trace, scenarios::GOLDEN);
}

#[wasm_bindgen_test]
fn handle_keys_return_plain_objects() {
    let mut h = Henkan::new();
    let info = h
        .load_model_bytes(MODEL.to_vec())
        .map_err(JsValue::from)
        .unwrap();
    assert_eq!(get(&info, "bytes").as_f64(), Some(MODEL.len() as f64));
    let s = h.open_session();
    for c in "kyouhaiitenkidesune".chars() {
        let out = h
            .key(s, &c.to_string(), 0, None)
            .map_err(JsValue::from)
            .unwrap();
        assert_eq!(get(&out, "consumed").as_bool(), Some(true));
    }
    let out = h.key(s, " ", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "state").as_string().as_deref(),
        Some("converting")
    );
    assert_eq!(
        get(&out, "preedit.text").as_string().as_deref(),
        Some("今日はいい天気ですね")
    );
    assert!(js_sys::Array::is_array(&get(&out, "candidates.items")));
    let out = h.key(s, "Enter", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "committed").as_string().as_deref(),
        Some("今日はいい天気ですね")
    );
    assert!(get(&out, "candidates").is_null());
    h.close_session(s);
    assert!(h.key(s, "a", 0, None).is_err(), "closed session");
}

/// Kana input through the handle: `setKanaInput` and each key's `code` (its place on a JIS
/// keyboard); a user's romaji table: `setRomajiTable` refuses one that does not parse, naming
/// its line, and keeps the session's table.
#[wasm_bindgen_test]
fn kana_input_and_a_users_romaji_table() {
    let mut h = Henkan::new();
    h.load_model_bytes(MODEL.to_vec())
        .map_err(JsValue::from)
        .unwrap();
    let s = h.open_session();
    h.set_kana_input(s, true);
    let mut out = JsValue::NULL;
    for (key, code) in [("t", "KeyT"), ("@", "BracketLeft")] {
        out = h
            .key(s, key, 0, Some(code.to_string()))
            .map_err(JsValue::from)
            .unwrap();
    }
    assert_eq!(get(&out, "preedit.text").as_string().as_deref(), Some("が"));
    assert_eq!(get(&out, "kanaInput").as_bool(), Some(true));
    h.key(s, "Escape", 0, None).map_err(JsValue::from).unwrap();
    h.set_kana_input(s, false);
    let err = h
        .set_romaji_table(s, "ka\tか\tx\n")
        .map_err(JsValue::from)
        .unwrap_err();
    let message = js_sys::Reflect::get(&err, &"message".into()).unwrap();
    assert!(
        message.as_string().unwrap().contains("line 1"),
        "{message:?}"
    );
    assert_eq!(
        h.set_romaji_table(s, "kz\tかん\n")
            .map_err(JsValue::from)
            .unwrap(),
        1
    );
    for c in ["k", "z"] {
        out = h.key(s, c, 0, None).map_err(JsValue::from).unwrap();
    }
    assert_eq!(
        get(&out, "preedit.text").as_string().as_deref(),
        Some("かん")
    );
}

/// Writes `bytes` into wasm memory at `at` from JavaScript, as the loader does with each chunk
/// (`www/loader.js`): the write happens outside Rust, between calls into the handle.
fn js_write(at: usize, bytes: &[u8]) {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let chunk = js_sys::Uint8Array::from(bytes);
    js_sys::Uint8Array::new(&memory.buffer()).set(&chunk, at as u32);
}

fn number(v: &JsValue, path: &str) -> usize {
    get(v, path).as_f64().unwrap() as usize
}

/// Feeds `bytes`, the next part of the file, into the handle's model stream as the loader
/// does: each piece written from JavaScript where the last state said, then `modelWrote`.
/// Returns the last state (bytes past the last section are ignored).
fn feed(h: &mut Henkan, mut state: JsValue, bytes: &[u8]) -> Result<JsValue, JsValue> {
    let mut at = 0;
    while at < bytes.len() && number(&state, "len") > 0 {
        let n = number(&state, "len").min(bytes.len() - at);
        js_write(number(&state, "ptr"), &bytes[at..at + n]);
        state = h.model_wrote(n).map_err(JsValue::from)?;
        at += n;
    }
    Ok(state)
}

fn begin(h: &mut Henkan) -> JsValue {
    h.begin_model(MODEL.len() as f64)
        .map_err(JsValue::from)
        .unwrap()
}

#[wasm_bindgen_test]
fn streamed_and_broken_models() {
    let mut h = Henkan::new();
    assert!(h.key(0, "a", 0, None).is_err(), "no model yet");
    assert!(h.model_wrote(1).is_err(), "no download begun");
    // Not a model: refused from its first bytes.
    let state = begin(&mut h);
    assert!(feed(&mut h, state, &[0; 100]).is_err());
    // Cut before the dictionary is in: no classic engine.
    let state = begin(&mut h);
    let state = feed(&mut h, state, &MODEL[..MODEL.len() / 2]).unwrap();
    assert_eq!(get(&state, "coreReady").as_bool(), Some(false));
    assert!(h.load_model_core().is_err());
    assert!(!h.is_loaded());
    // A damaged dictionary section: an error as soon as the section is in.
    let mut bad = MODEL.to_vec();
    let mid = bad.len() / 4;
    bad[mid] ^= 0x55;
    let state = begin(&mut h);
    assert!(feed(&mut h, state, &bad).is_err());
    // The same through the whole-file call.
    assert!(h
        .load_model_bytes(MODEL[..MODEL.len() / 2].to_vec())
        .is_err());
    assert!(h.load_model_bytes(bad).is_err());
    assert!(h.load_model_bytes(MODEL.to_vec()).is_ok());
    assert!(h.is_loaded());
    assert!(h.memory_bytes() >= MODEL.len() as f64);
}

/// The stream keeps the decoded sections, not the compressed file: what the heap holds after
/// a load is the decoded size plus the LMs' own tables (about 6 MB for the forward and the
/// backward LSTM). Keeping the file as well would add its 12 MB.
#[wasm_bindgen_test]
fn a_streamed_model_keeps_only_the_decoded_sections() {
    let decoded: u64 = henkan::model::read_table(MODEL)
        .unwrap()
        .iter()
        .map(|e| e.decoded_length)
        .sum();
    let live = |h: &Henkan| number(&h.heap_stats().map_err(JsValue::from).unwrap(), "liveBytes");
    let mut h = Henkan::new();
    let before = live(&h);
    let state = begin(&mut h);
    let state = feed(&mut h, state, MODEL).unwrap();
    assert_eq!(get(&state, "complete").as_bool(), Some(true));
    h.load_model_core().map_err(JsValue::from).unwrap();
    h.complete_model().map_err(JsValue::from).unwrap();
    let kept = live(&h) - before;
    assert!(
        kept < decoded as usize + MODEL.len() * 3 / 4,
        "{kept} bytes kept for {decoded} decoded bytes"
    );
}

fn type_and_convert(h: &mut Henkan, s: u32, romaji: &str) -> JsValue {
    for c in romaji.chars() {
        h.key(s, &c.to_string(), 0, None)
            .map_err(JsValue::from)
            .unwrap();
    }
    h.key(s, " ", 0, None).map_err(JsValue::from).unwrap()
}

/// The best sentence of an engine for a reading, from the native golden trace.
fn native(engine: &str, reading: &str) -> String {
    let prefix = format!("{engine} {reading} → ");
    let line = scenarios::GOLDEN
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in the golden trace"));
    line[prefix.len()..]
        .split(" | ")
        .next()
        .unwrap()
        .to_string()
}

/// The browser's path: the classic engine from the dictionary part while the LM part is
/// still arriving, then the LM attached and the hybrid (the default) converting exactly as
/// natively.
#[wasm_bindgen_test]
fn progressive_load_then_hybrid_as_native() {
    let mut h = Henkan::new();
    let state = begin(&mut h);
    let state = feed(&mut h, state, &MODEL[..10]).unwrap();
    assert!(get(&state, "layout").is_null(), "the table is not in yet");
    let state = feed(&mut h, state, &MODEL[10..4096]).unwrap();
    let core_end = number(&state, "layout.coreEnd");
    let file_end = number(&state, "layout.fileEnd");
    // The end of the last section (the file may have alignment padding after it).
    assert!(file_end <= MODEL.len() && MODEL.len() - file_end < 16);
    assert!(
        core_end < file_end,
        "the model has LM sections after the dictionary"
    );
    let state = feed(&mut h, state, &MODEL[4096..core_end - 1]).unwrap();
    assert_eq!(get(&state, "coreReady").as_bool(), Some(false));
    // The dictionary part plus a little of the LM part.
    let received = core_end + 1000;
    let state = feed(&mut h, state, &MODEL[core_end - 1..received]).unwrap();
    assert_eq!(get(&state, "coreReady").as_bool(), Some(true));
    assert_eq!(get(&state, "complete").as_bool(), Some(false));
    let info = h.load_model_core().map_err(JsValue::from).unwrap();
    assert_eq!(get(&info, "lmPending").as_bool(), Some(true));
    assert_eq!(
        get(&info, "defaultEngine").as_string().as_deref(),
        Some("classic")
    );
    let s = h.open_session();
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    assert!(h.set_engine(s, "hybrid").is_err(), "no LM yet");
    let out = type_and_convert(&mut h, s, "kyouhaiitenkidesune");
    assert_eq!(
        get(&out, "preedit.text").as_string(),
        Some(native("classic", "きょうはいいてんきですね"))
    );
    // The rest arrives in chunks while a composition is open.
    h.key(s, "Enter", 0, None).map_err(JsValue::from).unwrap();
    for c in "asita".chars() {
        h.key(s, &c.to_string(), 0, None)
            .map_err(JsValue::from)
            .unwrap();
    }
    let mut state = state;
    for at in (received..MODEL.len()).step_by(1 << 16) {
        let end = (at + (1 << 16)).min(MODEL.len());
        state = feed(&mut h, state, &MODEL[at..end]).unwrap();
    }
    assert_eq!(get(&state, "complete").as_bool(), Some(true));
    let info = h.complete_model().map_err(JsValue::from).unwrap();
    assert_eq!(get(&info, "lmPending").as_bool(), Some(false));
    assert_eq!(number(&info, "bytes"), file_end);
    assert_eq!(
        get(&info, "defaultEngine").as_string().as_deref(),
        Some("hybrid")
    );
    // The open composition keeps its engine and its text.
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    let out = h.key(s, " ", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "state").as_string().as_deref(),
        Some("converting")
    );
    let converted = get(&out, "preedit.text").as_string().unwrap();
    let out = h.key(s, "Enter", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(get(&out, "committed").as_string(), Some(converted));
    // Composition empty: the next key finds the session on the default, the hybrid.
    h.key(s, "a", 0, None).map_err(JsValue::from).unwrap();
    h.key(s, "Backspace", 0, None)
        .map_err(JsValue::from)
        .unwrap();
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "hybrid");
    for (romaji, reading) in [
        ("kyouhaiitenkidesune", "きょうはいいてんきですね"),
        ("asitahaamegafurudesyou", "あしたはあめがふるでしょう"),
    ] {
        let out = type_and_convert(&mut h, s, romaji);
        assert_eq!(
            get(&out, "preedit.text").as_string(),
            Some(native("hybrid", reading))
        );
        h.key(s, "Enter", 0, None).map_err(JsValue::from).unwrap();
    }
    // An explicit choice, and one the model does not have.
    h.set_engine(s, "classic").map_err(JsValue::from).unwrap();
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    // The session learned the spellings committed above; learning off forgets them, so the
    // classic engine converts as a fresh native session does.
    h.set_learning(s, false);
    let out = type_and_convert(&mut h, s, "asitahaamegafurudesyou");
    assert_eq!(
        get(&out, "preedit.text").as_string(),
        Some(native("classic", "あしたはあめがふるでしょう"))
    );
    assert!(h.set_engine(s, "quantum").is_err());
}

/// A damaged LM section or a download that breaks off in the LM part: `completeModel` fails,
/// the classic engine keeps converting.
#[wasm_bindgen_test]
fn damaged_or_missing_lm_keeps_classic() {
    let core_end = henkan::model::layout(MODEL).unwrap().core_end as usize;
    let mut bad = MODEL.to_vec();
    let at = (core_end + MODEL.len()) / 2;
    bad[at] ^= 0x55;
    for file in [&bad[..], &MODEL[..at]] {
        let mut h = Henkan::new();
        let state = begin(&mut h);
        let state = feed(&mut h, state, file).unwrap();
        assert_eq!(get(&state, "coreReady").as_bool(), Some(true));
        h.load_model_core().map_err(JsValue::from).unwrap();
        assert!(h.complete_model().is_err());
        let s = h.open_session();
        assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
        assert_eq!(h.default_engine(), "classic");
        let out = type_and_convert(&mut h, s, "kyouhaiitenkidesune");
        assert_eq!(
            get(&out, "preedit.text").as_string(),
            Some(native("classic", "きょうはいいてんきですね"))
        );
    }
}

/// What one field learns, the page's other fields use: one history per page; off in every
/// session forgets it.
#[wasm_bindgen_test]
fn learning_is_shared_by_the_sessions_of_a_page() {
    let mut h = Henkan::new();
    h.load_model_bytes(MODEL.to_vec())
        .map_err(JsValue::from)
        .unwrap();
    let (a, b) = (h.open_session(), h.open_session());
    let preedit = |out: &JsValue| get(out, "preedit.text").as_string().unwrap();
    // 汽車 picked over the first conversion of きしゃ (a correction: learned at once)
    let out = type_and_convert(&mut h, a, "kisha");
    let first = preedit(&out);
    assert_ne!(first, "汽車");
    let out = h.key(a, " ", 0, None).map_err(JsValue::from).unwrap();
    let items: Vec<String> = js_sys::Array::from(&get(&out, "candidates.items"))
        .iter()
        .map(|v| v.as_string().unwrap())
        .collect();
    let train = items
        .iter()
        .position(|c| c == "汽車")
        .expect("汽車 is a candidate");
    h.select_candidate(a, train).map_err(JsValue::from).unwrap();
    let out = h.key(a, "Enter", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(get(&out, "committed").as_string().as_deref(), Some("汽車"));
    // the other field writes it so too
    let out = type_and_convert(&mut h, b, "kisha");
    assert_eq!(preedit(&out), "汽車");
    h.key(b, "Enter", 0, None).map_err(JsValue::from).unwrap();
    // off in one field: the other keeps it; off in both: forgotten, also when on again. The
    // caret moves before each conversion, so that none goes on after the 汽車 committed before
    // it in its field (a sentence's context is no learning).
    let caret_moved = |h: &mut Henkan, s| {
        let out = h
            .key(s, "ArrowLeft", 0, None)
            .map_err(JsValue::from)
            .unwrap();
        assert_eq!(get(&out, "consumed").as_bool(), Some(false));
    };
    h.set_learning(a, false);
    caret_moved(&mut h, b);
    assert_eq!(preedit(&type_and_convert(&mut h, b, "kisha")), "汽車");
    h.key(b, "Enter", 0, None).map_err(JsValue::from).unwrap();
    caret_moved(&mut h, a);
    assert_eq!(preedit(&type_and_convert(&mut h, a, "kisha")), first);
    h.key(a, "Enter", 0, None).map_err(JsValue::from).unwrap();
    h.set_learning(b, false);
    h.set_learning(b, true);
    caret_moved(&mut h, b);
    assert_eq!(preedit(&type_and_convert(&mut h, b, "kisha")), first);
}

/// The words committed lately raise their predictions in every field of the page
/// (`henkan::predict::recent`): 新幹線 committed in one field is the first completion of しんk
/// in the other; a field with learning off gets none, and `clearLearning` forgets them.
#[wasm_bindgen_test]
fn recent_words_are_shared_by_the_sessions_of_a_page() {
    let mut h = Henkan::new();
    h.load_model_bytes(MODEL.to_vec())
        .map_err(JsValue::from)
        .unwrap();
    let (a, b) = (h.open_session(), h.open_session());
    let first_completion = |h: &mut Henkan, s: u32| -> String {
        let mut out = JsValue::NULL;
        for c in "sink".chars() {
            out = h
                .key(s, &c.to_string(), 0, None)
                .map_err(JsValue::from)
                .unwrap();
        }
        h.key(s, "Escape", 0, None).map_err(JsValue::from).unwrap();
        js_sys::Array::from(&get(&out, "completions"))
            .get(0)
            .as_string()
            .unwrap_or_default()
    };
    let before = first_completion(&mut h, b);
    assert_ne!(before, "新幹線");
    let out = type_and_convert(&mut h, a, "sinkansen");
    assert_eq!(
        get(&out, "preedit.text").as_string().as_deref(),
        Some("新幹線")
    );
    h.key(a, "Enter", 0, None).map_err(JsValue::from).unwrap();
    // a new line: the word just committed is not the next word's prediction
    h.key(a, "Enter", 0, None).map_err(JsValue::from).unwrap();
    assert_eq!(first_completion(&mut h, b), "新幹線");
    assert_eq!(first_completion(&mut h, a), "新幹線");
    h.set_learning(b, false);
    assert_eq!(first_completion(&mut h, b), before);
    assert_eq!(first_completion(&mut h, a), "新幹線");
    h.clear_learning();
    assert_eq!(first_completion(&mut h, a), before);
}

/// A fixed-seed slice of the model fuzzing (`henkan::fuzz`) in wasm32, where sizes are 32 bits
/// wide (a header-derived size that wraps here but not natively would show) and a panic
/// aborts the whole module, as it would the page's IME.
#[wasm_bindgen_test]
fn damaged_sections_never_panic_in_wasm32() {
    use henkan::fuzz::{model_mutations, stream_chunkings, ProbeRate};
    let base = Engine::from_bytes(MODEL.to_vec()).unwrap();
    let rate = ProbeRate {
        probe_every: 4,
        reverse_every: 1000,
    };
    // HENKAN_WASM_FUZZ_CASES (at build time) makes a long run of it:
    // HENKAN_WASM_FUZZ_CASES=20000 make test-web-wasm
    let cases = option_env!("HENKAN_WASM_FUZZ_CASES").map_or(60, |n| n.parse().unwrap_or(60));
    let r = model_mutations(&base, 32, cases, rate);
    assert!(r.refused > 0 && r.refused < r.cases, "{r:?}");
    assert_eq!(r.panic_count, 0, "{r:?}");
    let r = stream_chunkings(MODEL, 32, 2);
    assert_eq!(r.panic_count, 0, "{r:?}");
}

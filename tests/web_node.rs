//! wasm-bindgen tests in node: the keystroke scenarios give the native trace, and the wasm
//! handle loads the model, answers keys with plain objects and rejects broken models.
//!
//! ```text
//! cargo test --target wasm32-unknown-unknown --no-default-features --test web_node
//! ```
#![cfg(target_arch = "wasm32")]

use henkan::wasm::Henkan;
use henkan::Engine;
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
        let out = h.key(s, &c.to_string(), 0).map_err(JsValue::from).unwrap();
        assert_eq!(get(&out, "consumed").as_bool(), Some(true));
    }
    let out = h.key(s, " ", 0).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "state").as_string().as_deref(),
        Some("converting")
    );
    assert_eq!(
        get(&out, "preedit.text").as_string().as_deref(),
        Some("今日はいい天気ですね")
    );
    assert!(js_sys::Array::is_array(&get(&out, "candidates.items")));
    let out = h.key(s, "Enter", 0).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "committed").as_string().as_deref(),
        Some("今日はいい天気ですね")
    );
    assert!(get(&out, "candidates").is_null());
    h.close_session(s);
    assert!(h.key(s, "a", 0).is_err(), "closed session");
}

#[wasm_bindgen_test]
fn streamed_buffer_and_broken_models() {
    let mut h = Henkan::new();
    assert!(h.key(0, "a", 0).is_err(), "no model yet");
    // Reserve, grow, then load fewer bytes than reserved: zeros are not a model.
    let p1 = h.alloc_model(1024);
    assert!(p1 > 0);
    let _ = h.grow_model(4096);
    assert!(h.load_model(100).is_err());
    assert!(!h.is_loaded());
    // A truncated and a corrupted model are errors, not panics.
    assert!(h
        .load_model_bytes(MODEL[..MODEL.len() / 2].to_vec())
        .is_err());
    let mut bad = MODEL.to_vec();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x55;
    assert!(h.load_model_bytes(bad).is_err());
    assert!(h.load_model_bytes(MODEL.to_vec()).is_ok());
    assert!(h.is_loaded());
    assert!(h.memory_bytes() >= MODEL.len() as f64);
}

/// Writes `bytes` into wasm memory at `at` from JavaScript, as the loader does with each chunk
/// (`www/loader.js`): the write happens outside Rust, between calls into the handle.
fn js_write(at: usize, bytes: &[u8]) {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let chunk = js_sys::Uint8Array::from(bytes);
    js_sys::Uint8Array::new(&memory.buffer()).set(&chunk, at as u32);
}

fn type_and_convert(h: &mut Henkan, s: u32, romaji: &str) -> JsValue {
    for c in romaji.chars() {
        h.key(s, &c.to_string(), 0).map_err(JsValue::from).unwrap();
    }
    h.key(s, " ", 0).map_err(JsValue::from).unwrap()
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
/// still being written, then the LM attached and the hybrid (the default) converting exactly
/// as natively.
#[wasm_bindgen_test]
fn progressive_load_then_hybrid_as_native() {
    let mut h = Henkan::new();
    let ptr = h.alloc_model(4096);
    js_write(ptr, &MODEL[..10]);
    assert!(
        h.model_layout(10).map_err(JsValue::from).unwrap().is_null(),
        "the table is not in yet"
    );
    js_write(ptr, &MODEL[..4096]);
    let layout = h.model_layout(4096).map_err(JsValue::from).unwrap();
    let core_end = get(&layout, "coreEnd").as_f64().unwrap() as usize;
    let file_end = get(&layout, "fileEnd").as_f64().unwrap() as usize;
    // The end of the last section (the file may have alignment padding after it).
    assert!(file_end <= MODEL.len() && MODEL.len() - file_end < 16);
    assert!(
        core_end < file_end,
        "the model has LM sections after the dictionary"
    );
    let ptr = h.grow_model(file_end).map_err(JsValue::from).unwrap();
    // The dictionary part plus a little of the LM part.
    let received = core_end + 1000;
    js_write(ptr + 4096, &MODEL[4096..received]);
    let info = h
        .load_model_prefix(received)
        .map_err(JsValue::from)
        .unwrap();
    assert_eq!(get(&info, "lmPending").as_bool(), Some(true));
    assert_eq!(
        get(&info, "defaultEngine").as_string().as_deref(),
        Some("classic")
    );
    assert!(
        h.grow_model(file_end + 1).is_err(),
        "the engine owns the buffer now"
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
    h.key(s, "Enter", 0).map_err(JsValue::from).unwrap();
    for c in "asita".chars() {
        h.key(s, &c.to_string(), 0).map_err(JsValue::from).unwrap();
    }
    for at in (received..file_end).step_by(1 << 20) {
        let end = (at + (1 << 20)).min(file_end);
        js_write(ptr + at, &MODEL[at..end]);
    }
    let info = h.complete_model(file_end).map_err(JsValue::from).unwrap();
    assert_eq!(get(&info, "lmPending").as_bool(), Some(false));
    assert_eq!(
        get(&info, "defaultEngine").as_string().as_deref(),
        Some("hybrid")
    );
    // The open composition keeps its engine and its text.
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    let out = h.key(s, " ", 0).map_err(JsValue::from).unwrap();
    assert_eq!(
        get(&out, "state").as_string().as_deref(),
        Some("converting")
    );
    let converted = get(&out, "preedit.text").as_string().unwrap();
    let out = h.key(s, "Enter", 0).map_err(JsValue::from).unwrap();
    assert_eq!(get(&out, "committed").as_string(), Some(converted));
    // Composition empty: the next key finds the session on the default, the hybrid.
    h.key(s, "a", 0).map_err(JsValue::from).unwrap();
    h.key(s, "Backspace", 0).map_err(JsValue::from).unwrap();
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
        h.key(s, "Enter", 0).map_err(JsValue::from).unwrap();
    }
    // An explicit choice, and one the model does not have.
    h.set_engine(s, "classic").map_err(JsValue::from).unwrap();
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    let out = type_and_convert(&mut h, s, "asitahaamegafurudesyou");
    assert_eq!(
        get(&out, "preedit.text").as_string(),
        Some(native("classic", "あしたはあめがふるでしょう"))
    );
    assert!(h.set_engine(s, "quantum").is_err());
}

/// A damaged LM section: `completeModel` fails, the classic engine keeps converting.
#[wasm_bindgen_test]
fn corrupt_lm_keeps_classic() {
    let mut h = Henkan::new();
    let ptr = h.alloc_model(MODEL.len());
    js_write(ptr, MODEL);
    let layout = h.model_layout(MODEL.len()).map_err(JsValue::from).unwrap();
    let core_end = get(&layout, "coreEnd").as_f64().unwrap() as usize;
    h.load_model_prefix(core_end)
        .map_err(JsValue::from)
        .unwrap();
    // The LM part arrives damaged.
    let at = (core_end + MODEL.len()) / 2;
    js_write(ptr + at, &[MODEL[at] ^ 0x55]);
    assert!(h.complete_model(MODEL.len()).is_err());
    let s = h.open_session();
    assert_eq!(h.engine(s).map_err(JsValue::from).unwrap(), "classic");
    assert_eq!(h.default_engine(), "classic");
    let out = type_and_convert(&mut h, s, "kyouhaiitenkidesune");
    assert_eq!(
        get(&out, "preedit.text").as_string(),
        Some(native("classic", "きょうはいいてんきですね"))
    );
}

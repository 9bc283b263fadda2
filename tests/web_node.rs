//! wasm-bindgen tests in node: the keystroke scenarios give the native trace, and the wasm
//! handle loads the model, answers keys with plain objects and rejects broken models.
//!
//! ```text
//! cargo test --target wasm32-unknown-unknown --no-default-features --test web_node
//! ```
#![cfg(target_arch = "wasm32")]

use henkan::wasm::Henkan;
use henkan::Engine;
use wasm_bindgen::JsValue;
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

//! The wasm-bindgen tests of `web_node.rs`, in headless Chromium (chromedriver on PATH; the
//! browser flags are in `webdriver.json`).
//!
//! ```text
//! cargo test -p henkan-wasm --target wasm32-unknown-unknown --test web_browser
//! ```
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "web_node.rs"]
mod cases;

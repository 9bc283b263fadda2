//! The WebAssembly boundary: the only module that knows `wasm-bindgen`.
//!
//! One opaque handle, [`Henkan`], owns the loaded [`Engine`] and one [`Ime`] per text field
//! (a *session id*, a small integer). Each key event is one call that returns one plain
//! JavaScript object (an [`ImeOutput`], camelCase, via `serde-wasm-bindgen`); there are no
//! per-candidate wasm objects to free.
//!
//! The model streams straight into linear memory: [`Henkan::alloc_model`] reserves the
//! buffer (size from `Content-Length`) and returns its address, the loader writes each fetched
//! chunk into `memory.buffer` at that address, [`Henkan::grow_model`] enlarges the buffer when
//! the length was unknown or wrong, and [`Henkan::load_model`] turns the first `len` bytes into
//! the engine without copying them. JavaScript views of `memory.buffer` must be re-created after
//! every call into wasm (memory may have grown, which detaches the old `ArrayBuffer`).

use crate::ime::{Ime, KeyEvent};
use crate::Engine;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The engine and the per-field IMEs, behind one handle.
#[wasm_bindgen]
pub struct Henkan {
    buffer: Vec<u8>,
    engine: Option<Engine>,
    sessions: Vec<Option<Ime>>,
}

/// What [`Henkan::load_model`] reports.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo {
    bytes: usize,
    engines: Vec<&'static str>,
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

impl Henkan {
    fn parts(&mut self, session: u32) -> Result<(&Engine, &mut Ime), JsError> {
        let engine = self
            .engine
            .as_ref()
            .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
        let ime = self
            .sessions
            .get_mut(session as usize)
            .and_then(Option::as_mut)
            .ok_or_else(|| JsError::new(&format!("henkan: no session {session}")))?;
        Ok((engine, ime))
    }

    fn engine_names(&self) -> Vec<&'static str> {
        self.engine
            .as_ref()
            .map(Engine::engines)
            .unwrap_or_default()
    }
}

impl Default for Henkan {
    fn default() -> Self {
        Henkan::new()
    }
}

#[wasm_bindgen]
impl Henkan {
    /// An empty handle (no model yet). Sets the panic hook.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Henkan {
        console_error_panic_hook::set_once();
        Henkan {
            buffer: Vec::new(),
            engine: None,
            sessions: Vec::new(),
        }
    }

    /// Reserves a zeroed model buffer of `len` bytes in linear memory; returns its address.
    #[wasm_bindgen(js_name = allocModel)]
    pub fn alloc_model(&mut self, len: usize) -> usize {
        self.buffer = vec![0; len];
        self.buffer.as_mut_ptr() as usize
    }

    /// Enlarges the model buffer to `len` bytes, keeping its content; returns the (new) address.
    #[wasm_bindgen(js_name = growModel)]
    pub fn grow_model(&mut self, len: usize) -> usize {
        if len > self.buffer.len() {
            self.buffer.reserve_exact(len - self.buffer.len());
            self.buffer.resize(len, 0);
        }
        self.buffer.as_mut_ptr() as usize
    }

    /// Builds the engine from the first `len` bytes of the model buffer (checking magic, version,
    /// sections and checksums). Returns `{ bytes, engines }`. On error the handle has no engine.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&mut self, len: usize) -> Result<JsValue, JsError> {
        let mut bytes = std::mem::take(&mut self.buffer);
        if len > bytes.len() {
            return Err(JsError::new(&format!(
                "henkan: model length {len} is past the {} reserved bytes",
                bytes.len()
            )));
        }
        bytes.truncate(len);
        if bytes.capacity() > len + len / 8 {
            // Grown by doubling (no Content-Length): give the slack back.
            bytes.shrink_to_fit();
        }
        self.install(bytes)
    }

    /// Builds the engine from bytes passed in (one copy; for tests and small models).
    #[wasm_bindgen(js_name = loadModelBytes)]
    pub fn load_model_bytes(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        self.install(bytes)
    }

    fn install(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        self.engine = None;
        let len = bytes.len();
        let engine =
            Engine::from_bytes(bytes).map_err(|e| JsError::new(&format!("henkan: {e}")))?;
        self.engine = Some(engine);
        to_js(&ModelInfo {
            bytes: len,
            engines: self.engine_names(),
        })
    }

    /// Whether a model is loaded.
    #[wasm_bindgen(js_name = isLoaded)]
    pub fn is_loaded(&self) -> bool {
        self.engine.is_some()
    }

    /// The conversion engines the loaded model offers (e.g. `["classic"]`).
    pub fn engines(&self) -> Result<JsValue, JsError> {
        to_js(&self.engine_names())
    }

    /// Opens an IME for one text field; returns its session id.
    #[wasm_bindgen(js_name = openSession)]
    pub fn open_session(&mut self) -> u32 {
        let slot = self
            .sessions
            .iter()
            .position(Option::is_none)
            .unwrap_or_else(|| {
                self.sessions.push(None);
                self.sessions.len() - 1
            });
        self.sessions[slot] = Some(Ime::new());
        slot as u32
    }

    /// Closes a session (the field was detached); its id may be reused.
    #[wasm_bindgen(js_name = closeSession)]
    pub fn close_session(&mut self, session: u32) {
        if let Some(slot) = self.sessions.get_mut(session as usize) {
            *slot = None;
        }
    }

    /// One key event: the DOM `KeyboardEvent.key` and modifier bits (1 Shift, 2 Ctrl, 4 Alt,
    /// 8 Meta). Returns the [`ImeOutput`] as a plain object.
    pub fn key(&mut self, session: u32, key: &str, mods: u32) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.key(engine, KeyEvent::from_dom(key, mods)))
    }

    /// Selects candidate `index` of the focused segment (a click in the candidate window).
    #[wasm_bindgen(js_name = selectCandidate)]
    pub fn select_candidate(&mut self, session: u32, index: usize) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.select_candidate(engine, index))
    }

    /// The state with the live conversion of the composition (n-best, segments): for a view that
    /// updates when typing pauses. Changes nothing.
    pub fn preview(&mut self, session: u32) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.preview(engine))
    }

    /// Commits whatever is composed (the field lost focus, a click moved the caret).
    pub fn flush(&mut self, session: u32) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.flush(engine))
    }

    /// Turns the IME of a session on or off (off commits the composition).
    #[wasm_bindgen(js_name = setEnabled)]
    pub fn set_enabled(&mut self, session: u32, on: bool) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.set_enabled(engine, on))
    }

    /// Drops a session's composition without committing it.
    pub fn cancel(&mut self, session: u32) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.cancel();
        }
    }

    /// Live conversion while composing (n-best and segments on every key); on by default.
    #[wasm_bindgen(js_name = setLive)]
    pub fn set_live(&mut self, session: u32, live: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_live(live);
        }
    }

    /// The size of wasm linear memory in bytes.
    #[wasm_bindgen(js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> f64 {
        (core::arch::wasm32::memory_size::<0>() * 65536) as f64
    }

    /// Suggestions (completions while composing, next-word predictions after a commit) on or
    /// off for a session; on by default, offered only when the model has an n-gram.
    #[wasm_bindgen(js_name = setPredictions)]
    pub fn set_predictions(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_predictions(on);
        }
    }
}

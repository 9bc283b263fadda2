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
//!
//! *Progressive loading* (the models we ship put the dictionary first and the LM sections
//! last): once the header and section table are in, [`Henkan::model_layout`] tells where the
//! core (dictionary, connection, segmenter) and the whole file end; the loader grows the buffer
//! to the whole length *then*, [`Henkan::load_model_prefix`] builds the classic engine as soon
//! as the core is in, and [`Henkan::complete_model`] checks and attaches the LMs when the rest
//! has arrived (sessions that did not choose an engine switch to the default, the hybrid).
//!
//! Aliasing invariant: after `load_model_prefix` the buffer belongs to the engine (shared,
//! never reallocated, so the address stays valid) while JavaScript keeps writing the bytes
//! from `received` on. Rust reads only the checked core sections until `complete_model`, and no
//! Rust reference outlives a call into wasm; JavaScript writes only between calls (wasm runs
//! on the page's one thread), only at or past the `received` of `load_model_prefix` and only
//! before `complete_model`. So no byte a Rust reference covers is ever written behind its back.
//! `grow_model` refuses once the engine owns the buffer. If the LM part never arrives (a
//! broken download, a checksum error) the engine stays classic and the reserved tail stays
//! allocated (unused) until the next load.

use crate::decoder::neural::{NeuralOptions, Scoring};
use crate::ime::{Ime, KeyEvent};
use crate::{model, Engine, Error};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The engine and the per-field IMEs, behind one handle.
#[wasm_bindgen]
pub struct Henkan {
    buffer: Vec<u8>,
    engine: Option<Engine>,
    sessions: Vec<Option<Ime>>,
    /// The engine choice of each session (same index as `sessions`).
    choices: Vec<Choice>,
    /// The engine every session uses that did not choose its own (`None`: the model's default).
    page_engine: Option<Scoring>,
}

/// Which engine a session asked for and which it runs.
#[derive(Debug, Clone, Copy, Default)]
struct Choice {
    /// Set by [`Henkan::set_engine`].
    chosen: Option<Scoring>,
    /// The scoring set on the session, and whether the engine had the LSTM then.
    applied: Option<(Scoring, bool)>,
}

/// What the model loading calls report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo {
    /// Length of the model buffer.
    bytes: usize,
    /// The engines available now.
    engines: Vec<&'static str>,
    /// The engine new sessions use.
    default_engine: &'static str,
    /// Whether the LM sections are still to come ([`Henkan::complete_model`]).
    lm_pending: bool,
}

/// What [`Henkan::model_layout`] reports (byte offsets).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LayoutInfo {
    /// Bytes needed for the classic engine (header, table, all but the LM sections).
    core_end: f64,
    /// Bytes of the whole model.
    file_end: f64,
}

/// The name of a scorer, as [`Engine::engines`] lists it.
fn engine_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Classic => "classic",
        Scoring::Neural => "neural",
        Scoring::Hybrid => "hybrid",
    }
}

/// The scorer named `name`, if the engine offers it.
fn scoring_named(engine: &Engine, name: &str) -> Result<Scoring, JsError> {
    let scoring = match name {
        "classic" => Scoring::Classic,
        "neural" => Scoring::Neural,
        "hybrid" => Scoring::Hybrid,
        _ => return Err(JsError::new(&format!("henkan: no engine named {name:?}"))),
    };
    if !engine.engines().contains(&name) {
        return Err(JsError::new(&format!(
            "henkan: the model has no {name} engine (it offers {})",
            engine.engines().join(", ")
        )));
    }
    Ok(scoring)
}

/// The scorer a session should run: its own choice, else the page's, else the model's
/// default ([`Engine::default_scoring`]); a neural choice waits for the LSTM.
fn wanted(engine: &Engine, page: Option<Scoring>, choice: Choice) -> Scoring {
    choice
        .chosen
        .or(page)
        .filter(|s| *s == Scoring::Classic || engine.neural.is_some())
        .unwrap_or_else(|| engine.default_scoring())
}

fn load_error(e: Error) -> JsError {
    JsError::new(&format!("henkan: {e}"))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

impl Henkan {
    fn parts(&mut self, session: u32) -> Result<(&Engine, &mut Ime), JsError> {
        self.settle(session as usize);
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

    /// Gives a session the scorer it should run, if that changed (a choice, the LM arrived) and
    /// nothing is being composed: a composition keeps the engine it started with, and switching
    /// never touches the composed text.
    fn settle(&mut self, session: usize) {
        let (Some(engine), Some(Some(ime)), Some(&choice)) = (
            self.engine.as_ref(),
            self.sessions.get_mut(session),
            self.choices.get(session),
        ) else {
            return;
        };
        let want = (
            wanted(engine, self.page_engine, choice),
            engine.neural.is_some(),
        );
        if choice.applied != Some(want) && ime.session().composer().is_empty() {
            ime.session_mut()
                .set_scoring(want.0, NeuralOptions::default());
            self.choices[session].applied = Some(want);
        }
    }

    fn settle_all(&mut self) {
        for i in 0..self.sessions.len() {
            self.settle(i);
        }
    }

    fn model_info(&self) -> Result<JsValue, JsError> {
        let engine = self
            .engine
            .as_ref()
            .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
        to_js(&ModelInfo {
            bytes: engine.model_len(),
            engines: engine.engines(),
            default_engine: engine_name(wanted(engine, self.page_engine, Choice::default())),
            lm_pending: engine.lm_pending(),
        })
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
            choices: Vec::new(),
            page_engine: None,
        }
    }

    /// Reserves a zeroed model buffer of `len` bytes in linear memory; returns its address.
    #[wasm_bindgen(js_name = allocModel)]
    pub fn alloc_model(&mut self, len: usize) -> usize {
        self.buffer = vec![0; len];
        self.buffer.as_mut_ptr() as usize
    }

    /// Enlarges the model buffer to `len` bytes, keeping its content; returns the (new) address.
    /// An error once [`Henkan::load_model_prefix`] gave the buffer to the engine.
    #[wasm_bindgen(js_name = growModel)]
    pub fn grow_model(&mut self, len: usize) -> Result<usize, JsError> {
        if self.engine.as_ref().is_some_and(Engine::lm_pending) {
            return Err(JsError::new(
                "henkan: the model buffer cannot grow while its LM part is arriving",
            ));
        }
        if len > self.buffer.len() {
            self.buffer.reserve_exact(len - self.buffer.len());
            self.buffer.resize(len, 0);
        }
        Ok(self.buffer.as_mut_ptr() as usize)
    }

    /// Where the core (what the classic engine needs) and the whole model end, read from the
    /// first `received` bytes of the buffer: `{ coreEnd, fileEnd }`, or `null` while the
    /// section table has not arrived. An error for a file that is not a model of this version.
    #[wasm_bindgen(js_name = modelLayout)]
    pub fn model_layout(&self, received: usize) -> Result<JsValue, JsError> {
        match model::layout(&self.buffer[..received.min(self.buffer.len())]) {
            Ok(l) => to_js(&LayoutInfo {
                core_end: l.core_end as f64,
                file_end: l.file_end as f64,
            }),
            Err(Error::Truncated { .. }) => Ok(JsValue::NULL),
            Err(e) => Err(load_error(e)),
        }
    }

    /// Builds the classic engine from the model buffer of which the first `received` bytes have
    /// arrived (they must hold the core, see [`Henkan::model_layout`]). The buffer keeps its
    /// address (see the module doc for what JavaScript may still write). Returns
    /// `{ bytes, engines, defaultEngine, lmPending }`. On error the handle has no engine.
    #[wasm_bindgen(js_name = loadModelPrefix)]
    pub fn load_model_prefix(&mut self, received: usize) -> Result<JsValue, JsError> {
        self.engine = None;
        let bytes = std::mem::take(&mut self.buffer);
        if received > bytes.len() {
            return Err(JsError::new(&format!(
                "henkan: model length {received} is past the {} reserved bytes",
                bytes.len()
            )));
        }
        self.engine = Some(Engine::from_prefix(bytes, received).map_err(load_error)?);
        self.settle_all();
        self.model_info()
    }

    /// Checks and attaches the LM sections now that `received` bytes of the model have
    /// arrived; sessions that did not choose an engine move to the default (the hybrid) when
    /// their composition is empty. Returns the model info. On error (truncated, checksum) the
    /// classic engine keeps working.
    #[wasm_bindgen(js_name = completeModel)]
    pub fn complete_model(&mut self, received: usize) -> Result<JsValue, JsError> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
        engine
            .attach_lm(received)
            .map_err(|e| JsError::new(&format!("henkan: the language model is unusable: {e}")))?;
        self.settle_all();
        self.model_info()
    }

    /// Builds the engine from the first `len` bytes of the model buffer (checking magic, version,
    /// sections and checksums) at once. Returns the model info like
    /// [`Henkan::load_model_prefix`]. On error the handle has no engine.
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
        self.engine = Some(Engine::from_bytes(bytes).map_err(load_error)?);
        self.settle_all();
        self.model_info()
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
        self.choices.resize(self.sessions.len(), Choice::default());
        self.choices[slot] = Choice::default();
        self.settle(slot);
        slot as u32
    }

    /// Closes a session (the field was detached); its id may be reused.
    #[wasm_bindgen(js_name = closeSession)]
    pub fn close_session(&mut self, session: u32) {
        if let Some(slot) = self.sessions.get_mut(session as usize) {
            *slot = None;
        }
    }

    /// Chooses the engine of one session (`"classic"`, `"neural"`, `"hybrid"`; see
    /// [`Henkan::engines`]). It takes effect at once when nothing is being composed, else after
    /// the composition. An error for an engine the model does not offer (yet).
    #[wasm_bindgen(js_name = setEngine)]
    pub fn set_engine(&mut self, session: u32, name: &str) -> Result<(), JsError> {
        let engine = self
            .engine
            .as_ref()
            .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
        let scoring = scoring_named(engine, name)?;
        let choice = self
            .choices
            .get_mut(session as usize)
            .filter(|_| matches!(self.sessions.get(session as usize), Some(Some(_))))
            .ok_or_else(|| JsError::new(&format!("henkan: no session {session}")))?;
        choice.chosen = Some(scoring);
        self.settle(session as usize);
        Ok(())
    }

    /// Chooses the engine of every session that did not choose its own (the demo's selector);
    /// `""` goes back to the model's default (the hybrid when the LM is loaded).
    #[wasm_bindgen(js_name = setDefaultEngine)]
    pub fn set_default_engine(&mut self, name: &str) -> Result<(), JsError> {
        self.page_engine = if name.is_empty() {
            None
        } else {
            let engine = self
                .engine
                .as_ref()
                .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
            Some(scoring_named(engine, name)?)
        };
        self.settle_all();
        Ok(())
    }

    /// The engine a session converts with now (`"classic"` while the LM has not arrived).
    pub fn engine(&self, session: u32) -> Result<String, JsError> {
        let engine = self
            .engine
            .as_ref()
            .ok_or_else(|| JsError::new("henkan: the model is not loaded"))?;
        let ime = self
            .sessions
            .get(session as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| JsError::new(&format!("henkan: no session {session}")))?;
        let scoring = ime.session().scoring();
        let effective = if engine.neural.is_some() {
            scoring
        } else {
            Scoring::Classic
        };
        Ok(engine_name(effective).to_string())
    }

    /// The engine sessions use unless they chose their own.
    #[wasm_bindgen(js_name = defaultEngine)]
    pub fn default_engine(&self) -> String {
        self.engine
            .as_ref()
            .map(|e| engine_name(wanted(e, self.page_engine, Choice::default())))
            .unwrap_or("classic")
            .to_string()
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

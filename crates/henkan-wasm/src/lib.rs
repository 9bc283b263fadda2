//! The WebAssembly boundary: the only module that knows `wasm-bindgen`.
//!
//! One opaque handle, [`Henkan`], owns the loaded [`Engine`] and one [`Ime`] per text field
//! (a *session id*, a small integer). Each key event is one call that returns one plain
//! JavaScript object (an [`henkan::ime::ImeOutput`], camelCase, via `serde-wasm-bindgen`); there are no
//! per-candidate wasm objects to free.
//!
//! The model streams straight into linear memory, one section at a time (a
//! [`ContainerStream`]): [`Henkan::begin_model`] starts a download and returns where its first
//! bytes go (`{ ptr, len, … }`), the loader writes the next bytes of the fetched chunk into
//! `memory.buffer` there and calls [`Henkan::model_wrote`], which checks and decodes the
//! section those bytes complete (then lets its stored bytes go) and returns where the next
//! bytes go. The whole file is never in memory: after loading, the engine keeps the decoded
//! sections, not the compressed file. JavaScript views of `memory.buffer` must be re-created
//! after every call into wasm (memory may have grown, which detaches the old `ArrayBuffer`).
//!
//! *Progressive loading* (the models we ship put the dictionary first and the LM sections
//! last): the state says `coreReady` once the core (dictionary, connection, segmenter) is in;
//! [`Henkan::load_model_core`] builds the classic engine then, while the LM part is still
//! arriving, and [`Henkan::complete_model`] attaches the LMs when the rest is in (sessions that
//! did not choose an engine switch to the default, the hybrid). A damaged core section is an
//! error of `model_wrote`; a damaged or missing LM part is an error of `complete_model` only,
//! and the classic engine keeps working.
//!
//! Aliasing: the window handed to JavaScript is the spare part of a buffer only the stream
//! owns (nothing in Rust reads it before `model_wrote`), and JavaScript writes only between
//! calls into wasm (one thread), so no byte a Rust reference covers is written behind its back.

#![cfg(target_arch = "wasm32")]
#![deny(missing_docs)]

use henkan::decoder::neural::{NeuralOptions, Scoring};
use henkan::ime::{Ime, KeyEvent};
use henkan::model::{ContainerStream, StoredCopy};
use henkan::predict::recent::RecentWords;
use henkan::user_dictionary::{DictionaryFormat, UserDictionary, UserPos};
use henkan::{Engine, Error};
use serde::Serialize;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// With the feature `heap-stats`: the system allocator (dlmalloc on wasm32) wrapped by `cap`,
/// which counts the bytes handed out and their peak, so that the page can tell the heap the
/// engine keeps from the size of linear memory, which never shrinks ([`Henkan::heap_stats`]).
/// No limit is set.
#[cfg(feature = "heap-stats")]
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// What [`Henkan::heap_stats`] reports (bytes).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HeapStats {
    /// Size of wasm linear memory (it only grows).
    memory_bytes: f64,
    /// Heap bytes allocated now: what the engine, the sessions and the loader keep
    /// (`null` without the feature `heap-stats`).
    live_bytes: Option<f64>,
    /// The most heap bytes allocated at once since the module started (`null` without the
    /// feature `heap-stats`).
    peak_bytes: Option<f64>,
}

/// The engine and the per-field IMEs, behind one handle.
#[wasm_bindgen]
pub struct Henkan {
    /// The model being downloaded, until the engine has every part of it.
    stream: Option<ContainerStream>,
    /// The stored copy of the loaded model being handed out ([`Henkan::stored_copy_parts`]):
    /// views of the engine's sections, no bytes of its own but the header.
    copy: Option<StoredCopy>,
    engine: Option<Engine>,
    sessions: Vec<Option<Ime>>,
    /// The engine choice of each session (same index as `sessions`).
    choices: Vec<Choice>,
    /// The spellings learned in any session, shared by all ([`henkan::history`]).
    history: henkan::history::History,
    /// Bumped whenever `history` changes.
    history_version: u64,
    /// The engine every session uses that did not choose its own (`None`: the model's default).
    page_engine: Option<Scoring>,
    /// The words committed lately in any session with learning on, which raise their
    /// predictions ([`henkan::predict::recent`]); while a session acts, it holds them.
    recent: RecentWords,
    /// The session holding `recent` (it handed them to the last session that acted).
    recent_at: Option<usize>,
    /// The user dictionary, shared by all sessions ([`henkan::user_dictionary`]).
    user: Arc<UserDictionary>,
    /// Bumped whenever `user` changes.
    user_version: u64,
}

/// Which engine a session asked for and which it runs.
#[derive(Debug, Clone, Copy, Default)]
struct Choice {
    /// Set by [`Henkan::set_engine`].
    chosen: Option<Scoring>,
    /// The scoring set on the session, and whether the engine had the LSTM then.
    applied: Option<(Scoring, bool)>,
    /// The version of the page's history the session has taken over.
    history: u64,
    /// The version of the page's user dictionary the session converts with.
    user: u64,
}

/// What the model loading calls report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo {
    /// Length of the model file.
    bytes: usize,
    /// The engines available now.
    engines: Vec<&'static str>,
    /// The engine new sessions use.
    default_engine: &'static str,
    /// Whether the LM sections are still to come ([`Henkan::complete_model`]).
    lm_pending: bool,
}

/// What [`Henkan::import_learning`] read.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LearningReport {
    /// Learned readings kept.
    readings: usize,
    /// User-dictionary words.
    words: usize,
    /// Dictionary lines skipped.
    skipped: usize,
}

/// One user-dictionary word, for [`Henkan::user_dictionary_list`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WordInfo<'a> {
    reading: &'a str,
    word: &'a str,
    pos: &'static str,
    pos_key: UserPos,
    comment: &'a str,
}

/// One user POS, for [`Henkan::user_pos_list`].
#[derive(Serialize)]
struct PosInfo {
    name: &'static str,
    key: UserPos,
}

/// Where the core and the whole model end (byte offsets, from the section table).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LayoutInfo {
    /// Bytes needed for the classic engine (header, table, all but the LM sections).
    core_end: f64,
    /// Bytes of the whole model.
    file_end: f64,
}

/// What [`Henkan::begin_model`] and [`Henkan::model_wrote`] report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StreamState {
    /// Address in linear memory where the next bytes of the file go.
    ptr: usize,
    /// How many bytes fit there (0: every section is in; the rest of the file is ignored).
    len: usize,
    /// Bytes of the file received.
    received: f64,
    /// Where the parts of the model end, once the section table is in.
    layout: Option<LayoutInfo>,
    /// Whether the core is in and checked: [`Henkan::load_model_core`] can build the classic
    /// engine.
    core_ready: bool,
    /// Whether every section is in (or skipped after an error in the LM part).
    complete: bool,
}

/// The error of a call that needs the model before it is loaded.
fn not_loaded() -> JsError {
    JsError::new("henkan: the model is not loaded")
}

/// The loaded engine, or [`not_loaded`].
fn loaded(engine: &Option<Engine>) -> Result<&Engine, JsError> {
    engine.as_ref().ok_or_else(not_loaded)
}

/// The error of a call with a session id that is not open.
/// A romaji table from its text (`""`: the built-in one), or a clear error.
fn romaji_table(text: &str) -> Result<henkan::composer::RomajiTable, JsError> {
    if text.is_empty() {
        return Ok(henkan::composer::RomajiTable::builtin());
    }
    henkan::composer::RomajiTable::parse(text)
        .map_err(|e| JsError::new(&format!("romaji table: {e}")))
}

fn no_session(session: u32) -> JsError {
    JsError::new(&format!("henkan: no session {session}"))
}

/// The IME of an open session, with today's date set (for the date candidates).
fn open_ime(sessions: &mut [Option<Ime>], session: u32) -> Result<&mut Ime, JsError> {
    let ime = sessions
        .get_mut(session as usize)
        .and_then(Option::as_mut)
        .ok_or_else(|| no_session(session))?;
    ime.session_mut().set_today(today());
    Ok(ime)
}

/// The scorer named `name`, if the engine offers it.
fn scoring_named(engine: &Engine, name: &str) -> Result<Scoring, JsError> {
    let Some(scoring) = Scoring::from_name(name) else {
        return Err(JsError::new(&format!("henkan: no engine named {name:?}")));
    };
    if !engine.engines().contains(&name) {
        return Err(JsError::new(&format!(
            "henkan: the model has no {name} engine (it offers {})",
            engine.engines().join(", ")
        )));
    }
    Ok(scoring)
}

/// Today by the page's clock (local time), for the date candidates of `きょう`, `あした`, …
fn today() -> Option<henkan::dates::Day> {
    let now = js_sys::Date::new_0();
    let year = i32::try_from(now.get_full_year()).ok()?;
    henkan::dates::Day::new(year, now.get_month() + 1, now.get_date())
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
    fn stream_mut(&mut self) -> Result<&mut ContainerStream, JsError> {
        self.stream
            .as_mut()
            .ok_or_else(|| JsError::new("henkan: no model is being loaded"))
    }

    fn stream_state(&mut self) -> Result<JsValue, JsError> {
        let stream = self.stream_mut()?;
        let window = stream.window();
        let (ptr, len) = (window.as_mut_ptr() as usize, window.len());
        to_js(&StreamState {
            ptr,
            len,
            received: stream.received() as f64,
            layout: stream.layout().map(|l| LayoutInfo {
                core_end: l.core_end as f64,
                file_end: l.file_end as f64,
            }),
            core_ready: stream.core_ready(),
            complete: stream.is_complete(),
        })
    }

    /// Runs `action` on a session's IME (with the engine once the dictionary is in, `None`
    /// before: keys are composed without it), keeps what it learned and returns its output as a
    /// plain object.
    fn act(
        &mut self,
        session: u32,
        action: impl FnOnce(Option<&Engine>, &mut Ime) -> henkan::ime::ImeOutput,
    ) -> Result<JsValue, JsError> {
        self.settle(session as usize);
        let ime = open_ime(&mut self.sessions, session)?;
        let out = action(self.engine.as_ref(), ime);
        self.collect_history(session as usize);
        to_js(&out)
    }

    fn parts(&mut self, session: u32) -> Result<(&Engine, &mut Ime), JsError> {
        self.settle(session as usize);
        let engine = loaded(&self.engine)?;
        Ok((engine, open_ime(&mut self.sessions, session)?))
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
        if choice.history != self.history_version && ime.session().composer().is_empty() {
            ime.session_mut().share_history(&self.history);
            self.choices[session].history = self.history_version;
        }
        if choice.user != self.user_version && ime.session().composer().is_empty() {
            ime.set_user_dictionary(Some(self.user.clone()));
            self.choices[session].user = self.user_version;
        }
        self.hand_recent(session);
    }

    /// Moves the page's recent words to `session` (a session with learning off gets none).
    fn hand_recent(&mut self, session: usize) {
        if self.recent_at == Some(session) {
            return;
        }
        self.take_back_recent();
        if let Some(Some(ime)) = self.sessions.get_mut(session) {
            if ime.learning() {
                ime.set_recent_words(std::mem::take(&mut self.recent));
                self.recent_at = Some(session);
            }
        }
    }

    /// The recent words come back to the page from the session holding them.
    fn take_back_recent(&mut self) {
        if let Some(at) = self.recent_at.take() {
            if let Some(Some(ime)) = self.sessions.get_mut(at) {
                self.recent = ime.take_recent_words();
            }
        }
    }

    /// Forgets the recent words (a new model numbers its words otherwise; learning is off).
    fn forget_recent(&mut self) {
        self.take_back_recent();
        self.recent.clear();
    }

    /// After a call that may have committed: what the session learned becomes the page's (the
    /// other sessions take it over before their next key).
    fn collect_history(&mut self, session: usize) {
        if let Some(Some(ime)) = self.sessions.get(session) {
            if !ime.learning() {
                return;
            }
            let h = ime.session().history();
            if h.version() != self.history.version() || h.len() != self.history.len() {
                self.history = h.clone();
                self.history_version += 1;
                self.choices[session].history = self.history_version;
            }
        }
    }

    fn settle_all(&mut self) {
        for i in 0..self.sessions.len() {
            self.settle(i);
        }
    }

    fn model_info(&self) -> Result<JsValue, JsError> {
        let engine = loaded(&self.engine)?;
        to_js(&ModelInfo {
            bytes: engine.model_len(),
            engines: engine.engines(),
            default_engine: Scoring::name(wanted(engine, self.page_engine, Choice::default())),
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
            stream: None,
            copy: None,
            engine: None,
            sessions: Vec::new(),
            choices: Vec::new(),
            history: henkan::history::History::default(),
            history_version: 0,
            recent: RecentWords::default(),
            recent_at: None,
            page_engine: None,
            user: Arc::new(UserDictionary::new()),
            user_version: 0,
        }
    }

    /// Starts loading a model of `expected` bytes (its `Content-Length`; 0: unknown) and
    /// returns the state: where its first bytes go (see the module doc).
    #[wasm_bindgen(js_name = beginModel)]
    pub fn begin_model(&mut self, expected: f64) -> Result<JsValue, JsError> {
        let expected = (expected > 0.0).then_some(expected as u64);
        self.stream = Some(ContainerStream::new(expected));
        self.stream_state()
    }

    /// Takes note that `n` bytes were written where the last state said; checks and decodes
    /// the section they complete. Returns the new state. An error for a file that is not a
    /// model of this version or whose core is damaged.
    #[wasm_bindgen(js_name = modelWrote)]
    pub fn model_wrote(&mut self, n: usize) -> Result<JsValue, JsError> {
        self.stream_mut()?.wrote(n).map_err(load_error)?;
        self.stream_state()
    }

    /// Builds the classic engine from the core of the model being loaded (the state said
    /// `coreReady`); the LM part may still be arriving. Returns
    /// `{ bytes, engines, defaultEngine, lmPending }`. On error the handle has no engine.
    #[wasm_bindgen(js_name = loadModelCore)]
    pub fn load_model_core(&mut self) -> Result<JsValue, JsError> {
        self.engine = None;
        self.forget_recent();
        let core = self.stream_mut()?.core().map_err(load_error)?;
        let engine = Engine::from_container(core).map_err(load_error)?;
        if !engine.lm_pending() {
            self.stream = None;
        }
        self.engine = Some(engine);
        self.settle_all();
        self.model_info()
    }

    /// Attaches the LMs once the state said `complete`, and ends the load (call it also when
    /// the download broke off: the memory of the unfinished part is let go). Sessions that did
    /// not choose an engine move to the default (the hybrid) when their composition is empty.
    /// Returns the model info. On error (truncated, checksum) the classic engine keeps working.
    #[wasm_bindgen(js_name = completeModel)]
    pub fn complete_model(&mut self) -> Result<JsValue, JsError> {
        let stream = self.stream.take();
        let engine = self.engine.as_mut().ok_or_else(not_loaded)?;
        if engine.lm_pending() {
            let container = stream
                .ok_or_else(|| JsError::new("henkan: no model is being loaded"))?
                .finish();
            container
                .and_then(|c| engine.attach_lm_container(c))
                .map_err(|e| {
                    JsError::new(&format!("henkan: the language model is unusable: {e}"))
                })?;
        }
        self.settle_all();
        self.model_info()
    }

    /// Prepares a copy of the loaded model with every section stored as it is (decoded,
    /// encoding 0: `henkan::model::StoredCopy`), for a later visit to load without decoding;
    /// returns how many parts [`Henkan::stored_copy_part`] hands out. Computes the CRC-32 of
    /// every section (≈ 21 MB for the shipped model). An error before the whole model is in.
    #[wasm_bindgen(js_name = storedCopyParts)]
    pub fn stored_copy_parts(&mut self) -> Result<u32, JsError> {
        let engine = loaded(&self.engine)?;
        let copy = engine.container().stored_copy().map_err(load_error)?;
        let parts = copy.sections().len() as u32 + 1;
        self.copy = Some(copy);
        Ok(parts)
    }

    /// Part `i` of the stored copy, a new `Uint8Array` (a copy outside wasm memory, so that
    /// linear memory does not grow): 0 is the header and table, padded to the first section;
    /// `i` ≥ 1 is section `i − 1` with the padding after it. The parts in order are the file.
    /// Taking the last part lets the copy go.
    #[wasm_bindgen(js_name = storedCopyPart)]
    pub fn stored_copy_part(&mut self, i: u32) -> Result<js_sys::Uint8Array, JsError> {
        let copy = self
            .copy
            .as_ref()
            .ok_or_else(|| JsError::new("henkan: no stored copy is being made"))?;
        let i = i as usize;
        let part = if i == 0 {
            js_sys::Uint8Array::from(copy.header())
        } else {
            let (at, bytes) = copy
                .sections()
                .get(i - 1)
                .ok_or_else(|| JsError::new("henkan: no such part of the stored copy"))?;
            let bytes = bytes.as_ref();
            let part = js_sys::Uint8Array::new_with_length((copy.part_end(i - 1) - at) as u32);
            part.subarray(0, bytes.len() as u32).copy_from(bytes);
            part
        };
        if i == copy.sections().len() {
            self.copy = None;
        }
        Ok(part)
    }

    /// Builds the engine from bytes passed in (one copy; for tests and small models).
    #[wasm_bindgen(js_name = loadModelBytes)]
    pub fn load_model_bytes(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        self.install(bytes)
    }

    fn install(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        self.engine = None;
        self.forget_recent();
        self.stream = None;
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
        let mut ime = Ime::new();
        // Keys leave the LM's forward pass for `catchUp`, which the widget calls once the
        // key's preedit is on screen.
        ime.set_lm_deferred(true);
        self.sessions[slot] = Some(ime);
        self.choices.resize(self.sessions.len(), Choice::default());
        self.choices[slot] = Choice {
            user: u64::MAX,
            ..Choice::default()
        };
        self.settle(slot);
        slot as u32
    }

    /// Closes a session (the field was detached); its id may be reused.
    #[wasm_bindgen(js_name = closeSession)]
    pub fn close_session(&mut self, session: u32) {
        // the next session to act takes them again
        self.take_back_recent();
        if let Some(slot) = self.sessions.get_mut(session as usize) {
            *slot = None;
        }
    }

    /// Chooses the engine of one session (`"classic"`, `"neural"`, `"hybrid"`; see
    /// [`Henkan::engines`]). It takes effect at once when nothing is being composed, else after
    /// the composition. An error for an engine the model does not offer (yet).
    #[wasm_bindgen(js_name = setEngine)]
    pub fn set_engine(&mut self, session: u32, name: &str) -> Result<(), JsError> {
        let engine = loaded(&self.engine)?;
        let scoring = scoring_named(engine, name)?;
        let choice = self
            .choices
            .get_mut(session as usize)
            .filter(|_| matches!(self.sessions.get(session as usize), Some(Some(_))))
            .ok_or_else(|| no_session(session))?;
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
            let engine = loaded(&self.engine)?;
            Some(scoring_named(engine, name)?)
        };
        self.settle_all();
        Ok(())
    }

    /// The engine a session converts with now (`"classic"` while the LM has not arrived).
    pub fn engine(&self, session: u32) -> Result<String, JsError> {
        let engine = loaded(&self.engine)?;
        let ime = self
            .sessions
            .get(session as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| no_session(session))?;
        let scoring = ime.session().scoring();
        let effective = if engine.neural.is_some() {
            scoring
        } else {
            Scoring::Classic
        };
        Ok(Scoring::name(effective).to_string())
    }

    /// The engine sessions use unless they chose their own.
    #[wasm_bindgen(js_name = defaultEngine)]
    pub fn default_engine(&self) -> String {
        self.engine
            .as_ref()
            .map(|e| Scoring::name(wanted(e, self.page_engine, Choice::default())))
            .unwrap_or("classic")
            .to_string()
    }

    /// One key event: the DOM `KeyboardEvent.key` and modifier bits (1 Shift, 2 Ctrl, 4 Alt,
    /// 8 Meta). Returns the [`henkan::ime::ImeOutput`] as a plain object. Before the
    /// dictionary is in, keys are composed all the same (Space offers kana and katakana).
    ///
    /// `code`, the DOM `KeyboardEvent.code` (the key's place on the keyboard), says which kana a
    /// key types in kana input ([`Henkan::set_kana_input`]); without it keys type as in romaji
    /// input.
    pub fn key(
        &mut self,
        session: u32,
        key: &str,
        mods: u32,
        code: Option<String>,
    ) -> Result<JsValue, JsError> {
        let ev = KeyEvent::from_dom(key, mods);
        self.act(session, |engine, ime| {
            let ev = code.as_deref().map_or(ev, |code| ime.kana_key(ev, code));
            match engine {
                Some(engine) => ime.key(engine, ev),
                None => ime.key_without_model(ev),
            }
        })
    }

    /// Reconversion: `text` (selected in the field, at most
    /// [`henkan::ime::MAX_RECONVERT_CHARS`] chars) is converted again from its reading; the
    /// commit replaces the selection. Not consumed while composing, or before the dictionary is
    /// in. The first call on text not committed lately builds the reverse index from the lexicon
    /// (once per page; `henkan::reverse::ReverseIndex`).
    pub fn reconvert(&mut self, session: u32, text: &str) -> Result<JsValue, JsError> {
        self.act(session, |engine, ime| match engine {
            Some(engine) => ime.reconvert(engine, text),
            None => ime.flush_without_model(),
        })
    }

    /// Selects candidate `index` of the focused segment (a click in the candidate window).
    #[wasm_bindgen(js_name = selectCandidate)]
    pub fn select_candidate(&mut self, session: u32, index: usize) -> Result<JsValue, JsError> {
        self.act(session, |engine, ime| match engine {
            Some(engine) => ime.select_candidate(engine, index),
            None => ime.select_candidate_without_model(index),
        })
    }

    /// Runs the work the last keys left for later (the LM's forward pass): the widget calls it
    /// once a key's preedit is on screen, so that a key costs what the composer and the
    /// dictionary lattice cost. Returns the new state when what is shown changed (a suggestion
    /// that turned out to be what Space gives; the rest after a resize, which the key showed as
    /// the dictionary converts it, as the LM does), else `null`. Whatever needs the LM (Space,
    /// live conversion) catches up by itself; without this call, only that suggestion stays.
    #[wasm_bindgen(js_name = catchUp)]
    pub fn catch_up(&mut self, session: u32) -> Result<JsValue, JsError> {
        let Ok((engine, ime)) = self.parts(session) else {
            return Ok(JsValue::NULL);
        };
        match ime.catch_up(engine) {
            Some(out) => to_js(&out),
            None => Ok(JsValue::NULL),
        }
    }

    /// The best conversion of the composition as it stands (cheap once the LM caught up: the
    /// widget lays it out unseen, so that its glyphs are ready when Space shows it); `""` when
    /// nothing is composed or no model is loaded.
    #[wasm_bindgen(js_name = bestText)]
    pub fn best_text(&mut self, session: u32) -> String {
        let Ok((engine, ime)) = self.parts(session) else {
            return String::new();
        };
        if ime.session().composer().is_empty() {
            return String::new();
        }
        let s = ime.session_mut();
        s.settle_lm(engine);
        s.best_text(engine)
    }

    /// The state with the live conversion of the composition (n-best, segments): for a view that
    /// updates when typing pauses. Changes nothing.
    pub fn preview(&mut self, session: u32) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        to_js(&ime.preview(engine))
    }

    /// The words behind the session's conversion, for a lattice view: `{ reading, engine, words:
    /// [{ reading, surface, start, len, leftId, rightId, wordCost, connectionCost, source,
    /// lmLogProb, lmStep, inLmVocabulary }], endConnectionCost, cost, lmScore, lmEnd }`
    /// ([`henkan::BestPath`]; the LM fields are `null` with the classic engine). With a neural
    /// scorer it re-ranks the final beam again: call it when the view is shown, not per key.
    /// Changes nothing.
    #[wasm_bindgen(js_name = bestPath)]
    pub fn best_path(&mut self, session: u32) -> Result<JsValue, JsError> {
        let (engine, ime) = self.parts(session)?;
        ime.session_mut().settle_lm(engine);
        to_js(&ime.session().best_path_words(engine))
    }

    /// Commits whatever is composed (the field lost focus, a click moved the caret).
    pub fn flush(&mut self, session: u32) -> Result<JsValue, JsError> {
        self.act(session, |engine, ime| match engine {
            Some(engine) => ime.flush(engine),
            None => ime.flush_without_model(),
        })
    }

    /// Turns the IME of a session on or off (off commits the composition).
    #[wasm_bindgen(js_name = setEnabled)]
    pub fn set_enabled(&mut self, session: u32, on: bool) -> Result<JsValue, JsError> {
        self.act(session, |engine, ime| match engine {
            Some(engine) => ime.set_enabled(engine, on),
            None => ime.set_enabled_without_model(on),
        })
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

    /// Live conversion: the preedit shows the best conversion as you type, Enter commits it
    /// ([`henkan::ime::Machine::set_live_conversion`]); off by default.
    #[wasm_bindgen(js_name = setLiveConversion)]
    pub fn set_live_conversion(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_live_conversion(on);
        }
    }

    /// Whether keys leave the LM's forward pass for [`Henkan::catch_up`] (on by default); off,
    /// every key runs it (for comparing the two).
    #[wasm_bindgen(js_name = setLmDeferred)]
    pub fn set_lm_deferred(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_lm_deferred(on);
        }
    }

    /// The size of wasm linear memory in bytes.
    #[wasm_bindgen(js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> f64 {
        (core::arch::wasm32::memory_size::<0>() * 65536) as f64
    }

    /// `{ memoryBytes, liveBytes, peakBytes }`: linear memory, the heap bytes allocated now and
    /// the most allocated at once (linear memory never shrinks, so it shows the peak plus the
    /// allocator's fragmentation, not what is kept). The heap figures are counted only in a
    /// build with the feature `heap-stats` (`make measure-web`, the wasm tests); else `null`.
    #[wasm_bindgen(js_name = heapStats)]
    pub fn heap_stats(&self) -> Result<JsValue, JsError> {
        to_js(&HeapStats {
            memory_bytes: self.memory_bytes(),
            #[cfg(feature = "heap-stats")]
            live_bytes: Some(ALLOCATOR.allocated() as f64),
            #[cfg(feature = "heap-stats")]
            peak_bytes: Some(ALLOCATOR.max_allocated() as f64),
            #[cfg(not(feature = "heap-stats"))]
            live_bytes: None,
            #[cfg(not(feature = "heap-stats"))]
            peak_bytes: None,
        })
    }

    /// Learning from committed text (a reading's chosen spelling comes first next time) on or
    /// off for a session; on by default. What one session learns, the page's other sessions
    /// with learning on use too (one history per page). Off: the session forgets it, and the
    /// page forgets it when no session learns any more. The history lives in wasm memory; the
    /// page may store `exportLearning()` and give it back with `importLearning()`. The words
    /// committed lately, which raise their predictions, are shared the same way and never
    /// stored.
    #[wasm_bindgen(js_name = setLearning)]
    pub fn set_learning(&mut self, session: u32, on: bool) {
        // the next session to act takes them again
        self.take_back_recent();
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_learning(on);
        }
        let anyone = self.sessions.iter().flatten().any(Ime::learning);
        if !on && !anyone {
            self.history.clear();
            self.history_version += 1;
            self.forget_recent();
        }
    }

    /// A number that changes whenever what the page learned (the history) or the user
    /// dictionary changes: after a call that committed text (`committed` not empty), and after
    /// `importLearning`, `clearLearning` and every user-dictionary change. The page saves
    /// `exportLearning()` when it differs from the number it saved last.
    #[wasm_bindgen(js_name = learningVersion)]
    pub fn learning_version(&self) -> f64 {
        (self.history_version + self.user_version) as f64
    }

    /// What the page learned and the user dictionary, as one versioned text to store
    /// ([`henkan::user_data`]): by reading and text, so it survives a new model.
    #[wasm_bindgen(js_name = exportLearning)]
    pub fn export_learning(&self) -> String {
        henkan::user_data::export(&self.history, &self.user)
    }

    /// Replaces what the page learned and the user dictionary by an `exportLearning()` text
    /// (needs the model). Returns `{ readings, words, skipped }`; anything but such a text is
    /// an error, and nothing changes.
    #[wasm_bindgen(js_name = importLearning)]
    pub fn import_learning(&mut self, text: &str) -> Result<JsValue, JsError> {
        let engine = loaded(&self.engine)?;
        let got = henkan::user_data::import(engine, text, self.history.capacity())
            .map_err(|e| JsError::new(&format!("henkan: {e}")))?;
        let report = LearningReport {
            readings: got.history.len(),
            words: got.dictionary.len(),
            skipped: got.report.skipped,
        };
        self.history = got.history;
        self.history_version += 1;
        self.user = Arc::new(got.dictionary);
        self.user_version += 1;
        self.settle_all();
        to_js(&report)
    }

    /// Forgets what the page learned, the recent words of the predictions and every field's
    /// recent spellings too (the user dictionary stays).
    #[wasm_bindgen(js_name = clearLearning)]
    pub fn clear_learning(&mut self) {
        self.history.clear();
        self.history_version += 1;
        self.forget_recent();
        for ime in self.sessions.iter_mut().flatten() {
            ime.session_mut().forget_recent_spellings();
        }
        self.settle_all();
    }

    /// Adds a word to the user dictionary: `pos` is one of `userPosList()` (Mozc's name, e.g.
    /// `名詞`, `人名`, `地名`, `組織`, `短縮よみ`, or its key, e.g. `personName`). Returns whether
    /// it was new; an error for an unknown POS, an empty or too long field, a full dictionary.
    #[wasm_bindgen(js_name = userDictionaryAdd)]
    pub fn user_dictionary_add(
        &mut self,
        reading: &str,
        word: &str,
        pos: &str,
        comment: Option<String>,
    ) -> Result<bool, JsError> {
        let p = UserPos::from_name(pos)
            .ok_or_else(|| JsError::new(&format!("henkan: unknown part of speech {pos:?}")))?;
        let added = Arc::make_mut(&mut self.user)
            .add(reading, word, p, comment.as_deref().unwrap_or(""))
            .map_err(|e| JsError::new(&format!("henkan: {e}")))?;
        self.user_version += 1;
        self.settle_all();
        Ok(added)
    }

    /// Removes the word (reading, word) from the user dictionary (any POS). Returns how many
    /// were removed.
    #[wasm_bindgen(js_name = userDictionaryRemove)]
    pub fn user_dictionary_remove(&mut self, reading: &str, word: &str) -> u32 {
        let n = Arc::make_mut(&mut self.user).remove(reading, word, None);
        if n > 0 {
            self.user_version += 1;
            self.settle_all();
        }
        n as u32
    }

    /// Empties the user dictionary.
    #[wasm_bindgen(js_name = userDictionaryClear)]
    pub fn user_dictionary_clear(&mut self) {
        Arc::make_mut(&mut self.user).clear();
        self.user_version += 1;
        self.settle_all();
    }

    /// The user dictionary: an array of `{ reading, word, pos, posKey, comment }` in the order
    /// added (`pos` as Mozc names it, `posKey` as `userPosList()` keys it).
    #[wasm_bindgen(js_name = userDictionaryList)]
    pub fn user_dictionary_list(&self) -> Result<JsValue, JsError> {
        let list: Vec<WordInfo> = self
            .user
            .words()
            .iter()
            .map(|w| WordInfo {
                reading: &w.reading,
                word: &w.word,
                pos: w.pos.name(),
                pos_key: w.pos,
                comment: &w.comment,
            })
            .collect();
        to_js(&list)
    }

    /// The parts of speech a user word may have: an array of `{ name, key }` (`名詞` /
    /// `noun`, …), in the order a picker lists them.
    #[wasm_bindgen(js_name = userPosList)]
    pub fn user_pos_list(&self) -> Result<JsValue, JsError> {
        let list: Vec<PosInfo> = UserPos::ALL
            .iter()
            .map(|&p| PosInfo {
                name: p.name(),
                key: p,
            })
            .collect();
        to_js(&list)
    }

    /// Adds the words of a user-dictionary file (the bytes as read: Mozc / Google Japanese
    /// Input's UTF-8 text, or MS-IME's UTF-16 text with its byte-order mark). Returns
    /// `{ added, duplicates, skipped, badLines: [{ line, reason }] }`: bad lines are skipped,
    /// not fatal; bytes that are no text are an error.
    #[wasm_bindgen(js_name = userDictionaryImport)]
    pub fn user_dictionary_import(&mut self, bytes: &[u8]) -> Result<JsValue, JsError> {
        let report = Arc::make_mut(&mut self.user)
            .import(bytes)
            .map_err(|e| JsError::new(&format!("henkan: {e}")))?;
        if report.added > 0 || report.duplicates > 0 {
            self.user_version += 1;
            self.settle_all();
        }
        to_js(&report)
    }

    /// The user dictionary as a file: `format` `mozc` (UTF-8) or `msime` (UTF-16LE with a
    /// byte-order mark, as MS-IME's dictionary tool reads it).
    #[wasm_bindgen(js_name = userDictionaryExport)]
    pub fn user_dictionary_export(&self, format: &str) -> Result<Vec<u8>, JsError> {
        let f = DictionaryFormat::from_name(format)
            .ok_or_else(|| JsError::new(&format!("henkan: unknown format {format:?}")))?;
        Ok(self.user.export(f))
    }

    /// How a session writes the digits of conversion results: `"half"` (`2025年`, the
    /// default, as Google Japanese Input) or `"full"` (`２０２５年`).
    #[wasm_bindgen(js_name = setDigitWidth)]
    pub fn set_digit_width(&mut self, session: u32, width: &str) -> Result<(), JsError> {
        let digits = match width {
            "half" => henkan::lattice::DigitWidth::Half,
            "full" => henkan::lattice::DigitWidth::Full,
            _ => return Err(JsError::new("digit width: \"half\" or \"full\"")),
        };
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_digit_width(digits);
        }
        Ok(())
    }

    /// What Space types outside a composition in a session (Mozc's and MS-IME's スペースの入力):
    /// `"full"`, an ideographic space (the default; Shift+Space the field's plain one), or
    /// `"half"`, the field's plain space (Shift+Space the ideographic one).
    #[wasm_bindgen(js_name = setSpaceWidth)]
    pub fn set_space_width(&mut self, session: u32, width: &str) -> Result<(), JsError> {
        let half = match width {
            "half" => true,
            "full" => false,
            _ => return Err(JsError::new("space width: \"half\" or \"full\"")),
        };
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_half_width_space(half);
        }
        Ok(())
    }

    /// The romaji table of a session: its text in Mozc's and Google Japanese Input's format
    /// ([`henkan::composer::RomajiTable`], one `input<TAB>output[<TAB>pending]` rule a line), or
    /// `""` for the built-in table. A table that does not parse is refused with its line and
    /// what is wrong, and the session keeps its table. Returns the number of rules.
    #[wasm_bindgen(js_name = setRomajiTable)]
    pub fn set_romaji_table(&mut self, session: u32, text: &str) -> Result<u32, JsError> {
        let table = romaji_table(text)?;
        let rules = table.rules() as u32;
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_romaji_table(table);
        }
        Ok(rules)
    }

    /// Checks a romaji table's text as [`Henkan::set_romaji_table`] would take it, for a settings
    /// page: the number of rules, or the error.
    #[wasm_bindgen(js_name = checkRomajiTable)]
    pub fn check_romaji_table(&self, text: &str) -> Result<u32, JsError> {
        Ok(romaji_table(text)?.rules() as u32)
    }

    /// The built-in romaji table's text, in the format [`Henkan::set_romaji_table`] takes (to
    /// export and edit).
    #[wasm_bindgen(js_name = builtinRomajiTable)]
    pub fn builtin_romaji_table(&self) -> String {
        henkan::composer::RomajiTable::BUILTIN_TEXT.to_string()
    }

    /// What `,` and `.` type in a session: `"、。"` (the default), `"，．"`, `"、．"` or `"，。"`
    /// (Mozc's 句読点 setting).
    #[wasm_bindgen(js_name = setPunctuation)]
    pub fn set_punctuation(&mut self, session: u32, marks: &str) -> Result<(), JsError> {
        let Some(punctuation) = henkan::composer::Punctuation::parse(marks) else {
            return Err(JsError::new(
                "punctuation: \"、。\", \"，．\", \"、．\" or \"，。\"",
            ));
        };
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_punctuation(punctuation);
        }
        Ok(())
    }

    /// Suggestions (completions while composing, next-word predictions after a commit) on or
    /// off for a session; on by default, offered only when the model has an n-gram.
    #[wasm_bindgen(js_name = setPredictions)]
    pub fn set_predictions(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_predictions(on);
        }
    }

    /// Katakana input on or off for a session (MS-IME's 全角カタカナ mode, for a フリガナ field):
    /// the composition is shown and committed in katakana; off by default. The keys switch it
    /// too (Shift+カタカナひらがな on, カタカナひらがな off); outputs say it as `mode`.
    #[wasm_bindgen(js_name = setKatakana)]
    pub fn set_katakana(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_katakana(on);
        }
    }

    /// Kana input (かな入力) on or off for a session: each key of the JIS kana layout types its
    /// kana, by the `code` that [`Henkan::key`] is given. Off by default; Alt+カタカナひらがな
    /// switches it too; outputs say it as `kanaInput`.
    #[wasm_bindgen(js_name = setKanaInput)]
    pub fn set_kana_input(&mut self, session: u32, on: bool) {
        if let Some(Some(ime)) = self.sessions.get_mut(session as usize) {
            ime.set_kana_input(on);
        }
    }
}

// The shared IME: the wasm module, one handle, the streamed model. Fields attach to it
// (widget.js); it tells them when its status changes.

import { prefetch, streamModel, ModelLoadError } from './loader.js';
import { openLearningStore } from './learning-store.js';

/** @typedef {import('./types.js').HenkanHandle} HenkanHandle */
/** @typedef {import('./types.js').UserWord} UserWord */
/** @typedef {import('./learning-store.js').LearningStore} LearningStore */
/** @typedef {import('./types.js').WasmModule} WasmModule */
/** @typedef {import('./loader.js').Progress} Progress */
/** @typedef {import('./loader.js').ModelInfo} ModelInfo */
/**
 * The handle with the progressive-loading and engine calls (crates/henkan-wasm).
 * @typedef {HenkanHandle & import('./loader.js').ModelSink & {
 *   setDefaultEngine: (name: string) => void,
 *   defaultEngine: () => string,
 *   setEngine: (session: number, name: string) => void,
 *   engine: (session: number) => string,
 * }} LoadingHandle
 */

/**
 * The engine shared by all fields of a page. Events: `status` (idle → loading → ready | error;
 * `ready` comes as soon as the dictionary is in: classic conversions), `lm` (the language
 * models: pending → ready | failed | absent; `ready` switches the default engine to the
 * hybrid) and `progress` (`detail`: {@link Progress}).
 */
export class HenkanIme extends EventTarget {
  /**
   * @param {{persistLearning?: boolean, store?: LearningStore, disposeWhenUnused?: boolean}} [options]
   *   `persistLearning: false` keeps what is learned (and the user dictionary) in this page's
   *   memory only; by default it is kept per origin in IndexedDB (memory only where IndexedDB is
   *   unavailable, as in some private windows). `store` replaces the IndexedDB store.
   *   `disposeWhenUnused: true` disposes the IME (see {@link dispose}) when the last field
   *   attached to it is detached, a load in progress included; by default it stays, since a page
   *   whose fields come and go (a framework rendering a field anew) would lose its model.
   */
  constructor(options = {}) {
    super();
    /** Whether to dispose when the last field is detached. */
    this.disposeWhenUnused = options.disposeWhenUnused === true;
    /** @type {LearningStore | null} where what is learned is kept (null: memory only) */
    this.store = options.persistLearning === false ? null : options.store ?? null;
    /** Whether to open the IndexedDB store when the model is in. */
    this.persist = options.persistLearning !== false;
    /** The `learningVersion()` last saved. */
    this.savedVersion = -1;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.saveTimer = null;
    /** @type {Promise<void>} reading back what was stored (a save waits for it) */
    this.restoring = Promise.resolve();
    /** The user dictionary of the page: add, remove, list, import, export (see `UserDictionary`). */
    this.userDictionary = new UserDictionary(this);
    // What changed in the last second is saved when the page goes away.
    globalThis.addEventListener?.('pagehide', () => {
      if (this.saveTimer !== null) clearTimeout(this.saveTimer);
      this.saveTimer = null;
      this.save();
    });
    /** @type {'idle' | 'loading' | 'ready' | 'error'} */
    this.status = 'idle';
    /** A message for the user when `status` is `error`. */
    this.error = '';
    /** @type {HenkanHandle | null} */
    this.handle = null;
    /** @type {WebAssembly.Memory | null} */
    this.memory = null;
    /** @type {string[]} the engines available now */
    this.engines = [];
    /** @type {'pending' | 'ready' | 'failed' | 'absent'} the language models (neural, hybrid) */
    this.lm = 'pending';
    /** Why the language models are missing, when `lm` is `failed`. */
    this.lmError = '';
    /** The engine the fields convert with (unless one chose its own). */
    this.engine = '';
    /** @type {boolean | null} kana input as a field's Alt+カタカナひらがな left it: every field of
     * the page follows it from its next key, as MS-IME's setting is one for all (null: none has
     * switched, each field has its own `kanaInput` option) */
    this.kanaInput = null;
    /** Model bytes received. */
    this.modelBytes = 0;
    /** Where the load time went (ms): `load()` called (since navigation), wasm instantiation,
     * model download (after instantiation), checking and decoding the sections as they arrive
     * (all the calls to `modelWrote`, during the download), building the classic engine
     * (`Engine::from_container`) and attaching the LMs; `coreAt`/`lmAt`: performance.now() when
     * each was ready. */
    this.timing = { startMs: 0, wasmMs: 0, downloadMs: 0, sectionsMs: 0, buildMs: 0, lmBuildMs: 0, coreAt: NaN, lmAt: NaN };
  }

  /** @type {Set<AbortController>} the loads in progress (`load()` aborts its own on a failure) */
  #loads = new Set();
  /** Counts the calls to `dispose()`: a load started before one leaves the state alone. */
  #generation = 0;
  /** @type {Set<() => void>} the detach functions of the fields attached to this IME */
  #fields = new Set();
  #disposing = false;
  /** Whether `#restoreLearning` is reading the store. */
  #restoringNow = false;
  /** @type {string | null | undefined} the last text adopted while the store was read */
  #adoptedWhileRestoring = undefined;

  /** Whether keys can be converted. */
  get ready() {
    return this.status === 'ready' && this.handle !== null;
  }

  /** Whether keys can be composed: the wasm module runs (the dictionary may still be loading;
   * until it is in, Space offers kana and katakana only). */
  get composes() {
    return this.handle !== null && this.status !== 'error';
  }

  /** Whether the neural and hybrid engines are available. */
  get neuralReady() {
    return this.lm === 'ready';
  }

  /**
   * Chooses the engine of every field (one of `engines`; `''`: the default, the hybrid once
   * the LM is in). Throws for an engine the model does not offer.
   * @param {string} name
   */
  setEngine(name) {
    const handle = /** @type {LoadingHandle | null} */ (this.handle);
    if (!handle) throw new Error('the input method is not ready');
    handle.setDefaultEngine(name);
    this.engine = handle.defaultEngine();
  }

  /**
   * Loads the wasm module and streams the model. Never throws: a failure sets `status` to
   * `error` with a message, and the fields stay plain text fields.
   *
   * The download has an `AbortController` of its own: it is aborted on any failure, by
   * {@link dispose}, and when `signal` aborts. An abort before the dictionary is in is a failure
   * (`error`: the download was cancelled); after it the classic engine stays (`lm` is `failed`).
   * `maxModelBytes` refuses a longer model (default 256 MiB, `MAX_MODEL_BYTES` in loader.js).
   * `fetch` replaces the global fetch for the model (model-cache.js: from the Cache API, checked).
   * `retry` is asked once when the model from the first response did not load (its core, or
   * its LM part after the classic engine was built): resolving `true` streams the model again
   * from a new fetch, and the page sees one load (model-cache.js: a decoded copy that failed
   * its CRC-32s, discarded, then the compressed copy).
   * @param {{module: WasmModule, modelUrl: string | URL, wasmUrl?: string | URL, signal?: AbortSignal, maxModelBytes?: number, fetch?: typeof fetch, retry?: (error: unknown) => Promise<boolean>}} opts
   * @returns {Promise<boolean>} whether the IME is ready (false also when it was disposed meanwhile)
   */
  async load(opts) {
    const generation = this.#generation;
    const controller = new AbortController();
    const follow = () => controller.abort(opts.signal?.reason);
    if (opts.signal?.aborted) follow();
    else opts.signal?.addEventListener('abort', follow, { once: true });
    this.#loads.add(controller);
    const signal = controller.signal;
    this.#setStatus('loading');
    try {
      const t0 = performance.now();
      this.timing.startMs = t0;
      // The download starts while wasm compiles; its chunks wait in a queue until there is
      // memory to write them into (kept even when the connection breaks meanwhile).
      const response = prefetch(opts.modelUrl, { signal, fetch: opts.fetch });
      response.catch(() => {}); // reported by streamModel
      const exports = await opts.module.default(opts.wasmUrl ? { module_or_path: opts.wasmUrl } : undefined);
      if (signal.aborted) throw new ModelLoadError('the model download was cancelled', signal.reason);
      const t1 = performance.now();
      this.timing.wasmMs = t1 - t0;
      this.memory = exports.memory;
      const handle = /** @type {LoadingHandle} */ (new opts.module.Henkan());
      // Keys compose from now on; they convert once the dictionary is in (`ready`).
      this.handle = handle;
      this.dispatchEvent(new Event('status'));
      let lastProgress = -Infinity;
      /** @type {import('./loader.js').ModelSink} */
      const sink = {
        beginModel: (expected) => handle.beginModel(expected),
        modelWrote: (n) => {
          const t2 = performance.now();
          try {
            return handle.modelWrote(n);
          } finally {
            this.timing.sectionsMs += performance.now() - t2;
          }
        },
        loadModelCore: () => {
          const t2 = performance.now();
          try {
            return handle.loadModelCore();
          } finally {
            this.timing.buildMs = performance.now() - t2;
          }
        },
        completeModel: () => {
          const t2 = performance.now();
          this.timing.downloadMs = t2 - t1; // after instantiation (it started before)
          try {
            return handle.completeModel();
          } finally {
            this.timing.lmBuildMs = performance.now() - t2;
          }
        },
      };
      const stream = (/** @type {Promise<Response>} */ res) =>
        streamModel(opts.modelUrl, sink, () => /** @type {WebAssembly.Memory} */ (this.memory), {
          signal,
          fetch: () => res,
          maxBytes: opts.maxModelBytes,
          onCore,
          onProgress,
        });
      /** @param {ModelInfo} core */
      const onCore = (core) => {
        this.engines = core.engines;
        if (this.status === 'ready') return; // built again by a retry: the page keeps its state
        this.engine = core.defaultEngine;
        this.restoring = this.#restoreLearning(handle);
        this.timing.coreAt = performance.now();
        this.#setStatus('ready');
      };
      /** @param {Progress} p */
      const onProgress = (p) => {
        this.modelBytes = p.loaded;
        // At most one event per frame: a fast download delivers hundreds of chunks.
        const now = performance.now();
        if (now - lastProgress < 16 && p.loaded !== p.total) return;
        lastProgress = now;
        this.dispatchEvent(new CustomEvent('progress', { detail: p }));
      };
      const again = async (/** @type {unknown} */ error) => !signal.aborted && (await opts.retry?.(error)) === true && !signal.aborted;
      const streamAgain = () => stream(prefetch(opts.modelUrl, { signal, fetch: opts.fetch }));
      /** @type {import('./loader.js').StreamResult} */
      let result;
      try {
        result = await stream(response);
      } catch (e) {
        if (!(await again(e))) throw e;
        result = await streamAgain();
      }
      if (result.lmError && (await again(result.lmError))) {
        const classic = result.info;
        result = await streamAgain().catch((e) => {
          if (!handle.isLoaded()) throw e; // the retry broke the classic engine too
          return { info: classic, lmError: e instanceof Error ? e.message : String(e) };
        });
      }
      const { info, lmError } = result;
      if (generation !== this.#generation) return false; // disposed as the last bytes came
      this.engines = info.engines;
      this.engine = handle.defaultEngine();
      this.lmError = lmError;
      this.timing.lmAt = performance.now();
      this.#setLm(lmError ? 'failed' : info.engines.length > 1 ? 'ready' : 'absent');
      return true;
    } catch (e) {
      // The download stops whatever failed (a prefetch still reading, a compile error).
      controller.abort(e);
      if (generation !== this.#generation) return false; // disposed: its state is gone
      this.error = e instanceof ModelLoadError ? e.message : `the input method could not start: ${e instanceof Error ? e.message : String(e)}`;
      this.lm = 'failed';
      this.lmError = this.error;
      this.#setStatus('error');
      return false;
    } finally {
      this.#loads.delete(controller);
      opts.signal?.removeEventListener('abort', follow);
    }
  }

  /**
   * Ends the IME: a load in progress is aborted (its download stops), every field attached to
   * it is detached (a composition goes into its field), what was learned is saved and the wasm
   * handle is freed. The IME is `idle` afterwards; `load()` may start it again.
   * @returns {Promise<void>} resolves when what was learned is saved
   */
  async dispose() {
    if (this.#disposing) return;
    this.#disposing = true;
    try {
      this.#generation++;
      for (const load of this.#loads) load.abort(new DOMException('the input method was disposed', 'AbortError'));
      this.#loads.clear();
      for (const detach of [...this.#fields]) detach();
      if (this.saveTimer !== null) clearTimeout(this.saveTimer);
      this.saveTimer = null;
      await this.save().catch(() => {});
      const handle = this.handle;
      this.handle = null;
      this.memory = null;
      this.engines = [];
      this.engine = '';
      this.lm = 'pending';
      this.lmError = '';
      this.error = '';
      this.modelBytes = 0;
      this.savedVersion = -1;
      this.restoring = Promise.resolve();
      handle?.free?.();
      this.#setStatus('idle');
    } finally {
      this.#disposing = false;
    }
  }

  /**
   * Called by `attach()` (widget.js): a field now uses this IME; `detach` detaches it (on
   * {@link dispose}).
   * @param {() => void} detach
   */
  fieldAttached(detach) {
    this.#fields.add(detach);
  }

  /**
   * Called by a field's detach: with `disposeWhenUnused`, the last one disposes the IME.
   * @param {() => void} detach
   */
  fieldDetached(detach) {
    if (!this.#fields.delete(detach)) return;
    if (this.#fields.size === 0 && this.disposeWhenUnused && !this.#disposing) this.dispose();
  }

  /**
   * Reads back what the page learned before (IndexedDB), once the dictionary is in. A stored text
   * the engine rejects is dropped (and left as it is in the store).
   * @param {HenkanHandle} handle
   */
  async #restoreLearning(handle) {
    if (this.persist && !this.store) this.store = openLearningStore();
    if (!this.store) return;
    this.#adoptedWhileRestoring = undefined;
    this.#restoringNow = true;
    let text;
    try {
      text = await this.store.load();
    } finally {
      this.#restoringNow = false;
    }
    // A text another context saved while the store was read is newer than what was read.
    if (this.#adoptedWhileRestoring !== undefined) text = this.#adoptedWhileRestoring;
    this.#adoptedWhileRestoring = undefined;
    if (text) {
      try {
        handle.importLearning(text);
      } catch {
        // an older or damaged text: start afresh
      }
    }
    this.savedVersion = handle.learningVersion();
    this.dispatchEvent(new Event('learning'));
  }

  /**
   * After a commit or a dictionary change: saves what the page learned when it changed (once per
   * second at most). Events `learning` tell the page (e.g. a dictionary editor) to look again.
   */
  learned() {
    const handle = this.handle;
    if (!handle || this.status !== 'ready' || handle.learningVersion() === this.savedVersion) return;
    this.dispatchEvent(new Event('learning'));
    if (!this.store || this.saveTimer !== null) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, 1000);
  }

  /**
   * Saves what the page learned and the user dictionary now (to IndexedDB, if kept there), when
   * they changed since they were last saved or read.
   */
  async save() {
    await this.restoring;
    const handle = this.handle;
    if (!handle || !this.store || this.status !== 'ready') return;
    // Nothing new: writing would put this IME's older text over what another context (another
    // tab's engine, the extension's) saved since.
    if (handle.learningVersion() === this.savedVersion) return;
    this.savedVersion = handle.learningVersion();
    await this.store.save(handle.exportLearning());
  }

  /**
   * Takes a text that another context saved into this IME's store (another tab's engine, the
   * extension's): what is learned and the user dictionary become that text's, and it is not saved
   * back. `null` (the store cleared) forgets what was learned. Returns whether it was taken: not
   * before the dictionary is in (the store is read then anyway), nor a text the engine rejects.
   * One that comes while the store is read is taken instead of what the read gives back.
   * @param {string | null} text
   */
  adoptLearning(text) {
    const handle = this.handle;
    if (!handle || this.status !== 'ready') return false;
    if (this.#restoringNow) {
      // taken in place of what the store gives back (`#restoreLearning`)
      this.#adoptedWhileRestoring = text;
      return true;
    }
    try {
      if (text) handle.importLearning(text);
      else handle.clearLearning();
    } catch {
      return false;
    }
    this.savedVersion = handle.learningVersion();
    this.dispatchEvent(new Event('learning'));
    return true;
  }

  /** Forgets what was learned (the user dictionary stays), here and in the store. */
  async clearLearning() {
    const handle = this.#loaded();
    handle.clearLearning();
    this.learned();
    await this.save();
  }

  /** What the page learned and its user dictionary, as one text (to keep elsewhere). */
  exportLearning() {
    return this.#loaded().exportLearning();
  }

  /**
   * Replaces what the page learned and the user dictionary by an `exportLearning()` text.
   * @param {string} text
   */
  async importLearning(text) {
    const report = this.#loaded().importLearning(text);
    this.learned();
    await this.save();
    return report;
  }

  /** The handle once the dictionary is in; throws before. */
  #loaded() {
    if (!this.handle || this.status !== 'ready') throw new Error('the input method is not ready');
    return this.handle;
  }

  /**
   * Marks the IME broken after an unexpected error in a key call (a panic): fields fall back to
   * plain text.
   * @param {unknown} e
   */
  fail(e) {
    this.error = `the input method stopped: ${e instanceof Error ? e.message : String(e)}`;
    this.#setStatus('error');
  }

  /** @param {'pending' | 'ready' | 'failed' | 'absent'} lm */
  #setLm(lm) {
    this.lm = lm;
    this.dispatchEvent(new Event('lm'));
  }

  /** @param {'idle' | 'loading' | 'ready' | 'error'} status */
  #setStatus(status) {
    this.status = status;
    this.dispatchEvent(new Event('status'));
  }
}

/**
 * The page's user dictionary (`ime.userDictionary`): words by reading, with a part of speech,
 * used by every engine and by the predictions; kept with what the page learned. Imports and
 * exports Mozc's / Google Japanese Input's TSV and MS-IME's text format. Calls before the
 * dictionary is in throw.
 */
export class UserDictionary {
  /** @param {HenkanIme} ime */
  constructor(ime) {
    this.ime = ime;
  }

  #handle() {
    const { handle, status } = this.ime;
    if (!handle || status !== 'ready') throw new Error('the input method is not ready');
    return handle;
  }

  /**
   * Adds a word; returns whether it was new. Throws for an unknown part of speech, an empty or too
   * long field, a full dictionary.
   * @param {string} reading in hiragana
   * @param {string} word
   * @param {string} [pos] one of `posList()` (name or key); default 名詞
   * @param {string} [comment]
   */
  add(reading, word, pos = '名詞', comment = '') {
    const added = this.#handle().userDictionaryAdd(reading, word, pos, comment);
    this.ime.learned();
    return added;
  }

  /**
   * Removes a word (any part of speech); returns how many were removed.
   * @param {string} reading
   * @param {string} word
   */
  remove(reading, word) {
    const n = this.#handle().userDictionaryRemove(reading, word);
    this.ime.learned();
    return n;
  }

  /** Empties the dictionary. */
  clear() {
    this.#handle().userDictionaryClear();
    this.ime.learned();
  }

  /** @returns {UserWord[]} the words, in the order added */
  list() {
    return this.#handle().userDictionaryList();
  }

  /** The parts of speech a word may have, as a picker lists them. */
  posList() {
    return this.#handle().userPosList();
  }

  /**
   * Adds the words of a dictionary file (Mozc / Google Japanese Input TSV in UTF-8, or MS-IME's
   * UTF-16 text); bad lines are skipped and reported.
   * @param {Uint8Array | string} file the file's bytes (or its text)
   */
  import(file) {
    const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file;
    const report = this.#handle().userDictionaryImport(bytes);
    this.ime.learned();
    return report;
  }

  /**
   * The dictionary as a file's bytes: `mozc` (UTF-8 TSV) or `msime` (UTF-16LE with a BOM).
   * @param {'mozc' | 'msime'} [format]
   */
  export(format = 'mozc') {
    return this.#handle().userDictionaryExport(format);
  }
}

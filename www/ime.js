// The shared IME: the wasm module, one handle, the streamed model. Fields attach to it
// (widget.js); it tells them when its status changes.

import { streamModel, ModelLoadError } from './loader.js';

/** @typedef {import('./types.js').HenkanHandle} HenkanHandle */
/** @typedef {import('./types.js').WasmModule} WasmModule */
/** @typedef {import('./loader.js').Progress} Progress */

/**
 * The engine shared by all fields of a page. Events: `status` (idle → loading → ready | error)
 * and `progress` (`detail`: {@link Progress}).
 */
export class HenkanIme extends EventTarget {
  constructor() {
    super();
    /** @type {'idle' | 'loading' | 'ready' | 'error'} */
    this.status = 'idle';
    /** A message for the user when `status` is `error`. */
    this.error = '';
    /** @type {HenkanHandle | null} */
    this.handle = null;
    /** @type {WebAssembly.Memory | null} */
    this.memory = null;
    /** @type {string[]} */
    this.engines = [];
    /** Model bytes received. */
    this.modelBytes = 0;
    /** Where the load time went (ms): `load()` called (since navigation), wasm instantiation,
     * model download (after instantiation), `Engine::from_bytes`. */
    this.timing = { startMs: 0, wasmMs: 0, downloadMs: 0, buildMs: 0 };
  }

  /** Whether keys can be converted. */
  get ready() {
    return this.status === 'ready' && this.handle !== null;
  }

  /**
   * Loads the wasm module and streams the model. Never throws: a failure sets `status` to
   * `error` with a message, and the fields stay plain text fields.
   * @param {{module: WasmModule, modelUrl: string | URL, wasmUrl?: string | URL, signal?: AbortSignal}} opts
   * @returns {Promise<boolean>} whether the IME is ready
   */
  async load(opts) {
    this.#setStatus('loading');
    try {
      const t0 = performance.now();
      this.timing.startMs = t0;
      // The download starts while wasm compiles; its chunks wait in the stream until there is
      // memory to write them into.
      const response = fetch(opts.modelUrl, { signal: opts.signal });
      response.catch(() => {}); // reported by streamModel
      const exports = await opts.module.default(opts.wasmUrl ? { module_or_path: opts.wasmUrl } : undefined);
      const t1 = performance.now();
      this.timing.wasmMs = t1 - t0;
      this.memory = exports.memory;
      const handle = new opts.module.Henkan();
      let lastProgress = -Infinity;
      const sink = {
        allocModel: (/** @type {number} */ len) => handle.allocModel(len),
        growModel: (/** @type {number} */ len) => handle.growModel(len),
        loadModel: (/** @type {number} */ len) => {
          const t2 = performance.now();
          this.timing.downloadMs = t2 - t1; // after instantiation (it started before)
          try {
            return handle.loadModel(len);
          } finally {
            this.timing.buildMs = performance.now() - t2;
          }
        },
      };
      const info = await streamModel(opts.modelUrl, sink, () => /** @type {WebAssembly.Memory} */ (this.memory), {
        signal: opts.signal,
        fetch: () => response,
        onProgress: (p) => {
          this.modelBytes = p.loaded;
          // At most one event per frame: a fast download delivers hundreds of chunks.
          const now = performance.now();
          if (now - lastProgress < 16 && p.loaded !== p.total) return;
          lastProgress = now;
          this.dispatchEvent(new CustomEvent('progress', { detail: p }));
        },
      });
      this.engines = info.engines;
      this.handle = handle;
      this.#setStatus('ready');
      return true;
    } catch (e) {
      this.error = e instanceof ModelLoadError ? e.message : `the input method could not start: ${e instanceof Error ? e.message : String(e)}`;
      this.#setStatus('error');
      return false;
    }
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

  /** @param {'idle' | 'loading' | 'ready' | 'error'} status */
  #setStatus(status) {
    this.status = status;
    this.dispatchEvent(new Event('status'));
  }
}

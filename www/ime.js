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
      const exports = await opts.module.default(opts.wasmUrl ? { module_or_path: opts.wasmUrl } : undefined);
      this.memory = exports.memory;
      const handle = new opts.module.Henkan();
      const info = await streamModel(opts.modelUrl, handle, () => /** @type {WebAssembly.Memory} */ (this.memory), {
        signal: opts.signal,
        onProgress: (p) => {
          this.modelBytes = p.loaded;
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

// Streaming, progressive model load: fetch() the model and write each chunk straight into a
// buffer reserved inside wasm linear memory (no second copy of the model in JavaScript). The
// classic engine is built as soon as the dictionary part (the *core*) is in; the language
// models are attached when the rest has arrived.

/** A model download or load failure, with a message fit for the user. */
export class ModelLoadError extends Error {
  /**
   * @param {string} message
   * @param {unknown} [cause]
   */
  constructor(message, cause) {
    super(message);
    this.name = 'ModelLoadError';
    this.cause = cause;
  }
}

/**
 * @typedef {object} ModelInfo what the loading calls of the wasm handle report
 * @property {number} bytes length of the model
 * @property {string[]} engines the engines available now
 * @property {string} defaultEngine the engine sessions use unless they chose one
 * @property {boolean} lmPending whether the LM sections are still to come
 */

/**
 * @typedef {object} Layout where the parts of the model end (from its section table)
 * @property {number} coreEnd bytes needed for the classic engine
 * @property {number} fileEnd bytes of the whole model
 */

/**
 * @typedef {object} ModelSink what the wasm handle offers (see src/wasm.rs)
 * @property {(len: number) => number} allocModel reserve `len` bytes, return their address
 * @property {(len: number) => number} growModel enlarge to `len` bytes, return the new address
 * @property {(received: number) => Layout | null} modelLayout the layout, `null` until the table is in
 * @property {(received: number) => ModelInfo} loadModelPrefix build the classic engine from the core
 * @property {(received: number) => ModelInfo} completeModel check and attach the LM sections
 */

/**
 * @typedef {object} Progress
 * @property {number} loaded bytes received
 * @property {number} total bytes expected (0 when unknown)
 */

/**
 * @typedef {object} StreamResult
 * @property {ModelInfo} info the model as loaded (classic only when `lmError` is set)
 * @property {string} lmError why the language models are missing ('' when they loaded or the model has none)
 */

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

/**
 * Downloads the model at `url` into wasm memory and loads it progressively.
 *
 * The buffer is reserved from `Content-Length` when the response is not content-encoded (with
 * a content encoding the header counts compressed bytes); otherwise it starts at 1 MiB and
 * doubles — until the section table has arrived, which gives the exact length: the buffer is
 * grown to it once and never again, because the engine built from the core owns the buffer
 * while the rest is still written into it (see src/wasm.rs for that invariant). Bytes past the
 * last section are ignored.
 *
 * A failure before the core is in (HTTP error, truncation, damaged dictionary) rejects with a
 * {@link ModelLoadError}; a failure after it (the LM part truncated or damaged) resolves with
 * the classic engine and `lmError`.
 *
 * @param {string | URL} url
 * @param {ModelSink} sink
 * @param {() => WebAssembly.Memory} memory the wasm memory (re-read after every call into wasm)
 * @param {{onProgress?: (p: Progress) => void, onCore?: (info: ModelInfo) => void, signal?: AbortSignal, fetch?: typeof fetch}} [options]
 * @returns {Promise<StreamResult>}
 */
export async function streamModel(url, sink, memory, options = {}) {
  const doFetch = options.fetch ?? fetch;
  /** @type {Response} */
  let res;
  try {
    res = await doFetch(url, { signal: options.signal });
  } catch (e) {
    throw new ModelLoadError(`could not download the model (${String(e)})`, e);
  }
  if (!res.ok) throw new ModelLoadError(`could not download the model: HTTP ${res.status} ${res.statusText}`);
  const encoding = (res.headers.get('Content-Encoding') || 'identity').toLowerCase();
  const header = Number(res.headers.get('Content-Length') || 0);
  const total = encoding === 'identity' && Number.isFinite(header) && header > 0 ? header : 0;
  let capacity = total || 1 << 20;
  let ptr = sink.allocModel(capacity);
  let loaded = 0; // bytes received
  let written = 0; // bytes in the buffer (received, up to the end of the last section)
  /** @type {Layout | null} */
  let layout = null;
  /** @type {ModelInfo | null} */
  let info = null;
  const damaged = (/** @type {unknown} */ e) =>
    new ModelLoadError(`the model is damaged or of another version: ${message(e)}`, e);
  options.onProgress?.({ loaded, total });
  if (!res.body) throw new ModelLoadError('could not download the model: empty response');
  const reader = res.body.getReader();
  /** @type {unknown} */
  let broke = null;
  for (;;) {
    /** @type {ReadableStreamReadResult<Uint8Array>} */
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      broke = e;
      break;
    }
    if (chunk.done) break;
    const value = chunk.value;
    if (!layout && written + value.length > capacity) {
      capacity = Math.max(capacity * 2, written + value.length);
      ptr = sink.growModel(capacity);
    }
    const n = Math.min(value.length, capacity - written);
    // A fresh view each time: memory.buffer is replaced when linear memory grows.
    new Uint8Array(memory().buffer, ptr + written, n).set(n === value.length ? value : value.subarray(0, n));
    written += n;
    loaded += value.length;
    if (!layout) {
      try {
        layout = sink.modelLayout(written);
      } catch (e) {
        throw damaged(e);
      }
      if (layout && layout.fileEnd > capacity) {
        capacity = layout.fileEnd;
        ptr = sink.growModel(capacity);
      }
    }
    if (layout && !info && written >= layout.coreEnd) {
      try {
        info = sink.loadModelPrefix(written);
      } catch (e) {
        throw damaged(e);
      }
      options.onCore?.(info);
    }
    options.onProgress?.({ loaded, total });
  }
  const expected = total || layout?.fileEnd || 0;
  const short = broke
    ? `broke off after ${loaded} bytes${expected ? ` of ${expected}` : ''} (${String(broke)})`
    : total && loaded < total
      ? `is truncated: ${loaded} of ${total} bytes`
      : layout && written < layout.fileEnd
        ? `is truncated: ${written} of ${layout.fileEnd} bytes`
        : '';
  if (!info) {
    if (short) throw new ModelLoadError(`the model download ${short}`, broke);
    try {
      info = sink.loadModelPrefix(written);
    } catch (e) {
      throw damaged(e);
    }
    options.onCore?.(info);
  }
  if (!info.lmPending) return { info, lmError: '' };
  if (short) return { info, lmError: `the language model download ${short}` };
  try {
    return { info: sink.completeModel(written), lmError: '' };
  } catch (e) {
    return { info, lmError: `the language model is damaged: ${message(e)}` };
  }
}

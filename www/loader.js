// Streaming model load: fetch() the model and write each chunk straight into a buffer reserved
// inside wasm linear memory (no second copy of the model in JavaScript).

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
 * @typedef {object} ModelSink what the wasm handle offers (see src/wasm.rs)
 * @property {(len: number) => number} allocModel reserve `len` bytes, return their address
 * @property {(len: number) => number} growModel enlarge to `len` bytes, return the new address
 * @property {(len: number) => any} loadModel build the engine from the first `len` bytes
 */

/**
 * @typedef {object} Progress
 * @property {number} loaded bytes received
 * @property {number} total bytes expected (0 when unknown)
 */

/**
 * Downloads the model at `url` into wasm memory and loads it.
 *
 * The buffer is reserved from `Content-Length` when the response is not content-encoded (with
 * a content encoding the header counts compressed bytes); otherwise it starts at 1 MiB and
 * doubles. A download that ends short of `Content-Length` is a truncation error.
 *
 * @param {string | URL} url
 * @param {ModelSink} sink
 * @param {() => WebAssembly.Memory} memory the wasm memory (re-read after every call into wasm)
 * @param {{onProgress?: (p: Progress) => void, signal?: AbortSignal, fetch?: typeof fetch}} [options]
 * @returns {Promise<{bytes: number, engines: string[]}>}
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
  let loaded = 0;
  options.onProgress?.({ loaded, total });
  if (!res.body) throw new ModelLoadError('could not download the model: empty response');
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (loaded + value.length > capacity) {
        capacity = Math.max(capacity * 2, loaded + value.length);
        ptr = sink.growModel(capacity);
      }
      // A fresh view each time: memory.buffer is replaced when linear memory grows.
      new Uint8Array(memory().buffer, ptr + loaded, value.length).set(value);
      loaded += value.length;
      options.onProgress?.({ loaded, total });
    }
  } catch (e) {
    throw new ModelLoadError(`the model download broke off after ${loaded} bytes${total ? ` of ${total}` : ''} (${String(e)})`, e);
  }
  if (total && loaded !== total) {
    throw new ModelLoadError(`the model download is truncated: ${loaded} of ${total} bytes`);
  }
  try {
    return sink.loadModel(loaded);
  } catch (e) {
    throw new ModelLoadError(`the model is damaged or of another version: ${e instanceof Error ? e.message : String(e)}`, e);
  }
}

// Streaming, progressive model load: fetch() the model and write each chunk straight into wasm
// linear memory, section by section: the handle says where the next bytes go (a buffer of the
// section they belong to), checks and decodes each section when its last byte is in and lets its
// stored bytes go, so the whole file is never in memory (crates/henkan-wasm, `ContainerStream`). The
// classic engine is built as soon as the dictionary part (the *core*) is in; the language models
// are attached when the rest has arrived.

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
 * @typedef {object} StreamState what the handle reports while the model arrives
 * @property {number} ptr address in wasm memory where the next bytes of the file go
 * @property {number} len how many bytes fit there (0: every section is in, ignore the rest)
 * @property {number} received bytes of the file taken so far
 * @property {Layout | null} layout `null` until the section table is in
 * @property {boolean} coreReady whether the core is in and checked (`loadModelCore` can run)
 * @property {boolean} complete whether every section is in
 */

/**
 * @typedef {object} ModelSink what the wasm handle offers (see crates/henkan-wasm)
 * @property {(expected: number) => StreamState} beginModel start a model of `expected` bytes (0: unknown)
 * @property {(n: number) => StreamState} modelWrote `n` bytes were written at the last state's `ptr`
 * @property {() => ModelInfo} loadModelCore build the classic engine from the core
 * @property {() => ModelInfo} completeModel attach the LM sections; ends the load (also after a failure)
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
 * Starts downloading `url` now and keeps every chunk as it arrives, before anyone reads the
 * body: for a download that starts while wasm compiles. A plain response body that errors
 * (the connection broke) drops the chunks it had received and not yet handed out, so a break
 * during compilation would lose bytes that did arrive (seen in Chromium: megabytes). Here the
 * chunks wait in a queue of their own and the error comes after the last of them.
 *
 * The returned response has the status and headers of the real one; reading its body hands out
 * the queued chunks, then the end or the error of the download.
 * @param {string | URL} url
 * @param {{signal?: AbortSignal, fetch?: typeof fetch}} [options]
 * @returns {Promise<Response>}
 */
export async function prefetch(url, options = {}) {
  const res = await (options.fetch ?? fetch)(url, { signal: options.signal });
  if (!res.ok || !res.body) return res;
  const reader = res.body.getReader();
  /** @type {Uint8Array[]} */
  const queue = [];
  let done = false;
  /** @type {{error: unknown} | null} */
  let failure = null;
  /** The body's pull waiting for the next chunk or the end. */
  const waiting = { wake: /** @type {(() => void) | null} */ (null) };
  (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        queue.push(chunk.value);
        waiting.wake?.();
      }
    } catch (e) {
      failure = { error: e };
    }
    done = true;
    waiting.wake?.();
  })();
  const body = new ReadableStream(
    {
      async pull(controller) {
        while (!queue.length && !done) await new Promise((r) => (waiting.wake = () => r(undefined)));
        waiting.wake = null;
        const next = queue.shift();
        if (next) controller.enqueue(next);
        else if (failure) controller.error(failure.error);
        else controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * Downloads the model at `url` into wasm memory and loads it progressively.
 *
 * Every chunk is copied straight to where the handle says the next bytes go (a chunk may span
 * several sections: one copy and one call per piece); bytes past the last section are ignored.
 * The expected length comes from `Content-Length` when the response is not content-encoded (with
 * a content encoding the header counts compressed bytes).
 *
 * A failure before the core is in (HTTP error, truncation, not a model, damaged dictionary)
 * rejects with a {@link ModelLoadError}; a failure after it (the LM part truncated or damaged)
 * resolves with the classic engine and `lmError`.
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
  const damaged = (/** @type {unknown} */ e) =>
    new ModelLoadError(`the model is damaged or of another version: ${message(e)}`, e);
  /** @type {ModelInfo | null} */
  let info = null;
  const loadCore = () => {
    try {
      info = sink.loadModelCore();
    } catch (e) {
      throw damaged(e);
    }
    options.onCore?.(info);
    return info;
  };
  let state = sink.beginModel(total);
  let loaded = 0; // bytes received
  options.onProgress?.({ loaded, total });
  if (!res.body) throw new ModelLoadError('could not download the model: empty response');
  const reader = res.body.getReader();
  /** @type {unknown} */
  let broke = null;
  try {
    // Until the body ends or breaks, or every section is in (bytes past the last are not needed).
    while (!state.complete) {
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
      for (let at = 0; at < value.length && state.len > 0; ) {
        const n = Math.min(state.len, value.length - at);
        // A fresh view each time: memory.buffer is replaced when linear memory grows.
        new Uint8Array(memory().buffer, state.ptr, n).set(value.subarray(at, at + n));
        at += n;
        try {
          state = sink.modelWrote(n);
        } catch (e) {
          throw damaged(e);
        }
        if (state.coreReady && !info) loadCore();
      }
      loaded += value.length;
      options.onProgress?.({ loaded, total });
    }
  } catch (e) {
    // Not a model, or damaged: the download stops (a huge or endless response would go on).
    reader.cancel(e).catch(() => {});
    throw e;
  }
  if (state.complete) reader.cancel().catch(() => {});
  const expected = total || state.layout?.fileEnd || 0;
  const short = state.complete
    ? ''
    : broke
      ? `broke off after ${loaded} bytes${expected ? ` of ${expected}` : ''} (${String(broke)})`
      : total && loaded < total
        ? `is truncated: ${loaded} of ${total} bytes`
        : state.layout
          ? `is truncated: ${state.received} of ${state.layout.fileEnd} bytes`
          : '';
  if (!info) {
    if (short) throw new ModelLoadError(`the model download ${short}`, broke);
    info = loadCore(); // the handle says what is missing
  }
  if (!info.lmPending) return { info, lmError: '' };
  try {
    return { info: sink.completeModel(), lmError: '' };
  } catch (e) {
    return { info, lmError: short ? `the language model download ${short}` : `the language model is damaged: ${message(e)}` };
  }
}

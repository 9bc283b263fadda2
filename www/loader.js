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

/** Default cap on the bytes {@link prefetch} holds that nobody has read yet. */
export const MAX_QUEUED_BYTES = 32 << 20;

/** Default cap on the length of a model {@link streamModel} accepts (the shipped one is 12 MB). */
export const MAX_MODEL_BYTES = 256 << 20;

/**
 * A controller whose signal aborts when `outer` does (and already is when `outer` is), so that
 * the loader can abort its own fetch on a failure while the caller can still abort it; `unlink`
 * drops the listener on `outer`.
 * @param {AbortSignal | undefined} outer
 */
function linkedController(outer) {
  const controller = new AbortController();
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return { controller, unlink: () => outer?.removeEventListener('abort', follow) };
}

/**
 * Whether `e` is the abort of a fetch or of its body: a DOMException `AbortError`, or the
 * signal's own reason.
 * @param {unknown} e
 * @param {AbortSignal} signal
 */
const isAbort = (e, signal) => signal.aborted && (e === signal.reason || (e instanceof Error && e.name === 'AbortError'));

/**
 * Starts downloading `url` now and keeps every chunk as it arrives, before anyone reads the
 * body: for a download that starts while wasm compiles. A plain response body that errors
 * (the connection broke) drops the chunks it had received and not yet handed out, so a break
 * during compilation would lose bytes that did arrive (seen in Chromium: megabytes). Here the
 * chunks wait in a queue of their own and the error comes after the last of them.
 *
 * The queue holds at most `maxQueued` bytes (default {@link MAX_QUEUED_BYTES}) and one chunk:
 * when it is full the download pauses until the body is read, so a huge or endless response
 * cannot fill memory while nobody reads it. `signal` aborts the fetch; an abort, or cancelling
 * the returned body, stops the download and drops the queue.
 *
 * The returned response has the status and headers of the real one; reading its body hands out
 * the queued chunks, then the end or the error of the download.
 * @param {string | URL} url
 * @param {{signal?: AbortSignal, fetch?: typeof fetch, maxQueued?: number}} [options]
 * @returns {Promise<Response>}
 */
export async function prefetch(url, options = {}) {
  const signal = options.signal;
  const res = await (options.fetch ?? fetch)(url, { signal });
  if (!res.ok || !res.body) return res;
  const limit = Math.max(1, options.maxQueued ?? MAX_QUEUED_BYTES);
  const reader = res.body.getReader();
  /** @type {Uint8Array[]} */
  const queue = [];
  let queued = 0; // bytes in `queue`
  let done = false;
  /** @type {{error: unknown} | null} */
  let failure = null;
  /** The body's pull waiting for the next chunk or the end, and the download waiting for room. */
  const waiting = { wake: /** @type {(() => void) | null} */ (null), room: /** @type {(() => void) | null} */ (null) };
  /** Ends the download here: nothing more is read, what waits in the queue is dropped. */
  const stop = (/** @type {unknown} */ reason, /** @type {boolean} */ failed) => {
    if (done) return;
    done = true;
    if (failed) failure = { error: reason };
    queue.length = 0;
    queued = 0;
    reader.cancel(reason).catch(() => {});
    waiting.wake?.();
    waiting.room?.();
  };
  const onAbort = () => stop(signal?.reason, true);
  signal?.addEventListener('abort', onAbort, { once: true });
  (async () => {
    try {
      while (!done) {
        while (queued >= limit && !done) await new Promise((r) => (waiting.room = () => r(undefined)));
        waiting.room = null;
        if (done) break;
        const chunk = await reader.read();
        if (chunk.done || done) break;
        queue.push(chunk.value);
        queued += chunk.value.length;
        waiting.wake?.();
      }
    } catch (e) {
      if (!done) failure = { error: e };
    }
    done = true;
    signal?.removeEventListener('abort', onAbort);
    waiting.wake?.();
  })();
  const body = new ReadableStream(
    {
      async pull(controller) {
        while (!queue.length && !done) await new Promise((r) => (waiting.wake = () => r(undefined)));
        waiting.wake = null;
        const next = queue.shift();
        if (next) {
          queued -= next.length;
          waiting.room?.();
          controller.enqueue(next);
        } else if (failure) controller.error(failure.error);
        else controller.close();
      },
      cancel(reason) {
        stop(reason, false);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** @param {number} n bytes */
const mib = (n) => `${(n / (1 << 20)).toFixed(1)} MiB`;

/**
 * Downloads the model at `url` into wasm memory and loads it progressively.
 *
 * Every chunk is copied straight to where the handle says the next bytes go (a chunk may span
 * several sections: one copy and one call per piece); bytes past the last section are ignored.
 * The expected length comes from `Content-Length` when the response is not content-encoded (with
 * a content encoding the header counts compressed bytes).
 *
 * A failure before the core is in (HTTP error, truncation, not a model, damaged dictionary, a
 * model longer than `maxBytes`, an abort of `signal`) rejects with a {@link ModelLoadError}; a
 * failure after it (the LM part truncated, damaged or cancelled) resolves with the classic engine
 * and `lmError`. The fetch gets a signal of the loader's own, which follows `signal` and is
 * aborted on every failure, so nothing is downloaded for a load that has failed.
 *
 * `maxBytes` (default {@link MAX_MODEL_BYTES}) bounds the model: a `Content-Length` or a section
 * table that declares more is refused there, before its sections are read.
 *
 * @param {string | URL} url
 * @param {ModelSink} sink
 * @param {() => WebAssembly.Memory} memory the wasm memory (re-read after every call into wasm)
 * @param {{onProgress?: (p: Progress) => void, onCore?: (info: ModelInfo) => void, signal?: AbortSignal, fetch?: typeof fetch, maxBytes?: number}} [options]
 * @returns {Promise<StreamResult>}
 */
export async function streamModel(url, sink, memory, options = {}) {
  const { controller, unlink } = linkedController(options.signal);
  try {
    const result = await stream(url, sink, memory, controller.signal, options);
    if (result.lmError) controller.abort(new ModelLoadError(result.lmError));
    return result;
  } catch (e) {
    controller.abort(e);
    throw e;
  } finally {
    unlink();
  }
}

/**
 * The body of {@link streamModel}, with the loader's own signal.
 * @param {string | URL} url
 * @param {ModelSink} sink
 * @param {() => WebAssembly.Memory} memory
 * @param {AbortSignal} signal
 * @param {{onProgress?: (p: Progress) => void, onCore?: (info: ModelInfo) => void, fetch?: typeof fetch, maxBytes?: number}} options
 * @returns {Promise<StreamResult>}
 */
async function stream(url, sink, memory, signal, options) {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? MAX_MODEL_BYTES;
  const cancelled = () => new ModelLoadError('the model download was cancelled', signal.reason);
  if (signal.aborted) throw cancelled();
  /** @type {Response} */
  let res;
  try {
    res = await doFetch(url, { signal });
  } catch (e) {
    if (isAbort(e, signal)) throw cancelled();
    throw new ModelLoadError(`could not download the model (${String(e)})`, e);
  }
  if (!res.ok) throw new ModelLoadError(`could not download the model: HTTP ${res.status} ${res.statusText}`);
  const encoding = (res.headers.get('Content-Encoding') || 'identity').toLowerCase();
  const header = Number(res.headers.get('Content-Length') || 0);
  const total = encoding === 'identity' && Number.isFinite(header) && header > 0 ? header : 0;
  const tooLarge = (/** @type {number} */ n) =>
    new ModelLoadError(`the model is too large: ${mib(n)}, more than the ${mib(maxBytes)} this page accepts`);
  if (total > maxBytes) {
    res.body?.cancel().catch(() => {});
    throw tooLarge(total);
  }
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
  // A body that ignores the signal (a prefetched one, a test's) ends when the signal aborts.
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  /** @type {unknown} */
  let broke = null;
  try {
    // Until the body ends or breaks, or every section is in (bytes past the last are not needed).
    while (!state.complete && !signal.aborted) {
      /** @type {ReadableStreamReadResult<Uint8Array>} */
      let chunk;
      try {
        chunk = await reader.read();
      } catch (e) {
        broke = e;
        break;
      }
      if (chunk.done || signal.aborted) break;
      const value = chunk.value;
      for (let at = 0; at < value.length && state.len > 0; ) {
        const n = Math.min(state.len, value.length - at);
        // A fresh view each time: memory.buffer is replaced when linear memory grows.
        new Uint8Array(memory().buffer, state.ptr, n).set(value.subarray(at, at + n));
        at += n;
        const known = state.layout !== null;
        try {
          state = sink.modelWrote(n);
        } catch (e) {
          throw damaged(e);
        }
        if (!known && state.layout && state.layout.fileEnd > maxBytes) throw tooLarge(state.layout.fileEnd);
        if (state.coreReady && !info) loadCore();
      }
      loaded += value.length;
      options.onProgress?.({ loaded, total });
    }
  } catch (e) {
    // Not a model, damaged or too large: the download stops (a huge or endless response would go on).
    reader.cancel(e).catch(() => {});
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (state.complete) reader.cancel().catch(() => {});
  const expected = total || state.layout?.fileEnd || 0;
  const short = state.complete
    ? ''
    : signal.aborted
      ? 'was cancelled'
      : broke
        ? `broke off after ${loaded} bytes${expected ? ` of ${expected}` : ''} (${String(broke)})`
        : total && loaded < total
          ? `is truncated: ${loaded} of ${total} bytes`
          : state.layout
            ? `is truncated: ${state.received} of ${state.layout.fileEnd} bytes`
            : '';
  if (!info) {
    if (signal.aborted) throw cancelled();
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

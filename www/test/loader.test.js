// The streaming loader against a fake wasm memory and fake responses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prefetch, streamModel, ModelLoadError } from '../loader.js';
import { fakeSink } from './fake-model.js';

/**
 * @param {Uint8Array[]} chunks
 * @param {Record<string, string>} headers
 * @param {{status?: number, breakAfter?: number}} [opts]
 */
function fakeFetch(chunks, headers, opts = {}) {
  return async () => {
    let i = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (opts.breakAfter !== undefined && i === opts.breakAfter) {
          controller.error(new TypeError('network error'));
          return;
        }
        if (i < chunks.length) controller.enqueue(chunks[i++]);
        else controller.close();
      },
    });
    return new Response(body, { status: opts.status ?? 200, headers });
  };
}

const model = Uint8Array.from({ length: 3000 }, (_, i) => (i === 0 ? 0x48 : i % 251));
const chunks = [model.subarray(0, 1000), model.subarray(1000, 2500), model.subarray(2500)];
const shape = { coreEnd: 1800, fileEnd: 3000 };

test('the classic engine comes when the core is in, the LMs at the end, every byte where the handle says', async () => {
  const { sink, memory } = fakeSink(shape);
  /** @type {string[]} */
  const seen = [];
  const result = await streamModel('m', sink, memory, {
    fetch: fakeFetch(chunks, { 'Content-Length': '3000' }),
    onProgress: (p) => seen.push(`${p.loaded}`),
    onCore: (info) => seen.push(`core ${info.engines}`),
  });
  assert.equal(result.lmError, '');
  assert.deepEqual(result.info.engines, ['classic', 'neural', 'hybrid']);
  assert.deepEqual(sink.core, model.subarray(0, 1800));
  assert.deepEqual(sink.full, model);
  assert.deepEqual(sink.begins, [3000]);
  assert.equal(sink.completes, 1);
  assert.deepEqual(seen, ['0', '1000', 'core classic', '2500', '3000']);
});

test('without a length (or content-encoded) the table gives it', async () => {
  for (const headers of [{}, { 'Content-Length': '1234', 'Content-Encoding': 'gzip' }]) {
    const { sink, memory } = fakeSink(shape);
    const parts = [model.subarray(0, 10), model.subarray(10, 1799), model.subarray(1799, 2999), model.subarray(2999)];
    const result = await streamModel('m', sink, memory, { fetch: fakeFetch(parts, headers) });
    assert.equal(result.info.bytes, 3000);
    assert.deepEqual(sink.begins, [0]);
    assert.deepEqual(sink.full, model);
  }
});

test('bytes past the last section are ignored', async () => {
  const { sink, memory } = fakeSink({ coreEnd: 1800, fileEnd: 2600 });
  const result = await streamModel('m', sink, memory, { fetch: fakeFetch(chunks, {}) });
  assert.equal(result.lmError, '');
  assert.deepEqual(sink.full, model.subarray(0, 2600));
});

test('a download cut before the core is an error', async () => {
  const { sink, memory } = fakeSink(shape);
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch(chunks.slice(0, 1), { 'Content-Length': '3000' }) }),
    (e) => e instanceof ModelLoadError && /truncated: 1000 of 3000/.test(e.message),
  );
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch(chunks, { 'Content-Length': '3000' }, { breakAfter: 1 }) }),
    (e) => e instanceof ModelLoadError && /broke off after 1000 bytes of 3000/.test(e.message),
  );
  assert.equal(sink.core, null);
});

test('a download cut in the LM part keeps the classic engine, with a message', async () => {
  for (const [fetch, pattern] of [
    [fakeFetch(chunks.slice(0, 2), { 'Content-Length': '3000' }), /language model download is truncated: 2500 of 3000/],
    [fakeFetch(chunks.slice(0, 2), {}), /language model download is truncated: 2500 of 3000/],
    [fakeFetch(chunks, { 'Content-Length': '3000' }, { breakAfter: 2 }), /language model download broke off after 2500 bytes of 3000/],
  ]) {
    const { sink, memory } = fakeSink(shape);
    let cores = 0;
    const result = await streamModel('m', sink, memory, { fetch: /** @type {any} */ (fetch), onCore: () => cores++ });
    assert.equal(cores, 1);
    assert.deepEqual(result.info.engines, ['classic']);
    assert.match(result.lmError, /** @type {RegExp} */ (pattern));
    assert.equal(sink.full, null);
    assert.equal(sink.completes, 1, 'the handle lets the unfinished part go');
  }
});

test('a damaged LM keeps the classic engine, with a message', async () => {
  const { sink, memory } = fakeSink({ ...shape, badLm: true });
  const result = await streamModel('m', sink, memory, { fetch: fakeFetch(chunks, { 'Content-Length': '3000' }) });
  assert.deepEqual(result.info.engines, ['classic']);
  assert.match(result.lmError, /damaged: checksum mismatch in section lstm/);
});

test('a model without LM sections is complete with its core', async () => {
  const { sink, memory } = fakeSink({ coreEnd: 3000, fileEnd: 3000 });
  const result = await streamModel('m', sink, memory, { fetch: fakeFetch(chunks, { 'Content-Length': '3000' }) });
  assert.deepEqual(result, { info: { bytes: 3000, engines: ['classic'], defaultEngine: 'classic', lmPending: false }, lmError: '' });
});

test('HTTP errors and bad models are clear errors', async () => {
  const { sink, memory } = fakeSink(shape);
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch([], {}, { status: 404 }) }),
    (e) => e instanceof ModelLoadError && /HTTP 404/.test(e.message),
  );
  const junk = [new Uint8Array([1, 2, 3])];
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch(junk, { 'Content-Length': '3' }) }),
    (e) => e instanceof ModelLoadError && /damaged.*bad magic/.test(e.message),
  );
});

/**
 * A response whose chunks all arrive at once and whose connection breaks on the next macrotask,
 * as when a download breaks while wasm compiles: a plain body stream that errors drops the
 * chunks nobody has read yet.
 */
function burstThenBreak() {
  return async () => {
    const body = new ReadableStream({
      start(controller) {
        for (const c of chunks.slice(0, 2)) controller.enqueue(c);
        setTimeout(() => controller.error(new TypeError('network error')), 0);
      },
    });
    return new Response(body, { headers: { 'Content-Length': '3000' } });
  };
}

const later = () => new Promise((r) => setTimeout(r, 20));

test('prefetch keeps what arrived before a break that comes before anyone reads', async () => {
  // Without it the bytes are gone: the core never comes.
  {
    const { sink, memory } = fakeSink(shape);
    const res = burstThenBreak()();
    await later();
    await assert.rejects(
      streamModel('m', sink, memory, { fetch: () => res }),
      (e) => e instanceof ModelLoadError && /broke off after 0 bytes of 3000/.test(e.message),
    );
  }
  const { sink, memory } = fakeSink(shape);
  const res = prefetch('m', { fetch: /** @type {any} */ (burstThenBreak()) });
  await later();
  const result = await streamModel('m', sink, memory, { fetch: () => res });
  assert.deepEqual(result.info.engines, ['classic']);
  assert.deepEqual(sink.core, model.subarray(0, 1800));
  assert.match(result.lmError, /language model download broke off after 2500 bytes of 3000 \(TypeError: network error\)/);
});

test('prefetch passes a whole download, its headers and HTTP errors through', async () => {
  const { sink, memory } = fakeSink(shape);
  const res = prefetch('m', { fetch: /** @type {any} */ (fakeFetch(chunks, { 'Content-Length': '3000' })) });
  const result = await streamModel('m', sink, memory, { fetch: () => res });
  assert.equal(result.lmError, '');
  assert.deepEqual(sink.full, model);
  assert.deepEqual(sink.begins, [3000]);
  const missing = prefetch('m', { fetch: /** @type {any} */ (fakeFetch([], {}, { status: 404 })) });
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: () => missing }),
    (e) => e instanceof ModelLoadError && /HTTP 404/.test(e.message),
  );
});

/**
 * An endless response: `first`, then the same 1,000 bytes for ever; counts the chunks pulled and
 * whether the body was cancelled.
 * @param {Uint8Array} first
 */
function endless(first) {
  const stats = { pulls: 0, cancelled: false };
  const fetch = async () => {
    const body = new ReadableStream({
      pull(controller) {
        stats.pulls++;
        controller.enqueue(stats.pulls === 1 ? first : new Uint8Array(1000));
      },
      cancel() {
        stats.cancelled = true;
      },
    });
    return new Response(body, { status: 200 });
  };
  return { stats, fetch };
}

test('a rejected download is cancelled: an endless response that is not a model stops', { timeout: 5000 }, async () => {
  const { sink, memory } = fakeSink(shape);
  const { stats, fetch } = endless(new Uint8Array(1000).fill(7));
  await assert.rejects(streamModel('m', sink, memory, { fetch }), (e) => e instanceof ModelLoadError && /bad magic/.test(e.message));
  const pulls = stats.pulls;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(stats.cancelled, true);
  assert.ok(stats.pulls <= pulls + 1, `no more reading after the rejection: ${pulls} → ${stats.pulls}`);
});

test('once every section is in, the rest of the response is not read', { timeout: 5000 }, async () => {
  const { sink, memory } = fakeSink(shape);
  const { stats, fetch } = endless(model);
  const result = await streamModel('m', sink, memory, { fetch });
  assert.equal(result.lmError, '');
  assert.equal(stats.cancelled, true);
  assert.ok(stats.pulls < 5, `${stats.pulls} chunks read`);
});

test('through prefetch too: the underlying download is cancelled', { timeout: 5000 }, async () => {
  const { sink, memory } = fakeSink(shape);
  const { stats, fetch } = endless(new Uint8Array(1000).fill(7));
  const response = prefetch('m', { fetch });
  await assert.rejects(streamModel('m', sink, memory, { fetch: () => response }), ModelLoadError);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(stats.cancelled, true);
  const pulls = stats.pulls;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(stats.pulls, pulls, 'the prefetch stopped reading');
});

/**
 * A fetch that records the signal it was given and whether its body was cancelled.
 * @param {(signal: AbortSignal) => Promise<Response>} respond
 */
function watchedFetch(respond) {
  const seen = { signal: /** @type {AbortSignal | null} */ (null) };
  /** @type {typeof fetch} */
  const fetch = async (_url, init) => {
    seen.signal = /** @type {AbortSignal} */ (init?.signal);
    return respond(seen.signal);
  };
  return { seen, fetch };
}

test('every failure aborts the fetch: HTTP error, not a model, a damaged LM', async () => {
  for (const [respond, settles] of /** @type {const} */ ([
    [fakeFetch([], {}, { status: 404 }), 'rejects'],
    [fakeFetch([new Uint8Array(10)], { 'Content-Length': '10' }), 'rejects'],
    [fakeFetch(chunks.slice(0, 2), { 'Content-Length': '3000' }), 'resolves'],
  ])) {
    const { sink, memory } = fakeSink(shape);
    const { seen, fetch } = watchedFetch(respond);
    const load = streamModel('m', sink, memory, { fetch });
    if (settles === 'rejects') await assert.rejects(load, ModelLoadError);
    else assert.match((await load).lmError, /truncated/);
    assert.equal(seen.signal?.aborted, true);
  }
  // A load that succeeds leaves its signal alone.
  const { sink, memory } = fakeSink(shape);
  const { seen, fetch } = watchedFetch(fakeFetch(chunks, { 'Content-Length': '3000' }));
  await streamModel('m', sink, memory, { fetch });
  assert.equal(seen.signal?.aborted, false);
});

test("the caller's signal cancels the download: an error before the core, the classic engine after it", { timeout: 5000 }, async () => {
  {
    const { sink, memory } = fakeSink({ coreEnd: 1e6, fileEnd: 2e6 });
    const { stats, fetch } = endless(model);
    const controller = new AbortController();
    const load = streamModel('m', sink, memory, { fetch, signal: controller.signal, onProgress: (p) => p.loaded >= 5000 && controller.abort() });
    await assert.rejects(load, (e) => e instanceof ModelLoadError && e.message === 'the model download was cancelled');
    assert.equal(stats.cancelled, true);
    const pulls = stats.pulls;
    await later();
    assert.ok(stats.pulls <= pulls + 1, `no more reading after the abort: ${pulls} → ${stats.pulls}`);
  }
  {
    const { sink, memory } = fakeSink({ coreEnd: 1800, fileEnd: 1e6 });
    const { stats, fetch } = endless(model);
    const controller = new AbortController();
    const result = await streamModel('m', sink, memory, { fetch, signal: controller.signal, onCore: () => controller.abort() });
    assert.deepEqual(result.info.engines, ['classic']);
    assert.equal(result.lmError, 'the language model download was cancelled');
    assert.equal(stats.cancelled, true);
    assert.equal(sink.completes, 1, 'the handle lets the unfinished part go');
  }
  // Aborted before it starts: nothing is fetched.
  const { sink, memory } = fakeSink(shape);
  const { seen, fetch } = watchedFetch(fakeFetch(chunks, {}));
  await assert.rejects(streamModel('m', sink, memory, { fetch, signal: AbortSignal.abort() }), /cancelled/);
  assert.equal(seen.signal, null);
});

test('a model longer than maxBytes is refused before its bytes are read', { timeout: 5000 }, async () => {
  {
    // By its Content-Length: not one chunk goes to the handle.
    const { sink, memory } = fakeSink(shape);
    const { seen, fetch } = watchedFetch(fakeFetch(chunks, { 'Content-Length': '3000' }));
    await assert.rejects(
      streamModel('m', sink, memory, { fetch, maxBytes: 2999 }),
      (e) => e instanceof ModelLoadError && /too large: 0\.0 MiB, more than the 0\.0 MiB/.test(e.message),
    );
    assert.deepEqual(sink.begins, []);
    assert.equal(seen.signal?.aborted, true);
  }
  // By its section table (no Content-Length): the download stops there.
  const { sink, memory } = fakeSink({ coreEnd: 1800, fileEnd: 300 << 20 });
  const { stats, fetch } = endless(model);
  await assert.rejects(
    streamModel('m', sink, memory, { fetch }),
    (e) => e instanceof ModelLoadError && e.message === 'the model is too large: 300.0 MiB, more than the 256.0 MiB this page accepts',
  );
  assert.equal(stats.cancelled, true);
  assert.ok(stats.pulls <= 2, `${stats.pulls} chunks read`);
});

test('prefetch holds at most maxQueued bytes that nobody reads, then goes on as they are read', { timeout: 5000 }, async () => {
  const { stats, fetch } = endless(new Uint8Array(1000));
  const res = await prefetch('m', { fetch, maxQueued: 10_000 });
  await later();
  assert.ok(stats.pulls >= 10 && stats.pulls <= 12, `${stats.pulls} chunks read with nobody reading`);
  const reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
  let got = 0;
  while (got < 50_000) got += (await reader.read()).value?.length ?? 0;
  await later();
  assert.ok(stats.pulls >= 60 && stats.pulls <= 62, `${stats.pulls} chunks read after 50 were taken`);
  await reader.cancel();
  assert.equal(stats.cancelled, true);
});

test('an abort stops the prefetch and drops its queue; the body ends with the reason', { timeout: 5000 }, async () => {
  const { stats, fetch } = endless(new Uint8Array(1000));
  const controller = new AbortController();
  const { seen, fetch: watched } = watchedFetch(() => fetch());
  const res = await prefetch('m', { fetch: watched, signal: controller.signal });
  assert.equal(seen.signal, controller.signal);
  await later();
  controller.abort(new Error('gone'));
  const pulls = stats.pulls;
  await later();
  assert.equal(stats.cancelled, true);
  assert.ok(stats.pulls <= pulls + 1);
  await assert.rejects(/** @type {ReadableStream<Uint8Array>} */ (res.body).getReader().read(), /gone/);
});

// The streaming loader against a fake wasm memory and fake responses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamModel, ModelLoadError } from '../loader.js';

/** A sink over a growable byte array standing in for wasm memory. */
function fakeSink() {
  const memory = { buffer: new ArrayBuffer(16) };
  const sink = {
    ptr: 8,
    allocs: 0,
    grows: 0,
    loaded: /** @type {Uint8Array | null} */ (null),
    allocModel(/** @type {number} */ len) {
      this.allocs++;
      memory.buffer = new ArrayBuffer(this.ptr + len); // growth detaches old views
      return this.ptr;
    },
    growModel(/** @type {number} */ len) {
      this.grows++;
      const old = new Uint8Array(memory.buffer);
      memory.buffer = new ArrayBuffer(this.ptr + len);
      new Uint8Array(memory.buffer).set(old.subarray(0, Math.min(old.length, this.ptr + len)));
      return this.ptr;
    },
    loadModel(/** @type {number} */ len) {
      this.loaded = new Uint8Array(memory.buffer, this.ptr, len).slice();
      if (this.loaded[0] !== 0x48) throw new Error('not a henkan model (bad magic)');
      return { bytes: len, engines: ['classic'] };
    },
  };
  return { sink, memory: () => /** @type {WebAssembly.Memory} */ (/** @type {unknown} */ (memory)) };
}

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

test('streams into one buffer sized by Content-Length', async () => {
  const { sink, memory } = fakeSink();
  /** @type {number[]} */
  const seen = [];
  const info = await streamModel('m', sink, memory, {
    fetch: fakeFetch(chunks, { 'Content-Length': '3000' }),
    onProgress: (p) => seen.push(p.loaded),
  });
  assert.deepEqual(info, { bytes: 3000, engines: ['classic'] });
  assert.deepEqual(sink.loaded, model);
  assert.equal(sink.allocs, 1);
  assert.equal(sink.grows, 0);
  assert.deepEqual(seen, [0, 1000, 2500, 3000]);
});

test('grows when the length is unknown', async () => {
  const { sink, memory } = fakeSink();
  const big = Uint8Array.from({ length: (1 << 20) + 5000 }, (_, i) => (i === 0 ? 0x48 : i % 253));
  const parts = [big.subarray(0, 700000), big.subarray(700000)];
  const info = await streamModel('m', sink, memory, { fetch: fakeFetch(parts, {}) });
  assert.equal(info.bytes, big.length);
  assert.equal(sink.grows, 1);
  assert.deepEqual(sink.loaded, big);
});

test('a truncated download is an error', async () => {
  const { sink, memory } = fakeSink();
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch(chunks.slice(0, 2), { 'Content-Length': '3000' }) }),
    (e) => e instanceof ModelLoadError && /truncated: 2500 of 3000/.test(e.message),
  );
  await assert.rejects(
    streamModel('m', sink, memory, { fetch: fakeFetch(chunks, { 'Content-Length': '3000' }, { breakAfter: 1 }) }),
    (e) => e instanceof ModelLoadError && /broke off after 1000 bytes of 3000/.test(e.message),
  );
});

test('HTTP errors and bad models are clear errors', async () => {
  const { sink, memory } = fakeSink();
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

// The model cache and its integrity check (www/model-cache.js), with an in-memory Cache API and
// scripted downloads: where the bytes come from, what reaches the loader when, what is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cachedModelFetch, cacheKey, decodedCacheKey, HOLD_BYTES, ModelIntegrityError } from '../model-cache.js';

const URL_ = 'http://127.0.0.1/models/m.henkan';
const BYTES = 300_000;
const CORE = 100_000;
const model = Uint8Array.from({ length: BYTES }, (_, i) => (i * 7 + (i >> 8)) & 255);
const hex = (/** @type {Uint8Array} */ b) => createHash('sha256').update(b).digest('hex');
/** @type {import('../model-cache.js').ModelInfo} */
const info = { file: 'm.henkan', bytes: BYTES, sha256: hex(model), coreBytes: CORE, coreSha256: hex(model.subarray(0, CORE)) };

/** A Cache API of one cache, in memory. */
function memoryCaches() {
  /** @type {Map<string, Uint8Array>} */
  const entries = new Map();
  const cache = {
    match: async (/** @type {string} */ key) => (entries.has(key) ? new Response(/** @type {Uint8Array} */ (entries.get(key)).slice()) : undefined),
    put: async (/** @type {string} */ key, /** @type {Response} */ res) => void entries.set(key, new Uint8Array(await res.arrayBuffer())),
    delete: async (/** @type {string | Request} */ key) => entries.delete(typeof key === 'string' ? key : key.url),
    keys: async () => [...entries.keys()].map((k) => new Request(k)),
  };
  return { entries, caches: /** @type {CacheStorage} */ (/** @type {unknown} */ ({ open: async () => cache })) };
}

/**
 * A network that serves `bodies` in turn (the last one again), in 10,000-byte chunks; `calls`
 * records each request's init.
 * @param {Uint8Array[]} bodies
 */
function network(bodies) {
  /** @type {(RequestInit | undefined)[]} */
  const calls = [];
  const fetch = /** @type {typeof globalThis.fetch} */ (
    async (_input, init) => {
      const body = bodies[Math.min(calls.length, bodies.length - 1)];
      calls.push(init);
      let at = 0;
      const stream = new ReadableStream({
        pull(c) {
          if (at >= body.length) return c.close();
          c.enqueue(body.slice(at, at + 10_000));
          at += 10_000;
        },
      });
      return new Response(stream, { headers: { 'Content-Length': String(body.length) } });
    }
  );
  return { fetch, calls };
}

/**
 * Reads a body whole, recording how many bytes had arrived over the network at each chunk.
 * @param {Response} res
 */
async function readAll(res) {
  const reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.slice());
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.length));
  return { bytes: out, chunks };
}

/** Waits for the background cache put. */
const settle = () => new Promise((r) => setTimeout(r, 10));

test('a cold load downloads, checks and stores the model; the next one reads the cache only', async () => {
  const { caches, entries } = memoryCaches();
  const net = network([model]);
  /** @type {import('../model-cache.js').ModelSourceEvent[]} */
  const sources = [];
  /** @type {boolean[]} */
  const stored = [];
  const f = cachedModelFetch({ info, caches, fetch: net.fetch, onSource: (e) => sources.push(e), onStored: (s) => stored.push(s) });
  const cold = await readAll(await f(URL_));
  assert.deepEqual(cold.bytes, model);
  // The core gate: nothing before the whole core; the file gate: the tail comes last, alone.
  assert.ok(cold.chunks[0].length >= CORE);
  assert.equal(cold.chunks.at(-1)?.length, HOLD_BYTES);
  await settle();
  assert.deepEqual(stored, [true]);
  assert.ok(entries.has(cacheKey(URL_, info.sha256)));
  const warm = await f(URL_);
  assert.equal(warm.headers.get('Content-Length'), String(BYTES));
  assert.deepEqual((await readAll(warm)).bytes, model);
  assert.equal(net.calls.length, 1);
  assert.deepEqual(sources.map((s) => [s.source, s.attempts, s.discarded]), [['network', 1, false], ['cache', 0, false]]);
});

test('a damaged cached copy is discarded and the model downloaded again', async () => {
  const { caches, entries } = memoryCaches();
  const bad = model.slice();
  bad[BYTES - 5] ^= 1;
  entries.set(cacheKey(URL_, info.sha256), bad);
  const net = network([model]);
  /** @type {import('../model-cache.js').ModelSourceEvent[]} */
  const sources = [];
  const f = cachedModelFetch({ info, caches, fetch: net.fetch, onSource: (e) => sources.push(e) });
  assert.deepEqual((await readAll(await f(URL_))).bytes, model);
  await settle();
  assert.deepEqual(entries.get(cacheKey(URL_, info.sha256)), model);
  assert.deepEqual(sources.map((s) => [s.source, s.discarded]), [['network', true]]);
});

test('a download whose core fails is fetched once more past the HTTP cache', async () => {
  const bad = model.slice();
  bad[10] ^= 1;
  const { caches } = memoryCaches();
  const net = network([bad, model]);
  const f = cachedModelFetch({ info, caches, fetch: net.fetch });
  assert.deepEqual((await readAll(await f(URL_))).bytes, model);
  assert.deepEqual(net.calls.map((c) => c?.cache), [undefined, 'reload']);
});

test('a core that fails twice is an integrity error, before any byte reaches the loader', async () => {
  const bad = model.slice();
  bad[10] ^= 1;
  const { caches, entries } = memoryCaches();
  const f = cachedModelFetch({ info, caches, fetch: network([bad]).fetch });
  const reader = /** @type {ReadableStream<Uint8Array>} */ ((await f(URL_)).body).getReader();
  await assert.rejects(reader.read(), (e) => e instanceof ModelIntegrityError && /failed its integrity check twice/.test(e.message));
  assert.equal(entries.size, 0);
});

test('an LM part that fails ends the body with an integrity error after the core; nothing is stored', async () => {
  const bad = model.slice();
  bad[CORE + 10] ^= 1;
  const { caches, entries } = memoryCaches();
  const f = cachedModelFetch({ info, caches, fetch: network([bad]).fetch });
  const reader = /** @type {ReadableStream<Uint8Array>} */ ((await f(URL_)).body).getReader();
  let got = 0;
  const error = await (async () => {
    for (;;) {
      try {
        const { done, value } = await reader.read();
        if (done) return null;
        got += value.length;
      } catch (e) {
        return e;
      }
    }
  })();
  assert.ok(error instanceof ModelIntegrityError && /SHA-256 [0-9a-f]{64}, expected/.test(error.message));
  assert.equal(got, BYTES - HOLD_BYTES);
  await settle();
  assert.equal(entries.size, 0);
});

test('a short download reaches the loader as it is (the loader reports the truncation)', async () => {
  const { caches, entries } = memoryCaches();
  const f = cachedModelFetch({ info, caches, fetch: network([model.slice(0, 50_000)]).fetch });
  assert.equal((await readAll(await f(URL_))).bytes.length, 50_000);
  assert.equal(entries.size, 0);
});

test('an HTTP error passes through; without SubtleCrypto the model is fetched unchecked', async () => {
  const notFound = /** @type {typeof fetch} */ (async () => new Response('no', { status: 404 }));
  assert.equal((await cachedModelFetch({ info, caches: null, fetch: notFound })(URL_)).status, 404);
  /** @type {string[]} */
  const sources = [];
  const f = cachedModelFetch({ info, subtle: null, fetch: network([model]).fetch, onSource: (e) => sources.push(e.source) });
  assert.deepEqual((await readAll(await f(URL_))).bytes, model);
  assert.deepEqual(sources, ['unchecked']);
});

test('a new model at the same URL replaces the old entry', async () => {
  const { caches, entries } = memoryCaches();
  entries.set(cacheKey(URL_, '0'.repeat(64)), model);
  const f = cachedModelFetch({ info, caches, fetch: network([model]).fetch });
  await readAll(await f(URL_));
  await settle();
  assert.deepEqual([...entries.keys()], [cacheKey(URL_, info.sha256)]);
});

/** A decoded copy in three parts, as the wasm handle hands it out (`storedCopyPart`). */
const decodedParts = [Uint8Array.of(1, 2, 3), new Uint8Array(1000).fill(7), Uint8Array.of(9)];
const decodedBytes = Uint8Array.from(decodedParts.flatMap((p) => [...p]));

test('the decoded copy of a checked model is stored, and the next load streams it without SHA-256 or download', async () => {
  const { caches, entries } = memoryCaches();
  const net = network([model]);
  /** @type {import('../model-cache.js').ModelSourceEvent[]} */
  const sources = [];
  const f = cachedModelFetch({ info, caches, fetch: net.fetch, onSource: (e) => sources.push(e) });
  await readAll(await f(URL_));
  /** @type {number[]} */
  const taken = [];
  const ok = await f.storeDecoded(decodedParts.length, (i) => (taken.push(i), decodedParts[i]));
  assert.equal(ok, true);
  assert.deepEqual(taken, [0, 1, 2]); // one part at a time, in order
  assert.deepEqual(entries.get(decodedCacheKey(URL_, info.sha256)), decodedBytes);
  await settle();
  assert.ok(entries.has(cacheKey(URL_, info.sha256)), 'the compressed copy stays, to fall back on');
  const warm = await readAll(await f(URL_));
  assert.deepEqual(warm.bytes, decodedBytes);
  assert.equal(net.calls.length, 1);
  assert.deepEqual(
    sources.map((s) => [s.source, s.decoded, s.checkMs]),
    [
      ['network', false, sources[0].checkMs],
      ['cache', true, 0],
    ],
  );
  // A load of the decoded copy is not a checked model: it stores nothing.
  assert.equal(await f.storeDecoded(decodedParts.length, (i) => decodedParts[i]), false);
  assert.equal(await f.discardDecoded(), true);
});

test('a decoded copy that did not load is discarded; the next fetch checks the compressed copy', async () => {
  const { caches, entries } = memoryCaches();
  entries.set(cacheKey(URL_, info.sha256), model);
  entries.set(decodedCacheKey(URL_, info.sha256), decodedBytes);
  const net = network([model]);
  /** @type {import('../model-cache.js').ModelSourceEvent[]} */
  const sources = [];
  const f = cachedModelFetch({ info, caches, fetch: net.fetch, onSource: (e) => sources.push(e) });
  await readAll(await f(URL_));
  assert.equal(await f.discardDecoded(), true);
  assert.ok(!entries.has(decodedCacheKey(URL_, info.sha256)));
  assert.deepEqual((await readAll(await f(URL_))).bytes, model);
  // Not the decoded copy: nothing to discard, the caller does not fetch again.
  assert.equal(await f.discardDecoded(), false);
  assert.equal(net.calls.length, 0);
  assert.deepEqual(
    sources.map((s) => [s.source, s.decoded, s.discarded]),
    [
      ['cache', true, false],
      ['cache', false, true],
    ],
  );
  // The compressed copy matched: its decoded copy may be stored again.
  assert.equal(await f.storeDecoded(1, () => decodedBytes), true);
});

test('no decoded copy without a checked model: unchecked, failed, or before any load', async () => {
  const { caches, entries } = memoryCaches();
  const part = () => decodedBytes;
  const unchecked = cachedModelFetch({ info: null, caches, fetch: network([model]).fetch });
  assert.equal(await unchecked.storeDecoded(1, part), false);
  await readAll(await unchecked(URL_));
  assert.equal(await unchecked.storeDecoded(1, part), false);
  const bad = model.slice();
  bad[BYTES - 5] ^= 1;
  const f = cachedModelFetch({ info, caches, fetch: network([bad]).fetch });
  await assert.rejects(readAll(await f(URL_)), ModelIntegrityError);
  assert.equal(await f.storeDecoded(1, part), false);
  assert.equal(entries.size, 0);
});

test('a new model at the same URL replaces both copies of the old one', async () => {
  const { caches, entries } = memoryCaches();
  entries.set(cacheKey(URL_, '0'.repeat(64)), model);
  entries.set(decodedCacheKey(URL_, '0'.repeat(64)), decodedBytes);
  entries.set(decodedCacheKey('http://127.0.0.1/other.henkan', '0'.repeat(64)), decodedBytes);
  const f = cachedModelFetch({ info, caches, fetch: network([model]).fetch });
  await readAll(await f(URL_));
  await settle();
  assert.equal(await f.storeDecoded(1, () => decodedBytes), true);
  assert.deepEqual(new Set(entries.keys()), new Set([cacheKey(URL_, info.sha256), decodedCacheKey(URL_, info.sha256), decodedCacheKey('http://127.0.0.1/other.henkan', '0'.repeat(64))]));
});

test('www/model-info.js describes the shipped model (`make model-info` after changing it)', async () => {
  const fs = await import('node:fs');
  const { MODEL_INFO } = await import('../model-info.js');
  const root = new URL('../../', import.meta.url);
  const [sha] = fs.readFileSync(new URL('models/henkan.henkan.sha256', root), 'utf8').split(/\s+/);
  assert.equal(MODEL_INFO.sha256, sha);
  const file = new URL('models/henkan.henkan', root);
  if (fs.existsSync(file)) assert.equal(MODEL_INFO.bytes, fs.statSync(file).size);
  assert.ok(MODEL_INFO.coreBytes > 0 && MODEL_INFO.coreBytes <= MODEL_INFO.bytes);
});

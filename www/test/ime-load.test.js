// HenkanIme.load() against a fake wasm module and a local server with endless responses: the
// download stops (the server sees its connection closed) on a failure, on dispose(), when the
// page's signal aborts and when the last field of a `disposeWhenUnused` IME is detached.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { HenkanIme } from '../ime.js';
import { fakeSink } from './fake-model.js';

/** The responses in progress, by path: whether the client went away. */
const open = new Map();
/** @type {http.Server} */
let server;
let base = '';

before(async () => {
  // /model: a "model" (first byte 0x48) that never ends; /junk: zeros that never end.
  server = http.createServer((req, res) => {
    const entry = { closed: false, bytes: 0 };
    open.set(req.url, entry);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    const first = new Uint8Array(4096).fill(req.url === '/junk' ? 0 : 7);
    first[0] = req.url === '/junk' ? 0 : 0x48;
    const rest = new Uint8Array(4096).fill(7);
    const timer = setInterval(() => {
      res.write(entry.bytes ? rest : first);
      entry.bytes += 4096;
    }, 1);
    res.on('close', () => {
      entry.closed = true;
      clearInterval(timer);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  base = `http://127.0.0.1:${addr.port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

/**
 * The namespace of pkg/henkan.js over {@link fakeSink}: its handle loads a model whose core is
 * never reached (the response never ends), and counts `free()`.
 */
function fakeModule() {
  const { sink, memory } = fakeSink({ coreEnd: 16 << 20, fileEnd: 16 << 20 });
  const counts = { freed: 0 };
  class Henkan {
    beginModel(/** @type {number} */ expected) {
      return sink.beginModel(expected);
    }
    modelWrote(/** @type {number} */ n) {
      return sink.modelWrote(n);
    }
    loadModelCore() {
      return sink.loadModelCore();
    }
    completeModel() {
      return sink.completeModel();
    }
    defaultEngine() {
      return 'classic';
    }
    free() {
      counts.freed++;
    }
  }
  return { module: /** @type {any} */ ({ default: async () => ({ memory: memory() }), Henkan }), counts };
}

/** @param {() => boolean} done */
async function until(done, ms = 3000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** @param {HenkanIme} ime */
function statuses(ime) {
  /** @type {string[]} */
  const seen = [];
  ime.addEventListener('status', () => seen.push(ime.status));
  return seen;
}

test('dispose() while loading stops the download, frees the handle and leaves the IME idle', { timeout: 10_000 }, async () => {
  const ime = new HenkanIme({ persistLearning: false });
  const seen = statuses(ime);
  const { module, counts } = fakeModule();
  const loaded = ime.load({ module, modelUrl: `${base}/model` });
  await until(() => ime.modelBytes > 20_000);
  await ime.dispose();
  assert.equal(await loaded, false);
  await until(() => open.get('/model').closed);
  assert.equal(ime.status, 'idle');
  assert.equal(ime.handle, null);
  assert.equal(ime.error, '');
  assert.equal(counts.freed, 1);
  assert.deepEqual(seen, ['loading', 'loading', 'idle'], 'no error on the way');
});

test('a failed load aborts its download', { timeout: 10_000 }, async () => {
  const ime = new HenkanIme({ persistLearning: false });
  assert.equal(await ime.load({ module: fakeModule().module, modelUrl: `${base}/junk` }), false);
  assert.equal(ime.status, 'error');
  assert.match(ime.error, /bad magic/);
  await until(() => open.get('/junk').closed);
  // A wasm module that does not instantiate: the download that started meanwhile stops too.
  const broken = { default: async () => Promise.reject(new Error('no simd')), Henkan: class {} };
  assert.equal(await ime.load({ module: /** @type {any} */ (broken), modelUrl: `${base}/model` }), false);
  assert.match(ime.error, /could not start: no simd/);
  await until(() => open.get('/model').closed);
});

test("the page's signal cancels the load", { timeout: 10_000 }, async () => {
  const ime = new HenkanIme({ persistLearning: false });
  const controller = new AbortController();
  const loaded = ime.load({ module: fakeModule().module, modelUrl: `${base}/model`, signal: controller.signal });
  await until(() => ime.modelBytes > 20_000);
  controller.abort();
  assert.equal(await loaded, false);
  assert.equal(ime.status, 'error');
  assert.equal(ime.error, 'the model download was cancelled');
  await until(() => open.get('/model').closed);
});

test('dispose() detaches every field; with disposeWhenUnused the last detach disposes', { timeout: 10_000 }, async () => {
  const ime = new HenkanIme({ persistLearning: false, disposeWhenUnused: true });
  /** @type {string[]} */
  const detached = [];
  /** A field's detach as widget.js makes it: it tells the IME. */
  const field = (/** @type {string} */ name) => {
    const detach = () => {
      detached.push(name);
      ime.fieldDetached(detach);
    };
    ime.fieldAttached(detach);
    return detach;
  };
  const a = field('a');
  field('b');
  const loaded = ime.load({ module: fakeModule().module, modelUrl: `${base}/model` });
  await until(() => ime.modelBytes > 20_000);
  a();
  assert.equal(ime.status, 'loading', 'one field is left');
  assert.equal(open.get('/model').closed, false);
  await ime.dispose();
  assert.deepEqual(detached, ['a', 'b']);
  assert.equal(await loaded, false);
  await until(() => open.get('/model').closed);

  // The last field going is enough.
  const c = field('c');
  const again = ime.load({ module: fakeModule().module, modelUrl: `${base}/model` });
  await until(() => ime.modelBytes > 20_000);
  c();
  assert.equal(await again, false);
  assert.equal(ime.status, 'idle');
  await until(() => open.get('/model').closed);
});

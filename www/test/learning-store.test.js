// The learning store's fallback: without IndexedDB, or with one that throws or fails, the text
// stays in memory; with a working one (a small fake of the few calls the store makes) it is
// stored there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openLearningStore } from '../learning-store.js';

/**
 * A fake IndexedDB: one database of plain Maps. `failOpen` makes `open` fail, `failRequests`
 * makes every get/put/delete fail.
 * @param {{ failOpen?: boolean, failRequests?: boolean }} [how]
 */
function fakeIndexedDB(how = {}) {
  /** @type {Map<string, Map<string, unknown>>} */
  const stores = new Map();
  /** @param {() => unknown} work */
  const request = (work) => {
    /** @type {any} */
    const r = { onsuccess: null, onerror: null, result: undefined, error: null };
    queueMicrotask(() => {
      if (how.failRequests) {
        r.error = new Error('quota');
        r.onerror?.();
        return;
      }
      r.result = work();
      r.onsuccess?.();
    });
    return r;
  };
  const db = {
    objectStoreNames: { contains: (/** @type {string} */ n) => stores.has(n) },
    createObjectStore: (/** @type {string} */ n) => stores.set(n, new Map()),
    transaction: (/** @type {string} */ n) => ({
      objectStore: () => {
        const s = /** @type {Map<string, unknown>} */ (stores.get(n));
        return {
          get: (/** @type {string} */ k) => request(() => s.get(k)),
          put: (/** @type {unknown} */ v, /** @type {string} */ k) => request(() => s.set(k, v)),
          delete: (/** @type {string} */ k) => request(() => s.delete(k)),
        };
      },
    }),
  };
  return {
    stores,
    open() {
      /** @type {any} */
      const r = { result: db, error: null };
      queueMicrotask(() => {
        if (how.failOpen) {
          r.error = new Error('denied');
          r.onerror?.();
          return;
        }
        r.onupgradeneeded?.();
        r.onsuccess?.();
      });
      return r;
    },
  };
}

test('without IndexedDB the text is kept in memory', async () => {
  const store = openLearningStore({ indexedDB: null });
  assert.equal(await store.load(), null);
  await store.save('henkan-user-data\t1\n');
  assert.equal(await store.load(), 'henkan-user-data\t1\n');
  assert.equal(store.persistent, false);
  await store.clear();
  assert.equal(await store.load(), null);
});

test('an IndexedDB that throws on open falls back to memory', async () => {
  const throwing = /** @type {any} */ ({
    open() {
      throw new Error('SecurityError');
    },
  });
  const store = openLearningStore({ indexedDB: throwing });
  await store.save('x');
  assert.equal(await store.load(), 'x');
  assert.equal(store.persistent, false);
});

test('an IndexedDB that fails falls back to memory', async () => {
  for (const how of [{ failOpen: true }, { failRequests: true }]) {
    const store = openLearningStore({ indexedDB: /** @type {any} */ (fakeIndexedDB(how)) });
    await store.save('y');
    assert.equal(await store.load(), 'y', JSON.stringify(how));
    assert.equal(store.persistent, false);
  }
});

test('a working IndexedDB keeps the text across stores of the page', async () => {
  const idb = fakeIndexedDB();
  const a = openLearningStore({ indexedDB: /** @type {any} */ (idb) });
  await a.save('z');
  assert.equal(a.persistent, true);
  assert.equal(idb.stores.get('learning')?.get('userData'), 'z');
  const b = openLearningStore({ indexedDB: /** @type {any} */ (idb) });
  assert.equal(await b.load(), 'z');
  await b.clear();
  assert.equal(await a.load(), null);
});

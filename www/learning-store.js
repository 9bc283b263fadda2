// Where the page keeps what henkan learned (the history and the user dictionary, one text from
// the wasm handle's `exportLearning()`): IndexedDB of the page's origin, database `henkan`, one
// object store `learning`, one record. Where IndexedDB is missing or fails (private windows, a
// blocked or full storage) the text lives in memory for the page's lifetime instead: nothing
// throws, `persistent` says which.

/** @typedef {{ load(): Promise<string | null>, save(blob: string): Promise<void>, clear(): Promise<void>, readonly persistent: boolean }} LearningStore */

const DB_NAME = 'henkan';
const DB_VERSION = 1;
const STORE = 'learning';
const KEY = 'userData';

/**
 * Wraps an IDBRequest in a promise.
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Opens the database; rejects when IndexedDB is missing, throws, errors or is blocked.
 * @param {IDBFactory | undefined} factory
 * @returns {Promise<IDBDatabase>}
 */
function openDb(factory) {
  return new Promise((resolve, reject) => {
    if (!factory) {
      reject(new Error('no IndexedDB'));
      return;
    }
    const request = factory.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('IndexedDB blocked'));
  });
}

/**
 * The page's learning store. `indexedDB` defaults to the global one (tests pass their own, or
 * `null` for none).
 * @param {{ indexedDB?: IDBFactory | null }} [options]
 * @returns {LearningStore}
 */
export function openLearningStore(options = {}) {
  const factory = options.indexedDB === undefined ? globalThis.indexedDB : options.indexedDB ?? undefined;
  /** @type {string | null} the text, when in memory */
  let memory = null;
  /** @type {Promise<IDBDatabase | null>} */
  let db;
  try {
    db = openDb(factory).catch(() => null);
  } catch {
    db = Promise.resolve(null);
  }
  let persistent = true;

  /**
   * Runs `f` on the store, or returns `fallback()` (and stays in memory from then on) when
   * IndexedDB is unavailable or fails.
   * @template T
   * @param {IDBTransactionMode} mode
   * @param {(store: IDBObjectStore) => IDBRequest<any>} f
   * @param {() => T} fallback
   * @returns {Promise<T | any>}
   */
  async function run(mode, f, fallback) {
    const d = persistent ? await db : null;
    if (!d) {
      persistent = false;
      return fallback();
    }
    try {
      return await done(f(d.transaction(STORE, mode).objectStore(STORE)));
    } catch {
      persistent = false;
      return fallback();
    }
  }

  return {
    get persistent() {
      return persistent;
    },
    async load() {
      const got = await run('readonly', (s) => s.get(KEY), () => memory);
      return typeof got === 'string' ? got : null;
    },
    async save(blob) {
      memory = blob;
      await run('readwrite', (s) => s.put(blob, KEY), () => undefined);
    },
    async clear() {
      memory = null;
      await run('readwrite', (s) => s.delete(KEY), () => undefined);
    },
  };
}

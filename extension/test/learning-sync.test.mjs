// learning-sync.js: an engine's own saves come back from the storage and are left alone; another
// engine's text is taken, once the IME can take it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedLearning } from '../learning-sync.js';

/** A storage of one map and an IME that records what it adopted (refusing while not ready). */
function setup() {
  /** @type {Map<string, any>} */
  const items = new Map();
  const storage = {
    get: async (/** @type {string} */ key) => items.get(key),
    set: async (/** @type {string} */ key, /** @type {any} */ value) => void items.set(key, value),
  };
  const ime = {
    ready: true,
    /** @type {(string | null)[]} */
    adopted: [],
    adoptLearning(/** @type {string | null} */ text) {
      if (!this.ready) return false;
      this.adopted.push(text);
      return true;
    },
  };
  return { items, storage, ime, ...sharedLearning(storage) };
}

test('the store reads and writes `learning`', async () => {
  const { items, store } = setup();
  assert.equal(await store.load(), null);
  await store.save('text 1');
  assert.equal(items.get('learning'), 'text 1');
  assert.equal(await store.load(), 'text 1');
  await store.clear();
  assert.equal(items.get('learning'), null);
});

test("an engine's own save is not taken back; another's is, and a clear too", async () => {
  const { store, changed, ime } = setup();
  await store.save('mine');
  changed(/** @type {any} */ (ime), 'mine');
  assert.deepEqual(ime.adopted, []);
  changed(/** @type {any} */ (ime), 'theirs');
  assert.deepEqual(ime.adopted, ['theirs']);
  // the same text again (e.g. the change heard twice) is not taken twice
  changed(/** @type {any} */ (ime), 'theirs');
  assert.deepEqual(ime.adopted, ['theirs']);
  changed(/** @type {any} */ (ime), undefined);
  assert.deepEqual(ime.adopted, ['theirs', null]);
});

test('a text the IME could not take yet is taken when it comes again', async () => {
  const { changed, ime } = setup();
  ime.ready = false;
  changed(/** @type {any} */ (ime), 'theirs');
  assert.deepEqual(ime.adopted, []);
  ime.ready = true;
  changed(/** @type {any} */ (ime), 'theirs');
  assert.deepEqual(ime.adopted, ['theirs']);
});

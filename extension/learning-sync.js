// What the engines learn, kept in step: every engine of the extension (the one in the offscreen
// document or Firefox's background page, and one in each page that runs its own, page-engine.js)
// saves what it learned and the user dictionary as one text under `learning` in
// chrome.storage.local, and takes the text another engine saved when it changes. The last save
// wins: an engine's changes of the last second are lost only when another engine saves within
// that second.

/** @typedef {import('../www/learning-store.js').LearningStore} LearningStore */

/**
 * chrome.storage.local for a context that has it (a page's content script, Firefox's background
 * page): `get`/`set` by key, and `watch` calls back with a key's new value when it changes.
 */
export const chromeLocal = {
  /** @param {string} key */
  get: async (key) => (await chrome.storage.local.get(key))[key],
  /** @param {string} key @param {any} value */
  set: (key, value) => chrome.storage.local.set({ [key]: value }),
  /** @param {string} key @param {(value: any) => void} onChange */
  watch: (key, onChange) =>
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && changes[key]) onChange(changes[key].newValue);
    }),
};

/**
 * The store of an engine, over `get`/`set` of chrome.storage.local (directly or through the
 * background), and what to do when the stored text changes.
 * @param {{get(key: string): Promise<any>, set(key: string, value: any): Promise<unknown>}} storage
 */
export function sharedLearning(storage) {
  /** @type {string | null | undefined} the text this engine saved last */
  let saved;
  /** @type {LearningStore} */
  const store = {
    persistent: true,
    load: async () => (await storage.get('learning')) ?? null,
    save: async (text) => {
      saved = text;
      await storage.set('learning', text);
    },
    clear: async () => {
      saved = null;
      await storage.set('learning', null);
    },
  };
  /**
   * The stored text changed: an engine's own save is left alone, another's is taken.
   * @param {import('../www/ime.js').HenkanIme} ime
   * @param {string | null | undefined} text
   */
  const changed = (ime, text) => {
    if (text === saved) return;
    if (ime.adoptLearning(text ?? null)) saved = text;
  };
  return { store, changed };
}

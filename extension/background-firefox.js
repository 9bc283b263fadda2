// Firefox's background page: it has a DOM and may compile wasm, so the engine runs here (no
// offscreen documents in Firefox).

import { serveBackground } from './background-core.js';
import { startEngine } from './engine.js';

startEngine({
  get: async (key) => (await chrome.storage.local.get(key))[key],
  set: (key, value) => chrome.storage.local.set({ [key]: value }),
  watch: (key, onChange) =>
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && changes[key]) onChange(changes[key].newValue);
    }),
});
serveBackground(async () => {});

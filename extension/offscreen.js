// The engine's document in Chromium (chrome.offscreen): it lives until the browser closes, so
// the model is loaded once, not at every wake of the service worker. An offscreen document has
// only chrome.runtime: what it stores goes through the background (background.js, `storage`).

import { startEngine } from './engine.js';

startEngine({
  get: (key) => chrome.runtime.sendMessage({ type: 'storage-get', key }),
  set: (key, value) => chrome.runtime.sendMessage({ type: 'storage-set', key, value }),
});

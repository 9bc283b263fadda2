// The engine's document in Chromium (chrome.offscreen): it lives until the browser closes, so
// the model is loaded once, not at every wake of the service worker. An offscreen document has
// only chrome.runtime: what it stores goes through the background (background.js, `storage`).
// Pages' key channels (MessagePorts, engine.js) arrive from the service worker (background.js).

import { startEngine } from './engine.js';

const { bindChannel } = startEngine(
  {
    get: (key) => chrome.runtime.sendMessage({ type: 'storage-get', key }),
    set: (key, value) => chrome.runtime.sendMessage({ type: 'storage-set', key, value }),
    // the background tells the extension's pages of a change (background-core.js)
    watch: (key, onChange) =>
      chrome.runtime.onMessage.addListener((/** @type {any} */ msg) => {
        if (msg?.type === 'storage-changed' && msg.key === key) onChange(msg.value);
      }),
  },
  { channels: true },
);

navigator.serviceWorker.onmessage = (/** @type {MessageEvent} */ e) => {
  if (e.data?.type === 'channel' && e.ports[0]) bindChannel(e.data.token, e.ports[0]);
};

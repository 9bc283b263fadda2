// Chromium's background service worker. The engine runs in an offscreen document (offscreen.js):
// a service worker is stopped after 30 s without events, and with it the loaded model.

import { serveBackground } from './background-core.js';

const OFFSCREEN = 'offscreen.html';
/** @type {Promise<void> | null} */
let creating = null;

/** Starts the engine's offscreen document unless it runs. */
async function ensureEngine() {
  const url = chrome.runtime.getURL(OFFSCREEN);
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
  if (contexts.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'runs the input method engine (WebAssembly), which content scripts cannot compile under a strict page CSP',
    })
    .finally(() => {
      creating = null;
    });
  await creating;
}

serveBackground(ensureEngine);

// Chromium's background service worker. The engine runs in an offscreen document (offscreen.js):
// a service worker is stopped after 30 s without events, and with it the loaded model. It also
// passes a page's key channel (a MessagePort, from the extension's frame channel.html) on to the
// offscreen document: only a service worker can reach that document with a transferable.

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

// What this uses of the service worker's scope (the project's tsc has the DOM types, not the worker's).
/** @typedef {{url: string, postMessage(msg: unknown, transfer: Transferable[]): void}} WindowClient */
/** @typedef {MessageEvent & {waitUntil(p: Promise<unknown>): void}} ExtendableMessageEvent */
const sw = /** @type {{addEventListener(type: 'message', fn: (e: ExtendableMessageEvent) => void): void, clients: {matchAll(o: object): Promise<WindowClient[]>}}} */ (
  /** @type {unknown} */ (globalThis)
);
const CHANNEL_FRAME = chrome.runtime.getURL('channel.html');
sw.addEventListener('message', (e) => {
  const from = /** @type {{url?: string} | null} */ (e.source);
  if (e.data?.type !== 'channel' || !e.ports[0] || from?.url !== CHANNEL_FRAME) return;
  const url = chrome.runtime.getURL(OFFSCREEN);
  e.waitUntil(
    sw.clients.matchAll({ includeUncontrolled: true, type: 'window' }).then((clients) => {
      const engine = clients.find((c) => c.url === url);
      // The token is checked by the engine; without an engine the page keeps its runtime port.
      if (engine) engine.postMessage({ type: 'channel', token: e.data.token }, [e.ports[0]]);
      else e.ports[0].close();
    }),
  );
});

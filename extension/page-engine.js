// The engine in the page itself (Chromium): the content script imports this module on the first
// focus of a page whose CSP lets wasm compile, and its fields use a `HenkanIme` of their own, as
// the web widget does: a key costs no message to the extension's engine (two hops through the
// browser process; docs/extension.md). The wasm module and the model are the extension's files
// (web-accessible resources), read from disk; nothing is cached in the page's origin. What it
// learns goes to chrome.storage.local and comes back from the other engines (learning-sync.js).

import * as henkan from '../pkg/henkan.js';
import { HenkanIme } from '../www/ime.js';
import { chromeLocal, sharedLearning } from './learning-sync.js';

/**
 * Starts the page's engine: its model loads at once.
 * @param {{engine?: string}} settings the extension's settings (`engine`: the conversion engine;
 *   followed when they change)
 */
export function pageIme(settings) {
  const { store, changed } = sharedLearning(chromeLocal);
  const ime = new HenkanIme({ store });
  chromeLocal.watch('learning', (text) => changed(ime, text));
  chromeLocal.watch('settings', (value) => {
    settings = value ?? {};
    applyEngine();
  });
  const applyEngine = () => {
    try {
      if (ime.ready && typeof settings.engine === 'string') ime.setEngine(settings.engine);
    } catch {
      // an engine this model lacks: the default
    }
  };
  ime.addEventListener('lm', applyEngine);
  ime
    .load({
      module: henkan,
      wasmUrl: chrome.runtime.getURL('pkg/henkan_bg.wasm'),
      modelUrl: chrome.runtime.getURL('models/henkan.henkan'),
    })
    .then(applyEngine, () => {});
  return ime;
}

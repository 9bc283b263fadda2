// The extension's engine: one `HenkanIme` (www/ime.js) for the whole browser, in an extension
// context where wasm may compile (Chromium: the offscreen document; Firefox: the background
// page). Pages reach it over `chrome.runtime` ports named `henkan-engine`: each request names an
// operation and, for key work, a session numbered by the page; each answer carries the request's
// id and the `ImeOutput`. The options page uses the same port for learning and the user
// dictionary. A port's sessions close when it disconnects (the tab or frame went away).
//
// The key channel (Chromium, `channels`): a `chrome.runtime` port's messages travel through the
// browser process; a `MessagePort` goes from the page's renderer to the engine's directly. Each
// port is offered a one-time token (`{type: 'channel', token}`); the page hands a MessagePort
// with that token to the extension's frame (channel.html), which passes it through the service
// worker to this document (`bindChannel`). Requests on it are served with the port's sessions;
// the runtime port stays the control line: status, and the end of the sessions when it
// disconnects (a MessagePort says nothing when its page goes away).

import * as henkan from '../pkg/henkan.js';
import { HenkanIme } from '../www/ime.js';
import { asPunctuation, useRomajiTable, DEFAULT_PUNCTUATION } from '../www/keymap.js';
import { sharedLearning } from './learning-sync.js';

/**
 * Where the engine keeps what it learned and reads the settings: chrome.storage.local, directly
 * or through the background (an offscreen document has no chrome.storage); `watch` calls back
 * with a key's new value when another context changed it.
 * @typedef {{get(key: string): Promise<any>, set(key: string, value: any): Promise<void>,
 *   watch(key: string, onChange: (value: any) => void): void}} Storage
 */

/** @typedef {import('../www/ime.js').LoadingHandle} LoadingHandle */

export const PORT_NAME = 'henkan-engine';

/**
 * Starts the engine and serves its ports.
 * @param {Storage} storage
 * @param {{channels?: boolean}} [options] offer key channels (a MessagePort per port)
 */
export function startEngine(storage, { channels = false } = {}) {
  // what the engines in pages learn comes in by the storage (learning-sync.js)
  const { store, changed } = sharedLearning(storage);
  const ime = new HenkanIme({ store });
  storage.watch('learning', (text) => changed(ime, text));
  /** @type {Set<chrome.runtime.Port>} */
  const ports = new Set();
  const status = () => ({ type: 'status', status: ime.status, composes: ime.composes, error: ime.error, lm: ime.lm });
  const broadcast = () => {
    const msg = status();
    for (const port of ports) port.postMessage(msg);
  };
  /** Applies the engine setting (once the model offers it). */
  const applyEngine = async () => {
    const settings = (await storage.get('settings')) ?? {};
    try {
      if (ime.ready && typeof settings.engine === 'string') ime.setEngine(settings.engine);
    } catch {
      // an engine this model lacks (or not yet: the LM is still loading): the default
    }
  };
  ime.addEventListener('status', broadcast);
  ime.addEventListener('lm', () => {
    broadcast();
    applyEngine();
  });
  const loaded = ime.load({
    module: henkan,
    wasmUrl: chrome.runtime.getURL('pkg/henkan_bg.wasm'),
    modelUrl: chrome.runtime.getURL('models/henkan.henkan'),
  });
  loaded.then(applyEngine);

  /** Requests served by way of runtime ports and of key channels (`info`: the tests and measurements read them). */
  const served = { port: 0, channel: 0 };
  /** @type {Map<string, {answer: (req: any, reply: (msg: unknown) => void) => void, bound: (channel: MessagePort) => void}>} tokens offered, not yet used */
  const offered = new Map();

  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== PORT_NAME) return;
    ports.add(port);
    /** @type {Map<number, number>} the page's session numbers → the handle's sessions */
    const sessions = new Map();
    /** @type {MessagePort | null} */
    let channel = null;
    /**
     * Serves one request; the answer (when it has an id) goes back by `reply`.
     * @param {any} req
     * @param {(msg: unknown) => void} reply
     */
    const answer = (req, reply) => {
      try {
        const out = serve(ime, sessions, req, applyEngine, served);
        if (req.id === undefined) return;
        if (out instanceof Promise) {
          out.then(
            (value) => reply({ id: req.id, out: value ?? null }),
            (e) => reply({ id: req.id, error: e instanceof Error ? e.message : String(e) }),
          );
        } else reply({ id: req.id, out: out ?? null });
      } catch (e) {
        if (req.id !== undefined) reply({ id: req.id, error: e instanceof Error ? e.message : String(e) });
      }
    };
    port.postMessage(status());
    port.onMessage.addListener((/** @type {any} */ req) => {
      served.port++;
      answer(req, (msg) => port.postMessage(msg));
    });
    /** @type {string | null} */
    let token = null;
    if (channels) {
      token = crypto.randomUUID();
      offered.set(token, { answer, bound: (c) => (channel = c) });
      port.postMessage({ type: 'channel', token });
    }
    port.onDisconnect.addListener(() => {
      ports.delete(port);
      if (token) offered.delete(token);
      channel?.close();
      for (const s of sessions.values()) ime.handle?.closeSession(s);
      ime.save();
    });
  });

  /**
   * Serves a page's MessagePort for the port that was offered `token` (once).
   * @param {unknown} token
   * @param {MessagePort} channel
   */
  const bindChannel = (token, channel) => {
    const entry = typeof token === 'string' ? offered.get(token) : undefined;
    if (!entry) {
      channel.close();
      return;
    }
    offered.delete(/** @type {string} */ (token));
    entry.bound(channel);
    channel.onmessage = (e) => {
      served.channel++;
      entry.answer(e.data, (msg) => channel.postMessage(msg));
    };
    channel.postMessage({ type: 'channel-ready' });
  };
  return { ime, loaded, bindChannel };
}

/**
 * One request.
 * @param {HenkanIme} ime
 * @param {Map<number, number>} sessions
 * @param {any} req
 * @param {() => Promise<void>} applyEngine
 * @param {{port: number, channel: number}} served
 * @returns {unknown}
 */
function serve(ime, sessions, req, applyEngine, served) {
  const handle = /** @type {LoadingHandle} */ (ime.handle);
  if (!handle) throw new Error('the input method is not ready');
  /** The handle's session for the page's number. */
  const session = () => {
    const s = sessions.get(req.session);
    if (s === undefined) throw new Error(`no session ${req.session}`);
    return s;
  };
  switch (req.op) {
    case 'open': {
      const s = handle.openSession();
      sessions.set(req.session, s);
      handle.setLive(s, !!req.live);
      if (req.liveConversion) handle.setLiveConversion(s, true);
      if (req.digits === 'full') handle.setDigitWidth(s, 'full');
      const punctuation = asPunctuation(req.punctuation);
      if (punctuation && punctuation !== DEFAULT_PUNCTUATION) handle.setPunctuation(s, punctuation);
      if (req.predictions === false) handle.setPredictions(s, false);
      if (req.learning === false) handle.setLearning(s, false);
      if (req.enabled === false) handle.setEnabled(s, false);
      if (req.katakana) handle.setKatakana(s, true);
      if (req.kanaInput) handle.setKanaInput(s, true);
      if (req.space === 'half') handle.setSpaceWidth(s, 'half');
      // checked when imported: a table that no longer parses leaves the built-in one
      if (typeof req.romajiTable === 'string' && req.romajiTable) useRomajiTable(handle, s, req.romajiTable);
      return null;
    }
    case 'key': {
      const s = session();
      // kana input as another field of the page left it (remote.js `followsKanaInput`)
      if (typeof req.kanaInput === 'boolean') handle.setKanaInput(s, req.kanaInput);
      /** @type {string[]} */
      const units = req.units;
      // the key's place on the keyboard, its kana in kana input (one character: as widget/keys.js)
      let out = handle.key(s, units[0], req.mods, units.length === 1 && typeof req.code === 'string' ? req.code : undefined);
      // Several characters in one key: one call each, their commits joined (as widget/keys.js).
      for (let i = 1; i < units.length; i++) {
        const next = handle.key(s, units[i], req.mods);
        out = { ...next, committed: out.committed + next.committed };
      }
      if (out.committed) ime.learned();
      return out;
    }
    case 'select':
      return learnedAfter(ime, handle.selectCandidate(session(), req.index));
    case 'flush':
      return learnedAfter(ime, handle.flush(session()));
    case 'setEnabled':
      return handle.setEnabled(session(), req.on);
    case 'reconvert':
      return handle.reconvert(session(), req.text);
    case 'preview':
      return handle.preview(session());
    case 'catchUp':
      return handle.catchUp(session());
    case 'cancel':
      handle.cancel(session());
      return null;
    case 'close': {
      const s = sessions.get(req.session);
      if (s !== undefined) handle.closeSession(s);
      sessions.delete(req.session);
      return null;
    }
    // The options page.
    case 'info':
      return {
        status: ime.status,
        lm: ime.lm,
        engines: ime.engines,
        engine: ime.engine,
        memoryBytes: handle.memoryBytes(),
        // Chromium's non-standard heap size of this document (the measurements read it).
        jsHeapBytes: /** @type {any} */ (performance).memory?.usedJSHeapSize ?? null,
        served: { ...served },
      };
    case 'setEngine':
      return applyEngine();
    case 'learning.export':
      return ime.exportLearning();
    case 'learning.import':
      return ime.importLearning(req.text);
    case 'learning.clear':
      return ime.clearLearning();
    case 'romaji.check':
      return handle.checkRomajiTable(String(req.text));
    case 'romaji.builtin':
      return handle.builtinRomajiTable();
    case 'dict.list':
      return ime.userDictionary.list();
    case 'dict.posList':
      return ime.userDictionary.posList();
    // The options page's changes are saved at once: the engines in pages take them from the store.
    case 'dict.add':
      return savedAfter(ime, ime.userDictionary.add(req.reading, req.word, req.pos, req.comment ?? ''));
    case 'dict.remove':
      return savedAfter(ime, ime.userDictionary.remove(req.reading, req.word));
    case 'dict.import':
      return savedAfter(ime, ime.userDictionary.import(new Uint8Array(req.bytes)));
    case 'dict.export':
      return [...ime.userDictionary.export(req.format)];
    default:
      throw new Error(`unknown operation ${req.op}`);
  }
}

/**
 * Saves the IME's learning and user dictionary now, then answers `result`.
 * @param {HenkanIme} ime
 * @param {unknown} result
 */
async function savedAfter(ime, result) {
  await ime.save();
  return result;
}

/**
 * Tells the IME to save when an output committed text.
 * @param {HenkanIme} ime
 * @param {import('../www/types.js').ImeOutput} out
 */
function learnedAfter(ime, out) {
  if (out.committed) ime.learned();
  return out;
}

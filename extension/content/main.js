// The content script: attaches the widget (www/widget.js) to an editable field when it first gets
// the focus. Where the page's CSP lets wasm compile (Chromium), the page runs an engine of its own
// (page-engine.js, imported on that first focus), as the web widget does; elsewhere the fields use
// a key handler that reaches the extension's engine by messages (remote.js). Focus events are
// caught once on the window (capture), so fields inside open shadow roots and fields added after
// load need nothing more. Nothing runs for a page nobody types in: no port, no engine, no wasm.
// It runs at `document_start` (keys, below).
//
// Never attached: password fields and other non-text inputs (the widget's `fieldKind`), fields
// for one-time codes, card data and passwords by their `autocomplete`, and every field of a site
// the user turned off (the toolbar button, the shortcut; site.js). Fields for e-mail addresses,
// phone numbers and URLs attach with the IME off, as the widget starts them.

import { attach, claimed, routeKey } from '../../www/widget.js';
import { fieldKind, asPunctuation, DEFAULT_PUNCTUATION } from '../../www/keymap.js';
import { RemoteIme, RemoteKeyHandler } from './remote.js';
import { siteOf, siteOn } from '../site.js';
import { outerWindows, serveOuterWindows } from './outer.js';

/** @typedef {import('../site.js').Settings} Settings */

// Keys take the runtime port; the engine's key channel (remote.js) only where the settings say
// `channel: 'message'` (measured slower, docs/extension.md; kept for comparing the two).
const ime = new RemoteIme({ channel: () => settings.channel === 'message' });
// An about:blank or srcdoc frame belongs to the site of the page that made it: its origin, which
// `self.origin` gives (in the content script's world Chromium's `location.origin` of such a frame is
// "null", and the frames were never taken; a sandboxed frame's is "null": no site).
const site = siteOf(location.protocol === 'about:' ? `${self.origin}/` : location.href);
/** @type {Map<HTMLElement, () => void>} the attached fields and their detach */
const attached = new Map();
/** @type {Settings} */
let settings = {};
let on = false;
/** @type {Promise<import('../../www/ime.js').HenkanIme | null> | null} the page's own engine (null: the extension's) */
let engine = null;

/** The empty wasm module: whether it compiles tells whether the page's CSP lets wasm run. */
const EMPTY_WASM = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

/**
 * Whether this page runs the engine itself: the build has page-engine.js (Chromium's), the
 * settings do not keep the engine in the extension (`engineIn: 'extension'`), and wasm compiles
 * here (a page whose CSP lacks `'wasm-unsafe-eval'` refuses it; the browser may report that try
 * to the page's CSP endpoint).
 */
function pageMayRun() {
  if (settings.engineIn === 'extension') return false;
  const resources = chrome.runtime.getManifest().web_accessible_resources ?? [];
  if (!resources.some((r) => typeof r === 'object' && r.resources?.includes('page-engine.js'))) return false;
  try {
    new WebAssembly.Module(EMPTY_WASM);
    return true;
  } catch {
    return false;
  }
}

/** The engine of this page's fields, decided at the first focus: its own, or null for the extension's. */
function pageEngine() {
  engine ??= pageMayRun()
    ? import(chrome.runtime.getURL('page-engine.js')).then(
        (/** @type {typeof import('../page-engine.js')} */ m) => {
          const local = m.pageIme(settings);
          local.addEventListener('kanainput', saveKanaInput);
          return local;
        },
        () => null,
      )
    : Promise.resolve(null);
  return engine;
}

/**
 * Whether a field must never get the IME, beyond what `fieldKind` refuses: one-time codes, card
 * data, passwords typed into a text input (a "show password" toggle).
 * @param {HTMLElement} el
 */
export function forbidden(el) {
  const tokens = (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
  return tokens.some((t) => t === 'one-time-code' || t.startsWith('cc-') || t === 'current-password' || t === 'new-password');
}

/**
 * The field an event target belongs to: a textarea or input, an element with an EditContext (a
 * code editor's, as Monaco's), or the editing host of a contenteditable (its outermost
 * contenteditable element).
 * @param {EventTarget | null} target
 * @returns {HTMLElement | null}
 */
function fieldOf(target) {
  if (!(target instanceof HTMLElement)) return null;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) return target;
  // A code editor's EditContext host (Monaco's; `fieldKind` tells whether it is one the widget knows).
  if (/** @type {any} */ (target).editContext) return target;
  if (!target.isContentEditable) return null;
  let host = target;
  while (host.parentElement?.isContentEditable) host = host.parentElement;
  return host;
}

/**
 * Keeps a field's Alt+カタカナひらがな in the settings, as MS-IME keeps its romaji / kana input
 * setting: the fields of every page follow it from their next key (`followKanaInput`), and it
 * holds for the pages loaded later.
 * @param {Event} e
 */
function saveKanaInput(e) {
  const now = !!(/** @type {CustomEvent<{kanaInput: boolean}>} */ (e).detail?.kanaInput);
  if (!!settings.kanaInput === now) return;
  settings = { ...settings, kanaInput: now };
  chrome.storage.local
    .get('settings')
    .then((items) => chrome.storage.local.set({ settings: { .../** @type {Settings} */ (items.settings ?? {}), kanaInput: now } }))
    .catch(() => {});
}

/**
 * The settings' kana input for this page's fields (changed by a field of another page or the
 * options page): each field takes it before its next key (`HenkanIme.kanaInput`).
 * @param {boolean} now
 */
function followKanaInput(now) {
  ime.kanaInput = now;
  engine?.then((local) => {
    if (local) local.kanaInput = now;
  });
}

ime.addEventListener('kanainput', saveKanaInput);

/**
 * Attaches the widget to a field that got the focus.
 * @param {HTMLElement | null} el
 */
function take(el) {
  // A page that embeds the widget has its fields already (`claimed`): no second engine for them.
  const wanted = () => on && !!el && !attached.has(el) && fieldKind(el) !== null && !forbidden(el) && !claimed(el);
  if (!wanted()) return;
  pageEngine().then((local) => {
    if (!el || !wanted()) return;
    const options = {
      liveConversion: !!settings.liveConversion,
      predictions: settings.predictions !== false,
      digits: /** @type {'full' | 'half'} */ (settings.digits === 'full' ? 'full' : 'half'),
      punctuation: asPunctuation(settings.punctuation) ?? DEFAULT_PUNCTUATION,
      kanaInput: !!settings.kanaInput,
      romajiTable: typeof settings.romajiTable === 'string' ? settings.romajiTable : undefined,
      space: /** @type {'full' | 'half'} */ (settings.space === 'half' ? 'half' : 'full'),
      learning: settings.learning !== false,
      outerWindows,
    };
    const detach = local
      ? attach(el, { ime: local, ...options })
      : attach(el, { ime: /** @type {any} */ (ime), KeyHandler: RemoteKeyHandler, ...options });
    attached.set(el, detach);
    if (!local) ime.connect();
  });
}

/** The element that has the focus, inside open shadow roots too. */
function deepActive() {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Detaches every field (the site was turned off). */
function detachAll() {
  for (const detach of attached.values()) detach();
  attached.clear();
}

/** @param {boolean} now */
function setOn(now) {
  if (now === on) return;
  on = now;
  if (window === globalThis.top) chrome.runtime.sendMessage({ type: 'badge', on }).catch(() => {});
  if (on) take(fieldOf(deepActive()));
  else detachAll();
}

// The lists of fields in child frames of another origin are drawn over this page (outer.js),
// whether or not the IME is on for this page's own site.
serveOuterWindows();

// Every key of the frame goes to its attached field first, from the window in the capture phase:
// this script runs at `document_start`, before any page script, so its listener comes before the
// page's own there, and a page's listeners in the capture phase never see a key the IME takes.
window.addEventListener('keydown', routeKey, true);

window.addEventListener(
  'focusin',
  (e) => {
    // The first element of the composed path is the field itself, also inside a shadow root.
    const target = e.composedPath()[0] ?? null;
    for (const [el, detach] of attached) {
      if (!el.isConnected) {
        detach();
        attached.delete(el);
      }
    }
    take(fieldOf(target));
  },
  true,
);

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !site) return;
  if (changes.settings) {
    const kanaInput = !!settings.kanaInput;
    settings = changes.settings.newValue ?? {};
    if (!!settings.kanaInput !== kanaInput) followKanaInput(!!settings.kanaInput);
  }
  if (changes.sites || changes.settings) {
    chrome.storage.local.get('sites').then((items) => setOn(siteOn(/** @type {Record<string, boolean> | undefined} */ (items.sites), settings, site)));
  }
});

// Where this page's keys are converted, and the memory of its own engine (the measurements ask,
// `make measure-extension`): `{where: 'page', memoryBytes}`, or `{where: 'extension'}` (also before a first focus).
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg?.type !== 'engine-info' || window !== globalThis.top) return false;
  (engine ?? Promise.resolve(null)).then((local) =>
    sendResponse(local ? { where: 'page', memoryBytes: local.handle?.memoryBytes() ?? null } : { where: 'extension' }),
  );
  return true;
});

// The toolbar button or the shortcut (background, site.js): flips this site; answers the new state.
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg?.type !== 'toggle-site' || !site || window !== globalThis.top) return false;
  chrome.storage.local.get('sites').then((items) => {
    const now = !on;
    const sites = /** @type {Record<string, boolean>} */ (items.sites ?? {});
    chrome.storage.local.set({ sites: { ...sites, [site]: now } }).then(() => sendResponse(now));
  });
  return true;
});

if (site) {
  chrome.storage.local.get(['sites', 'settings']).then((items) => {
    settings = /** @type {Settings} */ (items.settings ?? {});
    setOn(siteOn(/** @type {Record<string, boolean> | undefined} */ (items.sites), settings, site));
    if (!on && window === globalThis.top) chrome.runtime.sendMessage({ type: 'badge', on }).catch(() => {});
  });
}

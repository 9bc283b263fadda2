// henkan-ime: the IME in one call, the entry of the npm package.
//
//   import { attach } from 'henkan-ime';
//   const detach = attach(document.querySelector('textarea'));
//
// One `HenkanIme` (ime.js) per page, shared by every field and every call; the wasm module and the
// model are loaded when a field attached here first gets the focus (or by `load()`), from URLs
// resolved against this module (the package keeps the repository's layout: www/, pkg/, models/),
// the model through the Cache API and checked against the SHA-256 recorded at build time
// (model-cache.js, model-info.js). Fields are wired by the widget (widget.js).
//
// Without a build step, `<script type="module" src=".../www/henkan-ime.js">` attaches to every
// field with a `data-henkan` attribute and to the fields inside a `<henkan-ime>` element, also
// those added later (a MutationObserver).

import { HenkanIme } from './ime.js';
import { attach as attachField } from './widget.js';
import { fieldKind, asPunctuation } from './keymap.js';
import { cachedModelFetch, ModelIntegrityError, CACHE_NAME } from './model-cache.js';
import { MODEL_INFO } from './model-info.js';

export { HenkanIme, ModelIntegrityError, MODEL_INFO, CACHE_NAME };

/** @typedef {import('./model-cache.js').ModelInfo} ModelInfo */
/** @typedef {import('./model-cache.js').ModelSourceEvent} ModelSourceEvent */
/** @typedef {import('./types.js').WasmModule} WasmModule */
/** @typedef {import('./types.js').ImeOutput} ImeOutput */
/** @typedef {import('./loader.js').Progress} Progress */

/**
 * @typedef {'classic' | 'neural' | 'hybrid' | ''} EngineName the engines (`''`: the default,
 *   the hybrid once the language models are in, the classic engine until then)
 */

/**
 * @typedef {object} PageOptions options of the page's one IME: set them with {@link configure}
 *   before the first load (`engine` may change at any time)
 * @property {string | URL} [modelUrl] the model (default: `../models/henkan.henkan` next to this
 *   module, the package's copy)
 * @property {string | URL} [wasmUrl] the wasm module (default: `../pkg/henkan_bg.wasm` next to this
 *   module)
 * @property {WasmModule | (() => Promise<WasmModule>)} [module] the wasm-bindgen glue, or a function
 *   that imports it (default: `import('../pkg/henkan.js')`)
 * @property {ModelInfo | null} [modelInfo] what the model must be: length and SHA-256 of the file and
 *   of its core (default: {@link MODEL_INFO}, the packaged model's; `scripts/model-info.mjs` writes
 *   one for another model). `null`: no check, and the model is not cached
 * @property {boolean} [cache] keep the model with the Cache API (default true; only a model that
 *   passed its check is kept)
 * @property {EngineName} [engine] the engine of every field (default `''`)
 * @property {boolean} [persistLearning] keep what is learned and the user dictionary in IndexedDB
 *   (default true; false: in the page's memory only)
 * @property {number} [maxModelBytes] refuse a longer model (default 256 MiB)
 */

/**
 * @typedef {object} FieldOptions options of one field (the widget's, see docs/browser.md)
 * @property {boolean} [enabled] IME on when attached (default on, except in fields for one-time
 *   codes, card numbers, phone numbers, e-mail addresses and URLs)
 * @property {boolean} [indicator] the あ/A badge while focused (default true)
 * @property {boolean} [katakana] katakana input from the start, for a フリガナ field (default:
 *   whether the field asks for katakana by its label, placeholder, pattern or name)
 * @property {HTMLElement | string} [furigana] the form's フリガナ field (or a selector of it) that
 *   takes the reading of each commit of a name typed here
 * @property {boolean} [kanaInput] kana input (かな入力): keys type the kana of a JIS keyboard
 *   (default false: romaji)
 * @property {boolean} [live] convert on every key, so `onOutput` gets the n-best list and segments
 * @property {'half' | 'full'} [digits] digits of conversion results (default `'half'`: `2025年`)
 * @property {import('./types.js').Punctuation} [punctuation] what `,` and `.` type (default `'、。'`)
 * @property {string} [romajiTable] a romaji table of the user's own (Mozc's format; not an attribute)
 * @property {'full' | 'half'} [space] what Space types outside a composition: the ideographic space
 *   (default `'full'`) or the field's plain one (`'half'`)
 * @property {boolean} [liveConversion] the preedit shows the best conversion as you type; Enter
 *   commits it, Space opens the candidates (default false)
 * @property {boolean} [predictions] completions while composing, next words after a commit
 *   (default true)
 * @property {boolean} [learning] learn the candidates picked over the first one (default true)
 * @property {(out: ImeOutput, timing: import('./widget.js').KeyTiming) => void} [onOutput] after every handled key
 * @property {(out: ImeOutput) => void} [onPreview] when typing pauses in a composition, and when
 *   the LM's conversion of a resize's rest replaces the dictionary's
 * @property {number} [previewDelay] ms of pause before `onPreview` (default 40)
 */

/**
 * @typedef {object} HenkanImeEventMap the events of the shared IME ({@link getIme})
 * @property {Event} status `ime.status`: idle → loading → ready | error (`ime.error` says why)
 * @property {Event} lm `ime.lm`: pending → ready | failed | absent (`ime.lmError`)
 * @property {CustomEvent<Progress>} progress bytes of the model received
 * @property {Event} learning what was learned or the user dictionary changed
 * @property {CustomEvent<ModelSourceEvent>} model where the model came from (the cache or the
 *   network), whether a cached copy was discarded, the time of the SHA-256 checks
 * @property {CustomEvent<{stored: boolean, decoded: boolean}>} modelstored a downloaded model was
 *   checked and put in the cache (`decoded: false`), or the decoded copy of a checked model that
 *   loaded whole was (`decoded: true`, when the page is idle after the load; a visit that loaded
 *   the decoded copy stores nothing). `stored: false`: the cache refused it, e.g. over quota
 */

/** @type {Required<Pick<PageOptions, 'cache' | 'engine'>> & PageOptions} */
const page = { cache: true, engine: '' };
/** @type {HenkanIme | null} */
let shared = null;
/** @type {Promise<boolean> | null} */
let loading = null;

/**
 * The page's IME, shared by every field attached here (created on the first call). Its events:
 * {@link HenkanImeEventMap}.
 * @returns {HenkanIme}
 */
export function getIme() {
  if (shared) return shared;
  const ime = new HenkanIme({ persistLearning: page.persistLearning });
  const applyEngine = () => {
    if (!ime.ready) return;
    try {
      ime.setEngine(page.engine);
    } catch {
      // an engine the model offers only once its language models are in: set at `lm`
    }
  };
  ime.addEventListener('status', applyEngine);
  ime.addEventListener('lm', applyEngine);
  shared = ime;
  return ime;
}

/**
 * Sets the page's options. Those that choose what is loaded (URLs, module, model info, cache,
 * persistLearning) must come before the first load; `engine` applies at once.
 * @param {PageOptions} options
 * @returns {HenkanIme} the page's IME
 */
export function configure(options) {
  const { engine, ...rest } = options;
  if (Object.keys(rest).length && (loading || (shared && 'persistLearning' in rest))) {
    throw new Error('henkan-ime: configure() with load options must come before the first load');
  }
  Object.assign(page, rest);
  const ime = getIme();
  if (engine !== undefined) {
    page.engine = engine;
    if (ime.ready) ime.setEngine(engine); // throws for an engine the model lacks
  }
  return ime;
}

/**
 * Loads the wasm module and the model now (the first focus on an attached field does it
 * otherwise). Idempotent: every call returns the first load's promise.
 * @param {PageOptions} [options] as for {@link configure}
 * @returns {Promise<boolean>} whether the IME is ready (`getIme().error` says why not)
 */
export function load(options) {
  if (options) configure(options);
  if (loading) return loading;
  const ime = getIme();
  const modelUrl = page.modelUrl ?? new URL('../models/henkan.henkan', import.meta.url);
  const wasmUrl = page.wasmUrl ?? new URL('../pkg/henkan_bg.wasm', import.meta.url);
  const info = page.modelInfo === undefined ? MODEL_INFO : page.modelInfo;
  let decoded = false; // the last model came from the decoded copy: nothing to store
  const fetch = cachedModelFetch({
    info,
    cache: page.cache,
    onSource: (detail) => {
      decoded = detail.decoded;
      ime.dispatchEvent(new CustomEvent('model', { detail }));
    },
    onStored: (stored) => ime.dispatchEvent(new CustomEvent('modelstored', { detail: { stored, decoded: false } })),
  });
  loading = (async () => {
    /** @type {WasmModule} */
    let module;
    try {
      const m = page.module;
      module = m === undefined ? /** @type {WasmModule} */ (await import('../pkg/henkan.js')) : typeof m === 'function' ? await m() : m;
    } catch (e) {
      ime.error = `the input method could not start: ${e instanceof Error ? e.message : String(e)}`;
      ime.status = 'error';
      ime.dispatchEvent(new Event('status'));
      return false;
    }
    const ok = await ime.load({ module, modelUrl, wasmUrl, fetch, maxModelBytes: page.maxModelBytes, retry: () => fetch.discardDecoded() });
    if (ok && ime.lm === 'ready' && !decoded) storeDecoded(ime, fetch);
    return ok;
  })();
  return loading;
}

/**
 * Keeps the decoded copy of a model that loaded whole and matched its SHA-256 (the fetch knows
 * whether it did), once the page is idle: a later visit loads it without decoding (model-cache.js).
 * @param {HenkanIme} ime
 * @param {import('./model-cache.js').ModelFetch} fetch
 */
function storeDecoded(ime, fetch) {
  const idle = globalThis.requestIdleCallback ?? ((/** @type {() => void} */ f) => setTimeout(f, 50));
  idle(async () => {
    const handle = ime.handle;
    if (!handle || ime.lm !== 'ready') return;
    /** @type {number} */
    let count;
    try {
      count = handle.storedCopyParts();
    } catch {
      return;
    }
    const stored = await fetch.storeDecoded(count, (i) => /** @type {Uint8Array<ArrayBuffer>} */ (handle.storedCopyPart(i)));
    ime.dispatchEvent(new CustomEvent('modelstored', { detail: { stored, decoded: true } }));
  });
}

/**
 * Each field attached here: the widget's detach and ours. A field the page removes from the
 * document detaches itself in the widget; attaching it again then gives a new widget detach.
 * @type {WeakMap<HTMLElement, {field: () => void, detach: () => void}>}
 */
const attached = new WeakMap();

/**
 * Attaches the IME to a `<textarea>`, an `<input type=text|search>` or a contenteditable; the
 * wasm module and the model load when the field first gets the focus. Password fields and other
 * inputs get nothing (a no-op detach); attaching twice returns the first detach.
 * @param {HTMLElement} el
 * @param {FieldOptions} [options]
 * @returns {() => void} detach: commits a composition in progress and removes every listener
 */
export function attach(el, options = {}) {
  if (fieldKind(el) === null) return () => {};
  const ime = getIme();
  const field = attachField(el, { ...options, ime });
  const existing = attached.get(el);
  if (existing?.field === field) return existing.detach;
  existing?.detach();
  const onFocus = () => void load();
  el.addEventListener('focusin', onFocus);
  if (el.ownerDocument.activeElement === el) load();
  const detach = () => {
    if (attached.get(el)?.detach !== detach) return;
    attached.delete(el);
    el.removeEventListener('focusin', onFocus);
    field();
  };
  attached.set(el, { field, detach });
  return detach;
}

/** The attribute names of {@link FieldOptions}, as written in HTML. */
const ATTRIBUTES = /** @type {const} */ ([
  ['enabled', 'enabled'],
  ['indicator', 'indicator'],
  ['katakana', 'katakana'],
  ['kana-input', 'kanaInput'],
  ['live', 'live'],
  ['live-conversion', 'liveConversion'],
  ['predictions', 'predictions'],
  ['learning', 'learning'],
  ['digits', 'digits'],
  ['punctuation', 'punctuation'],
  ['space', 'space'],
  ['furigana', 'furigana'],
]);

/**
 * Field options from attributes: a boolean one is on when present (`off` or `false`: off), `digits`
 * and `space` take `half` or `full`, `punctuation` its two marks (`，．`).
 * @param {Element} el
 * @param {string} prefix `data-henkan-` on a field, `` on a `<henkan-ime>` element
 * @returns {FieldOptions}
 */
export function optionsFromAttributes(el, prefix) {
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [attr, key] of ATTRIBUTES) {
    const value = el.getAttribute(prefix + attr);
    if (value === null) continue;
    if (key === 'digits') options.digits = value === 'full' ? 'full' : 'half';
    else if (key === 'space') options.space = value === 'half' ? 'half' : 'full';
    else if (key === 'punctuation') options.punctuation = asPunctuation(value);
    else if (key === 'furigana') options.furigana = value;
    else options[key] = !/^(off|false|0)$/i.test(value);
  }
  return options;
}

/** What the fields of a `<henkan-ime>` element are. */
const FIELDS = 'textarea, input, [contenteditable]:not([contenteditable="false"])';

/**
 * Attaches to every field with a `data-henkan` attribute under `root`, now and when one is added
 * (a field whose attribute is removed is detached; a field removed from the document detaches
 * itself). Runs for the document when this module loads in a browser.
 * @param {Document | Element} [root]
 * @returns {() => void} stops observing
 */
export function observe(root = document) {
  const scan = (/** @type {Node} */ node) => {
    if (!(node instanceof Element)) return;
    if (node.hasAttribute('data-henkan') && node instanceof HTMLElement) attach(node, optionsFromAttributes(node, 'data-henkan-'));
    for (const el of node.querySelectorAll('[data-henkan]')) {
      if (el instanceof HTMLElement) attach(el, optionsFromAttributes(el, 'data-henkan-'));
    }
  };
  scan(root instanceof Document ? root.documentElement : root);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') {
        const el = /** @type {HTMLElement} */ (r.target);
        if (el.hasAttribute('data-henkan')) scan(el);
        else attached.get(el)?.detach();
      } else r.addedNodes.forEach(scan);
    }
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-henkan'] });
  return () => observer.disconnect();
}

/**
 * `<henkan-ime>`: the IME on the fields inside it (also those added later), with the options of
 * its attributes (`live-conversion`, `digits="full"`, `predictions="off"`, …, as
 * {@link FieldOptions}). Removing the element detaches them.
 */
export class HenkanImeElement extends (globalThis.HTMLElement ?? /** @type {typeof HTMLElement} */ (/** @type {unknown} */ (class {}))) {
  /** @type {MutationObserver | null} */
  #observer = null;
  /** @type {Set<() => void>} */
  #detaches = new Set();

  connectedCallback() {
    const scan = () => {
      for (const el of this.querySelectorAll(FIELDS)) {
        if (el instanceof HTMLElement) this.#detaches.add(attach(el, optionsFromAttributes(this, '')));
      }
    };
    scan();
    this.#observer = new MutationObserver(scan);
    this.#observer.observe(this, { childList: true, subtree: true });
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
    for (const detach of this.#detaches) detach();
    this.#detaches.clear();
  }
}

if (globalThis.customElements && !customElements.get('henkan-ime')) customElements.define('henkan-ime', HenkanImeElement);
if (globalThis.document) observe(document);

// The demo playground (index.html): load the IME, attach it to the fields, show the model
// progress, mode, per-key latency, n-best list and segments. `window.henkanDemo` exposes the
// state to the browser tests and the measurement script.

import * as wasmModule from '../pkg/henkan.js';
import { HenkanIme } from './ime.js';
import { attach } from './widget.js';
import { percentile } from './keymap.js';

/** @typedef {import('./types.js').ImeOutput} ImeOutput */
/** @typedef {import('./widget.js').KeyTiming} KeyTiming */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const params = new URLSearchParams(location.search);
const modelUrl = new URL(params.get('model') || 'models/henkan.henkan', new URL('..', import.meta.url));

const ime = new HenkanIme();
const demo = {
  ime,
  /** @type {number[]} wasm time per handled key (ms) */
  wasmMs: /** @type {number[]} */ ([]),
  /** @type {number[]} whole keydown handler per handled key (ms) */
  totalMs: /** @type {number[]} */ ([]),
  /** performance.now() when the model became ready */
  readyAt: NaN,
  /** performance.now() of the first output carrying a conversion */
  firstConversionAt: NaN,
  /** @type {ImeOutput | null} */
  last: null,
  /** @type {Record<string, () => void>} */
  detach: {},
  /** @type {Promise<boolean>} */
  ready: Promise.resolve(false),
};
/** @type {any} */ (window).henkanDemo = demo;

const progress = /** @type {HTMLProgressElement} */ ($('progress'));
ime.addEventListener('progress', (e) => {
  const { loaded, total } = /** @type {CustomEvent<{loaded: number, total: number}>} */ (e).detail;
  if (total) {
    progress.max = total;
    progress.value = loaded;
  } else {
    progress.removeAttribute('value');
  }
  $('status').textContent = `${(loaded / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB`;
});
ime.addEventListener('status', () => {
  const mode = $('mode');
  if (ime.status === 'ready') {
    demo.readyAt = performance.now();
    $('status').textContent = `ready (${(ime.modelBytes / 1e6).toFixed(1)} MB, ${Math.round(demo.readyAt)} ms)`;
    progress.max = 1;
    progress.value = 1;
    const select = /** @type {HTMLSelectElement} */ ($('engine'));
    select.replaceChildren(...ime.engines.map((name) => new Option(name, name)));
    select.disabled = ime.engines.length < 2;
    mode.textContent = 'あ';
    mode.dataset.mode = 'hiragana';
  } else if (ime.status === 'error') {
    $('status').textContent = 'not loaded';
    const box = $('error');
    box.style.display = 'block';
    box.textContent = `The input method is not available: ${ime.error}. The text fields still work as plain text fields.`;
    mode.textContent = '×';
    mode.dataset.mode = 'direct';
  }
});

/**
 * @param {ImeOutput} out
 * @param {KeyTiming} timing
 */
function onOutput(out, timing) {
  demo.last = out;
  demo.wasmMs.push(timing.wasmMs);
  demo.totalMs.push(timing.totalMs);
  if (Number.isNaN(demo.firstConversionAt) && out.segments.length > 0) demo.firstConversionAt = performance.now();
  const recent = demo.totalMs.slice(-200);
  const wasm = demo.wasmMs.slice(-200);
  $('latency').textContent =
    `${timing.totalMs.toFixed(2)} ms (wasm ${timing.wasmMs.toFixed(2)}) · p50 ${percentile(recent, 50).toFixed(2)} · p95 ${percentile(recent, 95).toFixed(2)} ms` +
    ` (wasm p95 ${percentile(wasm, 95).toFixed(2)}, last ${recent.length} keys)`;
  const mode = $('mode');
  mode.textContent = out.mode === 'hiragana' ? 'あ' : 'A';
  mode.dataset.mode = out.mode;
  $('nbest').replaceChildren(
    ...out.nbest.map((s) => {
      const li = document.createElement('li');
      li.textContent = s;
      return li;
    }),
  );
  const focusedSeg = out.candidates ? out.candidates.segment : -1;
  $('segments').replaceChildren(
    ...out.segments.map((s, i) => {
      const div = document.createElement('div');
      div.className = 'seg';
      div.dataset.focused = String(out.state === 'converting' && i === focusedSeg);
      const r = document.createElement('span');
      r.className = 'reading';
      r.textContent = s.reading;
      const t = document.createElement('span');
      t.className = 'surface';
      t.textContent = s.surface;
      div.append(r, t);
      return div;
    }),
  );
}

for (const id of ['editor', 'line', 'rich', 'secret']) {
  demo.detach[id] = attach($(id), { ime, onOutput });
}
$('editor').focus();
demo.ready = ime.load({ module: /** @type {any} */ (wasmModule), modelUrl });

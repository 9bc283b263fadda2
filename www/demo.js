// The demo playground (index.html): load the IME, attach it to the fields, show the model
// progress, mode, per-key latency, n-best list and segments. `window.henkanDemo` exposes the
// state to the browser tests and the measurement script.

import { HenkanIme } from './ime.js';
import { attach, stateOf } from './widget.js';
import { percentile } from './keymap.js';
import { indicatorView } from './widget/layout.js';

/** @typedef {import('./types.js').ImeOutput} ImeOutput */
/** @typedef {import('./types.js').WasmModule} WasmModule */
/** @typedef {import('./widget.js').KeyTiming} KeyTiming */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const params = new URLSearchParams(location.search);
/** A `?model=` that was not a path on this site (ignored). */
let rejectedModel = '';
/** The page speaks Japanese; `?lang=en` or the button switches its labels to English. */
let english = params.get('lang') === 'en';

/**
 * A label in the page's language.
 * @param {string} ja
 * @param {string} en
 */
const t = (ja, en) => (english ? en : ja);

/** Puts every labelled element in the page's language (the Japanese text is kept in `data-ja`). */
function applyLanguage() {
  document.documentElement.lang = english ? 'en' : 'ja';
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-en]'))) {
    el.dataset.ja ??= el.innerHTML;
    // Static markup of this page (kbd elements in the help), never text from elsewhere.
    el.innerHTML = english ? /** @type {string} */ (el.dataset.en) : el.dataset.ja;
  }
  for (const el of /** @type {NodeListOf<HTMLTextAreaElement>} */ (document.querySelectorAll('[data-en-placeholder]'))) {
    el.dataset.jaPlaceholder ??= el.placeholder;
    el.placeholder = english ? /** @type {string} */ (el.dataset.enPlaceholder) : /** @type {string} */ (el.dataset.jaPlaceholder);
  }
  const button = $('lang');
  button.textContent = english ? '日本語' : 'English';
  button.lang = english ? 'ja' : 'en';
  if (ime.status === 'ready') showModelState();
}
const root = new URL('..', import.meta.url);
const defaultModel = new URL('models/henkan.henkan', root);
/**
 * The model of `?model=`: a path on this site only. A link must not decide what a visitor's
 * conversions produce by pointing the demo at a model elsewhere (another origin, `data:`); such a
 * parameter is ignored and the page says so.
 */
const modelUrl = (() => {
  const asked = params.get('model');
  if (!asked) return defaultModel;
  try {
    const url = new URL(asked, root);
    if (url.origin === location.origin && (url.protocol === 'http:' || url.protocol === 'https:')) return url;
  } catch {
    // not a URL: ignored below
  }
  rejectedModel = asked;
  return defaultModel;
})();

/**
 * Starts the playground: attaches the IME to the fields and loads the model.
 * @param {WasmModule} wasmModule the namespace of pkg/henkan.js
 */
export function startDemo(wasmModule) {
  const predictions = /** @type {HTMLInputElement} */ ($('predictions'));
  predictions.checked = params.get('predictions') !== '0';
  const learning = /** @type {HTMLInputElement} */ ($('learning'));
  learning.checked = params.get('learning') !== '0';
  /** @type {import('./widget.js').AttachOptions[]} */
  const all = [];
  for (const id of ['editor', 'line', 'rich', 'secret']) {
    // Keys stay cheap (no n-best while composing); the n-best list and segments follow when
    // typing pauses. ?live=1 turns live conversion on (the preedit shows the best conversion as you
    // type); ?predictions=0 starts without suggestions, ?learning=0 without learning.
    const options = { ime, onOutput, onPreview: showConversion, liveConversion: params.get('live') === '1', predictions: predictions.checked, learning: learning.checked };
    all.push(options);
    demo.detach[id] = attach($(id), options);
  }
  predictions.addEventListener('change', () => {
    for (const [i, id] of ['editor', 'line', 'rich', 'secret'].entries()) {
      all[i].predictions = predictions.checked; // for sessions not opened yet
      const s = stateOf($(id))?.session;
      if (s != null && ime.handle) ime.handle.setPredictions(s, predictions.checked);
    }
  });
  learning.addEventListener('change', () => {
    for (const [i, id] of ['editor', 'line', 'rich', 'secret'].entries()) {
      all[i].learning = learning.checked;
      const s = stateOf($(id))?.session;
      if (s != null && ime.handle) ime.handle.setLearning(s, learning.checked);
    }
  });
  setUpDictionary();
  $('lang').addEventListener('click', () => {
    english = !english;
    applyLanguage();
  });
  applyLanguage();
  // The page's badge shows the focused field's state, as the field's own badge does.
  document.addEventListener('focusin', showMode);
  ime.addEventListener('status', showMode);
  if (rejectedModel) {
    const box = $('notice');
    box.style.display = 'block';
    box.textContent = t(`?model= はこのサイトのパスだけです: ${rejectedModel} は使わず、同梱の辞書を読みます。`, `?model= takes a path on this site only: ${rejectedModel} is ignored, the shipped model loads.`);
  }
  $('editor').focus();
  demo.ready = ime.load({ module: wasmModule, modelUrl });
  return demo;
}

const ime = new HenkanIme();
const demo = {
  ime,
  /** @type {number[]} wasm time per handled key (ms) */
  wasmMs: /** @type {number[]} */ ([]),
  /** @type {number[]} whole keydown handler per handled key (ms) */
  totalMs: /** @type {number[]} */ ([]),
  /** @type {{key: string, wasmMs: number, totalMs: number, state: string, len: number}[]} every handled key */
  keys: /** @type {{key: string, wasmMs: number, totalMs: number, state: string, len: number}[]} */ ([]),
  /** performance.now() when the model became ready (the classic engine: the dictionary is in) */
  readyAt: NaN,
  /** performance.now() when the language models were attached (neural and hybrid engines) */
  neuralAt: NaN,
  /** performance.now() of the first output carrying a conversion */
  firstConversionAt: NaN,
  /** @type {ImeOutput | null} */
  last: null,
  /** @type {ImeOutput | null} the output shown in the n-best and segment views */
  preview: null,
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
  const text = `${(loaded / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB`;
  $('status').textContent = ime.status === 'ready' ? `classic ${t('準備完了', 'ready')} (${Math.round(demo.readyAt)} ms) · neural ${t('読み込み中…', 'loading…')} ${text}` : text;
});
const select = /** @type {HTMLSelectElement} */ ($('engine'));
select.addEventListener('change', () => {
  try {
    ime.setEngine(select.value);
  } catch (e) {
    $('notice').textContent = `engine ${select.value}: ${e instanceof Error ? e.message : String(e)}`;
  }
  showEngines();
});

/** The engine selector: what the model offers now, the engine in use selected. */
function showEngines() {
  select.replaceChildren(...ime.engines.map((name) => new Option(name, name, false, name === ime.engine)));
  select.disabled = ime.engines.length < 2;
}

/** The model state next to the progress bar: loading → classic ready → neural ready. */
function showModelState() {
  const mb = (ime.modelBytes / 1e6).toFixed(1);
  const lm =
    ime.lm === 'ready'
      ? `neural ${t('準備完了', 'ready')} (${Math.round(demo.neuralAt)} ms)`
      : ime.lm === 'failed'
        ? t('neural 利用不可', 'neural unavailable')
        : ime.lm === 'absent'
          ? t('neural なし', 'no neural model')
          : `neural ${t('読み込み中…', 'loading…')}`;
  $('status').textContent = `classic ${t('準備完了', 'ready')} (${Math.round(demo.readyAt)} ms) · ${lm} · ${mb} MB`;
  $('status').dataset.lm = ime.lm;
}

/**
 * The page's badge: what the badge of the focused field (or the editor) shows, from the same view.
 */
function showMode() {
  const active = document.activeElement;
  const field = ['editor', 'line', 'rich'].map($).find((el) => el === active) ?? $('editor');
  const enabled = stateOf(field)?.enabled ?? true;
  const view = indicatorView(ime.status, ime.composes, enabled, ime.error);
  const mode = $('mode');
  mode.textContent = view.text;
  mode.title = view.title;
  mode.dataset.mode = view.mode;
}

ime.addEventListener('status', () => {
  if (ime.status === 'ready') {
    demo.readyAt = performance.now();
    showModelState();
    showEngines();
  } else if (ime.status === 'error') {
    $('status').textContent = t('読み込めません', 'not loaded');
    const box = $('error');
    box.style.display = 'block';
    box.textContent = t(
      `日本語入力を使えません: ${ime.error}。入力欄は普通の入力欄として使えます。`,
      `The input method is not available: ${ime.error}. The text fields still work as plain text fields.`,
    );
  }
});
ime.addEventListener('lm', () => {
  if (ime.status !== 'ready') return;
  if (ime.lm === 'ready') demo.neuralAt = performance.now();
  progress.max = 1;
  progress.value = 1;
  showModelState();
  showEngines();
  if (ime.lm === 'failed') {
    const box = $('notice');
    box.style.display = 'block';
    box.textContent = t(
      `neural エンジンを使えません: ${ime.lmError}。classic エンジンで変換します。`,
      `The neural engine is not available: ${ime.lmError}. Conversions use the classic engine.`,
    );
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
  demo.keys.push({ key: timing.key, wasmMs: timing.wasmMs, totalMs: timing.totalMs, state: out.state, len: out.preedit.text.length });
  if (demo.keys.length > 100000) for (const a of [demo.keys, demo.wasmMs, demo.totalMs]) a.splice(0, 50000);
  if (Number.isNaN(demo.firstConversionAt) && out.state === 'converting') demo.firstConversionAt = performance.now();
  const recent = demo.totalMs.slice(-200);
  const wasm = demo.wasmMs.slice(-200);
  $('latency').textContent =
    `${timing.totalMs.toFixed(2)} ms (wasm ${timing.wasmMs.toFixed(2)}) · p50 ${percentile(recent, 50).toFixed(2)} · p95 ${percentile(recent, 95).toFixed(2)} ms` +
    ` (wasm p95 ${percentile(wasm, 95).toFixed(2)}, last ${recent.length} keys)`;
  showMode();
  if (out.state !== 'composing' || out.segments.length > 0) showConversion(out);
}

/**
 * The n-best list and the segments of an output.
 * @param {ImeOutput} out
 */
function showConversion(out) {
  demo.preview = out;
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


/**
 * The user dictionary editor and the learning buttons (`ime.userDictionary`, `ime.*Learning`).
 */
function setUpDictionary() {
  const pos = /** @type {HTMLSelectElement} */ ($('dict-pos'));
  const status = $('dict-status');
  /** @param {string} text */
  const say = (text) => (status.textContent = text);
  const showList = () => {
    if (!ime.ready) return;
    if (pos.options.length === 0) pos.replaceChildren(...ime.userDictionary.posList().map((p) => new Option(p.name, p.key)));
    $('dict-list').replaceChildren(
      ...ime.userDictionary.list().map((w) => {
        const li = document.createElement('li');
        li.textContent = `${w.reading} → ${w.word} (${w.pos})`;
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = t('削除', 'remove');
        remove.setAttribute('aria-label', `${t('削除', 'remove')} ${w.word}`);
        remove.addEventListener('click', () => {
          ime.userDictionary.remove(w.reading, w.word);
          showList();
        });
        li.append(remove);
        return li;
      }),
    );
  };
  ime.addEventListener('status', showList);
  ime.addEventListener('learning', showList);
  $('dict-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const reading = /** @type {HTMLInputElement} */ ($('dict-reading'));
    const word = /** @type {HTMLInputElement} */ ($('dict-word'));
    try {
      ime.userDictionary.add(reading.value.trim(), word.value.trim(), pos.value);
      say(t(`追加しました: ${reading.value} → ${word.value}`, `added: ${reading.value} → ${word.value}`));
      reading.value = '';
      word.value = '';
      showList();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err));
    }
  });
  /**
   * Offers bytes as a file to save.
   * @param {BlobPart} data
   * @param {string} name
   */
  const download = (data, name) => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([data]));
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  $('dict-export-mozc').addEventListener('click', () => download(/** @type {BlobPart} */ (ime.userDictionary.export('mozc')), 'henkan-user-dictionary.txt'));
  $('dict-export-msime').addEventListener('click', () => download(/** @type {BlobPart} */ (ime.userDictionary.export('msime')), 'henkan-user-dictionary-msime.txt'));
  $('dict-import').addEventListener('change', async (e) => {
    const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
    if (!file) return;
    try {
      const r = ime.userDictionary.import(new Uint8Array(await file.arrayBuffer()));
      say(t(`${r.added} 語を追加 (重複 ${r.duplicates}、読めない行 ${r.skipped})`, `${r.added} words added (${r.duplicates} duplicates, ${r.skipped} lines skipped)`));
      showList();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err));
    }
  });
  $('learning-clear').addEventListener('click', async () => {
    await ime.clearLearning();
    say(t('学習をリセットしました', 'what was learned is forgotten'));
  });
  $('learning-export').addEventListener('click', () => download(ime.exportLearning(), 'henkan-learning.txt'));
  $('learning-import').addEventListener('change', async (e) => {
    const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
    if (!file) return;
    try {
      const r = await ime.importLearning(await file.text());
      say(t(`読み込みました: 学習 ${r.readings}、単語 ${r.words}`, `loaded: ${r.readings} learned readings, ${r.words} words`));
      showList();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err));
    }
  });
}

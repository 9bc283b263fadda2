// The demo playground (index.html): load the IME, attach it to the fields, show the model
// progress, mode, per-key latency, n-best list, segments and the lattice view (the words and costs
// of the best path). The engine, the options, the editor's text and the reading being composed
// live in the URL (www/demo-state.js), so a copied link opens the same playground.
// `window.henkanDemo` exposes the state to the browser tests and the measurement script.

import { HenkanIme } from './ime.js';
import { attach, stateOf } from './widget.js';
import { percentile, asPunctuation, DEFAULT_PUNCTUATION } from './keymap.js';
import { indicatorView } from './widget/layout.js';
import { readState, writeState, readingOf } from './demo-state.js';

/** @typedef {import('./types.js').ImeOutput} ImeOutput */
/** @typedef {import('./types.js').WasmModule} WasmModule */
/** @typedef {import('./widget.js').KeyTiming} KeyTiming */
/** @typedef {import('./types.js').BestPath} BestPath */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** What the URL asks for; kept up to date and written back by `saveState`. */
const state = readState(new URLSearchParams(location.search));
/** A `?model=` that was not a path on this site (ignored). */
let rejectedModel = '';
/** The page speaks Japanese; `?lang=en` or the button switches its labels to English. */
let english = state.lang === 'en';
/** The fields with the IME, by element id. */
const FIELDS = ['editor', 'line', 'rich', 'secret'];
/**
 * `performance.now()` is fine-grained (5 µs in Chromium) only in a cross-origin isolated page
 * (COOP/COEP headers); elsewhere it is coarsened (100 µs), and the latency meter shows one
 * decimal less.
 */
const isolated = globalThis.crossOriginIsolated === true;
const msDigits = isolated ? 2 : 1;

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
  $('latency').title = isolated
    ? t('cross-origin isolated: タイマーの分解能は細かい (Chromium 5 µs)', 'cross-origin isolated: fine timer resolution (Chromium: 5 µs)')
    : t('cross-origin isolated でない: タイマーの分解能は粗い (Chromium 100 µs)', 'not cross-origin isolated: coarse timer resolution (Chromium: 100 µs)');
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
  const asked = state.model;
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
  const checkbox = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
  const [predictions, learning, live, digits, kana, halfSpace] = ['predictions', 'learning', 'live', 'digits', 'kana', 'half-space'].map(checkbox);
  predictions.checked = state.predictions;
  learning.checked = state.learning;
  live.checked = state.live;
  digits.checked = state.digits === 'full';
  kana.checked = state.kana;
  halfSpace.checked = state.space === 'half';
  const punctuation = /** @type {HTMLSelectElement} */ ($('punctuation'));
  punctuation.value = state.punctuation;
  const editor = /** @type {HTMLTextAreaElement} */ ($('editor'));
  editor.value = state.text;
  editor.setSelectionRange(editor.value.length, editor.value.length);
  /** @type {import('./widget.js').AttachOptions[]} */
  const all = [];
  for (const id of FIELDS) {
    // Keys stay cheap (no n-best while composing); the n-best list and segments follow when
    // typing pauses. ?live=1 turns live conversion on (the preedit shows the best conversion as you
    // type); ?predictions=0 starts without suggestions, ?learning=0 without learning; ?lmEachKey=1
    // runs the LM in every key instead of after it (`make measure-web` compares the two).
    const options = {
      ime,
      onOutput: (/** @type {ImeOutput} */ out, /** @type {KeyTiming} */ timing) => onOutput(out, timing, id),
      onCatchUp: (/** @type {number} */ ms) => {
        if (demo.catchUpMs.push(ms) > 100000) demo.catchUpMs.splice(0, 50000);
      },
      lmEachKey: new URLSearchParams(location.search).get('lmEachKey') === '1',
      onPreview: (/** @type {ImeOutput} */ out) => showConversion(out, id),
      liveConversion: state.live,
      digits: state.digits,
      punctuation: state.punctuation,
      kanaInput: state.kana,
      space: state.space,
      romajiTable: savedRomajiTable() || undefined,
      predictions: state.predictions,
      learning: state.learning,
    };
    all.push(options);
    demo.detach[id] = attach($(id), options);
  }
  /**
   * An option control: on a change, its value (`read`) goes to `set(options, value)` for the
   * sessions to come and to `apply(handle, session, value)` for every open one, then the URL.
   * @template T
   * @param {HTMLElement} control
   * @param {() => T} read
   * @param {(options: import('./widget.js').AttachOptions, value: T) => void} set
   * @param {(handle: import('./types.js').HenkanHandle, session: number, value: T) => void} apply
   */
  const option = (control, read, set, apply) =>
    control.addEventListener('change', () => {
      const value = read();
      for (const [i, id] of FIELDS.entries()) {
        set(all[i], value);
        const s = stateOf($(id))?.session;
        if (s != null && ime.handle) apply(ime.handle, s, value);
      }
      saveState();
    });
  const checked = (/** @type {HTMLInputElement} */ box) => () => box.checked;
  option(predictions, checked(predictions), (o, on) => (o.predictions = state.predictions = on), (h, s, on) => h.setPredictions(s, on));
  option(learning, checked(learning), (o, on) => (o.learning = state.learning = on), (h, s, on) => h.setLearning(s, on));
  option(live, checked(live), (o, on) => (o.liveConversion = state.live = on), (h, s, on) => h.setLiveConversion(s, on));
  option(
    digits,
    checked(digits),
    (o, on) => (o.digits = state.digits = on ? 'full' : 'half'),
    (h, s, on) => h.setDigitWidth(s, on ? 'full' : 'half'),
  );
  option(
    punctuation,
    () => asPunctuation(punctuation.value) ?? DEFAULT_PUNCTUATION,
    (o, marks) => (o.punctuation = state.punctuation = marks),
    (h, s, marks) => h.setPunctuation(s, marks),
  );
  option(
    halfSpace,
    checked(halfSpace),
    (o, on) => (o.space = state.space = on ? 'half' : 'full'),
    (h, s, on) => h.setSpaceWidth(s, on ? 'half' : 'full'),
  );
  // the box is the page's switch, as a field's Alt+カタカナひらがな (`HenkanIme.kanaInput`)
  option(kana, checked(kana), (o, on) => (o.kanaInput = state.kana = ime.kanaInput = on), (h, s, on) => h.setKanaInput(s, on));
  // Alt+カタカナひらがな in a field: the widget's fields follow it (`HenkanIme.kanaInput`), and so
  // do the checkbox, the fields attached later and the URL
  ime.addEventListener('kanainput', (e) => {
    const on = !!(/** @type {CustomEvent<{kanaInput: boolean}>} */ (e).detail.kanaInput);
    kana.checked = state.kana = on;
    for (const o of all) o.kanaInput = on;
    saveState();
  });
  setUpRomajiTable(all);
  setUpDictionary();
  $('lang').addEventListener('click', () => {
    english = !english;
    state.lang = english ? 'en' : 'ja';
    applyLanguage();
    saveState();
  });
  const lattice = /** @type {HTMLDetailsElement} */ ($('lattice-view'));
  lattice.open = state.lattice;
  lattice.addEventListener('toggle', () => {
    state.lattice = lattice.open;
    if (lattice.open) showLattice(shownField);
    saveState();
  });
  editor.addEventListener('input', () => saveState());
  // The button takes no focus from a click: the editor's composition stays open (a blur would
  // commit it) and goes into the link as the reading being composed.
  $('share').addEventListener('mousedown', (e) => e.preventDefault());
  $('share').addEventListener('click', () => void copyLink());
  applyLanguage();
  // The page's badge shows the focused field's state, as the field's own badge does.
  document.addEventListener('focusin', showMode);
  ime.addEventListener('status', showMode);
  if (rejectedModel) {
    const box = $('notice');
    box.style.display = 'block';
    box.textContent = t(`?model= はこのサイトのパスだけです: ${rejectedModel} は使わず、同梱の辞書を読みます。`, `?model= takes a path on this site only: ${rejectedModel} is ignored, the shipped model loads.`);
  }
  editor.focus();
  demo.ready = ime.load({ module: wasmModule, modelUrl });
  // The reading of a shared link is typed again once the whole model is in (and the engine the
  // link asks for is chosen), so its conversion is the one the link was made with.
  demo.restored = demo.ready.then((ok) => (ok ? restoreInput() : false));
  return demo;
}

/** The field whose conversion the n-best, segment and lattice views show. */
let shownField = 'editor';
/** @type {ReturnType<typeof setTimeout> | null} */
let saveTimer = null;
/**
 * The URL's reading is still to be typed again (the model is loading): the URL keeps it until
 * then, whatever the editor composes (nothing yet).
 */
let inputPending = state.input !== '';

/**
 * Writes the state into the URL (`history.replaceState`: no new history entry), at most every
 * 250 ms while typing; `now` writes at once.
 * @param {boolean} [now]
 */
function saveState(now = false) {
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = null;
  const write = () => {
    saveTimer = null;
    const editor = /** @type {HTMLTextAreaElement} */ ($('editor'));
    state.text = editor.value;
    if (!inputPending) state.input = readingOf(stateOf(editor)?.last);
    const url = writeState(state, location.href);
    if (url !== location.href) history.replaceState(history.state, '', url);
  };
  if (now) write();
  else saveTimer = setTimeout(write, 250);
}

/**
 * Copies the link to this state. Where the clipboard is refused (an insecure origin, a denied
 * permission) the link is shown selected in a field, to copy by hand.
 */
async function copyLink() {
  saveState(true);
  const field = /** @type {HTMLInputElement} */ ($('share-url'));
  field.value = location.href;
  demo.shared = location.href;
  try {
    await navigator.clipboard.writeText(location.href);
    field.hidden = true;
    $('share-status').textContent = t('コピーしました', 'copied');
  } catch {
    field.hidden = false;
    field.select();
    $('share-status').textContent = t('リンクを選択しました', 'the link is selected');
  }
}

/** Applies the engine of the URL when the model offers it (the neural ones after the LM is in). */
function applyWantedEngine() {
  if (!state.engine || !ime.engines.includes(state.engine) || ime.engine === state.engine) return;
  try {
    ime.setEngine(state.engine);
  } catch {
    // not offered after all: the default stays
  }
}

/**
 * Types the URL's reading into the editor as keys, so the widget composes it as if typed.
 * Returns whether there was one.
 */
function restoreInput() {
  const editor = $('editor');
  inputPending = false;
  if (!state.input) return false;
  editor.focus();
  for (const key of state.input) {
    editor.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  }
  return true;
}

const ime = new HenkanIme();

const demo = {
  ime,
  /** @type {number[]} wasm time per handled key (ms) */
  wasmMs: /** @type {number[]} */ ([]),
  /** @type {number[]} whole keydown handler per handled key (ms) */
  totalMs: /** @type {number[]} */ ([]),
  /** @type {number[]} wasm time of each catch-up after keys (the LM work they left, ms) */
  catchUpMs: /** @type {number[]} */ ([]),
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
  /** @type {Promise<boolean>} whether a reading from the URL was typed again (after `ready`) */
  restored: Promise.resolve(false),
  /** @type {BestPath | null} what the lattice view shows */
  bestPath: null,
  /** the link the last "copy link" made */
  shared: '',
  /** whether the page is cross-origin isolated (fine timers) */
  isolated,
  /** writes the state into the URL now */
  saveState: () => saveState(true),
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
  state.engine = select.value;
  saveState();
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
  const state = stateOf(field);
  const view = indicatorView(ime.status, ime.composes, state?.enabled ?? true, ime.error, state);
  const mode = $('mode');
  mode.textContent = view.text;
  mode.title = view.title;
  mode.dataset.mode = view.mode;
}

ime.addEventListener('status', () => {
  if (ime.status === 'ready') {
    demo.readyAt = performance.now();
    applyWantedEngine();
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
  applyWantedEngine();
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
 * @param {string} field the id of the field
 */
function onOutput(out, timing, field) {
  demo.last = out;
  demo.wasmMs.push(timing.wasmMs);
  demo.totalMs.push(timing.totalMs);
  demo.keys.push({ key: timing.key, wasmMs: timing.wasmMs, totalMs: timing.totalMs, state: out.state, len: out.preedit.text.length });
  if (demo.keys.length > 100000) for (const a of [demo.keys, demo.wasmMs, demo.totalMs]) a.splice(0, 50000);
  if (Number.isNaN(demo.firstConversionAt) && out.state === 'converting') demo.firstConversionAt = performance.now();
  const recent = demo.totalMs.slice(-200);
  const wasm = demo.wasmMs.slice(-200);
  const ms = (/** @type {number} */ v) => v.toFixed(msDigits);
  $('latency').textContent =
    `${ms(timing.totalMs)} ms (wasm ${ms(timing.wasmMs)}) · p50 ${ms(percentile(recent, 50))} · p95 ${ms(percentile(recent, 95))} ms` +
    ` (wasm p95 ${ms(percentile(wasm, 95))}, last ${recent.length} keys)`;
  showMode();
  if (out.state !== 'composing' || out.segments.length > 0) showConversion(out, field);
  if (field === 'editor') saveState();
}

/**
 * The n-best list and the segments of an output, and the lattice view when it is open.
 * @param {ImeOutput} out
 * @param {string} field the id of the field
 */
function showConversion(out, field) {
  demo.preview = out;
  shownField = field;
  if (/** @type {HTMLDetailsElement} */ ($('lattice-view')).open) showLattice(field);
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
 * The lattice view: the best path over the field's lattice, word by word with its costs, then the
 * sentence end and the totals (`bestPath`, one wasm call, made only while the view is open).
 * @param {string} field the id of the field
 */
function showLattice(field) {
  const session = stateOf($(field))?.session;
  /** @type {BestPath | null} */
  let path = null;
  if (session != null && ime.ready && ime.handle) {
    try {
      path = ime.handle.bestPath(session);
    } catch {
      path = null; // the session was closed meanwhile: an empty view
    }
  }
  demo.bestPath = path;
  const nats = (/** @type {number | null} */ v) => (v == null ? '–' : v.toFixed(2));
  const SOURCES = {
    dictionary: t('辞書', 'dictionary'),
    number: t('数字', 'number'),
    unknown: t('未知語', 'unknown'),
    userWord: t('ユーザー辞書', 'user word'),
    learnedPhrase: t('学習', 'learned'),
  };
  /** @param {(string | number)[]} cells */
  const row = (cells) => {
    const tr = document.createElement('tr');
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = String(c);
      tr.append(td);
    }
    return tr;
  };
  const words = path?.words ?? [];
  $('lattice-words').replaceChildren(
    ...words.map((w) =>
      row([
        w.reading,
        w.surface,
        SOURCES[w.source] + (w.inLmVocabulary === false ? ' <unk>' : ''),
        `${w.leftId}/${w.rightId}`,
        w.wordCost,
        w.connectionCost,
        nats(w.lmLogProb),
        nats(w.lmStep),
      ]),
    ),
  );
  const wordCosts = words.reduce((sum, w) => sum + w.wordCost, 0);
  $('lattice-total').replaceChildren(
    ...(path && words.length > 0
      ? [
          row(['', t('(文末)', '(end)'), '', '', '', path.endConnectionCost, '', nats(path.lmEnd)]),
          row([t('合計', 'total'), path.engine, '', '', wordCosts, path.cost - wordCosts, '', nats(path.lmScore)]),
        ]
      : []),
  );
}


/**
 * Offers bytes as a file to save.
 * @param {BlobPart} data
 * @param {string} name
 */
function download(data, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([data]));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Where the playground keeps a romaji table imported into it (this browser only). */
const ROMAJI_TABLE_KEY = 'henkan-playground-romaji-table';

/** The romaji table imported into the playground; '' for none (the built-in one). */
function savedRomajiTable() {
  try {
    return localStorage.getItem(ROMAJI_TABLE_KEY) ?? '';
  } catch {
    return '';
  }
}

/**
 * The romaji table controls of the dictionary panel: a table exported from Mozc or Google Japanese
 * Input imported (checked first: an error names its line), exported, or the built-in one again; the
 * fields' sessions take it at once, and it is kept for the next visit.
 * @param {import('./widget.js').AttachOptions[]} all the options of every field
 */
function setUpRomajiTable(all) {
  const say = (/** @type {string} */ text) => ($('dict-status').textContent = text);
  const summary = () => {
    $('romaji-summary').textContent = savedRomajiTable() ? t('ローマ字テーブル: インポートしたもの', 'romaji table: imported') : t('ローマ字テーブル: 標準', 'romaji table: built in');
  };
  /** @param {string} text '' for the built-in table */
  const use = (text) => {
    for (const [i, id] of FIELDS.entries()) {
      all[i].romajiTable = text || undefined;
      const s = stateOf($(id))?.session;
      if (s != null && ime.handle) ime.handle.setRomajiTable(s, text);
    }
    try {
      if (text) localStorage.setItem(ROMAJI_TABLE_KEY, text);
      else localStorage.removeItem(ROMAJI_TABLE_KEY);
    } catch {
      // storage refused (a private window): the table lasts for this visit
    }
    summary();
  };
  summary();
  // after the language switched (its own listener comes later)
  $('lang').addEventListener('click', () => setTimeout(summary));
  $('romaji-import').addEventListener('change', async (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (!ime.handle) return say(t('まだ読み込み中です', 'still loading'));
    const text = await file.text();
    try {
      const rules = ime.handle.checkRomajiTable(text);
      use(text);
      say(t(`ローマ字テーブルをインポートしました (${rules} 規則)`, `romaji table imported (${rules} rules)`));
    } catch (err) {
      say(`${t('インポートできません', 'not imported')}: ${err instanceof Error ? err.message : err}`);
    }
  });
  $('romaji-export').addEventListener('click', () => {
    const text = savedRomajiTable() || ime.handle?.builtinRomajiTable();
    if (text) download(text, 'henkan-romaji.txt');
  });
  $('romaji-reset').addEventListener('click', () => {
    use('');
    say(t('標準のローマ字テーブルに戻しました', 'the built-in romaji table again'));
  });
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

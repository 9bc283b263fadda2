// The playground's shareable state: the engine, the options, the page's language, the open views,
// the editor's text and the reading being composed, read from the URL's query and written back to
// it (DOM-free, tested in www/test/demo-state.test.js). Only what differs from the defaults goes
// into the URL, so a plain link stays plain.

import { asPunctuation, DEFAULT_PUNCTUATION } from './keymap.js';

/** The most characters of the editor's text a link carries (a URL must stay a URL). */
export const MAX_SHARED_TEXT = 2000;
/** The most characters of the composition's reading a link carries. */
export const MAX_SHARED_INPUT = 200;
/** The engines a link may ask for (one the model lacks is ignored when it loads). */
export const ENGINES = /** @type {const} */ (['classic', 'neural', 'hybrid']);

/**
 * @typedef {object} DemoState
 * @property {string} engine the engine chosen in the selector; `''`: the model's default
 * @property {boolean} live live conversion (the preedit shows the best conversion as you type)
 * @property {'half' | 'full'} digits how conversion results write digits
 * @property {import('./types.js').Punctuation} punctuation what `,` and `.` type
 * @property {boolean} kana kana input (かな入力): keys type the kana of a JIS keyboard
 * @property {'full' | 'half'} space what Space types outside a composition
 * @property {boolean} predictions suggestions while typing and after a commit
 * @property {boolean} learning learn the candidates picked
 * @property {'ja' | 'en'} lang the page's language
 * @property {boolean} lattice the lattice view is open
 * @property {string} text the editor's text
 * @property {string} input the reading being composed in the editor (typed again on restore)
 * @property {string | null} model `?model=` as given (the page checks it is a path on the site)
 */

/** @returns {DemoState} */
export function defaultState() {
  return { engine: '', live: false, digits: 'half', punctuation: DEFAULT_PUNCTUATION, kana: false, space: 'full', predictions: true, learning: true, lang: 'ja', lattice: false, text: '', input: '', model: null };
}

/**
 * The state a query asks for; anything it does not say, or says wrongly, is the default.
 * @param {URLSearchParams} params
 * @returns {DemoState}
 */
export function readState(params) {
  const s = defaultState();
  const engine = params.get('engine') ?? '';
  if (/** @type {readonly string[]} */ (ENGINES).includes(engine)) s.engine = engine;
  s.live = params.get('live') === '1';
  if (params.get('digits') === 'full') s.digits = 'full';
  s.punctuation = asPunctuation(params.get('punctuation')) ?? s.punctuation;
  s.kana = params.get('kana') === '1';
  if (params.get('space') === 'half') s.space = 'half';
  s.predictions = params.get('predictions') !== '0';
  s.learning = params.get('learning') !== '0';
  if (params.get('lang') === 'en') s.lang = 'en';
  s.lattice = params.get('lattice') === '1';
  s.text = [...(params.get('text') ?? '')].slice(0, MAX_SHARED_TEXT).join('');
  s.input = [...(params.get('input') ?? '')].slice(0, MAX_SHARED_INPUT).join('');
  s.model = params.get('model');
  return s;
}

/**
 * The URL of `base` (its path and hash kept) with the query of `state`: the parameters this module
 * owns are replaced, any other parameter stays.
 * @param {DemoState} state
 * @param {string | URL} base
 * @returns {string}
 */
export function writeState(state, base) {
  const url = new URL(base);
  const p = url.searchParams;
  for (const name of ['model', 'engine', 'live', 'digits', 'punctuation', 'kana', 'space', 'predictions', 'learning', 'lang', 'lattice', 'text', 'input']) p.delete(name);
  if (state.model) p.set('model', state.model);
  if (state.engine) p.set('engine', state.engine);
  if (state.live) p.set('live', '1');
  if (state.digits === 'full') p.set('digits', 'full');
  if (state.punctuation !== DEFAULT_PUNCTUATION) p.set('punctuation', state.punctuation);
  if (state.kana) p.set('kana', '1');
  if (state.space === 'half') p.set('space', 'half');
  if (!state.predictions) p.set('predictions', '0');
  if (!state.learning) p.set('learning', '0');
  if (state.lang === 'en') p.set('lang', 'en');
  if (state.lattice) p.set('lattice', '1');
  const text = [...state.text].slice(0, MAX_SHARED_TEXT).join('');
  if (text) p.set('text', text);
  const input = [...state.input].slice(0, MAX_SHARED_INPUT).join('');
  if (input) p.set('input', input);
  return url.href;
}

/**
 * The reading of a composition from the widget's last output: the preedit while composing, the
 * segments' readings while converting; `''` when nothing is composed.
 * @param {import('./types.js').ImeOutput | null | undefined} out
 */
export function readingOf(out) {
  if (!out) return '';
  if (out.state === 'composing') return out.preedit.text;
  if (out.state === 'converting') return out.segments.map((s) => s.reading).join('');
  return '';
}

// The options page: the settings (chrome.storage.local `settings`, read by the content scripts
// for new fields and by the engine for its engine choice), and what the engine keeps — learning
// and the user dictionary — through the engine's port (the same requests a page's fields use).

import { RemoteIme } from './content/remote.js';
import { asPunctuation, DEFAULT_PUNCTUATION } from '../www/keymap.js';

/** @typedef {import('./site.js').Settings} Settings */
/** @typedef {import('../www/types.js').UserWord} UserWord */

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const engine = new RemoteIme();

/** @param {string} text */
function say(text) {
  $('status').textContent = text;
}

/**
 * The engine, once its dictionary is in.
 * @returns {Promise<RemoteIme>}
 */
function ready() {
  if (engine.ready) return Promise.resolve(engine);
  return new Promise((resolve, reject) => {
    const check = () => {
      if (engine.ready) resolve(engine);
      else if (engine.status === 'error') reject(new Error(engine.error));
      else return;
      engine.removeEventListener('status', check);
    };
    engine.addEventListener('status', check);
    engine.connect();
  });
}

/**
 * A request to the engine.
 * @param {string} op
 * @param {Record<string, unknown>} [args]
 */
async function call(op, args = {}) {
  return (await ready()).request({ op, ...args });
}

/**
 * Offers bytes as a download.
 * @param {BlobPart} data
 * @param {string} name
 * @param {string} type
 */
function download(data, name, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([data], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The user's romaji table as saved (`settings.romajiTable`); undefined: the built-in one. */
/** @type {string | undefined} */
let romajiTable;

async function loadSettings() {
  /** @type {{settings?: Settings}} */
  const { settings = {} } = await chrome.storage.local.get('settings');
  romajiTable = typeof settings.romajiTable === 'string' ? settings.romajiTable : undefined;
  $('engine').value = settings.engine ?? '';
  $('liveConversion').checked = !!settings.liveConversion;
  $('predictions').checked = settings.predictions !== false;
  $('digits').value = settings.digits ?? 'half';
  $('punctuation').value = asPunctuation(settings.punctuation) ?? DEFAULT_PUNCTUATION;
  $('kanaInput').value = settings.kanaInput ? 'kana' : 'romaji';
  $('space').value = settings.space === 'half' ? 'half' : 'full';
  $('learning').checked = settings.learning !== false;
  $('defaultOn').checked = settings.defaultOn !== false;
  $('engineInPage').checked = settings.engineIn !== 'extension';
}

async function saveSettings() {
  /** @type {Settings} */
  const settings = {
    engine: $('engine').value,
    liveConversion: $('liveConversion').checked,
    predictions: $('predictions').checked,
    digits: $('digits').value,
    punctuation: asPunctuation($('punctuation').value) ?? DEFAULT_PUNCTUATION,
    kanaInput: $('kanaInput').value === 'kana',
    romajiTable,
    space: $('space').value === 'half' ? 'half' : 'full',
    learning: $('learning').checked,
    defaultOn: $('defaultOn').checked,
    engineIn: $('engineInPage').checked ? 'page' : 'extension',
  };
  await chrome.storage.local.set({ settings });
  say('Saved. Fields take the new settings when they are next focused in a newly loaded page.');
  if (engine.port) await engine.request({ op: 'setEngine' });
}

/**
 * Says which romaji table is in use.
 * @param {number | null} rules the user's table's rules; null: the built-in table
 */
function showRomaji(rules) {
  $('romajiSummary').textContent = rules === null ? 'The built-in table.' : `Your table: ${rules} rules.`;
}

async function showDictionary() {
  /** @type {UserWord[]} */
  const words = await call('dict.list');
  const body = document.querySelector('#dict tbody');
  if (!body) return;
  body.replaceChildren(
    ...words.map((w) => {
      const tr = document.createElement('tr');
      for (const text of [w.reading, w.word, w.pos]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      const remove = document.createElement('button');
      remove.textContent = 'Remove';
      remove.addEventListener('click', async () => {
        await call('dict.remove', { reading: w.reading, word: w.word });
        showDictionary();
      });
      const td = document.createElement('td');
      td.append(remove);
      tr.append(td);
      return tr;
    }),
  );
}

async function init() {
  await loadSettings();
  // a field's Alt+カタカナひらがな saves kana input (content/main.js): the page shows it, and a
  // save from here keeps it
  chrome.storage.onChanged.addListener((changes, area) => {
    const now = /** @type {Settings | undefined} */ (changes.settings?.newValue);
    if (area === 'local' && now) $('kanaInput').value = now.kanaInput ? 'kana' : 'romaji';
  });
  for (const id of ['engine', 'liveConversion', 'predictions', 'digits', 'punctuation', 'kanaInput', 'space', 'learning', 'defaultOn', 'engineInPage']) $(id).addEventListener('change', saveSettings);
  $('romajiImport').addEventListener('change', async (/** @type {Event} */ e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const text = await file.text();
    try {
      const rules = await call('romaji.check', { text });
      romajiTable = text;
      showRomaji(rules);
      await saveSettings();
      say(`Romaji table imported: ${rules} rules. Fields take it when they are next focused in a newly loaded page.`);
    } catch (err) {
      say(`Not imported: ${err instanceof Error ? err.message : err}`);
    }
  });
  $('romajiExport').addEventListener('click', async () => download(romajiTable ?? (await call('romaji.builtin')), 'henkan-romaji.txt', 'text/plain'));
  $('romajiReset').addEventListener('click', async () => {
    romajiTable = undefined;
    showRomaji(null);
    await saveSettings();
  });
  if (romajiTable === undefined) showRomaji(null);
  else {
    // checked once the engine is up, without holding the rest of the page
    call('romaji.check', { text: romajiTable }).then(showRomaji, (err) => {
      $('romajiSummary').textContent = `Your table does not parse (${err instanceof Error ? err.message : err}): fields use the built-in one.`;
    });
  }
  $('learningExport').addEventListener('click', async () => download(await call('learning.export'), 'henkan-learning.txt', 'text/plain'));
  $('learningImport').addEventListener('change', async (/** @type {Event} */ e) => {
    const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
    if (!file) return;
    const report = await call('learning.import', { text: await file.text() });
    say(`Imported: ${report.readings} readings, ${report.words} words, ${report.skipped} skipped.`);
    showDictionary();
  });
  $('learningClear').addEventListener('click', async () => {
    await call('learning.clear');
    say('What henkan learned is forgotten (the dictionary stays).');
  });
  $('dictAdd').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await call('dict.add', { reading: $('reading').value, word: $('word').value, pos: $('pos').value });
      $('reading').value = '';
      $('word').value = '';
      showDictionary();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err));
    }
  });
  $('dictImport').addEventListener('change', async (/** @type {Event} */ e) => {
    const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
    if (!file) return;
    const report = await call('dict.import', { bytes: [...new Uint8Array(await file.arrayBuffer())] });
    say(`Added ${report.added}, ${report.duplicates} already there, ${report.skipped} skipped.`);
    showDictionary();
  });
  $('dictExportMozc').addEventListener('click', async () => download(new Uint8Array(await call('dict.export', { format: 'mozc' })), 'henkan-dictionary.txt', 'text/plain'));
  $('dictExportMsime').addEventListener('click', async () => download(new Uint8Array(await call('dict.export', { format: 'msime' })), 'henkan-dictionary-msime.txt', 'text/plain'));
  say('Loading the dictionary…');
  /** @type {{name: string, key: string}[]} */
  const pos = await call('dict.posList');
  $('pos').replaceChildren(...pos.map((p) => new Option(p.name, p.key)));
  await showDictionary();
  say('');
}

init().catch((e) => say(String(e instanceof Error ? e.message : e)));

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readState, writeState, defaultState, readingOf, MAX_SHARED_TEXT } from '../demo-state.js';

const BASE = 'https://example.org/henkan/index.html';

test('a plain URL is the default state, and the default state writes a plain URL', () => {
  assert.deepEqual(readState(new URLSearchParams('')), defaultState());
  assert.equal(writeState(defaultState(), BASE), BASE);
});

test('every option goes through the URL and back', () => {
  const s = { ...defaultState(), engine: 'classic', live: true, digits: /** @type {const} */ ('full'), punctuation: /** @type {const} */ ('，．'), kana: true, space: /** @type {const} */ ('half'), predictions: false, learning: false, lang: /** @type {const} */ ('en'), lattice: true, text: '今日は & 明日?', input: 'きょうは', model: 'models/henkan.henkan' };
  const url = new URL(writeState(s, BASE));
  assert.equal(url.pathname, '/henkan/index.html', 'the path stays (a site under a sub-path)');
  assert.deepEqual(readState(url.searchParams), s);
});

test('wrong values are the defaults; other parameters stay', () => {
  const s = readState(new URLSearchParams('engine=mozc&digits=wide&punctuation=,.&live=yes&lang=fr&x=1'));
  assert.deepEqual(s, defaultState());
  assert.equal(new URL(writeState({ ...s, live: true }, `${BASE}?x=1&live=0#top`)).href, `${BASE}?x=1&live=1#top`);
});

test('long text is cut at a character boundary', () => {
  const text = '𠮷'.repeat(MAX_SHARED_TEXT + 10);
  const back = readState(new URL(writeState({ ...defaultState(), text }, BASE)).searchParams);
  assert.equal([...back.text].length, MAX_SHARED_TEXT);
  assert.ok(back.text.endsWith('𠮷'));
});

test('the reading of a composition', () => {
  const out = /** @type {any} */ ({ state: 'composing', preedit: { text: 'きょうh' }, segments: [] });
  assert.equal(readingOf(out), 'きょうh');
  assert.equal(readingOf({ ...out, state: 'converting', preedit: { text: '今日は' }, segments: [{ reading: 'きょう' }, { reading: 'は' }] }), 'きょうは');
  assert.equal(readingOf({ ...out, state: 'precomposition' }), '');
  assert.equal(readingOf(null), '');
});

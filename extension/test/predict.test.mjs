// The page's prediction of what the engine consumes (extension/content/predict.js), against the
// state machine's table (crates/henkan/src/ime/mod.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { predictKey } from '../content/predict.js';
import { SHIFT, CTRL, ALT } from '../../www/keymap.js';

const off = { on: false, composing: false, listed: false };
const idle = { on: true, composing: false, listed: false };
const composing = { on: true, composing: true, listed: false };

test('the IME off: only the toggles are consumed', () => {
  for (const key of ['a', ' ', 'Enter', 'Backspace']) assert.equal(predictKey(off, key, 0).consumed, false, key);
  assert.deepEqual(predictKey(off, ' ', CTRL), { consumed: true, next: idle, sure: true });
  assert.equal(predictKey(off, 'ZenkakuHankaku', 0).consumed, true);
  assert.equal(predictKey(off, '`', ALT).consumed, true);
  assert.equal(predictKey(off, 'KanaMode', 0).consumed, true);
});

test('with half-width space, Space outside a composition is the field\'s and Shift+Space the IME\'s', () => {
  assert.equal(predictKey(idle, ' ', 0, true).consumed, false);
  assert.equal(predictKey(idle, ' ', SHIFT, true).consumed, true);
  assert.equal(predictKey(composing, ' ', 0, true).consumed, true);
});

test('before a composition: 無変換 switches hiragana and katakana input, Ctrl+Shift+Space types U+3000', () => {
  assert.equal(predictKey(idle, 'NonConvert', 0).consumed, true);
  assert.equal(predictKey(idle, 'NonConvert', SHIFT).consumed, false);
  assert.equal(predictKey(idle, ' ', CTRL | SHIFT).consumed, true);
  assert.equal(predictKey(idle, ' ', CTRL | SHIFT, true).consumed, true);
  assert.equal(predictKey(off, 'NonConvert', 0).consumed, false);
});

test('Alt+カタカナひらがな switches kana input, on or off, composing or not', () => {
  for (const st of [off, idle, composing]) assert.deepEqual(predictKey(st, 'KanaMode', ALT), { consumed: true, next: st, sure: true });
  assert.equal(predictKey(idle, 'Hiragana', ALT | CTRL).consumed, false);
});

test('precomposition: text and Space are the IME\'s, the field keeps Enter, Backspace, shortcuts', () => {
  assert.deepEqual(predictKey(idle, 'k', 0), { consumed: true, next: composing, sure: true });
  assert.equal(predictKey(idle, 'K', SHIFT).consumed, true);
  assert.equal(predictKey(idle, ' ', 0).consumed, true);
  assert.equal(predictKey(idle, ' ', SHIFT).consumed, false);
  for (const key of ['Enter', 'Backspace', 'ArrowLeft', 'Tab', 'ArrowDown', 'Escape']) assert.equal(predictKey(idle, key, 0).consumed, false, key);
  assert.equal(predictKey(idle, 'c', CTRL).consumed, false);
  const listed = { ...idle, listed: true };
  assert.equal(predictKey(listed, 'ArrowDown', 0).consumed, true);
  assert.equal(predictKey(listed, 'Escape', 0).consumed, true);
  assert.equal(predictKey(listed, 'Enter', 0).consumed, false);
});

test('composing: every key is the IME\'s but F1–F5, F11 and unknown keys', () => {
  for (const key of ['a', ' ', 'Enter', 'Backspace', 'Escape', 'ArrowLeft', 'Tab', 'F7']) assert.equal(predictKey(composing, key, 0).consumed, true, key);
  assert.equal(predictKey(composing, 'c', CTRL).consumed, true);
  for (const key of ['F5', 'F11', 'Insert']) assert.equal(predictKey(composing, key, 0).consumed, false, key);
  assert.equal(predictKey(composing, 'Enter', 0).next.composing, false);
  assert.equal(predictKey(composing, 'Backspace', 0).next.composing, null, 'a Backspace may empty it');
});

test('an unknown state (a key in flight) is consumed and flagged unsure', () => {
  const unknown = { on: true, composing: null, listed: false };
  const p = predictKey(unknown, 'Backspace', 0);
  assert.equal(p.consumed, true);
  assert.equal(p.sure, false);
});

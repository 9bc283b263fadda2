import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PreeditBox } from '../widget/preedit.js';

/**
 * A textarea's layout as `below` gives it: rows of `width` characters (a line break ends its row
 * and starts a new one), `line` pixels each; the row of a line break is the one it ends.
 * @param {string} value
 * @param {number} width
 * @param {number} [line]
 */
function rowsOf(value, width, line = 24) {
  /** @type {number[]} */
  const tops = [];
  let row = 0;
  let col = 0;
  for (const c of value) {
    if (col === width && c !== '\n') {
      row++;
      col = 0;
    }
    tops.push(row * line);
    if (c === '\n') {
      row++;
      col = 0;
    } else col++;
  }
  return (/** @type {number} */ i) => tops[i];
}

const rowsAfterBreaks = (/** @type {any[]} */ ...args) => /** @type {any} */ (PreeditBox.prototype.rowsAfterBreaks).call(null, ...args);

test('rows after wraps in one long paragraph: first characters of rows, two fields apart, each with the next row’s start', () => {
  const value = 'あ'.repeat(10000);
  const below = rowsOf(value, 40);
  const rows = rowsAfterBreaks(value, { at: 0, top: 0 }, value.length, 400, below, true);
  assert.ok(rows.length >= 10, `${rows.length} rows`);
  let last = 0;
  for (const r of rows) {
    assert.equal(r.at % 40, 0, `a row's first character: ${r.at}`);
    assert.equal(r.end, r.at + 40);
    assert.equal(r.top, (r.at / 40) * 24);
    assert.ok(r.at - last >= 800, `two fields apart: ${r.at - last}`);
    last = r.at;
  }
  // From a base further on: its top is added.
  const from = rowsAfterBreaks(value, { at: 4000, top: 100 }, value.length, 400, (/** @type {number} */ i) => below(i) - below(4000), true);
  assert.deepEqual(from[0], { at: 4800, top: 100 + 20 * 24, end: 4840 });
});

test('rows after line breaks as before where breaks come often, and none after wraps unless they hold', () => {
  const value = `${'い'.repeat(99)}\n`.repeat(100);
  const below = rowsOf(value, 40);
  const rows = rowsAfterBreaks(value, { at: 0, top: 0 }, value.length, 400, below, true);
  assert.deepEqual(rows, rowsAfterBreaks(value, { at: 0, top: 0 }, value.length, 400, below, false));
  assert.ok(rows.length > 0 && rows.every((r) => r.end === undefined && value[r.at - 1] === '\n'));
  const para = 'う'.repeat(10000);
  assert.deepEqual(rowsAfterBreaks(para, { at: 0, top: 0 }, para.length, 400, rowsOf(para, 40), false), []);
});

test('no row after a wrap that begins with a space, a mark or the second half of a character', () => {
  for (const c of [' ', '\u3099', '\udc00']) {
    const value = Array.from({ length: 250 }, () => `${c}${'え'.repeat(39)}`).join('');
    const rows = rowsAfterBreaks(value, { at: 0, top: 0 }, value.length, 400, rowsOf(value, 40), true);
    assert.deepEqual(rows, [], JSON.stringify(c));
  }
});

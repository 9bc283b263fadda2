#!/usr/bin/env node
// The cost of the overlay's layouts in an editor (docs/browser.md, *Why an overlay in editors* and
// *Vertical text*): the preedit's render (`PreeditBox.render`, the overlay laid out and measured)
// per key while typing into ProseMirror in the middle of a paragraph of 350 characters, with the
// paragraph left-aligned (the overlay starts at the caret and copies the 168 characters after it),
// centred (it copies the whole paragraph) and in vertical text (`vertical-rl`: it starts in the
// caret's column and copies what follows). One round types the same keys in each layout in turn,
// so that every layout sees the same machine load; the differences from the left-aligned paragraph
// are paired by round.
//
//   node tests/e2e/measure-editor-layouts.mjs [--rounds 10] [--out tests/e2e/output/editor-layouts.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan).
import path from 'node:path';
import { runMeasurement, ensureOutput, opt, machine, writeMeasurement } from './harness.mjs';
import { timedEditor, typeTimed, summary, median, KEYS, SENTENCE } from './editor-render-timing.mjs';

const ROUNDS = Number(opt('rounds', '10'));
const OUT = opt('out', path.join(ensureOutput(), 'editor-layouts.json'));
/** The caret: this many characters before the paragraph's end (12 sentences after its first line). */
const BACK = 6 * SENTENCE.length;
/** Each layout's rule for the editor. */
const LAYOUTS = {
  left: '',
  center: '#host p { text-align: center }',
  vertical: '#host .ProseMirror { writing-mode: vertical-rl; height: 360px }',
};

runMeasurement(async (server, browser) => {
  const page = await timedEditor(server, browser, 12, '<style id="layout"></style>');
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(Object.keys(LAYOUTS).map((k) => [k, []]));
  /** @type {Record<string, {head: number, tail: number}>} */
  const copied = {};
  /** @type {Record<string, number[]>} each round's median, for the paired differences */
  const medians = Object.fromEntries(Object.keys(LAYOUTS).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, rule] of Object.entries(LAYOUTS)) {
      // The layout, and the caret put in the paragraph's last text node (the arrow keys move by
      // line in vertical text): ProseMirror takes the selection in from `selectionchange`.
      await page.evaluate(
        ([rule, back]) => {
          /** @type {HTMLElement} */ (document.getElementById('layout')).textContent = rule;
          const p = /** @type {HTMLElement} */ (/** @type {any} */ (window).m.field.querySelector('p'));
          const text = /** @type {Text} */ (p.lastChild);
          /** @type {Selection} */ (getSelection()).collapse(text, text.length - back);
        },
        /** @type {[string, number]} */ ([rule, BACK]),
      );
      await page.waitForTimeout(100);
      const r = await typeTimed(page);
      times[name].push(...r.renders);
      medians[name].push(median(r.renders));
      copied[name] = { head: r.head, tail: r.tail };
    }
  }
  await page.close();
  writeMeasurement(OUT, { date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, keys: KEYS.length, ...summary(times, medians, copied, 'left'), machine: machine() });
});

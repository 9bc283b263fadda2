#!/usr/bin/env node
// The cost of the moved tail in an editor (docs/browser.md, *Why an overlay in editors*): the
// preedit's render (`PreeditBox.render`, the overlay laid out and measured) per key while typing
// into ProseMirror with nothing after the caret, and with a tail of about 170, 340 and 850
// characters (the last over `TAIL_MAX_CHARS`: covered, not copied). One round types the same keys
// at each place in turn, so that every place sees the same machine load; the differences from no
// tail are paired by round.
//
//   node tests/e2e/measure-editor-tail.mjs [--rounds 10] [--out tests/e2e/output/editor-tail.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan).
import path from 'node:path';
import { runMeasurement, ensureOutput, opt, machine, writeMeasurement } from './harness.mjs';
import { timedEditor, typeTimed, summary, median, KEYS, SENTENCE } from './editor-render-timing.mjs';

const ROUNDS = Number(opt('rounds', '10'));
const OUT = opt('out', path.join(ensureOutput(), 'editor-tail.json'));
/** Where the caret goes: characters before the paragraph's end (0: its end); the paragraph holds
 * 30 sentences after its first line. */
const PLACES = { none: 0, 170: 6 * SENTENCE.length, 340: 12 * SENTENCE.length, 850: 30 * SENTENCE.length };

runMeasurement(async (server, browser) => {
  const page = await timedEditor(server, browser, 30);
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(Object.keys(PLACES).map((k) => [k, []]));
  /** @type {Record<string, {tailCopied: number}>} */
  const copied = {};
  /** @type {Record<string, number[]>} each round's median, for the paired differences */
  const medians = Object.fromEntries(Object.keys(PLACES).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, back] of Object.entries(PLACES)) {
      await page.keyboard.press('Control+End');
      for (let i = 0; i < back; i++) await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(100);
      const r = await typeTimed(page);
      times[name].push(...r.renders);
      medians[name].push(median(r.renders));
      copied[name] = { tailCopied: r.tail };
    }
  }
  await page.close();
  writeMeasurement(OUT, { date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, keys: KEYS.length, ...summary(times, medians, copied, 'none'), machine: machine() });
});

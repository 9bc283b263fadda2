#!/usr/bin/env node
// The cost of the overlay's layouts in an editor (docs/browser.md, *Why an overlay in editors* and
// *Vertical text*): the preedit's render (`PreeditBox.render`, the overlay laid out and measured)
// per key while typing into ProseMirror in the middle of a paragraph of 370 characters, with the
// paragraph left-aligned (the overlay starts at the caret and copies the 168 characters after it),
// centred (it copies the whole paragraph) and in vertical text (`vertical-rl`: it starts in the
// caret's column and copies what follows). One round types the same keys in each layout in turn,
// so that every layout sees the same machine load; the differences from the left-aligned paragraph
// are paired by round.
//
//   node tests/e2e/measure-editor-layouts.mjs [--rounds 10] [--out tests/e2e/output/editor-layouts.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan).
import path from 'node:path';
import { runMeasurement, ensureOutput, opt, machine, writeMeasurement, MODEL } from './harness.mjs';
import { bundleEditors, BUNDLE_URL } from './editors/bundle.mjs';

const ROUNDS = Number(opt('rounds', '10'));
const OUT = opt('out', path.join(ensureOutput(), 'editor-layouts.json'));
const KEYS = 'kyouhaiitenkidesune';
/** One sentence, 28 characters; the paragraph holds 12 of them after its first line. */
const SENTENCE = '長い段落の続きです。この文は折り返して次の行に続きます。';
/** The caret: this many characters before the paragraph's end. */
const BACK = 6 * SENTENCE.length;
/** Each layout's rule for the editor. */
const LAYOUTS = {
  left: '',
  center: '#host p { text-align: center }',
  vertical: '#host .ProseMirror { writing-mode: vertical-rl; height: 360px }',
};

/** @param {number[]} xs @param {number} p */
function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** @param {number} x */
const r3 = (x) => Math.round(x * 1000) / 1000;

runMeasurement(async (server, browser) => {
  await bundleEditors();
  const page = await browser.context.newPage();
  await page.goto(`${server.url}www/test/blank.html`);
  await page.evaluate(
    async ([model, bundle]) => {
      const w = /** @type {any} */ (window);
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      const { PreeditBox } = await import('/www/widget/preedit.js');
      const render = PreeditBox.prototype.render;
      w.renders = [];
      PreeditBox.prototype.render = function (/** @type {any} */ p) {
        const t = performance.now();
        render.call(this, p);
        w.renders.push(performance.now() - t);
      };
      const { attach } = await import('/www/widget.js');
      const editors = await import(bundle);
      document.body.innerHTML = `<style>.ProseMirror { white-space: pre-wrap; outline: none }</style><style id="layout"></style>
        <div id="host" style='font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 20px; width: 520px'></div>`;
      const ime = new HenkanIme();
      await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      w.m = await editors.prosemirror(document.getElementById('host'));
      attach(w.m.field, { ime });
    },
    /** @type {[string, string]} */ ([MODEL, BUNDLE_URL]),
  );
  await page.click('#host');
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(SENTENCE.repeat(12));
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
          /** @type {any} */ (window).renders = [];
        },
        /** @type {[string, number]} */ ([rule, BACK]),
      );
      await page.waitForTimeout(100);
      for (const k of KEYS) await page.keyboard.press(k);
      const r = await page.evaluate(() => ({
        renders: /** @type {number[]} */ (/** @type {any} */ (window).renders),
        head: document.querySelector('.henkan-preedit-head')?.textContent?.length ?? 0,
        tail: document.querySelector('.henkan-preedit-tail')?.textContent?.length ?? 0,
      }));
      times[name].push(...r.renders);
      medians[name].push(pct(r.renders, 50));
      copied[name] = { head: r.head, tail: r.tail };
      await page.keyboard.press('Escape');
    }
  }
  await page.close();
  const result = {
    date: new Date().toISOString().slice(0, 10),
    rounds: ROUNDS,
    keys: KEYS.length,
    renderMs: Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { ...copied[k], n: xs.length, p50: r3(pct(xs, 50)), p95: r3(pct(xs, 95)) }])),
    // Each layout's round median minus the same round's left-aligned one: the mean over the
    // rounds and its standard error.
    pairedP50MsAgainstLeft: Object.fromEntries(
      Object.keys(LAYOUTS)
        .filter((k) => k !== 'left')
        .map((k) => {
          const d = medians[k].map((m, i) => m - medians.left[i]);
          const mean = d.reduce((a, b) => a + b, 0) / d.length;
          const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1));
          return [k, { mean: r3(mean), se: r3(sd / Math.sqrt(d.length)) }];
        }),
    ),
    machine: machine(),
  };
  writeMeasurement(OUT, result);
});

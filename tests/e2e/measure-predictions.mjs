#!/usr/bin/env node
// Per-key latency in Chromium with suggestions on and off (docs/prediction.md): the words of the
// first N lines of the analyzed chat dev set (build/corpus/dev/chat.txt) typed as romaji into the
// demo, each word committed with Enter (word by word, so every key has a short completion query,
// and every Enter is followed by next-word predictions). Each line is typed twice in turn, with
// the demo's "predictions" checkbox on and off, so both see the same machine load.
//
//   node tests/e2e/measure-predictions.mjs [--lines 150] [--out tests/e2e/output/predictions.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan, which has an n-gram section).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launch, demoUrl, waitForIme, ensureOutput, opt, machine, writeMeasurement, ROOT, MODEL } from './harness.mjs';
import { toRomaji } from './measure.mjs';

const LINES = Number(opt('lines', '150'));
const OUT = opt('out', path.join(ensureOutput(), 'predictions.json'));
const TOKENS = path.resolve(ROOT, opt('tokens', 'build/corpus/dev/chat.txt'));

/** @param {number[]} xs @param {number} p */
function pct(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** @param {number} x */
const r3 = (x) => Math.round(x * 1000) / 1000;
/** @param {number[]} xs */
const stats = (xs) => ({ n: xs.length, p50: r3(pct(xs, 50)), p95: r3(pct(xs, 95)), p99: r3(pct(xs, 99)), max: r3(Math.max(...xs)) });

/** The readings of a token line (`surface/reading/left/right …`), as romaji; kana only. @param {string} line */
function words(line) {
  return line
    .split(/\s+/)
    .map((t) => t.split('/')[1] ?? '')
    .filter((r) => /^[\u3041-\u3096ー]+$/.test(r))
    .map(toRomaji);
}

async function main() {
  const lines = readFileSync(TOKENS, 'utf8').split('\n').filter(Boolean).slice(0, LINES).map(words);
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(demoUrl(server.url));
    if ((await waitForIme(page)) !== 'ready') throw new Error('IME not ready');
    await page.click('#editor');
    /** @type {Record<'on' | 'off', {key: string, wasmMs: number, totalMs: number, state: string}[]>} */
    const keys = { on: [], off: [] };
    let shown = 0;
    for (const line of lines) {
      for (const mode of /** @type {const} */ (['on', 'off'])) {
        await page.setChecked('#predictions', mode === 'on');
        await page.click('#editor');
        await page.evaluate(() => {
          const d = /** @type {any} */ (window).henkanDemo;
          d.keys.length = 0;
          d.shown = 0;
          /** @type {HTMLTextAreaElement} */ (document.getElementById('editor')).value = '';
        });
        for (const w of line) {
          await page.keyboard.type(w);
          if (mode === 'on' && ((await page.evaluate(() => /** @type {any} */ (window).henkanDemo.last?.completions.length)) ?? 0) > 0) shown++;
          await page.keyboard.press('Enter');
        }
        keys[mode].push(...(await page.evaluate(() => /** @type {any} */ (window).henkanDemo.keys)));
      }
    }
    await page.close();
    const typing = (/** @type {'on' | 'off'} */ m) => keys[m].filter((k) => k.key.length === 1);
    const enter = (/** @type {'on' | 'off'} */ m) => keys[m].filter((k) => k.key === 'Enter');
    const result = {
      date: new Date().toISOString(),
      chromium: browser.context.browser()?.version() ?? 'unknown',
      model: MODEL,
      lines: lines.length,
      words: lines.reduce((n, l) => n + l.length, 0),
      wordsWithCompletionsAtTheirLastKey: shown,
      typingWasmMs: { on: stats(typing('on').map((k) => k.wasmMs)), off: stats(typing('off').map((k) => k.wasmMs)) },
      typingTotalMs: { on: stats(typing('on').map((k) => k.totalMs)), off: stats(typing('off').map((k) => k.totalMs)) },
      enterWasmMs: { on: stats(enter('on').map((k) => k.wasmMs)), off: stats(enter('off').map((k) => k.wasmMs)) },
      enterTotalMs: { on: stats(enter('on').map((k) => k.totalMs)), off: stats(enter('off').map((k) => k.totalMs)) },
      machine: machine(),
    };
    writeMeasurement(OUT, result);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

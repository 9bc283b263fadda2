#!/usr/bin/env node
// The extension's figures (`make measure-extension`, docs/extension.md): the content script's
// size, the memory of a tab with the IME unused and in use (against the same page without the
// extension) and of the engine, the per-key latency in the page (keydown → the preedit in the
// DOM: with the page's own engine, and with the extension's engine through its runtime port and
// through its key channel, interleaved), and the time from a field's first focus to the
// dictionary (the extension's engine, cold; the page's own) and from the first key to the first
// conversion. Writes
// tests/extension/output/measurements.json and prints a Markdown table.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { ROOT, CHROMIUM } from '../e2e/harness.mjs';
import { percentile } from '../../www/keymap.js';
import { servePages, launchWithExtension, EXTENSION } from './harness.mjs';

const OUTPUT = path.join(ROOT, 'tests/extension/output');
const SENTENCES = ['kyouhaiitenkidesune', 'watashihanihongowobenkyoushiteimasu', 'ashitanokaigihajuujikaradesu', 'tokyoueikinoudenshaniorimashita'];

/**
 * The page's heap after a GC (its isolate: the page's scripts and the content script's world).
 * @param {import('playwright-core').Page} page
 */
async function heap(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const { metrics } = await cdp.send('Performance.getMetrics').catch(async () => {
    await cdp.send('Performance.enable');
    return cdp.send('Performance.getMetrics');
  });
  await cdp.detach();
  return { heapBytes: usedSize, nodes: metrics.find((m) => m.name === 'Nodes')?.value ?? null };
}

/** Starts recording, in the page, the time from each keydown to the next change of the DOM. */
function recordLatency() {
  const w = /** @type {any} */ (window);
  w.latencies = [];
  w.keyAt = 0;
  new MutationObserver(() => {
    if (w.keyAt) w.latencies.push(performance.now() - w.keyAt);
    w.keyAt = 0;
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}

/**
 * Each page notes its keydowns' `timeStamp` (`keyAt`) from a listener added before the content
 * script's: the extension gives a key to its field from the window first (`routeKey`), and a key
 * the IME takes goes no further, so a listener of the page's own never sees it.
 */
function noteKeys() {
  window.addEventListener('keydown', (e) => ((/** @type {any} */ (window)).keyAt = e.timeStamp), true);
}

const server = await servePages();
const result = /** @type {any} */ ({ chromium: '', sizes: {}, memory: {}, latency: {}, startup: {} });

// The content script.
const content = fs.readFileSync(path.join(EXTENSION, 'content.js'));
result.sizes.contentScript = { raw: content.length, gzip: zlib.gzipSync(content).length };
result.sizes.zip = fs.statSync(path.join(ROOT, 'dist/henkan-extension.zip')).size;

// The same page without the extension.
{
  const dir = mkdtempSync(path.join(tmpdir(), 'henkan-ext-base-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: false, args: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const page = await context.newPage();
  await page.goto(`${server.url}plain.html`);
  await page.waitForTimeout(500);
  result.memory.withoutExtension = await heap(page);
  await context.close();
  rmSync(dir, { recursive: true, force: true });
}

const ext = await launchWithExtension();
await ext.context.addInitScript(noteKeys);
result.chromium = ext.context.browser()?.version() ?? '';
// The settings are written by the service worker (the options page would start the engine): this
// page keeps the extension's engine and asks for the key channel at its first connection (the
// measurements then switch between the two channels); a second page runs its own engine.
await ext.worker.evaluate(() => chrome.storage.local.set({ settings: { channel: 'message', engineIn: 'extension' } }));
const page = await ext.context.newPage();
await page.goto(`${server.url}plain.html`);
await page.waitForTimeout(500);
result.memory.unused = await heap(page);

// First focus → the engine's dictionary in (a cold engine: the offscreen document starts).
let t = Date.now();
await page.focus('#ta');
await page.waitForSelector('#ta + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
result.startup.focusToReadyMs = Date.now() - t;

// First key → first conversion (Space), the engine warm.
await page.evaluate(recordLatency);
t = Date.now();
await page.keyboard.type('nihongo');
await page.keyboard.press('Space');
await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
result.startup.firstKeyToConversionMs = Date.now() - t;
await page.keyboard.press('Enter');

// The page's own engine (settings without `engineIn`): first focus → its dictionary in.
await ext.worker.evaluate(() => chrome.storage.local.set({ settings: {} }));
let ownPage = await ext.context.newPage();
await ownPage.goto(`${server.url}plain.html`);
await ownPage.waitForTimeout(500);
t = Date.now();
await ownPage.focus('#ta');
await ownPage.waitForSelector('#ta + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
result.startup.pageFocusToReadyMs = Date.now() - t;
await ownPage.evaluate(recordLatency);

// The baseline: the web widget in a page of its own (no extension; the extension is off for its
// site, localhost), its engine in the page.
await ext.worker.evaluate(() => chrome.storage.local.set({ sites: { localhost: false } }));
const webPage = await ext.context.newPage();
await webPage.goto(`http://localhost:${server.port}/widget.html`);
t = Date.now();
await webPage.focus('#ta');
await webPage.waitForSelector('#ta + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
result.startup.webFocusToReadyMs = Date.now() - t;
await webPage.evaluate(recordLatency);
// The same with the language model in every key (`lmEachKey`), for the side-by-side.
const webEachPage = await ext.context.newPage();
await webEachPage.goto(`http://localhost:${server.port}/widget.html?lmEachKey`);
await webEachPage.focus('#ta');
await webEachPage.waitForSelector('#ta + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
await webEachPage.evaluate(recordLatency);

/** Rounds of the comparison: each types every sentence once per way. */
const ROUNDS = 3;

/**
 * Sets the extension's settings (as the options page does) and waits until the page's content
 * script has had time to hear of it.
 * @param {Record<string, unknown>} settings
 */
async function setSettings(settings) {
  await ext.worker.evaluate((s) => chrome.storage.local.set({ settings: s }), settings);
  await page.waitForTimeout(150);
}

/**
 * Types one sentence at 60 ms a key, converts it (Space), commits it (Enter); returns the
 * per-key latencies and the conversion's.
 * @param {import('playwright-core').Page} page
 * @param {string} s
 */
async function typeSentence(page, s) {
  await page.evaluate(() => (/** @type {any} */ (window).latencies = []));
  await page.keyboard.type(s, { delay: 60 });
  await page.waitForTimeout(100);
  const before = await page.evaluate(() => /** @type {any} */ (window).latencies.length);
  await page.keyboard.press('Space');
  await page.waitForSelector('.henkan-preedit-runs .henkan-converted', { state: 'attached' });
  await page.waitForTimeout(100);
  /** @type {number[]} */
  const all = await page.evaluate(() => /** @type {any} */ (window).latencies);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(100);
  return { keys: all.filter((_, i) => i !== before), conversion: all[before] };
}

/**
 * Per key and per conversion, over the given ways to the engine, interleaved: `web` (the web
 * widget, no extension; `webEachKey`: the same with the LM in every key), `page` (the extension with the page's own engine), `runtime` and `message` (the extension's engine through the runtime port and
 * through the key channel, the settings' `channel`). Each sentence is typed once per way in turn,
 * the order flipped every sentence, so that the machine's load falls on all alike; `rounds`
 * times over.
 * @param {string} engine the label
 * @param {('web' | 'webEachKey' | 'page' | 'message' | 'runtime')[]} channels
 * @param {number} rounds
 */
async function typeSentences(engine, channels, rounds) {
  /** @type {Record<string, {keys: number[], conversions: number[], rounds: {p50: number, p95: number}[]}>} */
  const by = Object.fromEntries(channels.map((c) => [c, { keys: [], conversions: [], rounds: [] }]));
  let flip = 0;
  for (let r = 0; r < rounds; r++) {
    /** @type {Record<string, number[]>} */
    const round = Object.fromEntries(channels.map((c) => [c, []]));
    for (const s of SENTENCES) {
      const order = flip++ % 2 ? [...channels].reverse() : channels;
      for (const channel of order) {
        const p = channel === 'web' ? webPage : channel === 'webEachKey' ? webEachPage : channel === 'page' ? ownPage : page;
        await setSettings({ ...engineSettings, engineIn: 'extension', channel: channel === 'message' ? 'message' : 'runtime' });
        await p.bringToFront();
        await p.focus('#ta');
        const { keys, conversion } = await typeSentence(p, s);
        by[channel].keys.push(...keys);
        by[channel].conversions.push(conversion);
        round[channel].push(...keys);
      }
    }
    for (const c of channels) by[c].rounds.push({ p50: percentile(round[c], 50), p95: percentile(round[c], 95) });
  }
  for (const c of channels) {
    const { keys, conversions, rounds: rs } = by[c];
    result.latency[`${engine}/${c}`] = {
      keys: { n: keys.length, p50: percentile(keys, 50), p95: percentile(keys, 95), max: Math.max(...keys) },
      perRound: rs,
      conversions: { n: conversions.length, p50: percentile(conversions, 50), max: Math.max(...conversions) },
    };
  }
}

/** @type {Record<string, unknown>} */
let engineSettings = {};
await typeSentences('hybrid', ['web', 'webEachKey', 'page', 'message', 'runtime'], ROUNDS);
await setSettings({});
await page.bringToFront();
result.memory.inUse = await heap(page);
// The tab that runs its own engine: its JS heap and the engine's wasm memory (the content script answers).
await ownPage.bringToFront();
result.memory.ownEngineInUse = {
  ...(await heap(ownPage)),
  engine: await ext.worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return chrome.tabs.sendMessage(/** @type {number} */ (tab.id), { type: 'engine-info' });
  }),
};

// The engine (the offscreen document), asked through the options page.
const options = await ext.context.newPage();
await options.goto(`chrome-extension://${ext.id}/options.html`);
await options.waitForSelector('#pos option', { state: 'attached' });
result.memory.engine = await options.evaluate(async () => {
  await chrome.runtime.sendMessage({ type: 'engine' });
  const port = chrome.runtime.connect({ name: 'henkan-engine' });
  return new Promise((resolve) => {
    port.onMessage.addListener((/** @type {any} */ m) => {
      if (m.id === 1) resolve(m.out);
    });
    port.postMessage({ op: 'info', id: 1 });
  });
});

// The classic engine (the options page's setting): the port's share beside a cheaper engine.
engineSettings = { engine: 'classic' };
await options.evaluate(async () => {
  await chrome.storage.local.set({ settings: { engine: 'classic' } });
  const port = chrome.runtime.connect({ name: 'henkan-engine' });
  await new Promise((resolve) => {
    port.onMessage.addListener((/** @type {any} */ m) => m.id === 2 && resolve(m.out));
    port.postMessage({ op: 'setEngine', id: 2 });
  });
});
await ownPage.close();
await setSettings({ engine: 'classic' });
const ownClassic = await ext.context.newPage();
await ownClassic.goto(`${server.url}plain.html`);
await ownClassic.focus('#ta');
await ownClassic.waitForSelector('#ta + .henkan-indicator[data-status="ready"]', { state: 'attached', timeout: 60000 });
await ownClassic.evaluate(recordLatency);
ownPage = ownClassic;
await typeSentences('classic', ['page', 'message', 'runtime'], 1);
await ext.close();
await server.stop();

fs.mkdirSync(OUTPUT, { recursive: true });
fs.writeFileSync(path.join(OUTPUT, 'measurements.json'), `${JSON.stringify(result, null, 2)}\n`);
const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KiB`;
const mib = (/** @type {number} */ n) => `${(n / 1048576).toFixed(1)} MiB`;
const ms = (/** @type {number} */ n) => `${n.toFixed(1)} ms`;
console.log(`Chromium ${result.chromium}
| figure | value |
| --- | --- |
| content script (raw / gzip) | ${kib(result.sizes.contentScript.raw)} / ${kib(result.sizes.contentScript.gzip)} |
| dist/henkan-extension.zip | ${mib(result.sizes.zip)} |
| tab heap, page without the extension | ${mib(result.memory.withoutExtension.heapBytes)} |
| tab heap, extension, IME unused | ${mib(result.memory.unused.heapBytes)} |
| tab heap, extension, IME in use | ${mib(result.memory.inUse.heapBytes)} |
| tab with its own engine, IME in use: JS heap / the engine's wasm memory | ${mib(result.memory.ownEngineInUse.heapBytes)} / ${mib(result.memory.ownEngineInUse.engine?.memoryBytes ?? 0)} (${result.memory.ownEngineInUse.engine?.where}) |
| engine (offscreen document): wasm memory / JS heap | ${mib(result.memory.engine.memoryBytes)} / ${mib(result.memory.engine.jsHeapBytes ?? 0)} |
| requests served so far: key channel / runtime ports | ${result.memory.engine.served?.channel} / ${result.memory.engine.served?.port} |
${Object.entries(result.latency).map(([label, /** @type {any} */ l]) => `| per key, keydown → preedit in the DOM, ${label}: p50 / p95 / max (n = ${l.keys.n}) | ${ms(l.keys.p50)} / ${ms(l.keys.p95)} / ${ms(l.keys.max)} |
| per key, ${label}, by round: p50 / p95 | ${l.perRound.map((/** @type {any} */ r) => `${ms(r.p50)} / ${ms(r.p95)}`).join('; ')} |
| Space → conversion in the DOM, ${label}: p50 / max (n = ${l.conversions.n}) | ${ms(l.conversions.p50)} / ${ms(l.conversions.max)} |`).join('\n')}
| first focus → dictionary in (cold engine) | ${result.startup.focusToReadyMs} ms |
| first focus → dictionary in, the page's own engine | ${result.startup.pageFocusToReadyMs} ms |
| first focus → dictionary in, the web widget | ${result.startup.webFocusToReadyMs} ms |
| first key → first conversion (7 keys + Space, engine warm) | ${result.startup.firstKeyToConversionMs} ms |`);

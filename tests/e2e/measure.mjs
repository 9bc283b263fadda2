#!/usr/bin/env node
// Measurements of the web build in Chromium (figures in BENCHMARKS.md, method in docs/browser.md):
// - per-key latency (p50/p95, wasm call and whole keydown handler) while typing the readings of
//   the first N dev sentences (../shared/data/dev/kwdlc.test.tsv) as romaji, each followed by
//   Space (convert) and Enter (commit);
// - wasm size after wasm-opt (raw, gzip), model bytes over the wire;
// - time from navigation to the IME being ready (classic engine: the dictionary is in), to the
//   first conversion and to the neural engines being ready (the LM sections attached);
// - wasm memory after loading and after typing: linear memory (it never shrinks) and the heap
//   bytes in use and at the peak (the handle's counting allocator, `heapStats`);
// - all of it with the default engine (the hybrid once the LM is in) and with the classic engine
//   (chosen in the demo's selector after loading), and with live conversion (default engine).
//
//   node tests/e2e/measure.mjs [--sentences 200] [--out tests/e2e/output/measurements.json]
// HENKAN_E2E_MODEL picks the model (default models/henkan.henkan).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import path from 'node:path';
import { startServer, launch, demoUrl, waitForIme, ensureOutput, opt, machine, writeMeasurement, MODEL, ROOT } from './harness.mjs';

const SENTENCES = Number(opt('sentences', '200'));
const OUT = opt('out', path.join(ensureOutput(), 'measurements.json'));
const DEV = path.resolve(ROOT, opt('dev', '../shared/data/dev/kwdlc.test.tsv'));
/** Download speed of the throttled load measurement (Mbit/s; 0: skip it). */
const THROTTLE_MBPS = Number(opt('throttle-mbps', '50'));
/** Sentences typed one key per frame (typing at a person's pace), with and without `lmEachKey`. */
const PACED = Number(opt('paced', '50'));

// Kana → romaji that our composer turns back into the same kana (Mozc-style table).
const ROW = {
  あ: 'a', い: 'i', う: 'u', え: 'e', お: 'o', か: 'ka', き: 'ki', く: 'ku', け: 'ke', こ: 'ko',
  さ: 'sa', し: 'si', す: 'su', せ: 'se', そ: 'so', た: 'ta', ち: 'ti', つ: 'tu', て: 'te', と: 'to',
  な: 'na', に: 'ni', ぬ: 'nu', ね: 'ne', の: 'no', は: 'ha', ひ: 'hi', ふ: 'hu', へ: 'he', ほ: 'ho',
  ま: 'ma', み: 'mi', む: 'mu', め: 'me', も: 'mo', や: 'ya', ゆ: 'yu', よ: 'yo',
  ら: 'ra', り: 'ri', る: 'ru', れ: 're', ろ: 'ro', わ: 'wa', ゐ: 'wyi', ゑ: 'wye', を: 'wo', ん: 'nn',
  が: 'ga', ぎ: 'gi', ぐ: 'gu', げ: 'ge', ご: 'go', ざ: 'za', じ: 'zi', ず: 'zu', ぜ: 'ze', ぞ: 'zo',
  だ: 'da', ぢ: 'di', づ: 'du', で: 'de', ど: 'do', ば: 'ba', び: 'bi', ぶ: 'bu', べ: 'be', ぼ: 'bo',
  ぱ: 'pa', ぴ: 'pi', ぷ: 'pu', ぺ: 'pe', ぽ: 'po', ゔ: 'vu',
  ぁ: 'xa', ぃ: 'xi', ぅ: 'xu', ぇ: 'xe', ぉ: 'xo', ゃ: 'xya', ゅ: 'xyu', ょ: 'xyo', っ: 'xtu', ゎ: 'xwa',
  ー: '-', '。': '.', '、': ',', '「': '[', '」': ']', '・': 'z/', '！': '!', '？': '?', '〜': '~',
};
/** Syllables that take a small ya/yu/yo as one romaji unit (きゃ → kya). */
const YOON = { き: 'ky', ぎ: 'gy', し: 'sy', じ: 'zy', ち: 'ty', ぢ: 'dy', に: 'ny', ひ: 'hy', び: 'by', ぴ: 'py', み: 'my', り: 'ry' };
const SMALL_Y = { ゃ: 'a', ゅ: 'u', ょ: 'o' };

/**
 * @param {string} kana
 * @returns {string}
 */
export function toRomaji(kana) {
  const chars = [...kana];
  /** @type {string[]} */
  const units = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const next = chars[i + 1];
    if (c in YOON && next in SMALL_Y) {
      units.push(YOON[/** @type {keyof typeof YOON} */ (c)] + SMALL_Y[/** @type {keyof typeof SMALL_Y} */ (next)]);
      i++;
    } else {
      units.push(ROW[/** @type {keyof typeof ROW} */ (c)] ?? c);
    }
  }
  // っ before a consonant doubles it (った → tta).
  for (let i = 0; i < units.length - 1; i++) {
    if (units[i] === 'xtu' && /^[bcdfghjkmpqrstvwxyz]/.test(units[i + 1]) && !units[i + 1].startsWith('x')) {
      units[i] = units[i + 1][0];
    }
  }
  return units.join('');
}

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

async function main() {
  const lines = readFileSync(DEV, 'utf8').split('\n').filter(Boolean).slice(0, SENTENCES);
  const readings = lines.map((l) => l.split('\t')[0]);
  const wasmFile = path.join(ROOT, 'pkg/henkan_bg.wasm');
  const wasm = readFileSync(wasmFile);
  const modelFile = path.join(ROOT, MODEL);
  const model = readFileSync(modelFile);
  const server = await startServer();
  const browser = await launch();
  try {
    /**
     * Loads the demo, converts once, then types every sentence; returns the figures.
     * @param {boolean} live
     * @param {string} engine '' for the default, else the engine to choose after loading
     * @param {string} [query] more of the demo's URL parameters (`&lmEachKey=1`)
     * @param {number} [paced] type only this many sentences, one key per frame (the next key after
     *   the frame is painted and a task has run, as a person types); 0: every sentence, in a burst
     * @param {boolean} [resize] after Space, shorten the first segment by one kana (Shift+←, the
     *   rest converted again) and cancel (Escape twice) instead of committing with Enter
     */
    const run = async (live, engine, query = '', paced = 0, resize = false) => {
      const page = await browser.context.newPage();
      /** @type {number[]} */
      const resizeCatchUps = [];
      let modelWire = 0;
      page.on('response', async (res) => {
        if (res.url().includes(path.basename(MODEL))) {
          const sizes = await res.request().sizes().catch(() => null);
          if (sizes) modelWire = sizes.responseBodySize + sizes.responseHeadersSize;
        }
      });
      await page.goto(demoUrl(server.url) + (live ? '&live=1' : '') + query, { waitUntil: 'commit' });
      // Navigation → first conversion, measured in the page: the moment the IME is ready, type
      // `kyou` + Space (synthetic keydowns, handled like real ones) and take the time.
      const first = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const go = () => {
              const d = /** @type {any} */ (window).henkanDemo;
              const el = /** @type {HTMLElement} */ (document.getElementById('editor'));
              el.focus();
              for (const key of ['k', 'y', 'o', 'u', ' ']) el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
              resolve({ readyMs: Math.round(d.readyAt), firstConversionMs: Math.round(performance.now()), state: d.last?.state, text: d.last?.preedit.text });
            };
            const wait = () => {
              const d = /** @type {any} */ (window).henkanDemo;
              if (!d) return void setTimeout(wait, 1);
              if (d.ime.status === 'ready') return go();
              if (d.ime.status === 'error') return resolve(null);
              d.ime.addEventListener('status', () => {
                if (d.ime.status === 'ready') go();
                else if (d.ime.status === 'error') resolve(null);
              });
            };
            wait();
          }),
      );
      if (!first) throw new Error(`IME not ready: ${await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.error)}`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      // The neural engines come when the rest of the model is in.
      await page.waitForFunction(() => /** @type {any} */ (window).henkanDemo.ime.lm !== 'pending', null, { timeout: 120000 });
      if (engine) await page.evaluate((name) => /** @type {any} */ (window).henkanDemo.ime.setEngine(name), engine);
      const load = await page.evaluate((f) => {
        const d = /** @type {any} */ (window).henkanDemo;
        return {
          readyMs: f.readyMs,
          firstConversionMs: f.firstConversionMs,
          neuralReadyMs: Math.round(d.neuralAt),
          lm: d.ime.lm,
          engine: d.ime.engine,
          lmBuildMs: Math.round(d.ime.timing.lmBuildMs),
          firstConversion: `${f.text} (${f.state})`,
          crossOriginIsolated: window.crossOriginIsolated,
          memoryBytes: d.ime.memory.buffer.byteLength,
          heap: d.ime.handle.heapStats(),
          loadCalledMs: Math.round(d.ime.timing.startMs),
          wasmInstantiateMs: Math.round(d.ime.timing.wasmMs),
          modelDownloadMs: Math.round(d.ime.timing.downloadMs),
          engineFromBytesMs: Math.round(d.ime.timing.buildMs),
          sectionsMs: Math.round(d.ime.timing.sectionsMs),
        };
      }, /** @type {any} */ (first));
      await page.evaluate(() => {
        /** @type {any} */ (window).henkanDemo.keys.length = 0;
        /** @type {any} */ (window).henkanDemo.catchUpMs.length = 0;
      });
      /** @type {{reading: string, preedit: string}[]} */
      const mismatches = [];
      let typed = 0;
      /** @type {{sentences: number, liveBytes: number}[]} heap in use along the way (a leak grows, scratch levels off) */
      const heapAlong = [];
      const t0 = Date.now();
      for (const [index, reading] of (paced ? readings.slice(0, paced) : readings).entries()) {
        const romaji = toRomaji(reading);
        if (paced) {
          for (const c of romaji) {
            await page.keyboard.type(c);
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
          }
        } else await page.keyboard.type(romaji);
        typed += romaji.length;
        const pre = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.last?.preedit.text ?? '');
        if (pre !== reading) mismatches.push({ reading, preedit: pre });
        await page.keyboard.press('Space');
        if (resize) {
          const before = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.catchUpMs.length);
          await page.keyboard.press('Shift+ArrowLeft');
          // The key shows the rest as the dictionary converts it; the LM's conversion of it is the
          // catch-up after the paint: let it run, and take the slowest catch-up since the key.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
          await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
          const ran = await page.evaluate((n) => /** @type {any} */ (window).henkanDemo.catchUpMs.slice(n), before);
          if (ran.length) resizeCatchUps.push(Math.max(...ran));
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
        } else await page.keyboard.press('Enter');
        await page.evaluate(() => {
          /** @type {HTMLTextAreaElement} */ (document.getElementById('editor')).value = '';
        });
        const done = index + 1;
        if ([1, 10, 25, 50, 100, 150].includes(done)) {
          const live = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.handle.heapStats().liveBytes);
          heapAlong.push({ sentences: done, liveBytes: live });
        }
      }
      const seconds = (Date.now() - t0) / 1000;
      /** @type {{key: string, wasmMs: number, totalMs: number, state: string, len: number}[]} */
      const keys = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.keys);
      /** @type {number[]} */
      const catchUps = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.catchUpMs);
      const heapAfter = await page.evaluate(() => /** @type {any} */ (window).henkanDemo.ime.handle.heapStats());
      await page.close();
      const typing = keys.filter((k) => k.key.length === 1 && k.key !== ' ');
      const space = keys.filter((k) => k.key === ' ');
      const resized = keys.filter((k) => k.key === 'ArrowLeft');
      const enter = keys.filter((k) => k.key === 'Enter');
      const slowest = [...keys].sort((a, b) => b.wasmMs - a.wasmMs).slice(0, 5);
      return {
        modelWire,
        load: { ...load, memoryBytesAfterTyping: heapAfter.memoryBytes, heapAfterTyping: heapAfter, heapAlong },
        typing: {
          live,
          engine: load.engine,
          sentences: paced ? Math.min(paced, readings.length) : readings.length,
          romajiKeys: typed,
          romajiRoundTripMismatches: mismatches.length,
          mismatchExamples: mismatches.slice(0, 3),
          seconds,
          keyWasmMs: stats(typing.map((k) => k.wasmMs)),
          keyTotalMs: stats(typing.map((k) => k.totalMs)),
          convertWasmMs: stats(space.map((k) => k.wasmMs)),
          convertTotalMs: stats(space.map((k) => k.totalMs)),
          commitTotalMs: enter.length ? stats(enter.map((k) => k.totalMs)) : null,
          resizeWasmMs: resize ? stats(resized.map((k) => k.wasmMs)) : null,
          resizeTotalMs: resize ? stats(resized.map((k) => k.totalMs)) : null,
          resizeCatchUpWasmMs: resizeCatchUps.length ? stats(resizeCatchUps) : null,
          allKeysTotalMs: stats(keys.map((k) => k.totalMs)),
          catchUpWasmMs: catchUps.length ? stats(catchUps) : null,
          slowestKeys: slowest.map((k) => ({ key: k.key, wasmMs: r3(k.wasmMs), preeditChars: k.len, state: k.state })),
        },
      };
    };
    /**
     * Navigation → classic ready → neural ready with the download throttled (Chromium's network
     * emulation), to see what progressive loading buys on a real connection.
     * @param {number} mbps
     */
    const throttled = async (mbps) => {
      const page = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: (mbps * 1e6) / 8,
        uploadThroughput: (mbps * 1e6) / 8,
      });
      await page.goto(demoUrl(server.url), { waitUntil: 'commit' });
      // Not `henkanDemo?.ime.lm !== 'pending'`: that is true before demo.js has run (undefined),
      // which read the times before the load (NaN) in the runs of 2026-11-23.
      if ((await waitForIme(page, 300000)) !== 'ready') throw new Error('throttled load: IME not ready');
      const r = await page.evaluate(() => {
        const d = /** @type {any} */ (window).henkanDemo;
        return { readyMs: Math.round(d.readyAt), neuralReadyMs: Math.round(d.neuralAt), lm: d.ime.lm };
      });
      await page.close();
      return { mbps, latencyMs: 20, ...r };
    };
    const slow = THROTTLE_MBPS > 0 ? await throttled(THROTTLE_MBPS) : null;
    const plain = await run(false, '');
    const eachKey = await run(false, '', '&lmEachKey=1');
    // At a person's pace, with and without the LM in every key, on the first sentences.
    const pacedDeferred = await run(false, '', '', PACED);
    const pacedEachKey = await run(false, '', '&lmEachKey=1', PACED);
    const classic = await run(false, 'classic');
    const neural = await run(false, 'neural');
    const live = await run(true, '');
    // Shift+← after Space: the default engine converts the rest again with the LM, the classic
    // engine as a sentence of its own.
    const resize = await run(false, '', '', 0, true);
    const resizeClassic = await run(false, 'classic', '', 0, true);
    const result = {
      date: new Date().toISOString(),
      chromium: browser.context.browser()?.version() ?? 'unknown',
      model: { path: MODEL, bytes: model.length, gzipBytes: gzipSync(model, { level: 9 }).length, overTheWireBytes: plain.modelWire },
      wasm: {
        bytes: wasm.length,
        gzipBytes: gzipSync(wasm, { level: 9 }).length,
        brotliBytes: brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
        js: statSync(path.join(ROOT, 'pkg/henkan.js')).size,
      },
      load: plain.load,
      throttled: slow,
      typing: plain.typing,
      typingEachKey: eachKey.typing,
      typingPaced: pacedDeferred.typing,
      typingPacedEachKey: pacedEachKey.typing,
      loadClassic: classic.load,
      typingClassic: classic.typing,
      typingNeural: neural.typing,
      typingLive: live.typing,
      typingResize: resize.typing,
      typingResizeClassic: resizeClassic.typing,
      machine: machine(),
    };
    writeFileSync(OUT.replace(/\.json$/, '.md'), markdown(result));
    writeMeasurement(OUT, result);
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * The figures as a Markdown section for BENCHMARKS.md.
 * @param {any} r
 */
export function markdown(r) {
  const kb = (/** @type {number} */ b) => `${(b / 1024).toFixed(1)} KiB`;
  const mb = (/** @type {number} */ b) => `${(b / 1e6).toFixed(2)} MB`;
  const row = (/** @type {string} */ name, /** @type {any} */ s) => `| ${name} | ${s.n} | ${s.p50} | ${s.p95} | ${s.p99} | ${s.max} |`;
  return `## Web (Chromium ${r.chromium}, wasm simd128) — ${r.date.slice(0, 10)}

Model \`${r.model.path}\`; ${r.typing.sentences} sentences of kwdlc.test (readings typed as romaji, then Space, Enter);
machine: ${r.machine.cpus} × ${r.machine.cpu}, load average ${r.machine.loadavg.join(' / ')} at the end (other jobs were running).

| size | bytes |
| --- | --- |
| henkan_bg.wasm after wasm-opt -O3 | ${r.wasm.bytes} (${kb(r.wasm.bytes)}) |
| … gzip -9 / brotli 11 | ${r.wasm.gzipBytes} (${kb(r.wasm.gzipBytes)}) / ${r.wasm.brotliBytes} (${kb(r.wasm.brotliBytes)}) |
| henkan.js glue | ${r.wasm.js} |
| model over the wire (body + headers, uncompressed) | ${r.model.overTheWireBytes} (${mb(r.model.overTheWireBytes)}) |
| model gzip -9 (if served compressed) | ${r.model.gzipBytes} (${mb(r.model.gzipBytes)}) |

| load | value |
| --- | --- |
| navigation → IME ready, classic engine (wasm + the dictionary part streamed and loaded) | ${r.load.readyMs} ms |
| … of which: page and modules until \`load()\` / wasm instantiation / \`Engine::from_container\` (classic) | ${r.load.loadCalledMs} / ${r.load.wasmInstantiateMs} / ${r.load.engineFromBytesMs} ms |
| checking and decoding the sections as they arrive (all \`modelWrote\` calls, during the download) | ${r.load.sectionsMs} ms |
| navigation → first conversion on screen (\`kyou\` + Space typed the moment it is ready: ${r.load.firstConversion}, classic) | ${r.load.firstConversionMs} ms |
| navigation → neural ready (whole model in, LM sections checked and attached: ${r.load.lm}) | ${r.load.neuralReadyMs} ms |
| … of which: model download after instantiation / \`Engine::attach_lm_container\` | ${r.load.modelDownloadMs} / ${r.load.lmBuildMs} ms |
${
  r.throttled
    ? `| the same over a throttled connection (${r.throttled.mbps} Mbit/s, ${r.throttled.latencyMs} ms latency): navigation → classic ready / → neural ready | ${r.throttled.readyMs} / ${r.throttled.neuralReadyMs} ms |\n`
    : ''
}| wasm memory after loading: linear memory / heap in use / heap peak during the load | ${mb(r.load.memoryBytes)} / ${mb(r.load.heap.liveBytes)} / ${mb(r.load.heap.peakBytes)} |
| … after typing all sentences, ${r.typing.engine}: linear memory / heap in use / heap peak | ${mb(r.load.heapAfterTyping.memoryBytes)} / ${mb(r.load.heapAfterTyping.liveBytes)} / ${mb(r.load.heapAfterTyping.peakBytes)} |
| … after typing all sentences, ${r.typingClassic.engine} | ${mb(r.loadClassic.heapAfterTyping.memoryBytes)} / ${mb(r.loadClassic.heapAfterTyping.liveBytes)} / ${mb(r.loadClassic.heapAfterTyping.peakBytes)} |
| heap in use while typing, ${r.typing.engine}: after ${r.load.heapAlong.map((/** @type {any} */ h) => h.sentences).join(' / ')} sentences | ${r.load.heapAlong.map((/** @type {any} */ h) => (h.liveBytes / 1e6).toFixed(2)).join(' / ')} MB |
| cross-origin isolated (µs timer) | ${r.load.crossOriginIsolated} |

Per-key latency in ms (wasm = the one call into wasm; total = the whole keydown handler, with the
commit and the overlay/candidate drawing):

| keys | n | p50 | p95 | p99 | max |
| --- | --- | --- | --- | --- | --- |
${row(`typing, ${r.typing.engine} (default), wasm`, r.typing.keyWasmMs)}
${row(`typing, ${r.typing.engine} (default), total`, r.typing.keyTotalMs)}
${row(`Space (convert), ${r.typing.engine} (default), wasm`, r.typing.convertWasmMs)}
${row(`Space (convert), ${r.typing.engine} (default), total`, r.typing.convertTotalMs)}
${r.typing.commitTotalMs ? row(`Enter (commit), ${r.typing.engine} (default), total`, r.typing.commitTotalMs) + '\n' : ''}${r.typing.catchUpWasmMs ? row(`catch-up after keys (the LM work they left, after the paint), ${r.typing.engine}, wasm`, r.typing.catchUpWasmMs) + '\n' : ''}${row(`typing, ${r.typingEachKey.engine}, the LM in every key (\`lmEachKey\`), wasm`, r.typingEachKey.keyWasmMs)}
${row(`typing, ${r.typingEachKey.engine}, the LM in every key, total`, r.typingEachKey.keyTotalMs)}
${row(`Space (convert), ${r.typingEachKey.engine}, the LM in every key, total`, r.typingEachKey.convertTotalMs)}
${row(`one key per frame (${r.typingPaced.sentences} sentences), ${r.typingPaced.engine}: typing, total`, r.typingPaced.keyTotalMs)}
${row(`one key per frame, ${r.typingPaced.engine}: Space, total`, r.typingPaced.convertTotalMs)}
${row(`one key per frame, ${r.typingPacedEachKey.engine}, the LM in every key: typing, total`, r.typingPacedEachKey.keyTotalMs)}
${row(`one key per frame, ${r.typingPacedEachKey.engine}, the LM in every key: Space, total`, r.typingPacedEachKey.convertTotalMs)}
${row(`typing, ${r.typingClassic.engine}, wasm`, r.typingClassic.keyWasmMs)}
${row(`typing, ${r.typingClassic.engine}, total`, r.typingClassic.keyTotalMs)}
${row(`Space (convert), ${r.typingClassic.engine}, wasm`, r.typingClassic.convertWasmMs)}
${row(`Space (convert), ${r.typingClassic.engine}, total`, r.typingClassic.convertTotalMs)}
${row(`typing, ${r.typingNeural.engine}, wasm`, r.typingNeural.keyWasmMs)}
${row(`Space (convert, with the backward LM), ${r.typingNeural.engine}, wasm`, r.typingNeural.convertWasmMs)}
${row(`Space (convert, with the backward LM), ${r.typingNeural.engine}, total`, r.typingNeural.convertTotalMs)}
${row(`typing with live conversion, ${r.typingLive.engine}, wasm`, r.typingLive.keyWasmMs)}
${row(`typing with live conversion, ${r.typingLive.engine}, total`, r.typingLive.keyTotalMs)}
${row(`Shift+← after Space (the rest converted again by the dictionary), ${r.typingResize.engine}, wasm`, r.typingResize.resizeWasmMs)}
${row(`Shift+← after Space, ${r.typingResize.engine}, total`, r.typingResize.resizeTotalMs)}
${r.typingResize.resizeCatchUpWasmMs ? row(`… the catch-up after it (the LM's conversion of the rest, after the paint), wasm`, r.typingResize.resizeCatchUpWasmMs) : ''}
${row(`Shift+← after Space, ${r.typingResizeClassic.engine}, wasm`, r.typingResizeClassic.resizeWasmMs)}
${row(`Shift+← after Space, ${r.typingResizeClassic.engine}, total`, r.typingResizeClassic.resizeTotalMs)}

"Live conversion" (\`attach(el, {liveConversion: true})\`, the demo with \`?live=1\`) shows the best
conversion in the preedit on every key (the forward pass each key runs anyway, then the best path's
surface). The default is off. The demo's n-best/segment views are filled by \`preview()\` when typing
pauses (40 ms), with or without it.
Romaji round-trip mismatches: ${r.typing.romajiRoundTripMismatches} of ${r.typing.sentences} (characters with no key, e.g. “, go in
through \`insertText\`, which commits the composition, as a virtual keyboard would).
Slowest keys (${r.typing.engine}): ${r.typing.slowestKeys.map((/** @type {any} */ k) => `${JSON.stringify(k.key)} ${k.wasmMs} ms at ${k.preeditChars} chars`).join('; ')}.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

// The npm package's load figures in Chromium (`make measure-package`): the consumer's bundled page
// (consumer.mjs) on a plain static server, the field focused (which starts the load) and then
// "henkan" typed and converted as soon as the classic engine is ready.
//
//   cold       a fresh browser profile: the model is downloaded, checked and stored (and, where
//              the package has it, its decoded copy once the page is idle: the visit waits for it)
//   warm       the same profile again: the model comes from the Cache API
//   warm 2     the same profile a third time (the wasm module's code cache is written after a
//              visit compiled it)
//   8 Mbit/s   a fresh profile over Network.emulateNetworkConditions (8 Mbit/s down, 20 ms)
//
// For each: focus → classic ready (the first conversion can run), focus → hybrid ready, the first
// Space (keydown → the converted preedit, the widget's compositionupdate), and where the time went
// (wasm instantiation, the SHA-256 checks, decoding the sections, building the engine). Medians of
// --runs (5; 3 for the throttled one). Also the sizes of the package, the wasm module and the
// bundle. Output: tests/package/output/measurements.{json,md}.
//
//   node tests/package/measure.mjs [--runs 5] [--throttled 3] [--baseline OTHER.tgz]
//
// --baseline measures another packed package (e.g. one built from an older commit) in the same
// run, its visits interleaved with this one's (browser by browser), so both see the same load of
// a shared machine; the table then has a row per package and visit, with the spread (min–max).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launch, opt, ROOT } from '../e2e/harness.mjs';
import { makeConsumer, TARBALL } from './consumer.mjs';
import { serveStatic } from './static-server.mjs';

const RUNS = Number(opt('runs', '5'));
const THROTTLED = Number(opt('throttled', String(Math.min(RUNS, 3))));
const BASELINE = opt('baseline', '');
const OUT = path.join(ROOT, 'tests/package/output');

/** The packages measured, each installed and served on its own. */
const variants = [];
if (BASELINE) variants.push({ name: 'baseline', consumer: await makeConsumer(path.resolve(BASELINE)) });
variants.push({ name: 'this', consumer: await makeConsumer() });
for (const v of variants) Object.assign(v, { server: await serveStatic(v.consumer.dir) });
const consumer = variants[variants.length - 1].consumer;

/**
 * One visit: focus, wait for the classic engine, convert "henkan", wait for the hybrid.
 * @param {import('playwright-core').BrowserContext} context
 * @param {{throttle?: boolean}} [opts]
 */
async function visit(server, context, opts = {}) {
  const page = await context.newPage();
  if (opts.throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 1e6, uploadThroughput: 1e6 });
  }
  await page.goto(`${server.url}site/index.html`);
  await page.waitForFunction(() => /** @type {any} */ (window).consumer);
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const ime = w.consumer.ime;
    const field = /** @type {HTMLElement} */ (document.getElementById('a'));
    w.m = { focusAt: NaN, spaceDown: NaN, spaceShown: NaN, model: null, stored: [] };
    ime.addEventListener('modelstored', (/** @type {CustomEvent} */ e) => w.m.stored.push(e.detail));
    field.addEventListener('focus', () => (w.m.focusAt = performance.now()), { once: true });
    document.addEventListener('keydown', (e) => e.key === ' ' && (w.m.spaceDown = performance.now()), true);
    field.addEventListener('compositionupdate', (e) => {
      if (!Number.isNaN(w.m.spaceDown) && Number.isNaN(w.m.spaceShown) && /変換/.test(/** @type {CompositionEvent} */ (e).data)) w.m.spaceShown = performance.now();
    });
    ime.addEventListener('model', (/** @type {CustomEvent} */ e) => (w.m.model = e.detail));
  });
  await page.click('#a');
  await page.waitForFunction(() => /** @type {any} */ (window).consumer.ime.status === 'ready', null, { timeout: 120000, polling: 'raf' });
  await page.keyboard.type('henkan');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !Number.isNaN(/** @type {any} */ (window).m.spaceShown));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {any} */ (window).consumer.ime.lm !== 'pending', null, { timeout: 120000 });
  // A first visit stays until what it stores is in the cache: the compressed model, and the
  // decoded copy where the package makes one (not after a visit that loaded the decoded copy).
  await page.waitForFunction(
    () => {
      const w = /** @type {any} */ (window);
      const makesCopy = typeof w.consumer.ime.handle?.storedCopyParts === 'function' && !w.m.model?.decoded;
      return w.m.model?.source !== 'network' ? !makesCopy || w.m.stored.some((/** @type {any} */ d) => d.decoded) : w.m.stored.length >= (makesCopy ? 2 : 1);
    },
    null,
    { timeout: 60000 },
  );
  const r = await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const { timing } = w.consumer.ime;
    return {
      value: /** @type {HTMLTextAreaElement} */ (document.getElementById('a')).value,
      source: w.m.model?.source,
      decoded: Boolean(w.m.model?.decoded),
      readyMs: timing.coreAt - w.m.focusAt,
      hybridMs: timing.lmAt - w.m.focusAt,
      spaceMs: w.m.spaceShown - w.m.spaceDown,
      wasmMs: timing.wasmMs,
      checkMs: w.m.model?.checkMs ?? 0,
      sectionsMs: timing.sectionsMs,
      buildMs: timing.buildMs,
    };
  });
  if (r.value !== '変換') throw new Error(`converted to ${r.value}`);
  await page.close();
  return r;
}

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** @type {Record<string, Record<string, Awaited<ReturnType<typeof visit>>[]>>} */
const all = Object.fromEntries(variants.map((v) => [v.name, { cold: [], warm: [], warm2: [], throttled: [] }]));
for (let i = 0; i < RUNS; i++) {
  for (const v of i % 2 ? [...variants].reverse() : variants) {
    const browser = await launch();
    const runs = all[v.name];
    runs.cold.push(await visit(v.server, browser.context));
    runs.warm.push(await visit(v.server, browser.context));
    runs.warm2.push(await visit(v.server, browser.context));
    await browser.close();
  }
}
for (let i = 0; i < THROTTLED; i++) {
  for (const v of variants) {
    const browser = await launch();
    all[v.name].throttled.push(await visit(v.server, browser.context, { throttle: true }));
    await browser.close();
  }
}
for (const [variant, runs] of Object.entries(all)) {
  for (const [name, rs] of Object.entries(runs)) {
    const sources = new Set(rs.map((r) => r.source));
    const want = name.startsWith('warm') ? 'cache' : 'network';
    if (rs.length && (sources.size !== 1 || !sources.has(want))) throw new Error(`${variant} ${name}: the model came from ${[...sources]}`);
  }
}
const runs = all[variants[variants.length - 1].name];

/** @param {Buffer} b */
const sizes = (b) => ({
  raw: b.length,
  gzip: zlib.gzipSync(b, { level: 9 }).length,
  brotli: zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const pkg = path.join(consumer.dir, 'node_modules/henkan-ime');
const js = Buffer.concat(
  [...fs.readdirSync(path.join(pkg, 'www')).filter((f) => f.endsWith('.js')).map((f) => `www/${f}`), ...fs.readdirSync(path.join(pkg, 'www/widget')).filter((f) => f.endsWith('.js')).map((f) => `www/widget/${f}`), 'pkg/henkan.js'].map((f) =>
    fs.readFileSync(path.join(pkg, f)),
  ),
);
const KEYS = ['readyMs', 'hybridMs', 'spaceMs', 'wasmMs', 'checkMs', 'sectionsMs', 'buildMs'];
/** @param {Record<string, Awaited<ReturnType<typeof visit>>[]>} byVisit */
const stats = (byVisit, /** @type {(xs: number[]) => number} */ f) =>
  Object.fromEntries(
    Object.entries(byVisit)
      .filter(([, rs]) => rs.length)
      .map(([name, rs]) => [name, Object.fromEntries(KEYS.map((k) => [k, f(rs.map((r) => /** @type {any} */ (r)[k]))]))]),
  );
const result = {
  date: new Date().toISOString().slice(0, 10),
  runs: RUNS,
  medians: stats(runs, median),
  variants: Object.fromEntries(
    Object.entries(all).map(([name, byVisit]) => [
      name,
      { medians: stats(byVisit, median), min: stats(byVisit, (xs) => Math.min(...xs)), max: stats(byVisit, (xs) => Math.max(...xs)), decoded: Object.fromEntries(Object.entries(byVisit).map(([k, rs]) => [k, rs.filter((r) => r.decoded).length])) },
    ]),
  ),
  all,
  sizes: {
    tarball: fs.statSync(TARBALL).size,
    wasm: sizes(fs.readFileSync(path.join(pkg, 'pkg/henkan_bg.wasm'))),
    js: sizes(js),
    bundle: sizes(fs.readFileSync(path.join(consumer.dir, 'site/app/main.js'))),
    model: fs.statSync(path.join(pkg, 'models/henkan.henkan')).size,
  },
};

const ms = (/** @type {number} */ x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(0)} KiB`;
const VISITS = /** @type {Record<string, string>} */ ({ cold: 'cold (download)', warm: 'warm (Cache API)', warm2: 'warm, 2nd', throttled: 'cold, 8 Mbit/s, 20 ms' });
const md = [
  `| package | visit | focus → classic ready (min–max) | first Space (keydown → 変換) | focus → hybrid ready | wasm instantiation | SHA-256 | sections | classic build |`,
  `| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  ...Object.entries(result.variants).flatMap(([variant, { medians, min, max }]) =>
    Object.entries(medians).map(
      ([name, m]) =>
        `| ${variant} | ${VISITS[name]} | ${ms(m.readyMs)} (${ms(min[name].readyMs)}–${ms(max[name].readyMs)}) | ${ms(m.spaceMs)} | ${ms(m.hybridMs)} | ${ms(m.wasmMs)} | ${ms(m.checkMs)} | ${ms(m.sectionsMs)} | ${ms(m.buildMs)} |`,
    ),
  ),
  '',
  `| file | raw | gzip -9 | brotli 11 |`,
  `| --- | ---: | ---: | ---: |`,
  `| \`henkan_bg.wasm\` | ${kib(result.sizes.wasm.raw)} | ${kib(result.sizes.wasm.gzip)} | ${kib(result.sizes.wasm.brotli)} |`,
  `| the package's JS (www/ + glue) | ${kib(result.sizes.js.raw)} | ${kib(result.sizes.js.gzip)} | ${kib(result.sizes.js.brotli)} |`,
  `| the consumer's esbuild bundle | ${kib(result.sizes.bundle.raw)} | ${kib(result.sizes.bundle.gzip)} | ${kib(result.sizes.bundle.brotli)} |`,
  `| the model | ${kib(result.sizes.model)} | | |`,
  `| \`${path.basename(TARBALL)}\` (npm pack) | | ${kib(result.sizes.tarball)} | |`,
].join('\n');
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'measurements.json'), `${JSON.stringify(result, null, 2)}\n`);
fs.writeFileSync(path.join(OUT, 'measurements.md'), `${md}\n`);
console.log(md);
for (const v of variants) {
  await /** @type {any} */ (v).server.stop();
  v.consumer.remove();
}

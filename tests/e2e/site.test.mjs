// The playground as a static site (`make site` → dist/site/) in Debian's Chromium: built by
// scripts/build-site.mjs, served by a plain static server (python3 -m http.server: no COOP/COEP,
// no cache headers) under a sub-path (/site/), as a static host serves it. Types into the
// playground, converts, reads the lattice view, copies the link and opens it in a new page, which
// must come back in the same state.
//
//   node --test tests/e2e/site.test.mjs        (after `make wasm` and the model; or `make test-site`)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, MODEL, launch, waitForIme, ensureOutput } from './harness.mjs';

/** @type {{url: string, stop: () => Promise<void>}} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let browser;

/**
 * `python3 -m http.server` over dist/ on a free port.
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
function plainServer() {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', path.join(ROOT, 'dist')], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let buf = '';
    const timer = setTimeout(() => reject(new Error('python3 -m http.server did not start')), 10000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /port (\d+)/.exec(buf);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${m[1]}/`,
        stop: () =>
          new Promise((r) => {
            child.once('exit', () => r(undefined));
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`python3 -m http.server exited with ${code}`));
    });
  });
}

before(async () => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-site.mjs'), '--out', 'dist/site', '--model', MODEL], { cwd: ROOT, stdio: 'inherit' });
  server = await plainServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A page of the site with its errors and failed requests collected.
 * @param {string} url
 */
async function openSite(url) {
  const page = await browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  // The loader cancels the model's response once every section is in (net::ERR_ABORTED).
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`failed ${r.url()}: ${r.failure()?.errorText}`);
  });
  await page.goto(url);
  assert.equal(await waitForIme(page), 'ready');
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
const demo = (page) => page.evaluate(() => {
  const d = /** @type {any} */ (window).henkanDemo;
  return { last: d.last, bestPath: d.bestPath, isolated: d.isolated, engine: d.ime.engine };
});
/** @param {import('playwright-core').Page} page */
const preeditText = (page) =>
  page.evaluate(() => [...document.querySelectorAll('.henkan-preedit-runs')].map((e) => e.textContent).join(''));

test('the static site: convert, the lattice view, a shared link restores the state', async () => {
  const base = `${server.url}site/`;
  // A plain server: none of the demo server's headers.
  const res = await fetch(base);
  assert.equal(res.status, 200);
  for (const h of ['cross-origin-opener-policy', 'cross-origin-embedder-policy', 'cache-control']) assert.equal(res.headers.get(h), null, h);
  const wasm = await fetch(`${base}pkg/henkan_bg.wasm`, { method: 'HEAD' });
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');

  const { page, errors } = await openSite(base);
  assert.equal((await demo(page)).isolated, false, 'no isolation without COOP/COEP, and the page works all the same');
  await page.click('#lattice-view > summary');

  await page.click('#editor');
  await page.keyboard.type('kyouhaiitenkidesune');
  await page.keyboard.press('Space');
  let d = await demo(page);
  assert.equal(d.last.state, 'converting');
  assert.equal(d.last.nbest[0], '今日はいい天気ですね');
  // The lattice view: the words of the best path with their costs and LM scores.
  assert.equal(d.bestPath.reading, 'きょうはいいてんきですね');
  assert.equal(d.bestPath.engine, 'hybrid');
  assert.equal(d.bestPath.words.map((/** @type {any} */ w) => w.surface).join(''), '今日はいい天気ですね');
  assert.ok(d.bestPath.words.every((/** @type {any} */ w) => Number.isInteger(w.wordCost) && Number.isInteger(w.connectionCost)));
  assert.equal(typeof d.bestPath.lmScore, 'number');
  const rows = await page.locator('#lattice-words tr').allTextContents();
  assert.equal(rows.length, d.bestPath.words.length);
  assert.ok(rows.some((r) => r.startsWith('きょう今日')), rows.join(' | '));
  assert.ok(rows.some((r) => /^(いい)?てんき(いい)?天気/.test(r)), rows.join(' | '));
  assert.match(await page.textContent('#nbest'), /今日はいい天気ですね/);
  await page.keyboard.press('Enter');

  // Options: the classic engine, full-width digits, ，． for , and .; then a composition left open.
  await page.selectOption('#engine', 'classic');
  await page.check('#digits');
  await page.selectOption('#punctuation', '，．');
  await page.click('#editor');
  await page.keyboard.type('ashitaha');
  await page.waitForFunction(() => /** @type {any} */ (window).henkanDemo.bestPath?.reading === 'あしたは');
  d = await demo(page);
  assert.equal(d.bestPath.engine, 'classic');
  assert.equal(d.bestPath.lmScore, null);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('input') === 'あしたは');
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get('text'), '今日はいい天気ですね');
  assert.equal(params.get('engine'), 'classic');
  assert.equal(params.get('digits'), 'full');
  assert.equal(params.get('punctuation'), '，．');
  assert.equal(params.get('lattice'), '1');

  // Copy link: the clipboard holds the page's URL.
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
  await page.click('#share');
  await page.waitForFunction(() => /** @type {any} */ (window).henkanDemo.shared !== '');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).henkanDemo.shared), link);
  assert.equal(await page.textContent('#share-status'), 'コピーしました');
  assert.ok(link.startsWith(base), link);
  const dir = ensureOutput();
  await page.screenshot({ path: path.join(dir, 'site.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();

  // The link in a new page: the same text, options, engine, open view and composition.
  const { page: again, errors: againErrors } = await openSite(link);
  assert.equal(await again.evaluate(() => /** @type {any} */ (window).henkanDemo.restored), true, link);
  await again.waitForFunction(() => /** @type {any} */ (window).henkanDemo.bestPath?.reading === 'あしたは');
  assert.equal(await again.inputValue('#editor'), '今日はいい天気ですね');
  assert.equal(await preeditText(again), 'あしたは');
  assert.equal(await again.inputValue('#engine'), 'classic');
  assert.equal((await demo(again)).engine, 'classic');
  assert.equal(await again.isChecked('#digits'), true);
  assert.equal(await again.inputValue('#punctuation'), '，．');
  assert.equal(await again.evaluate(() => /** @type {HTMLDetailsElement} */ (document.getElementById('lattice-view')).open), true);
  assert.ok((await again.locator('#lattice-words tr').count()) > 0);
  // The page's own URL is the link again (its reading was kept while the model loaded).
  await again.waitForFunction((l) => location.href === l, link);
  // Converting it goes on as in the first page, with the link's options.
  await again.keyboard.type('2kai');
  await again.keyboard.press('Space');
  assert.match((await demo(again)).last.preedit.text, /２/, 'full-width digits');
  await again.keyboard.press('Enter');
  await again.keyboard.type('desu.');
  assert.equal(await preeditText(again), 'です．');
  await again.screenshot({ path: path.join(dir, 'site-restored.png'), fullPage: true });
  assert.deepEqual(againErrors, []);
  await again.close();
});

// The npm package as a consumer sees it (consumer.mjs): installed from the packed tarball, bundled
// by esbuild, served by a plain static server, typed into in Chromium; the no-build page that loads
// the package's module as it is; and a TypeScript file checked against its declarations.
//
//   make test-package        (packs the package first; the tarball must be there)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, ROOT } from '../e2e/harness.mjs';
import { makeConsumer } from './consumer.mjs';
import { serveStatic } from './static-server.mjs';

const env = /** @type {{consumer: Awaited<ReturnType<typeof makeConsumer>>, server: Awaited<ReturnType<typeof serveStatic>>, browser: Awaited<ReturnType<typeof launch>>}} */ ({});
before(async () => {
  env.consumer = await makeConsumer();
  env.server = await serveStatic(env.consumer.dir);
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
  env.consumer?.remove();
});

/**
 * Types romaji into the focused field, converts and commits.
 * @param {import('playwright-core').Page} page
 * @param {string} romaji
 */
async function convert(page, romaji) {
  await page.keyboard.type(romaji);
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
}

test('the bundled page converts: romaji typed into the textarea commit as kanji', async () => {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.server.url}site/index.html`);
  await page.click('#a');
  await page.waitForFunction(() => /** @type {any} */ (window).consumer?.ime.status === 'ready', null, { timeout: 60000 });
  await convert(page, 'kyouhaiitenki');
  assert.equal(await page.inputValue('#a'), '今日はいい天気');
  assert.ok(env.server.requests.includes('/site/assets/henkan.henkan'));
  assert.ok(env.server.requests.includes('/site/assets/henkan_bg.wasm'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the no-build page: data-henkan and <henkan-ime> from the package folder as it is', async () => {
  const page = await env.browser.context.newPage();
  await page.goto(`${env.server.url}site/static.html`);
  await page.click('#a');
  // The page's one IME, from the module the page loaded.
  const status = await page.evaluate(async () => {
    const ime = (await import('/node_modules/henkan-ime/www/henkan-ime.js')).getIme();
    while (ime.status === 'idle' || ime.status === 'loading') await new Promise((r) => ime.addEventListener('status', r, { once: true }));
    return ime.status;
  });
  assert.equal(status, 'ready');
  await convert(page, 'nihongo');
  assert.equal(await page.inputValue('#a'), '日本語');
  assert.ok(env.server.requests.includes('/node_modules/henkan-ime/models/henkan.henkan'));
  // <henkan-ime digits="full" punctuation="，．">
  await page.click('#b');
  await convert(page, '2025nen');
  assert.equal(await page.inputValue('#b'), '２０２５年');
  await page.keyboard.type('hai.');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#b'), '２０２５年はい．');
  await page.close();
});

test('the declarations type-check a TypeScript consumer', () => {
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  const run = () => execFileSync(
    tsc,
    ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'ES2022', '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM', '--skipLibCheck', 'src/check.ts'],
    { cwd: env.consumer.dir, encoding: 'utf8' },
  );
  try {
    run();
  } catch (e) {
    assert.fail(String(/** @type {{stdout?: string}} */ (e).stdout || e));
  }
});

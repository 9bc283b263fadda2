#!/usr/bin/env node
// Builds the browser extension (`make extension`) from extension/, the widget (www/), the wasm
// package (pkg/, `make wasm`) and the model:
//
//   dist/extension/            unpacked, for Chromium (chrome://extensions → Load unpacked)
//   dist/henkan-extension.zip  the same, for the stores
//   dist/extension-firefox/    the Firefox variant (about:debugging → Load Temporary Add-on):
//                              the engine in the background page instead of an offscreen
//                              document, `browser_specific_settings`; checked by `web-ext lint`
//   dist/henkan-extension-firefox.zip
//
// Each script is one esbuild bundle: the content script an IIFE (content scripts are not modules),
// the rest ES modules. The wasm module and the model are copied as they are; the icons are drawn
// by scripts/extension-icons.mjs.
//
//   node scripts/extension.mjs [--model models/henkan.henkan]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { iconPng, ICON_SIZES } from './extension-icons.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--model');
const model = path.resolve(ROOT, at >= 0 ? args[at + 1] : 'models/henkan.henkan');
const DIST = path.join(ROOT, 'dist');
const SRC = path.join(ROOT, 'extension');
const manifest = JSON.parse(fs.readFileSync(path.join(SRC, 'manifest.json'), 'utf8'));
manifest.version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/**
 * The Firefox manifest: the background page hosts the engine; no offscreen permission.
 * @param {any} m
 */
function firefoxManifest(m) {
  const f = structuredClone(m);
  f.background = { scripts: ['background.js'], type: 'module' };
  f.permissions = f.permissions.filter((/** @type {string} */ p) => p !== 'offscreen');
  delete f.minimum_chrome_version;
  for (const cs of f.content_scripts) delete cs.match_origin_as_fallback;
  // The key channel's frame passes its port through the service worker to the offscreen
  // document; Firefox has neither, its pages use the runtime port. The lists' frame stays.
  f.web_accessible_resources = [{ resources: ['windows.html'], matches: m.content_scripts[0].matches }];
  f.browser_specific_settings = {
    gecko: { id: 'henkan@henkan-ime', strict_min_version: '142.0', data_collection_permissions: { required: ['none'] } },
  };
  return f;
}

/**
 * Builds one variant into `out`.
 * @param {string} out
 * @param {any} m the manifest
 * @param {string} background the background entry (relative to extension/)
 */
async function build(out, m, background) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const common = { bundle: true, minify: true, target: 'es2022', legalComments: /** @type {const} */ ('none'), logLevel: /** @type {const} */ ('warning') };
  await esbuild.build({ ...common, entryPoints: [path.join(SRC, 'content/main.js')], format: 'iife', outfile: path.join(out, 'content.js') });
  await esbuild.build({
    ...common,
    entryPoints: {
      background: path.join(SRC, background),
      options: path.join(SRC, 'options.js'),
      windows: path.join(SRC, 'windows.js'),
      ...(m.permissions.includes('offscreen')
        ? { offscreen: path.join(SRC, 'offscreen.js'), channel: path.join(SRC, 'channel.js'), 'page-engine': path.join(SRC, 'page-engine.js') }
        : {}),
    },
    format: 'esm',
    outdir: out,
  });
  for (const f of ['options.html', 'options.css', 'windows.html', ...(m.permissions.includes('offscreen') ? ['offscreen.html', 'channel.html'] : [])]) fs.copyFileSync(path.join(SRC, f), path.join(out, f));
  fs.mkdirSync(path.join(out, 'icons'));
  for (const size of ICON_SIZES) fs.writeFileSync(path.join(out, `icons/${size}.png`), iconPng(size));
  fs.mkdirSync(path.join(out, 'pkg'));
  fs.copyFileSync(path.join(ROOT, 'pkg/henkan_bg.wasm'), path.join(out, 'pkg/henkan_bg.wasm'));
  fs.mkdirSync(path.join(out, 'models'));
  fs.copyFileSync(model, path.join(out, 'models/henkan.henkan'));
  for (const f of fs.readdirSync(path.join(ROOT, 'models'))) {
    if (f === 'README.md' || f.startsWith('NOTICE-')) fs.copyFileSync(path.join(ROOT, 'models', f), path.join(out, 'models', f));
  }
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) fs.copyFileSync(path.join(ROOT, f), path.join(out, f));
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(m, null, 2)}\n`);
}

/**
 * Zips a folder (its contents at the archive's root, no timestamps of the build machine's
 * extra fields).
 * @param {string} dir
 * @param {string} zip
 */
function zip(dir, zip) {
  fs.rmSync(zip, { force: true });
  execFileSync('zip', ['-qrX', zip, '.'], { cwd: dir });
}

await build(path.join(DIST, 'extension'), manifest, 'background.js');
zip(path.join(DIST, 'extension'), path.join(DIST, 'henkan-extension.zip'));
await build(path.join(DIST, 'extension-firefox'), firefoxManifest(manifest), 'background-firefox.js');
zip(path.join(DIST, 'extension-firefox'), path.join(DIST, 'henkan-extension-firefox.zip'));
for (const f of ['extension/content.js', 'henkan-extension.zip']) {
  console.log(`dist/${f}: ${fs.statSync(path.join(DIST, f)).size} bytes`);
}

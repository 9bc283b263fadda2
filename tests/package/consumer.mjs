// A project that uses the packed npm package as a consumer would: it installs the tarball
// (dist/henkan-ime-VERSION.tgz, `make package`) with npm, bundles a page with esbuild and copies
// the wasm module and the model next to it. Shared by consumer.test.mjs and measure.mjs.
//
//   DIR/site/index.html       the bundled page: site/app/main.js, the assets in site/assets/
//   DIR/site/static.html      no build: <script type="module"> from node_modules/henkan-ime/www/
//   DIR/src/check.ts          a TypeScript file type-checked against the package's declarations
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import { ROOT } from '../e2e/harness.mjs';

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
export const TARBALL = path.join(ROOT, 'dist', `henkan-ime-${VERSION}.tgz`);

/** The page's script: the embedding of the package's README. */
const MAIN = `import { attach, configure, getIme } from 'henkan-ime';

configure({ wasmUrl: '/site/assets/henkan_bg.wasm', modelUrl: '/site/assets/henkan.henkan' });
const detach = attach(document.querySelector('textarea'));
Object.assign(window, { consumer: { ime: getIme(), detach } });
`;

/** Uses the declarations: a wrong option or a wrong engine name would not compile. */
const CHECK = `import { attach, configure, getIme, type FieldOptions, type PageOptions } from 'henkan-ime';
import { HenkanIme } from 'henkan-ime/ime';
import { cachedModelFetch } from 'henkan-ime/model-cache';

const field: FieldOptions = { liveConversion: true, digits: 'full', predictions: false };
const page: PageOptions = { engine: 'hybrid', cache: true, modelInfo: null };
configure(page);
const detach: () => void = attach(document.createElement('textarea'), field);
const ime: HenkanIme = getIme();
ime.addEventListener('status', () => console.log(ime.status, ime.engines));
const fetchModel: typeof fetch = cachedModelFetch({ info: null });
detach();
void fetchModel;
`;

const PAGE = (/** @type {string} */ body) => `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>henkan-ime consumer</title></head>
<body style="font: 20px sans-serif">${body}</body></html>
`;

/**
 * Installs the tarball into a new project and builds its pages.
 * @param {string} [tarball] default: the one `make package` writes ({@link TARBALL})
 * @returns {Promise<{dir: string, remove: () => void}>}
 */
export async function makeConsumer(tarball = TARBALL) {
  if (!fs.existsSync(tarball)) throw new Error(`${tarball} is missing: run \`make package\``);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'henkan-consumer-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: dir, stdio: 'pipe' });
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/main.js'), MAIN);
  fs.writeFileSync(path.join(dir, 'src/check.ts'), CHECK);
  await esbuild.build({
    entryPoints: [path.join(dir, 'src/main.js')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: path.join(dir, 'site/app'),
    absWorkingDir: dir,
    logLevel: 'error',
  });
  const pkg = path.join(dir, 'node_modules/henkan-ime');
  fs.mkdirSync(path.join(dir, 'site/assets'));
  fs.copyFileSync(path.join(pkg, 'pkg/henkan_bg.wasm'), path.join(dir, 'site/assets/henkan_bg.wasm'));
  fs.copyFileSync(path.join(pkg, 'models/henkan.henkan'), path.join(dir, 'site/assets/henkan.henkan'));
  fs.writeFileSync(path.join(dir, 'site/index.html'), PAGE('<textarea id="a" rows="3" cols="40"></textarea>\n<script type="module" src="/site/app/main.js"></script>'));
  fs.writeFileSync(
    path.join(dir, 'site/static.html'),
    PAGE('<textarea id="a" data-henkan></textarea>\n<henkan-ime digits="full" punctuation="，．"><input id="b"></henkan-ime>\n<script type="module" src="/node_modules/henkan-ime/www/henkan-ime.js"></script>'),
  );
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

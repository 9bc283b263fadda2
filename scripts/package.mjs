#!/usr/bin/env node
// Builds the npm package `henkan-ime` into dist/npm/ and packs it into dist/henkan-ime-VERSION.tgz
// (`make package`). The package keeps the repository's layout, so that the modules' relative URLs
// (`../pkg/henkan.js`, `../models/henkan.henkan`) hold in both:
//
//   www/       the runtime modules (not the demo), with .d.ts files that tsc writes from their JSDoc,
//              and model-info.js written for the packed model (its lengths and SHA-256)
//   pkg/       wasm-bindgen's glue and the wasm module (`make wasm`)
//   models/    the model, its SHA-256, its README (sources and licence) and the notices of its sources
//   README.md  scripts/package/README.md; LICENSE-MIT, LICENSE-APACHE
//
//   node scripts/package.mjs [--model models/henkan.henkan]
//
// `npm pack` then checks what would be published: the run fails when a file the package needs is
// not in its list.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--model');
const model = path.resolve(ROOT, at >= 0 ? args[at + 1] : 'models/henkan.henkan');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'npm');
const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const NAME = 'henkan-ime';

/** @param {string} from relative to the repository @param {string} [to] relative to dist/npm */
const copy = (from, to = from) => {
  fs.mkdirSync(path.dirname(path.join(OUT, to)), { recursive: true });
  fs.copyFileSync(path.join(ROOT, from), path.join(OUT, to));
};

fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });

// The runtime modules: everything in www/ and www/widget/ but the demo and what the build writes.
const modules = [
  ...fs.readdirSync(path.join(ROOT, 'www')).filter((f) => f.endsWith('.js') && f !== 'demo.js' && f !== 'model-info.js'),
  ...fs.readdirSync(path.join(ROOT, 'www/widget')).filter((f) => f.endsWith('.js')).map((f) => `widget/${f}`),
];
for (const m of modules) copy(`www/${m}`);
for (const f of ['henkan.js', 'henkan.d.ts', 'henkan_bg.wasm', 'henkan_bg.wasm.d.ts']) copy(`pkg/${f}`);
fs.mkdirSync(path.join(OUT, 'models'), { recursive: true });
fs.copyFileSync(model, path.join(OUT, 'models/henkan.henkan'));
const notices = fs.readdirSync(path.join(ROOT, 'models')).filter((f) => /^NOTICE-.*\.txt$/.test(f));
for (const f of ['README.md', ...notices]) copy(`models/${f}`);
copy('scripts/package/README.md', 'README.md');
copy('LICENSE-MIT');
copy('LICENSE-APACHE');

// What the loader checks the packed model against.
const info = execFileSync(process.execPath, [path.join(ROOT, 'scripts/model-info.mjs'), path.join(OUT, 'models/henkan.henkan'), '--wasm', path.join(OUT, 'pkg/henkan_bg.wasm')], { encoding: 'utf8' });
fs.writeFileSync(path.join(OUT, 'www/model-info.js'), info);
const sha256 = /sha256: '([0-9a-f]{64})'/.exec(info)?.[1];
fs.writeFileSync(path.join(OUT, 'models/henkan.henkan.sha256'), `${sha256}  henkan.henkan\n`);

// Declarations from the JSDoc, beside each module.
const tsconfig = path.join(DIST, 'tsconfig.npm.json');
fs.writeFileSync(
  tsconfig,
  JSON.stringify(
    {
      compilerOptions: {
        allowJs: true,
        checkJs: true,
        declaration: true,
        emitDeclarationOnly: true,
        strict: true,
        target: 'ES2022',
        module: 'ES2022',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        skipLibCheck: true,
      },
      include: ['npm/www/*.js', 'npm/www/widget/*.js'],
    },
    null,
    2,
  ),
);
execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', tsconfig], { stdio: 'inherit' });
fs.rmSync(tsconfig);

/** An export of a module with its declarations. @param {string} m */
const entry = (m) => ({ types: `./www/${m}.d.ts`, default: `./www/${m}.js` });
const manifest = {
  name: NAME,
  version: root.version,
  description: 'A Japanese input method in the browser (WebAssembly): romaji to kana to kanji, attached to any text field in one call',
  keywords: ['japanese', 'ime', 'input-method', 'kana', 'kanji', 'romaji', 'wasm'],
  license: '(MIT OR Apache-2.0) AND CC-BY-SA-4.0',
  type: 'module',
  main: './www/henkan-ime.js',
  types: './www/henkan-ime.d.ts',
  exports: {
    '.': entry('henkan-ime'),
    './ime': entry('ime'),
    './widget': entry('widget'),
    './model-cache': entry('model-cache'),
    './model-info': entry('model-info'),
    './henkan_bg.wasm': './pkg/henkan_bg.wasm',
    './henkan.henkan': './models/henkan.henkan',
    './package.json': './package.json',
  },
  files: ['www', 'pkg', 'models', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'],
  sideEffects: ['./www/henkan-ime.js'],
};
fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// Pack, and check that what would be published holds every file the package needs.
const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', DIST], { cwd: OUT, encoding: 'utf8' }))[0];
const files = new Set(packed.files.map((/** @type {{path: string}} */ f) => f.path));
const needed = [
  'package.json', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE',
  'www/henkan-ime.js', 'www/henkan-ime.d.ts', 'www/ime.d.ts', 'www/widget.d.ts', 'www/model-info.js',
  'pkg/henkan.js', 'pkg/henkan_bg.wasm', 'models/henkan.henkan', 'models/henkan.henkan.sha256', 'models/README.md',
  ...notices.map((f) => `models/${f}`),
];
const missing = needed.filter((f) => !files.has(f));
if (missing.length) throw new Error(`npm pack left out ${missing.join(', ')}`);
const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`dist/${packed.filename}: ${files.size} files, ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked`);

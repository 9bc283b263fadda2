#!/usr/bin/env node
// The playground as a static site: copies what the page loads into one folder that any static
// host serves as it is, at its root or under a sub-path (every URL in the page is relative).
//
//   node scripts/build-site.mjs [--out dist/site] [--model models/henkan.henkan]
//
// Needs pkg/ (`make wasm`) and the model. The folder holds index.html, www/ (the widget, the
// engine handle, the playground; not its tests), pkg/henkan.js and pkg/henkan_bg.wasm, the model
// as models/henkan.henkan with its licence notices, and the code's licences. No header is needed:
// `_headers` asks hosts that read it (Netlify, Cloudflare Pages) for cross-origin isolation, which
// only gives the latency meter finer timers; `.nojekyll` keeps GitHub Pages from filtering files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
/** @param {string} name @param {string} def */
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const out = path.resolve(ROOT, opt('out', 'dist/site'));
const model = path.resolve(ROOT, opt('model', 'models/henkan.henkan'));

/** The site's files: [source relative to the repository, destination relative to the site]. */
const files = [
  ['index.html', 'index.html'],
  ['pkg/henkan.js', 'pkg/henkan.js'],
  ['pkg/henkan_bg.wasm', 'pkg/henkan_bg.wasm'],
  [path.relative(ROOT, model), 'models/henkan.henkan'],
  ['models/README.md', 'models/README.md'],
  ['LICENSE-MIT', 'LICENSE-MIT'],
  ['LICENSE-APACHE', 'LICENSE-APACHE'],
];
for (const dir of ['www', 'www/widget']) {
  for (const name of fs.readdirSync(path.join(ROOT, dir)).sort()) {
    if (name.endsWith('.js')) files.push([`${dir}/${name}`, `${dir}/${name}`]);
  }
}
for (const name of fs.readdirSync(path.join(ROOT, 'models')).sort()) {
  if (name.startsWith('NOTICE-')) files.push([`models/${name}`, `models/${name}`]);
}

for (const [from] of files) {
  if (!fs.existsSync(path.join(ROOT, from))) {
    console.error(`build-site: ${from} is missing (${from.startsWith('pkg/') ? 'make wasm' : 'make model'} builds it)`);
    process.exit(1);
  }
}

// Only under the repository: a mistyped --out must not remove anything else.
if (out === ROOT || !out.startsWith(ROOT + path.sep)) {
  console.error(`build-site: --out must be a folder inside ${ROOT}`);
  process.exit(1);
}
fs.rmSync(out, { recursive: true, force: true });
let bytes = 0;
for (const [from, to] of files) {
  const dest = path.join(out, to);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.copyFileSync(path.join(ROOT, from), dest);
  bytes += fs.statSync(dest).size;
}
fs.writeFileSync(
  path.join(out, '_headers'),
  ['/*', '  Cross-Origin-Opener-Policy: same-origin', '  Cross-Origin-Embedder-Policy: require-corp', ''].join('\n'),
);
fs.writeFileSync(path.join(out, '.nojekyll'), '');
console.log(`build-site: ${files.length + 2} files, ${(bytes / 1e6).toFixed(2)} MB in ${path.relative(ROOT, out)}/`);

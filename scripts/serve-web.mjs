#!/usr/bin/env node
// A tiny static server for the demo and the browser tests: the repository root on
// http://127.0.0.1:8000 with the cross-origin isolation headers (COOP/COEP), so
// performance.now() has microsecond resolution for the latency meter.
//
//   node scripts/serve-web.mjs [--port 8000] [--host 127.0.0.1] [--root .] [--test-routes]
//
// --port 0 picks a free port. The first line printed is `serving http://HOST:PORT/`.
// Only files under the root are served: a path that leaves it (`..`, also percent-encoded) is
// refused (403), a request whose path or URL does not decode is answered 400, and no request
// can stop the server.
// --test-routes adds /__test/truncated/<path>?bytes=N: the file's full Content-Length but only
// N bytes, then the connection is cut (a broken model download).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
/** @param {string} name @param {string} def */
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(opt('root', path.join(here, '..')));
const port = Number(opt('port', process.env.PORT || '8000'));
const host = opt('host', '127.0.0.1');
const testRoutes = args.includes('--test-routes');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};

/** @param {http.ServerResponse} res @param {number} status @param {string} text */
function fail(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...isolation });
  res.end(text);
}

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/**
 * The file under the root that a URL path names, `null` when it would be outside the root, or
 * `undefined` when the path does not decode (bad percent-encoding) or holds a NUL.
 * @param {string} urlPath
 */
function resolve(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = path.resolve(root, decoded.replace(/^\/+/, ''));
  if (file !== root && !file.startsWith(root + path.sep)) return null; // no ../ escapes
  return file;
}

/** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, 'method not allowed');
  /** @type {URL} */
  let url;
  try {
    url = new URL(req.url || '/', `http://${host}`);
  } catch {
    return fail(res, 400, 'bad request');
  }
  let pathname = url.pathname;
  let truncateAt = -1;
  if (testRoutes && pathname.startsWith('/__test/truncated/')) {
    pathname = pathname.slice('/__test/truncated'.length);
    truncateAt = Math.max(0, Math.floor(Number(url.searchParams.get('bytes') || 0)) || 0);
  }
  let file = resolve(pathname);
  if (file === undefined) return fail(res, 400, 'bad request: the path does not decode');
  if (!file) return fail(res, 403, 'forbidden');
  let stat;
  try {
    stat = fs.statSync(file);
    if (stat.isDirectory()) {
      file = path.join(file, 'index.html');
      stat = fs.statSync(file);
    }
    if (!stat.isFile()) throw new Error('not a file');
  } catch {
    return fail(res, 404, `not found: ${pathname}`);
  }
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
    'Content-Length': String(stat.size),
    ...isolation,
  });
  if (req.method === 'HEAD') return res.end();
  if (truncateAt >= 0) {
    const stream = fs.createReadStream(file, { start: 0, end: Math.max(0, truncateAt - 1) });
    stream.on('error', () => res.destroy());
    // The cut comes once the N bytes are out of this process. (Chromium still drops what it
    // holds in its data pipe, up to ≈2 MB, when the page has not taken it before the break.)
    stream.on('end', () => res.write(Buffer.alloc(0), () => setTimeout(() => res.destroy(), 50)));
    stream.pipe(res, { end: false });
    return;
  }
  // A file that cannot be read after all (removed, no permission) cuts the response.
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (e) {
    console.error(`serve-web: ${req.method} ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
    if (!res.headersSent) fail(res, 500, 'internal error');
    else res.destroy();
  }
});

server.listen(port, host, () => {
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`serving http://${host}:${actual}/ (root ${root}, COOP/COEP on)`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));

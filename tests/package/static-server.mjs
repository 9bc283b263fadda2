// A plain static server for the package tests: files under a folder, with a content type and a
// Last-Modified date, and no other header (no COOP/COEP, no caching rules): what any static host
// does. Requests are recorded (`requests`: the paths, in order).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.henkan': 'application/octet-stream',
});

/**
 * Serves `root` on 127.0.0.1 (a free port).
 * @param {string} root
 * @returns {Promise<{url: string, requests: string[], stop: () => Promise<void>}>}
 */
export function serveStatic(root) {
  /** @type {string[]} */
  const requests = [];
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(urlPath);
    const file = path.join(root, urlPath);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    const stat = fs.statSync(file);
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': stat.size,
      'Last-Modified': stat.mtime.toUTCString(),
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${port}/`, requests, stop: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}

// scripts/serve-web.mjs against requests a browser would not send: paths that do not decode and
// paths that try to leave the root. The server runs on a free port over a temporary root.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/serve-web.mjs', import.meta.url));
// <tmp>/secret.txt is outside the root <tmp>/root.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-web-'));
const root = path.join(dir, 'root');
/** @type {import('node:child_process').ChildProcess} */
let server;
let base = '';

before(async () => {
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'hello.txt'), 'hello');
  fs.writeFileSync(path.join(root, 'sub', 'a b.txt'), 'spaced');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
  server = spawn(process.execPath, [script, '--port', '0', '--root', root, '--test-routes'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    server.stdout?.on('data', (data) => {
      const m = /serving (http:\/\/\S+?)\/? /.exec(String(data));
      if (m) resolve(m[1]);
    });
  });
});

after(() => {
  server.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A GET with the path sent as it is (fetch() and URL would normalize it first).
 * @param {string} rawPath
 * @returns {Promise<{status: number, body: string}>}
 */
function get(rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('files under the root are served, percent-encoded names too', async () => {
  assert.deepEqual(await get('/hello.txt'), { status: 200, body: 'hello' });
  assert.deepEqual(await get('/sub/a%20b.txt'), { status: 200, body: 'spaced' });
  assert.equal((await get('/missing.txt')).status, 404);
  assert.equal((await get('/sub')).status, 404, 'a directory without index.html');
});

test('a path that does not decode is answered 400, and the server stays up', async () => {
  for (const bad of ['/%E0%A4%A', '/%', '/%zz', '/%C0%80', '/__test/truncated/%E0%A4%A?bytes=1', '/a%00b']) {
    const { status } = await get(bad);
    assert.equal(status, 400, bad);
  }
  assert.deepEqual(await get('/hello.txt'), { status: 200, body: 'hello' });
  assert.equal(server.exitCode, null);
});

test('no path leaves the root', async () => {
  for (const escape of [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/sub/../../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/sub/..%2f..%2fsecret.txt',
    '/%2fsecret.txt',
    '/..%5csecret.txt',
    '/__test/truncated/..%2fsecret.txt?bytes=3',
    `/${encodeURIComponent(path.join(dir, 'secret.txt'))}`,
  ]) {
    const { status, body } = await get(escape);
    assert.notEqual(body, 'secret', escape);
    assert.ok([400, 403, 404].includes(status), `${escape}: ${status}`);
  }
  assert.equal((await get('/..%2fsecret.txt')).status, 403);
  assert.deepEqual(await get('/sub/../hello.txt'), { status: 200, body: 'hello' });
  assert.equal(server.exitCode, null);
});

test('methods other than GET and HEAD are refused', async () => {
  const status = await new Promise((resolve, reject) => {
    const req = http.request(`${base}/hello.txt`, { method: 'POST' }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 405);
});

// The model kept in the browser and checked before it is used: a `fetch` for `HenkanIme.load()`
// that answers from the Cache API when the page has the model already, and otherwise downloads
// it, checks it and stores it.
//
// The check is SHA-256 (`crypto.subtle.digest`) against what the build recorded
// (www/model-info.js, written by scripts/model-info.mjs). SubtleCrypto has no incremental digest,
// so the bytes are kept while they arrive; two gates keep the streaming load (www/loader.js)
// progressive and still never let unchecked bytes build an engine:
//
//   core gate  nothing reaches the loader until the core (the dictionary part, the first
//              `coreBytes`) is in and matches `coreSha256`: the classic engine is built only
//              from checked bytes, as early as before;
//   file gate  the last HOLD_BYTES are held back until the whole file matches `sha256`: the
//              loader attaches the language models only after that (its last section is not
//              complete before).
//
// A cached copy is read whole and checked before it is handed out; one that fails is deleted and
// the model is downloaded. A download whose core fails is fetched once more past the HTTP cache
// (`cache: 'reload'`), then fails with a {@link ModelIntegrityError}. A download whose LM part fails
// ends with that error after the core was handed out: the classic engine stays, `lm` is `failed`.
// Only a copy that matched is stored.
//
// The decoded copy: once a checked model has loaded, the page stores beside it a copy with every
// section decoded (`storeDecoded`: the container written by the wasm handle, every section stored
// as it is, with a CRC-32 each). A later visit streams that copy into wasm without decoding
// anything and without the SHA-256 (`source: 'cache', decoded: true`). It is stored only from a
// model that matched its SHA-256 in this page, under a key that carries that SHA-256, and read
// back through the container's CRC-32s (the table's and every section's), which catch what damages
// a stored file: so what the engine is built from is still the model the build recorded. A copy
// that fails them (or is cut short) is deleted by `discardDecoded` and the load starts over from
// the compressed copy, checked by SHA-256 (HenkanIme.load's `retry`), without the page seeing an
// error.
//
// Without SubtleCrypto or the Cache API (an insecure context: plain http on a host other than
// localhost) the model is fetched as it is, unchecked and not stored; the container's CRC-32s
// still catch damage (docs/model-format.md).

/**
 * @typedef {object} ModelInfo what a model file must be, recorded at build time
 * @property {string} file the file's name (for messages)
 * @property {number} bytes the file's length
 * @property {string} sha256 SHA-256 of the file, lowercase hex
 * @property {number} coreBytes length of the core, the prefix the classic engine is built from
 * @property {string} coreSha256 SHA-256 of the core
 */

/**
 * @typedef {object} ModelSourceEvent what {@link cachedModelFetch} did for one load
 * @property {'cache' | 'network' | 'unchecked'} source where the bytes came from (`unchecked`:
 *   fetched without a check, where SubtleCrypto is missing or no `ModelInfo` was given)
 * @property {boolean} decoded the bytes are the decoded copy (from the cache, checked by the
 *   container's CRC-32s as they load, no SHA-256)
 * @property {boolean} discarded a cached copy was there and failed its check (it was deleted)
 * @property {number} attempts downloads made (0 from the cache)
 * @property {number} checkMs time spent in SHA-256
 */

/**
 * @typedef {object} CachedFetchOptions
 * @property {ModelInfo | null} info what the model must be; `null`: fetch it unchecked, uncached
 * @property {boolean} [cache] keep the checked model with the Cache API (default true)
 * @property {string} [cacheName] the Cache API cache (default {@link CACHE_NAME})
 * @property {typeof fetch} [fetch] the network fetch (default: the global one)
 * @property {CacheStorage | null} [caches] default: the global one, where it exists
 * @property {SubtleCrypto | null} [subtle] default: `crypto.subtle`, where it exists
 * @property {(e: ModelSourceEvent) => void} [onSource] once the source is known and checked
 * @property {(stored: boolean) => void} [onStored] after a checked download was put in the cache
 *   (`false`: storing failed, e.g. over quota)
 */

/**
 * @typedef {object} ModelFetchExtras what {@link cachedModelFetch}'s fetch offers besides fetching
 * @property {() => Promise<boolean>} discardDecoded the model from the last response did not load:
 *   if that response was the decoded copy, deletes it, makes the next fetch skip it and resolves
 *   `true` (fetch again); otherwise `false`
 * @property {(count: number, part: (i: number) => Uint8Array<ArrayBuffer>) => Promise<boolean>} storeDecoded
 *   stores the decoded copy of the model the last response held, given its parts in order (the
 *   wasm handle's `storedCopyParts()` and `storedCopyPart(i)`), taken one at a time; only after
 *   a response whose model matched its SHA-256 (resolves `false` otherwise, or when the cache
 *   refused it)
 */

/** @typedef {typeof fetch & ModelFetchExtras} ModelFetch */

/** The Cache API cache that holds models (one entry per model URL and SHA-256). */
export const CACHE_NAME = 'henkan-ime-model';

/** The tail of the file held back until the whole file is checked (more than the file's padding). */
export const HOLD_BYTES = 64 << 10;

/** A model whose bytes are not the ones the page expects. */
export class ModelIntegrityError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ModelIntegrityError';
  }
}

/**
 * SHA-256 of `bytes` as lowercase hex.
 * @param {SubtleCrypto} subtle
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
export async function sha256Hex(subtle, bytes) {
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The cache key of a model: its URL with the SHA-256 it must have, so that a new model at the same
 * URL is another entry.
 * @param {string | URL} url
 * @param {string} sha256
 */
export function cacheKey(url, sha256) {
  const key = new URL(url, globalThis.location?.href);
  key.hash = '';
  key.searchParams.set('henkan-sha256', sha256);
  return key.href;
}

/**
 * The cache key of a model's decoded copy ({@link cachedModelFetch}): the model's key with
 * `henkan-copy=decoded`.
 * @param {string | URL} url
 * @param {string} sha256 the SHA-256 of the model (the compressed file the copy was made from)
 */
export function decodedCacheKey(url, sha256) {
  const key = new URL(cacheKey(url, sha256));
  key.searchParams.set('henkan-copy', 'decoded');
  return key.href;
}

/**
 * A `fetch` for `HenkanIme.load({fetch})`: the model from the cache when it is there and intact
 * (its decoded copy first), else downloaded behind the two gates (see the top of this file) and
 * stored once checked. Its `discardDecoded` and `storeDecoded` handle the decoded copy.
 * @param {CachedFetchOptions} options
 * @returns {ModelFetch}
 */
export function cachedModelFetch(options) {
  const net = options.fetch ?? ((input, init) => fetch(input, init));
  const subtle = options.subtle === undefined ? globalThis.crypto?.subtle ?? null : options.subtle;
  const storage = options.cache === false ? null : options.caches === undefined ? globalThis.caches ?? null : options.caches;
  const info = options.info;
  /** The last response: its cache, the decoded copy's key if it was that copy, whether its model matched. */
  const last = { cache: /** @type {Cache | null} */ (null), decodedKey: '', url: '', checked: false };
  let skipDecoded = false;
  let discardedDecoded = false;
  const fetchModel = /** @type {typeof fetch} */ (
    async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      Object.assign(last, { cache: null, decodedKey: '', url, checked: false });
      if (!info || !subtle) {
        options.onSource?.({ source: 'unchecked', decoded: false, discarded: false, attempts: 1, checkMs: 0 });
        return net(input, init);
      }
      const key = cacheKey(url, info.sha256);
      /** @type {Cache | null} */
      const cache = storage ? await storage.open(options.cacheName ?? CACHE_NAME).catch(() => null) : null;
      last.cache = cache;
      let discarded = discardedDecoded;
      if (cache && !skipDecoded) {
        const decodedKey = decodedCacheKey(url, info.sha256);
        const copy = await cache.match(decodedKey).catch(() => undefined);
        if (copy?.body) {
          last.decodedKey = decodedKey;
          options.onSource?.({ source: 'cache', decoded: true, discarded: false, attempts: 0, checkMs: 0 });
          return copy;
        }
      }
      const hit = cache ? await cache.match(key).catch(() => undefined) : undefined;
      if (hit) {
        const t = performance.now();
        const bytes = new Uint8Array(await hit.arrayBuffer());
        const ok = bytes.length === info.bytes && (await sha256Hex(subtle, bytes)) === info.sha256;
        const checkMs = performance.now() - t;
        if (ok) {
          last.checked = true;
          options.onSource?.({ source: 'cache', decoded: false, discarded, attempts: 0, checkMs });
          return new Response(bytes, { status: 200, headers: modelHeaders(info.bytes) });
        }
        discarded = true;
        await cache?.delete(key).catch(() => false);
      }
      const res = await net(input, init);
      if (!res.ok || !res.body) return res;
      const body = checkedBody(res, () => net(input, { ...init, cache: 'reload' }), subtle, info, url, (attempts, checkMs, bytes) => {
        last.checked = true;
        options.onSource?.({ source: 'network', decoded: false, discarded, attempts, checkMs });
        if (cache) store(cache, key, new Response(bytes, { headers: modelHeaders(info.bytes) })).then((ok) => options.onStored?.(ok));
      });
      return new Response(body, { status: 200, statusText: res.statusText, headers: modelHeaders(info.bytes) });
    }
  );
  return Object.assign(fetchModel, {
    async discardDecoded() {
      if (!last.decodedKey) return false;
      skipDecoded = true;
      discardedDecoded = true;
      await last.cache?.delete(last.decodedKey).catch(() => false);
      last.decodedKey = '';
      return true;
    },
    /**
     * @param {number} count
     * @param {(i: number) => Uint8Array<ArrayBuffer>} part
     */
    async storeDecoded(count, part) {
      const { cache, checked, url } = last;
      if (!cache || !checked || !info) return false;
      try {
        // One part at a time, each into the Blob at once (the browser keeps a Blob's parts off
        // the JS heap), with a pause between parts so the page stays responsive.
        let blob = new Blob([]);
        for (let i = 0; i < count; i++) {
          blob = new Blob([blob, part(i)]);
          await new Promise((r) => setTimeout(r, 0));
        }
        return await store(cache, decodedCacheKey(url, info.sha256), new Response(blob, { headers: modelHeaders(blob.size) }));
      } catch {
        return false;
      }
    },
  });
}

/** @param {number} bytes */
const modelHeaders = (bytes) => ({ 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes) });

/**
 * The model URL a cache key stands for, and which copy it is.
 * @param {string} key
 */
function keyParts(key) {
  const url = new URL(key);
  const copy = url.searchParams.get('henkan-copy') ?? '';
  url.searchParams.delete('henkan-sha256');
  url.searchParams.delete('henkan-copy');
  return { base: url.href, copy };
}

/**
 * Puts a checked model (or its decoded copy) in the cache and deletes the entries of other
 * versions at the same URL (both copies of each).
 * @param {Cache} cache
 * @param {string} key
 * @param {Response} res
 * @returns {Promise<boolean>} whether it was stored
 */
async function store(cache, key, res) {
  try {
    await cache.put(key, res);
    const sha = new URL(key).searchParams.get('henkan-sha256');
    const { base } = keyParts(key);
    for (const old of await cache.keys()) {
      if (keyParts(old.url).base === base && new URL(old.url).searchParams.get('henkan-sha256') !== sha) await cache.delete(old);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The body handed to the loader: the download's bytes behind the core gate and the file gate.
 * @param {Response} first the first download (status 200, with a body)
 * @param {() => Promise<Response>} again a second download past the HTTP cache
 * @param {SubtleCrypto} subtle
 * @param {ModelInfo} info
 * @param {string} url for messages
 * @param {(attempts: number, checkMs: number, bytes: Uint8Array<ArrayBuffer>) => void} onChecked the whole file matched
 * @returns {ReadableStream<Uint8Array>}
 */
function checkedBody(first, again, subtle, info, url, onChecked) {
  const buf = new Uint8Array(info.bytes);
  const hold = Math.max(0, info.bytes - HOLD_BYTES);
  let reader = /** @type {ReadableStreamDefaultReader<Uint8Array> | null} */ (/** @type {ReadableStream<Uint8Array>} */ (first.body).getReader());
  let attempts = 1;
  let filled = 0; // bytes of the current download in `buf`
  let delivered = 0; // bytes handed to the loader
  let coreChecked = false;
  let checkMs = 0;
  const hash = async (/** @type {Uint8Array<ArrayBuffer>} */ bytes) => {
    const t = performance.now();
    try {
      return await sha256Hex(subtle, bytes);
    } finally {
      checkMs += performance.now() - t;
    }
  };
  const name = () => `the model ${info.file} (${url})`;
  /** Starts over with a second download, or fails: nothing has been handed out yet. */
  const retry = async (/** @type {string} */ why) => {
    await reader?.cancel().catch(() => {});
    reader = null;
    if (attempts >= 2) throw new ModelIntegrityError(`${name()} failed its integrity check twice: ${why}`);
    const res = await again();
    if (!res.ok || !res.body) throw new ModelIntegrityError(`${name()} failed its integrity check (${why}); downloading it again: HTTP ${res.status}`);
    attempts++;
    reader = res.body.getReader();
    filled = 0;
  };
  return new ReadableStream(
    {
      async pull(controller) {
        for (;;) {
          const { done, value } = await /** @type {ReadableStreamDefaultReader<Uint8Array>} */ (reader).read();
          if (!done) {
            if (filled + value.length > info.bytes) {
              const why = `it is longer than the ${info.bytes} bytes expected`;
              if (coreChecked) throw new ModelIntegrityError(`${name()} failed its integrity check: ${why}`);
              await retry(why);
              continue;
            }
            buf.set(value, filled);
            filled += value.length;
          } else if (filled < info.bytes) {
            // Short: the loader sees the truncation as it would without the check. Either the core
            // was checked, or it is incomplete and builds nothing (the core is checked as soon as
            // its last byte is in).
            if (filled > delivered) controller.enqueue(buf.subarray(delivered, filled));
            controller.close();
            return;
          }
          if (!coreChecked) {
            if (filled < info.coreBytes) continue;
            if ((await hash(buf.subarray(0, info.coreBytes))) !== info.coreSha256) {
              await retry(`the SHA-256 of its first ${info.coreBytes} bytes is not ${info.coreSha256}`);
              continue;
            }
            coreChecked = true;
          }
          if (filled === info.bytes) {
            const got = await hash(buf);
            if (got !== info.sha256) throw new ModelIntegrityError(`${name()} failed its integrity check: SHA-256 ${got}, expected ${info.sha256}`);
            controller.enqueue(buf.subarray(delivered));
            delivered = filled;
            controller.close();
            onChecked(attempts, checkMs, buf);
            return;
          }
          const upto = Math.min(filled, hold);
          if (upto > delivered) {
            controller.enqueue(buf.subarray(delivered, upto));
            delivered = upto;
            return;
          }
        }
      },
      cancel(reason) {
        return reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

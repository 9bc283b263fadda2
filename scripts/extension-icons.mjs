// The extension's icons (16, 32, 48 and 128 px PNGs): あ in white strokes on the badge's red
// (#c62828, the widget's indicator when on), drawn here without a font or an image library: each
// stroke of the kana is a chain of cubic Bézier curves in a unit square, the pixels are covered
// by their distance to the sampled curve (anti-aliased), the PNG is written with zlib.
// scripts/extension.mjs writes them into the build (`icons/`).
import zlib from 'node:zlib';

/** @typedef {[number, number]} Point */

/**
 * The strokes of あ: each a start point and cubic segments (two control points and an end).
 * @type {{start: Point, curves: [Point, Point, Point][]}[]}
 */
const STROKES = [
  // the horizontal bar
  { start: [0.27, 0.3], curves: [[[0.4, 0.31], [0.58, 0.29], [0.72, 0.26]]] },
  // the long vertical stroke, bending a little to the right at its foot
  { start: [0.45, 0.16], curves: [[[0.44, 0.38], [0.45, 0.6], [0.52, 0.8]]] },
  // the loop: down to the left, round, across and back down on the right
  {
    start: [0.64, 0.42],
    curves: [
      [[0.6, 0.6], [0.46, 0.76], [0.33, 0.75]],
      [[0.2, 0.74], [0.22, 0.56], [0.4, 0.51]],
      [[0.6, 0.45], [0.8, 0.52], [0.8, 0.66]],
      [[0.8, 0.78], [0.7, 0.84], [0.58, 0.86]],
    ],
  },
];

/**
 * The strokes as line segments (each cubic sampled in 24 steps).
 * @returns {[Point, Point][]}
 */
function segments() {
  /** @type {[Point, Point][]} */
  const out = [];
  for (const { start, curves } of STROKES) {
    let p0 = start;
    for (const [c1, c2, p3] of curves) {
      let prev = p0;
      for (let i = 1; i <= 24; i++) {
        const t = i / 24;
        const u = 1 - t;
        /** @type {Point} */
        const q = [
          u * u * u * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * p3[0],
          u * u * u * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * p3[1],
        ];
        out.push([prev, q]);
        prev = q;
      }
      p0 = p3;
    }
  }
  return out;
}

/**
 * The distance from a point to a segment.
 * @param {number} x @param {number} y @param {Point} a @param {Point} b
 */
function distance(x, y, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(x - a[0] - t * dx, y - a[1] - t * dy);
}

/**
 * Coverage of a pixel by a shape whose signed distance (pixels, negative inside) is `d`.
 * @param {number} d
 */
const cover = (d) => Math.max(0, Math.min(1, 0.5 - d));

/**
 * The icon as RGBA pixels.
 * @param {number} size
 */
export function iconPixels(size) {
  const segs = segments().map(([a, b]) => /** @type {[Point, Point]} */ ([[a[0] * size, a[1] * size], [b[0] * size, b[1] * size]]));
  // Thicker strokes on small icons, so that they stay legible.
  const half = Math.max(1.1, size * (size <= 16 ? 0.07 : 0.055));
  const radius = size * 0.18;
  const px = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      // The rounded square: the distance to its inner rectangle, less the corner radius.
      const qx = Math.max(radius - cx, cx - (size - radius), 0);
      const qy = Math.max(radius - cy, cy - (size - radius), 0);
      const bg = cover(Math.hypot(qx, qy) - radius);
      let d = Infinity;
      for (const [a, b] of segs) d = Math.min(d, distance(cx, cy, a, b));
      const fg = cover(d - half) * bg;
      const i = (y * size + x) * 4;
      px[i] = Math.round(0xc6 + (255 - 0xc6) * fg);
      px[i + 1] = Math.round(0x28 + (255 - 0x28) * fg);
      px[i + 2] = Math.round(0x28 + (255 - 0x28) * fg);
      px[i + 3] = Math.round(255 * bg);
    }
  }
  return px;
}

/** @type {number[]} the CRC-32 table of PNG chunks */
const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** @param {Buffer} buf */
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * One PNG chunk.
 * @param {string} type @param {Buffer} data
 */
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * The icon as a PNG (8-bit RGBA).
 * @param {number} size
 */
export function iconPng(size) {
  const px = iconPixels(size);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) px.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The sizes the manifest names. */
export const ICON_SIZES = [16, 32, 48, 128];

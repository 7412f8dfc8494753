#!/usr/bin/env node
// Draws the extension icon, media/icon.png (128×128): the activity-bar chip of media/compute.svg in
// white on a blue rounded square. Plain Node (zlib) and 4×4 supersampling, no image tool needed:
//   node scripts/make-icon.mjs [OUT]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SAMPLES = 4;

/** Signed distance to a rounded rectangle (negative inside). */
function roundedRect(x, y, left, top, right, bottom, radius) {
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  const hx = (right - left) / 2 - radius, hy = (bottom - top) / 2 - radius;
  const dx = Math.max(Math.abs(x - cx) - hx, 0), dy = Math.max(Math.abs(y - cy) - hy, 0);
  const inside = Math.min(Math.max(Math.abs(x - cx) - hx, Math.abs(y - cy) - hy), 0);
  return Math.hypot(dx, dy) + inside - radius;
}

/** The colour of one point: [r, g, b, a] in 0..1. */
function colourAt(x, y) {
  if (roundedRect(x, y, 0, 0, SIZE, SIZE, 24) > 0) return [0, 0, 0, 0];
  const white = [1, 1, 1, 1];
  // Chip body outline, die, and four pins per side (the 24-unit svg scaled by 4, centred).
  const body = roundedRect(x, y, 34, 34, 94, 94, 8);
  if (body <= 0 && body > -6) return white;
  if (roundedRect(x, y, 50, 50, 78, 78, 4) <= 0) return white;
  for (const at of [50, 78]) {
    const pin = (a, b) => Math.abs(a - at) <= 3 && ((b >= 14 && b <= 34) || (b >= 94 && b <= 114));
    if (pin(x, y) || pin(y, x)) return white;
  }
  // Background: blue, lighter at the top.
  const t = y / SIZE;
  return [0.05 + 0.05 * (1 - t), 0.36 + 0.14 * (1 - t), 0.78 + 0.1 * (1 - t), 1];
}

function pixels() {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    rows[y * (SIZE * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const [r, g, b, a] = colourAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          sum[0] += r * a; sum[1] += g * a; sum[2] += b * a; sum[3] += a;
        }
      }
      const n = SAMPLES * SAMPLES;
      const alpha = sum[3] / n;
      const at = y * (SIZE * 4 + 1) + 1 + x * 4;
      for (let c = 0; c < 3; c++) rows[at + c] = alpha > 0 ? Math.round((sum[c] / sum[3]) * 255) : 0;
      rows[at + 3] = Math.round(alpha * 255);
    }
  }
  return rows;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function iconPng() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'media', 'icon.png'));
  fs.writeFileSync(out, iconPng());
  console.log(`wrote ${out}`);
}

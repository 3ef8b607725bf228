// Draws the extension's icons (the app's favicon: a red disc with a white
// centre) as PNGs at 16, 32, 48 and 128 px, antialiased by supersampling.
// Run after changing the design: node scripts/icons.mjs; the PNGs are committed.

import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const RED = [0xb3, 0x26, 0x1e];
const WHITE = [0xff, 0xff, 0xff];
const SUB = 8;

/** Colour and coverage of one pixel of an icon drawn on a 32-unit canvas. */
function pixel(x, y, size) {
  let red = 0;
  let white = 0;
  for (let i = 0; i < SUB; i += 1) {
    for (let j = 0; j < SUB; j += 1) {
      const u = ((x + (i + 0.5) / SUB) / size) * 32 - 16;
      const v = ((y + (j + 0.5) / SUB) / size) * 32 - 16;
      const r = Math.hypot(u, v);
      if (r <= 6) white += 1;
      else if (r <= 15) red += 1;
    }
  }
  const total = SUB * SUB;
  const alpha = (red + white) / total;
  if (alpha === 0) return [0, 0, 0, 0];
  const mix = (k) => Math.round((RED[k] * red + WHITE[k] * white) / (red + white));
  return [mix(0), mix(1), mix(2), Math.round(alpha * 255)];
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function png(size) {
  const rows = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y += 1) {
    rows[y * (1 + size * 4)] = 0;
    for (let x = 0; x < size; x += 1) {
      Buffer.from(pixel(x, y, size)).copy(rows, y * (1 + size * 4) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

for (const size of [16, 32, 48, 128]) {
  writeFileSync(new URL(`../../extension/icons/icon-${size}.png`, import.meta.url), png(size));
}

// The emulator's generated images: PNG files painted for the prompt (painted-scenes.ts), like the
// service's raster results. The subject follows the prompt's words; the seed (the task id, so the
// images of one request differ) shapes the rest. Painting costs a few hundred milliseconds, so the
// files are kept in a small cache by what they were painted from, and sizes are modest: the long
// side is 1024 px for 1K, 1536 for 2K and 2048 for 4K (the real service's 2K and 4K are larger),
// and thumbnails are 400 px. Given a folder (EMULATOR_PAINTED_DIR), painted files are also kept there,
// for a restart or another emulator: a demo's start asks for some 170 of them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hash32 } from './demo-scenes';
import { paintScene, subjectFor } from './painted-scenes';
import { encodePng } from './png';

export const QUALITY_LONG_SIDE: Record<string, number> = { '1K': 1024, '2K': 1536, '4K': 2048 };
export const THUMBNAIL_LONG_SIDE = 400;
const CACHE_BYTES = 48 * 1024 * 1024;

export function ratioSize(ratio: string, longSide: number): { width: number; height: number } {
  const [w, h] = ratio.split(':').map(Number);
  if (!w || !h) return { width: longSide, height: longSide };
  return w >= h
    ? { width: longSide, height: Math.max(1, Math.round((longSide * h) / w)) }
    : { width: Math.max(1, Math.round((longSide * w) / h)), height: longSide };
}

export interface PaintedImageInput {
  prompt: string;
  /** Any text: a task id, or a demo image's name; one seed always gives the same picture. */
  seed: string;
  ratio: string;
  longSide: number;
}

// Insertion-ordered Map as an LRU: a hit is moved to the end, the oldest entries go first.
const cache = new Map<string, Buffer>();
let cachedBytes = 0;

/**
 * The PNG for an input, painted once and then served from the memory cache while it stays there, or
 * from `dir` when given and it holds the file.
 */
export function paintedPng(input: PaintedImageInput, dir?: string): Buffer {
  const { prompt, seed, ratio, longSide } = input;
  const key = JSON.stringify([prompt, seed, ratio, longSide]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const file = dir && join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.png`);
  const kept = file ? readIfThere(file) : undefined;
  const png = kept ?? paint(input);
  if (file && !kept) keepIn(file, png);
  cache.set(key, png);
  cachedBytes += png.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.length;
  }
  return png;
}

function paint({ prompt, seed, ratio, longSide }: PaintedImageInput): Buffer {
  const seedNumber = hash32(seed);
  const { width, height } = ratioSize(ratio, longSide);
  return encodePng(
    width,
    height,
    paintScene(subjectFor(prompt, seedNumber), prompt, seedNumber, width, height).toBytes(),
  );
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the file whole under another name and renames it into place, so another emulator never reads
 * half of one. The folder is a cache: a file that cannot be written is painted again next time.
 */
function keepIn(file: string, png: Buffer): void {
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(partial, png, { flag: 'wx' });
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // No folder to write in: nothing was left either.
    }
  }
}

// The emulator's painted results: a valid PNG whose pixels are the ones painted, a subject that
// follows the prompt's words ("Northern lights over a frozen lake" must not show a sunset), and
// different pictures for different seeds of one prompt.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { subjectFor } from './painted-scenes';
import { paintedPng, ratioSize } from './painted-image';
import { encodePng } from './png';

/** Undoes the encoder: RGB rows from the IDAT stream (Paeth-filtered rows only, as encodePng writes). */
function decode(png: Buffer): { width: number; height: number; rgb: Uint8Array } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat = png.indexOf('IDAT');
  const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
  const stride = width * 3;
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(4);
    for (let i = 0; i < stride; i++) {
      const a = i >= 3 ? rgb[y * stride + i - 3]! : 0;
      const b = y > 0 ? rgb[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= 3 ? rgb[(y - 1) * stride + i - 3]! : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      rgb[y * stride + i] = (raw[y * (stride + 1) + 1 + i]! + predictor) & 0xff;
    }
  }
  return { width, height, rgb };
}

describe('encodePng', () => {
  it('writes the signature, the size and exactly the pixels given', () => {
    const rgb = Uint8Array.from({ length: 5 * 3 * 3 }, (_, i) => (i * 37) % 256);
    const png = encodePng(5, 3, rgb);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const decoded = decode(png);
    expect([decoded.width, decoded.height]).toEqual([5, 3]);
    expect([...decoded.rgb]).toEqual([...rgb]);
    expect(png.subarray(-8, -4).toString('ascii')).toBe('IEND');
  });

  it('refuses pixel data of another size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow(/does not match/);
  });
});

describe('subjects', () => {
  it.each([
    ['Northern lights over a frozen lake, stars, long exposure', 'aurora'],
    ['Calm ocean at sunset, sun reflecting on gentle waves', 'ocean'],
    ['Sea of clouds over mountain ridges at sunrise', 'mountains'],
    ['Snow-capped peaks under a full moon, starry sky', 'mountains'],
    ['Still alpine lake with mountain reflection', 'lake'],
    ['City skyline at dusk', 'city'],
    ['Out-of-focus street lights in the rain', 'city'],
    ['Misty pine forest on rolling hills', 'forest'],
    ['Milky Way over dark hills, starry night sky', 'night'],
    ['Sand dunes at golden hour', 'desert'],
    ['Backlit studio portrait of a woman', 'portrait'],
    ['Ceramic coffee mug, studio packshot', 'product'],
    ['Abstract liquid marble in teal and gold', 'abstract'],
  ])('%s → %s', (prompt, subject) => {
    expect(subjectFor(prompt, 0)).toBe(subject);
  });

  it('a prompt naming none gets a landscape picked by the seed', () => {
    const picked = new Set([0, 1, 2, 3, 4, 5].map((seed) => subjectFor('Quarterly report hero', seed)));
    expect(picked.size).toBeGreaterThan(3);
  });
});

describe('paintedPng', () => {
  it('paints the ratio at the long side, the same file for the same seed, another for another seed', () => {
    const input = { prompt: 'Calm ocean at sunset', ratio: '9:16', longSide: 160 };
    const a = paintedPng({ ...input, seed: 'i2is-a' });
    const decoded = decode(a);
    expect([decoded.width, decoded.height]).toEqual([90, 160]);
    expect(paintedPng({ ...input, seed: 'i2is-a' }).equals(a)).toBe(true);
    expect(paintedPng({ ...input, seed: 'i2is-b' }).equals(a)).toBe(false);
    // Not a flat fill: a painted scene has many colours.
    const colours = new Set<number>();
    for (let i = 0; i < decoded.rgb.length; i += 3)
      colours.add((decoded.rgb[i]! << 16) | (decoded.rgb[i + 1]! << 8) | decoded.rgb[i + 2]!);
    expect(colours.size).toBeGreaterThan(200);
  });

  it('sizes any ratio by its long side, a broken ratio as a square', () => {
    expect(ratioSize('21:9', 1536)).toEqual({ width: 1536, height: 658 });
    expect(ratioSize('4:5', 1024)).toEqual({ width: 819, height: 1024 });
    expect(ratioSize('x', 400)).toEqual({ width: 400, height: 400 });
  });

  it('keeps what it paints in a folder, where a restarted emulator finds it instead of painting again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'painted-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const input = { prompt: 'Misty pine forest', seed: 'kept-1', ratio: '1:1', longSide: 48 };
    const painted = paintedPng(input, dir);
    const [file, ...others] = readdirSync(dir);
    expect(others).toEqual([]); // the file whole, and no partial one beside it
    expect(file).toMatch(/^[0-9a-f]{32}\.png$/);

    // A restart: the memory cache is empty, and what the folder holds is served as it is.
    const stand = Buffer.from('what the folder holds');
    writeFileSync(join(dir, file!), stand);
    vi.resetModules();
    const restarted = await import('./painted-image');
    expect(restarted.paintedPng(input, dir).equals(stand)).toBe(true);
    // Without the folder the same input is painted, as before the restart.
    vi.resetModules();
    const again = await import('./painted-image');
    expect(again.paintedPng(input).equals(painted)).toBe(true);
  });

  it('paints as usual when the folder cannot be written', () => {
    const input = { prompt: 'Sand dunes', seed: 'unwritable', ratio: '1:1', longSide: 32 };
    expect(decode(paintedPng(input, '/proc/self/comm/painted')).width).toBe(32);
  });
});

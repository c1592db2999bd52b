import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BROTLI_MIN_BYTES, precompressPlugin } from './prod-brotli';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the plugin's hook on files written to a fresh build folder. */
async function build(files: Record<string, string | Buffer>) {
  dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  mkdirSync(join(dir, 'assets'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const hook = precompressPlugin().writeBundle as (options: { dir: string }, bundle: object) => Promise<void>;
  await hook({ dir }, Object.fromEntries(Object.keys(files).map((name) => [name, {}])));
}

describe('precompressPlugin', () => {
  it('writes the brotli of each hashed asset from its size floor, and of nothing else', async () => {
    const at = 'x'.repeat(BROTLI_MIN_BYTES);
    const under = 'x'.repeat(BROTLI_MIN_BYTES - 1);
    await build({
      'assets/a.js': at,
      'assets/b.css': `body{color:red}${'/* */'.repeat(100)}`,
      'assets/small.js': under,
      'assets/logo.png': at,
      'route-preloads.json': at,
    });
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/a.js.br'))).toString()).toBe(at);
    expect(existsSync(join(dir, 'assets/b.css.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets/small.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets/logo.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'route-preloads.json.br'))).toBe(false);
  });

  it('writes none for a file brotli cannot make smaller', async () => {
    await build({ 'assets/noise.js': randomBytes(1000) });
    expect(existsSync(join(dir, 'assets/noise.js'))).toBe(true);
    expect(existsSync(join(dir, 'assets/noise.js.br'))).toBe(false);
  });
});

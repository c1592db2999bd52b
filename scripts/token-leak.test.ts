// The bearer token must never reach the browser: build the app with API_TOKEN and API_BASE_URL set,
// as a careless deployment would, and search every byte of the output for the token.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const OUT_DIR = 'test-results/token-dist';
const TOKEN = `leak-probe-${process.pid}-${Date.now().toString(36)}-9f4c2e`;
const BASE_URL = 'https://api.token-leak.example';

function build(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--outDir', OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'],
      {
        env: { ...process.env, API_TOKEN: TOKEN, API_BASE_URL: BASE_URL, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('token never in built assets', () => {
  it('a production build made with API_TOKEN set contains no trace of it', { timeout: 240_000 }, async () => {
    const { code, output } = await build();
    expect(code, output).toBe(0);
    // The build tool's own output must not print it either (CI logs are public).
    expect(output).not.toContain(TOKEN);

    const files = await filesUnder(OUT_DIR);
    const names = files.map((file) => relative(OUT_DIR, file));
    // Guard against a vacuous pass: the app really was built.
    expect(names).toContain('index.html');
    expect(names.some((name) => name.endsWith('.js'))).toBe(true);

    const needles = [TOKEN, Buffer.from(TOKEN).toString('base64'), encodeURIComponent(`Bearer ${TOKEN}`)];
    const leaks: string[] = [];
    for (const file of files) {
      const bytes = await readFile(file);
      for (const needle of needles)
        if (bytes.includes(needle)) leaks.push(`${relative(OUT_DIR, file)} contains ${needle}`);
    }
    expect(leaks).toEqual([]);

    // The same search does find text that is in the bundle, so an empty list above means something.
    const contents = await Promise.all(files.map((file) => readFile(file)));
    expect(contents.some((bytes) => bytes.includes('Built-in emulator'))).toBe(true);
  });
});

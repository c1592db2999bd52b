// The cached template is reused only while the files that decide its contents are unchanged.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { PGLITE_DIR } from '../db/database';
import {
  cachedTemplate,
  emptyDataDir,
  keptCopyOfTemplate,
  removeDataDirsOfEarlierFiles,
  removeRunFolder,
  templateKey,
} from './pglite-template';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function files(contents: Record<string, string>): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'template-key-'));
  folders.push(folder);
  return Object.entries(contents).map(([name, text]) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  });
}

it('is the same for the same inputs and changes when any input changes', () => {
  const key = templateKey(files({ 'a.ts': 'create table a', 'b.json': '{"version":"1"}' }));
  expect(templateKey(files({ 'a.ts': 'create table a', 'b.json': '{"version":"1"}' }))).toBe(key);
  expect(templateKey(files({ 'a.ts': 'create table a2', 'b.json': '{"version":"1"}' }))).not.toBe(key);
  expect(templateKey(files({ 'a.ts': 'create table a', 'b.json': '{"version":"2"}' }))).not.toBe(key);
});

it("where files run one at a time, removes every file's database earlier files left, never a kept one", () => {
  // A run folder of its own: in `npm test` the other worker's databases are in the shared one.
  const runId = `earlier-files-${process.pid}-${Date.now().toString(36)}`;
  const folder = join(tmpdir(), `media-console-test-${runId}`);
  mkdirSync(join(folder, 'template'), { recursive: true });
  folders.push(folder);
  vi.stubEnv('MEDIA_CONSOLE_TEST_RUN', runId);
  onTestFinished(() => {
    vi.unstubAllEnvs();
  });

  const [left, alsoLeft, kept] = [emptyDataDir(), emptyDataDir(), keptCopyOfTemplate()];
  expect(new Set([left, alsoLeft, kept].map((dataDir) => dirname(dataDir)))).toEqual(new Set([folder]));
  removeDataDirsOfEarlierFiles();
  expect([left, alsoLeft, kept].map((dataDir) => existsSync(dataDir))).toEqual([false, false, true]);
  expect(existsSync(join(folder, 'template'))).toBe(true);
});

it('removes the run folder at the end, and only reports one it cannot remove', () => {
  const folder = mkdtempSync(join(tmpdir(), 'run-folder-'));
  mkdirSync(join(folder, 'copy', 'pglite'), { recursive: true });
  writeFileSync(join(folder, 'copy', 'pglite', 'PG_VERSION'), '17');
  removeRunFolder(folder);
  expect(existsSync(folder)).toBe(false);

  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  // Not removable even by root: a file of /proc taken for a folder.
  expect(() => removeRunFolder('/proc/self/comm')).not.toThrow();
  // Node 20 says ENOTDIR, Node 24 EPERM: either way it is reported, not thrown.
  expect(warn).toHaveBeenCalledWith(
    expect.stringMatching(/could not remove \/proc\/self\/comm: (ENOTDIR|EPERM)/),
  );
  warn.mockRestore();
});

describe('the cached template, made by one of two runs starting together', () => {
  function cache(): string {
    const folder = mkdtempSync(join(tmpdir(), 'template-cache-'));
    folders.push(folder);
    return folder;
  }
  /** A stand-in for initdb: counts its calls and takes a while, as initdb does. */
  function maker(ms = 300) {
    const made: string[] = [];
    const make = async (making: string) => {
      made.push(making);
      await new Promise((resolve) => setTimeout(resolve, ms));
      mkdirSync(join(making, PGLITE_DIR));
      writeFileSync(join(making, PGLITE_DIR, 'PG_VERSION'), '17');
    };
    return { made, make };
  }

  it('is made once when two runs ask at the same time; both get it, and no lock is left', async () => {
    const folder = cache();
    const { made, make } = maker();
    const [first, second] = await Promise.all([
      cachedTemplate({ cache: folder, key: 'k', make }),
      cachedTemplate({ cache: folder, key: 'k', make }),
    ]);
    expect(made).toHaveLength(1);
    expect(first).toBe(join(folder, 'k'));
    expect(second).toBe(first);
    expect(existsSync(join(first, PGLITE_DIR, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(folder, 'k.making'))).toBe(false);
  });

  it('takes over a lock whose run died, and makes it', async () => {
    const folder = cache();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(folder, 'k.making'), String(dead));
    const { made, make } = maker(0);
    expect(await cachedTemplate({ cache: folder, key: 'k', make })).toBe(join(folder, 'k'));
    expect(made).toHaveLength(1);
  });

  it('makes its own when the run holding the lock takes longer than initdb ever does', async () => {
    const folder = cache();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    onTestFinished(() => void holder.kill());
    writeFileSync(join(folder, 'k.making'), String(holder.pid)); // alive, and never done
    const { made, make } = maker(0);
    expect(await cachedTemplate({ cache: folder, key: 'k', make, waitMs: 300 })).toBe(join(folder, 'k'));
    expect(made).toHaveLength(1);
    // The lock was not this call's: it is left to its holder.
    expect(existsSync(join(folder, 'k.making'))).toBe(true);
  });

  it('takes a lock naming this very process as left by an earlier one with the same pid', async () => {
    const folder = cache();
    writeFileSync(join(folder, 'k.making'), String(process.pid));
    const { made, make } = maker(0);
    expect(await cachedTemplate({ cache: folder, key: 'k', make, waitMs: 60_000 })).toBe(join(folder, 'k'));
    expect(made).toHaveLength(1);
    expect(existsSync(join(folder, 'k.making'))).toBe(false);
  });
});

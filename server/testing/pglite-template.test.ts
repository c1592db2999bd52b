// The cached template is reused only while the files that decide its contents are unchanged.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { removeRunFolder, templateKey } from './pglite-template';

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

it('removes the run folder at the end, and only reports one it cannot remove', () => {
  const folder = mkdtempSync(join(tmpdir(), 'run-folder-'));
  mkdirSync(join(folder, 'copy', 'pglite'), { recursive: true });
  writeFileSync(join(folder, 'copy', 'pglite', 'PG_VERSION'), '17');
  removeRunFolder(folder);
  expect(existsSync(folder)).toBe(false);

  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  // Not removable even by root: a file of /proc taken for a folder.
  expect(() => removeRunFolder('/proc/self/comm')).not.toThrow();
  expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not remove \/proc\/self\/comm: ENOTDIR/));
  warn.mockRestore();
});

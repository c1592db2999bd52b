import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePglite, needsInitdb } from './make-pglite';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'make-pglite-'));
  dirs.push(dir);
  return dir;
}

describe('needsInitdb', () => {
  it('is true for a missing folder and an empty one, false once anything is in it', () => {
    const dir = folder();
    const path = join(dir, 'pglite');
    expect(needsInitdb(path)).toBe(true);
    mkdirSync(path);
    expect(needsInitdb(path)).toBe(true);
    writeFileSync(join(path, 'PG_VERSION'), '17\n');
    expect(needsInitdb(path)).toBe(false);
  });
});

// Making a database that works, with a stale half-made one beside it, is database.test.ts's "makes a
// new database in an empty DATA_DIR" (one initdb of seconds serves both).
describe('makePglite', { timeout: 60_000 }, () => {
  it('reports a failed initdb with its cause and leaves neither a database nor a half-made folder', async () => {
    const dir = folder();
    const path = join(dir, 'pglite');
    await expect(makePglite(path, ['--no-such-option'])).rejects.toThrow(/making the database failed: .+/);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(path)).toBe(false);
  });
});

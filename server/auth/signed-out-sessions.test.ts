// Sign-outs kept in the database (every instance reads the same rows) and the one-time import of an
// earlier version's file of them. On the shared PGlite with a clock; server/db/postgres.test.ts shows
// two instances on one PostgreSQL.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { databaseSignedOutSessions, importSignedOutSessions } from './signed-out-sessions';

const NOW = Date.UTC(2026, 0, 1);

async function rows() {
  const { db } = await testDatabase();
  return db.selectFrom('signed_out_sessions').selectAll().orderBy('id').execute();
}

beforeEach(async () => {
  await resetTestDatabase();
});

describe('databaseSignedOutSessions', () => {
  it('knows a sign-out until the millisecond before it expires, not from then on; a later add moves the expiry', async () => {
    const clock = { now: NOW };
    const signedOut = databaseSignedOutSessions(testDatabase(), () => clock.now);
    await signedOut.add('a', NOW + 1000);
    expect(await signedOut.has('a')).toBe(true);
    expect(await signedOut.has('b')).toBe(false);
    clock.now = NOW + 999;
    expect(await signedOut.has('a')).toBe(true);
    clock.now = NOW + 1000;
    expect(await signedOut.has('a')).toBe(false);
    await signedOut.add('a', NOW + 5000);
    expect(await signedOut.has('a')).toBe(true);
    expect(await rows()).toEqual([{ id: 'a', expires_at: NOW + 5000 }]);
  });

  it('drops the rows expired by now (at their expiry, not before) when another sign-out comes in', async () => {
    const clock = { now: NOW };
    const signedOut = databaseSignedOutSessions(testDatabase(), () => clock.now);
    await signedOut.add('gone', NOW + 100);
    await signedOut.add('kept', NOW + 101);
    clock.now = NOW + 100;
    await signedOut.add('new', NOW + 9000);
    expect((await rows()).map((row) => row.id)).toEqual(['kept', 'new']);
  });
});

describe('importSignedOutSessions', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'signed-out-import-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('imports the lines still in force (not one at its expiry), keeps a row already there, and renames the file', async () => {
    const database = await testDatabase();
    await databaseSignedOutSessions(Promise.resolve(database)).add('dup', NOW + 7);
    const file = join(dataDir, 'signed-out-sessions');
    writeFileSync(
      file,
      [`live ${NOW + 1}`, `edge ${NOW}`, `old ${NOW - 1}`, `dup ${NOW + 50}`, '', ' 5', 'bare'].join('\n'),
    );
    await importSignedOutSessions(database, dataDir, NOW);
    expect(await rows()).toEqual([
      { id: 'dup', expires_at: NOW + 7 },
      { id: 'live', expires_at: NOW + 1 },
    ]);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}.imported`, 'utf8')).toContain('live');
  });

  it('does nothing without the file, and renames a file with nothing in force', async () => {
    const database = await testDatabase();
    await importSignedOutSessions(database, dataDir, NOW);
    expect(await rows()).toEqual([]);
    const file = join(dataDir, 'signed-out-sessions');
    writeFileSync(file, `old ${NOW - 1}\n`);
    await importSignedOutSessions(database, dataDir, NOW);
    expect(await rows()).toEqual([]);
    expect(existsSync(`${file}.imported`)).toBe(true);
  });
});

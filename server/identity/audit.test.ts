// The audit log's reads: newest first, a text filter that matches what was typed (a % or _ in it
// is no wildcard), and a page size held between 1 and AUDIT_PAGE_MAX.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { AUDIT_PAGE_MAX } from './audit';
import { createIdentityStore, type IdentityStore } from './store';

let store: IdentityStore;
beforeEach(async () => {
  await resetTestDatabase();
  store = createIdentityStore(testDatabase());
});

describe('the audit log', () => {
  it('lists newest first, by action, and by text matched as typed', async () => {
    await store.audit({ action: 'board.create', target: '50%_off' });
    await store.audit({ action: 'board.create', target: '50 and more off' });
    await store.audit({ action: 'role.change', actor: { userId: 'u1', name: 'Ada' }, target: 'Bo' });
    expect((await store.listAudit()).map((entry) => entry.target)).toEqual([
      'Bo',
      '50 and more off',
      '50%_off',
    ]);
    expect(
      (await store.listAudit({ action: 'role.change' })).map((entry) => [entry.actorId, entry.actorName]),
    ).toEqual([['u1', 'Ada']]);
    expect((await store.listAudit({ q: '%_' })).map((entry) => entry.target)).toEqual(['50%_off']);
    expect((await store.listAudit({ q: 'ADA' })).map((entry) => entry.target)).toEqual(['Bo']);
  });

  it('pages back from an entry, leaving it out, and matches every field in any case', async () => {
    await store.audit({ action: 'Board.Create', target: 'First' });
    await store.audit({ action: 'x', target: 'Second' });
    await store.audit({ action: 'x', target: 'Third' });
    const [third, second] = await store.listAudit();
    expect((await store.listAudit({ before: second!.id })).map((entry) => entry.target)).toEqual(['First']);
    expect((await store.listAudit({ before: third!.id })).map((entry) => entry.target)).toEqual([
      'Second',
      'First',
    ]);
    expect((await store.listAudit({ q: 'sECOND' })).map((entry) => entry.target)).toEqual(['Second']);
    expect((await store.listAudit({ q: 'board.c' })).map((entry) => entry.target)).toEqual(['First']);
  });

  it('gives at most AUDIT_PAGE_MAX entries, and at least one', async () => {
    const { db } = await testDatabase();
    await sql`insert into audit_log (action) select 'x' from generate_series(1, ${AUDIT_PAGE_MAX + 1})`.execute(
      db,
    );
    expect(await store.listAudit({ limit: AUDIT_PAGE_MAX })).toHaveLength(AUDIT_PAGE_MAX);
    expect(await store.listAudit({ limit: AUDIT_PAGE_MAX + 1 })).toHaveLength(AUDIT_PAGE_MAX);
    expect(await store.listAudit({ limit: 0 })).toHaveLength(1);
    const [newest] = await store.listAudit({ limit: 1 });
    expect(await store.listAudit({ before: newest!.id, limit: AUDIT_PAGE_MAX })).toHaveLength(AUDIT_PAGE_MAX);
  });
});

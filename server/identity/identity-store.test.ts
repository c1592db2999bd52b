// The identity store's smaller promises, on one PGlite emptied per test with an injected clock:
// sessions (their week, expired ones cleared as new ones come at their bound, a token's length
// bound, one sign-out ending one session), people (local accounts by e-mail in any case, the stored
// password, a sign-in noted, the local admin made once, roles of the removed), one-time links
// (revoked once, set-up links never listed, a redeemed account's address) and the audit log's defaults.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { LOCAL_ADMIN } from './request-identity';
import { tokenHash } from './sessions';
import { createIdentityStore, SESSION_MAX_AGE_S, type IdentityStore } from './store';

const START = Date.UTC(2026, 0, 1);
const clock = { now: START };
let store: IdentityStore;

beforeEach(async () => {
  await resetTestDatabase();
  clock.now = START;
  store = createIdentityStore(testDatabase(), () => clock.now);
});

const db = async () => (await testDatabase()).db;
const local = (email: string, name = 'Bo') => store.upsertPerson({ source: 'local', subject: email, name });

describe('sessions', () => {
  it('last a week; expired ones are cleared as a new one comes, from their end on', async () => {
    const bo = await local('bo@example.com');
    const first = await store.createSession(bo.id);
    expect(first.expiresAt).toBe(START + 7 * 24 * 3600 * 1000);
    expect(SESSION_MAX_AGE_S).toBe(7 * 24 * 3600);
    expect(first.id).toBe(tokenHash(first.token));
    const count = async () => (await (await db()).selectFrom('sessions').select('id').execute()).length;
    clock.now = first.expiresAt - 1;
    await store.createSession(bo.id);
    expect(await count()).toBe(2);
    clock.now = first.expiresAt;
    await store.createSession(bo.id);
    expect(await count()).toBe(2);
  });

  it('take a token of up to 200 characters, and no empty one', async () => {
    const bo = await local('bo@example.com');
    const expires = new Date(START + 1000);
    for (const token of ['t'.repeat(200), 't'.repeat(201), ''])
      await sql`insert into sessions (id, user_id, expires_at) values (${tokenHash(token)}, ${bo.id}, ${expires})`.execute(
        await db(),
      );
    expect(await store.identityOfSession('t'.repeat(200))).toMatchObject({ userId: bo.id, name: 'Bo' });
    expect(await store.identityOfSession('t'.repeat(201))).toBeUndefined();
    expect(await store.identityOfSession('')).toBeUndefined();
  });

  it('end one at a time at a sign-out', async () => {
    const bo = await local('bo@example.com');
    const one = await store.createSession(bo.id);
    const other = await store.createSession(bo.id);
    await store.endSession(one.token);
    expect(await store.identityOfSession(one.token)).toBeUndefined();
    expect(await store.identityOfSession(other.token)).toMatchObject({ userId: bo.id, sessionId: other.id });
  });
});

describe('people', () => {
  it('find a local account by its address in any case, with its password; not a removed one or another source', async () => {
    const bo = await local('bo@example.com');
    await store.setPasswordHash(bo.id, 'scrypt$hash');
    expect(await store.passwordHashOf(bo.id)).toBe('scrypt$hash');
    expect(await store.findLocal('Bo@Example.COM')).toEqual({
      person: expect.objectContaining({ id: bo.id, source: 'local' }),
      passwordHash: 'scrypt$hash',
    });
    await store.upsertPerson({ source: 'oidc', subject: 'cy@example.com', name: 'Cy' });
    expect(await store.findLocal('cy@example.com')).toBeUndefined();
    await store.removePerson(bo.id);
    expect(await store.findLocal('bo@example.com')).toBeUndefined();
    expect(await store.passwordHashOf('nobody')).toBeUndefined();
  });

  it('note a sign-in, are made a viewer by default, and keep their address unless a new one is given', async () => {
    const made = await store.upsertPerson({
      source: 'oidc',
      subject: 's1',
      name: 'Di',
      email: 'di@example.com',
    });
    expect(made).toMatchObject({
      role: 'viewer',
      email: 'di@example.com',
      lastSignInAt: START,
      removed: false,
    });
    clock.now += 1000;
    expect(await store.upsertPerson({ source: 'oidc', subject: 's1', name: 'Di' })).toMatchObject({
      email: 'di@example.com',
      lastSignInAt: START + 1000,
    });
    expect(
      await store.upsertPerson({ source: 'oidc', subject: 's1', name: 'Di', email: 'new@example.com' }),
    ).toMatchObject({ email: 'new@example.com' });
    clock.now += 1000;
    await store.touch(made.id);
    expect(await store.findPerson(made.id)).toMatchObject({ lastSignInAt: START + 2000, removed: false });
    expect(await store.findBySubject('oidc', 's1')).toMatchObject({ id: made.id, removed: false });
    expect(await store.findBySubject('local', 's1')).toBeUndefined();
    expect(await store.findPerson('nobody')).toBeUndefined();
  });

  it('say whether they were removed, however they are found', async () => {
    const di = { source: 'oidc' as const, subject: 's-di', name: 'Di' };
    const made = await store.upsertPerson(di);
    expect(await store.upsertPerson({ ...di, name: 'Di L.' })).toMatchObject({
      name: 'Di L.',
      removed: false,
    });
    expect(await store.upsertPerson({ ...di, touch: false })).toMatchObject({ removed: false });
    await store.removePerson(made.id);
    expect(await store.upsertPerson({ ...di, touch: false })).toMatchObject({ id: made.id, removed: true });
    expect(await store.findBySubject('oidc', 's-di')).toMatchObject({ id: made.id, removed: true });
  });

  it('have one local admin however often it is made, and no role change once removed', async () => {
    await store.ensureLocalAdmin();
    await store.ensureLocalAdmin();
    expect(await store.listPeople()).toEqual([
      expect.objectContaining({
        id: LOCAL_ADMIN.userId,
        name: LOCAL_ADMIN.name,
        role: 'admin',
        source: 'local-admin',
      }),
    ]);
    const bo = await local('bo@example.com');
    await store.removePerson(bo.id);
    expect(await store.setRole(bo.id, 'admin')).toBeUndefined();
    expect(await store.removePerson(bo.id)).toBeUndefined();
    expect(await store.findPerson(bo.id)).toMatchObject({ role: 'viewer', removed: true });
  });
});

describe('one-time links', () => {
  const invite = (email: string | null = null) =>
    store.createLink({ purpose: 'invite', role: 'creator', email, createdBy: 'u-boss', ttlMs: 60_000 });

  it('are revoked once; a set-up link is never listed, a used one neither', async () => {
    await store.createLink({ purpose: 'setup', role: 'admin', ttlMs: 60_000 });
    const used = await invite();
    await store.redeemLink(used, 'invite', { name: 'Bo', email: 'bo@example.com', passwordHash: 'h' });
    await invite('cy@example.com');
    const listed = await store.listLinks();
    expect(listed).toEqual([
      {
        id: expect.any(String),
        role: 'creator',
        email: 'cy@example.com',
        createdAt: expect.any(Number),
        expiresAt: START + 60_000,
      },
    ]);
    expect(await store.revokeLink(listed[0]!.id)).toBe(true);
    expect(await store.revokeLink(listed[0]!.id)).toBe(false);
    expect(await store.revokeLink('nothing')).toBe(false);
    expect(await store.listLinks()).toEqual([]);
    const rows = await (await db()).selectFrom('one_time_links').select(['created_by', 'purpose']).execute();
    expect(rows.map((row) => row.created_by).sort()).toEqual([null, 'u-boss', 'u-boss']);
  });

  it('make an account under its address in lower case, signed in now, with its password', async () => {
    const token = await invite();
    clock.now += 5;
    const bo = await store.redeemLink(token, 'invite', {
      name: 'Bo',
      email: 'Bo@Example.com',
      passwordHash: 'h',
    });
    expect(bo).toMatchObject({
      name: 'Bo',
      email: 'bo@example.com',
      source: 'local',
      role: 'creator',
      lastSignInAt: START + 5,
    });
    expect(await store.findLocal('bo@example.com')).toMatchObject({ passwordHash: 'h' });
    expect(
      await store.redeemLink(token, 'setup', { name: 'X', email: 'x@example.com', passwordHash: 'h' }),
    ).toBeUndefined();
  });

  it('take a token of up to 200 characters, and no empty one', async () => {
    const until = new Date(START + 1000);
    for (const token of ['l'.repeat(200), 'l'.repeat(201), ''])
      await sql`insert into one_time_links (id, purpose, role, expires_at) values (${tokenHash(token)}, 'invite', 'viewer', ${until})`.execute(
        await db(),
      );
    expect(await store.findLink('l'.repeat(200), 'invite')).toEqual({ role: 'viewer', email: null });
    expect(await store.findLink('l'.repeat(201), 'invite')).toBeUndefined();
    expect(await store.findLink('', 'invite')).toBeUndefined();
  });
});

describe('the audit log', () => {
  it('keeps an entry without actor, target or detail as nulls, and pages 100 entries unless asked', async () => {
    await store.audit({ action: 'system.start' });
    expect(await store.listAudit()).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(Number),
        actorId: null,
        actorName: null,
        action: 'system.start',
        target: null,
        detail: null,
      },
    ]);
    await sql`insert into audit_log (action) select 'x' from generate_series(1, 100)`.execute(await db());
    expect(await store.listAudit()).toHaveLength(100);
    expect((await store.listAudit({ limit: 101 })).at(-1)).toMatchObject({ action: 'system.start' });
  });
});

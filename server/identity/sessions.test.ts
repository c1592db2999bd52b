// A session's identity is kept in memory for SESSION_CACHE_MS, so a signed-in browser's polls do not
// each ask the database. What this instance changes holds at its next request; what another instance
// changes (here: the row changed behind the store's back) holds within SESSION_CACHE_MS; a session
// is never let in past its own end.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createIdentityStore, SESSION_CACHE_MS, SESSION_MAX_AGE_S, type IdentityStore } from './store';

let clock: { now: number };
let store: IdentityStore;
let userId: string;
let token: string;

beforeEach(async () => {
  await resetTestDatabase();
  clock = { now: Date.UTC(2026, 0, 1) };
  store = createIdentityStore(testDatabase(), () => clock.now);
  const person = await store.upsertPerson({ source: 'local', subject: 'ada@example.com', name: 'Ada' });
  await store.setRole(person.id, 'creator');
  userId = person.id;
  ({ token } = await store.createSession(userId));
});

/** What another instance does: the same database, not this store. */
async function elsewhere(statement: ReturnType<typeof sql>) {
  await statement.execute((await testDatabase()).db);
}

describe('the session cache', () => {
  it('answers a looked-up session from memory until SESSION_CACHE_MS has passed', async () => {
    expect(await store.identityOfSession(token)).toMatchObject({ userId, role: 'creator' });
    await elsewhere(sql`delete from sessions`);
    clock.now += SESSION_CACHE_MS - 1;
    expect(await store.identityOfSession(token)).toMatchObject({ userId, role: 'creator' });
    clock.now += 1;
    expect(await store.identityOfSession(token)).toBeUndefined();
  });

  it('takes a role changed on another instance within SESSION_CACHE_MS', async () => {
    await store.identityOfSession(token);
    await elsewhere(sql`update users set role = 'viewer' where id = ${userId}`);
    clock.now += SESSION_CACHE_MS;
    expect(await store.identityOfSession(token)).toMatchObject({ role: 'viewer' });
  });

  it('ends a session signed out on this instance at once', async () => {
    await store.identityOfSession(token);
    await store.endSession(token);
    expect(await store.identityOfSession(token)).toBeUndefined();
  });

  it('ends every session of a person at once (a changed shared password)', async () => {
    await store.identityOfSession(token);
    await store.endSessionsOf(userId);
    expect(await store.identityOfSession(token)).toBeUndefined();
  });

  it('shows a role changed on this instance at the next request', async () => {
    await store.identityOfSession(token);
    await store.setRole(userId, 'admin');
    expect(await store.identityOfSession(token)).toMatchObject({ role: 'admin' });
  });

  it('refuses a person removed on this instance at the next request', async () => {
    await store.identityOfSession(token);
    await store.removePerson(userId);
    expect(await store.identityOfSession(token)).toBeUndefined();
  });

  it('shows a new name from the identity provider at the next request', async () => {
    await store.identityOfSession(token);
    await store.upsertPerson({ source: 'local', subject: 'ada@example.com', name: 'Ada Lovelace' });
    expect(await store.identityOfSession(token)).toMatchObject({ name: 'Ada Lovelace' });
  });

  it('never lets a session in past its end, even one looked up a moment before', async () => {
    clock.now += SESSION_MAX_AGE_S * 1000 - 2;
    expect(await store.identityOfSession(token)).toMatchObject({ userId });
    clock.now += 1;
    expect(await store.identityOfSession(token)).toMatchObject({ userId });
    clock.now += 1;
    expect(await store.identityOfSession(token)).toBeUndefined();
  });
});

// Signing in by the header a reverse proxy sets: believed from a trusted peer only, the name cleaned
// and bounded, the person made a viewer (or an admin when listed) on first sight. On the shared PGlite.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdentityStore } from '../identity/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { trustedHeaderIdentity } from './trusted-header';

const clock = { now: Date.UTC(2026, 0, 1) };
const store = createIdentityStore(testDatabase(), () => clock.now);
const fromHeader = trustedHeaderIdentity(store, {
  header: 'X-Remote-User',
  admins: ['Boss'],
  trustedProxies: (address) => address === '10.0.0.1',
});
const app = new Hono();
app.get('/', async (c) => c.json((await fromHeader(c)) ?? null));

/** What @hono/node-server hands the app for a request from `address` (getConnInfo reads it). */
const from = (address: string | null) =>
  address === null ? {} : { incoming: { socket: { remoteAddress: address } } };

async function who(value: string | undefined, address: string | null = '10.0.0.1') {
  const headers: Record<string, string> = value === undefined ? {} : { 'x-remote-user': value };
  return (await app.request('/', { headers }, from(address))).json();
}

beforeEach(async () => {
  await resetTestDatabase();
});

describe('the trusted header', () => {
  it('makes the named person a viewer on first sight, their e-mail lower-cased when the name is one', async () => {
    const ada = await who('  Ada@Example.com ');
    expect(ada).toMatchObject({ name: 'Ada@Example.com', role: 'viewer', source: 'proxy' });
    expect(await store.findPerson(ada.userId)).toMatchObject({ email: 'ada@example.com' });
    const bob = await who('bob');
    expect(await store.findPerson(bob.userId)).toMatchObject({ email: null });
    // Seen again later: the same person, as they were (a request is not a sign-in).
    clock.now += 60_000;
    expect(await who('bob')).toEqual(bob);
    expect(await store.findBySubject('proxy', 'bob')).toMatchObject({ lastSignInAt: clock.now - 60_000 });
  });

  it('makes no one an admin when no admins are listed', async () => {
    const plain = trustedHeaderIdentity(store, { header: 'x-remote-user', trustedProxies: () => true });
    const open = new Hono();
    open.get('/', async (c) => c.json((await plain(c)) ?? null));
    const res = await open.request('/', { headers: { 'x-remote-user': 'Boss' } }, from('10.0.0.9'));
    expect(await res.json()).toMatchObject({ name: 'Boss', role: 'viewer' });
  });

  it('makes a listed name an admin, exactly as listed', async () => {
    expect(await who('Boss')).toMatchObject({ role: 'admin' });
    expect(await who('boss')).toMatchObject({ role: 'viewer' });
  });

  it('keeps a role an admin gave since, and refuses a removed person', async () => {
    const first = await who('carol');
    await store.setRole(first.userId, 'creator');
    expect(await who('carol')).toMatchObject({ role: 'creator' });
    await store.removePerson(first.userId);
    expect(await who('carol')).toBeNull();
  });

  it('believes the header from a trusted peer only, and never without a peer', async () => {
    expect(await who('ada', '10.0.0.2')).toBeNull();
    expect(await who('ada', null)).toBeNull();
    expect(await store.countPeople()).toBe(0);
  });

  it('names nobody for a missing, blank or control-only header; a name is cut at 254 characters', async () => {
    expect(await who(undefined)).toBeNull();
    expect(await who('   ')).toBeNull();
    expect(await who('\u0001\u0002')).toBeNull();
    expect(await store.countPeople()).toBe(0);
    expect((await who('n'.repeat(254))).name).toBe('n'.repeat(254));
    expect((await who(`${'m'.repeat(254)}x`)).name).toBe('m'.repeat(254));
  });
});

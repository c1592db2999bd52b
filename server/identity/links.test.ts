// One-time links (invitations, the set-up link) at their bounds, on the store with an injected
// clock: usable until the last millisecond before expires_at, not at it; and used once.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createIdentityStore, type IdentityStore } from './store';

const TTL_MS = 60_000;
let clock: { now: number };
let store: IdentityStore;

beforeEach(async () => {
  await resetTestDatabase();
  clock = { now: Date.UTC(2026, 0, 1) };
  store = createIdentityStore(testDatabase(), () => clock.now);
});

const invitation = (email: string | null = null) =>
  store.createLink({ purpose: 'invite', role: 'creator', email, createdBy: null, ttlMs: TTL_MS });
const values = { name: 'Bo', email: 'bo@example.com', passwordHash: 'hash' };

describe('an invitation', () => {
  it('opens until one millisecond before it expires, and not at its expiry', async () => {
    const token = await invitation();
    const expiry = clock.now + TTL_MS;
    clock.now = expiry - 1;
    expect(await store.findLink(token, 'invite')).toEqual({ role: 'creator', email: null });
    expect(await store.listLinks()).toEqual([
      expect.objectContaining({ role: 'creator', expiresAt: expiry }),
    ]);
    clock.now = expiry;
    expect(await store.findLink(token, 'invite')).toBeUndefined();
    // The People screen's list of open invitations drops it at the same moment.
    expect(await store.listLinks()).toEqual([]);
    clock.now = expiry + 1;
    expect(await store.findLink(token, 'invite')).toBeUndefined();
  });

  it('is redeemed one millisecond before it expires, and refused at its expiry', async () => {
    const late = await invitation();
    clock.now += TTL_MS;
    expect(await store.redeemLink(late, 'invite', values)).toBeUndefined();
    const inTime = await invitation();
    clock.now += TTL_MS - 1;
    expect(await store.redeemLink(inTime, 'invite', values)).toMatchObject({ name: 'Bo', role: 'creator' });
    // Once only.
    expect(await store.redeemLink(inTime, 'invite', { ...values, email: 'cy@example.com' })).toBeUndefined();
  });

  it('keeps the address it was made for, in lower case; and an invitation is no set-up link', async () => {
    const token = await invitation('Bo@Example.com');
    expect(await store.findLink(token, 'invite')).toEqual({ role: 'creator', email: 'bo@example.com' });
    expect(await store.findLink(token, 'setup')).toBeUndefined();
  });
});

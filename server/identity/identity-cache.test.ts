// The identities a session or a token was just looked up as: used for SESSION_CACHE_MS at most, never
// from the secret's last millisecond on, the least recently used dropped first when full.
import { describe, expect, it } from 'vitest';
import { IdentityCache, identityOfUser, SESSION_CACHE_MS } from './identity-cache';
import type { Identity } from './request-identity';

const START = Date.UTC(2026, 0, 1);
const person = (userId: string): Identity => ({ userId, name: userId, role: 'creator', source: 'local' });
const farEnd = new Date(START + 24 * 3600 * 1000);

function cacheAt(max = 10) {
  const clock = { now: START };
  return { clock, cache: new IdentityCache(() => clock.now, max) };
}

describe('IdentityCache', () => {
  it('answers until SESSION_CACHE_MS has passed, not at it', () => {
    const { clock, cache } = cacheAt();
    cache.set('a', person('ada'), farEnd);
    clock.now += SESSION_CACHE_MS - 1;
    expect(cache.get('a')?.userId).toBe('ada');
    clock.now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it("never answers from the secret's own last millisecond on", () => {
    const { clock, cache } = cacheAt();
    cache.set('a', person('ada'), new Date(START + 1000));
    clock.now += 999;
    expect(cache.get('a')?.userId).toBe('ada');
    clock.now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds exactly max, dropping the least recently used one past it', () => {
    const { cache } = cacheAt(2);
    cache.set('a', person('ada'), farEnd);
    cache.set('b', person('bob'), farEnd);
    expect(cache.get('a')?.userId).toBe('ada'); // a is now the most recently used
    cache.set('c', person('cy'), farEnd);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.userId).toBe('ada');
    expect(cache.get('c')?.userId).toBe('cy');
  });

  it('forgets every secret of one person, and only theirs', () => {
    const { cache } = cacheAt();
    cache.set('a1', person('ada'), farEnd);
    cache.set('a2', person('ada'), farEnd);
    cache.set('b', person('bob'), farEnd);
    cache.forgetUser('ada');
    expect([cache.get('a1'), cache.get('a2')]).toEqual([undefined, undefined]);
    expect(cache.get('b')?.userId).toBe('bob');
    cache.delete('b');
    expect(cache.get('b')).toBeUndefined();
  });
});

describe('identityOfUser', () => {
  it("is the user row's person with what the secret adds", () => {
    const row = { userId: 'u1', display_name: 'Ada', role: 'admin' as const, source: 'oidc' as const };
    expect(identityOfUser(row, { sessionId: 'token:t1', tokenId: 't1' })).toEqual({
      userId: 'u1',
      name: 'Ada',
      role: 'admin',
      source: 'oidc',
      sessionId: 'token:t1',
      tokenId: 't1',
    });
    expect(identityOfUser(row, { sessionId: 's1' })).not.toHaveProperty('tokenId');
  });
});

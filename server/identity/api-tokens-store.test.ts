// The API token store on its own (one PGlite, emptied per test, an injected clock): the bearer
// header's shape, which paths take a token, the per-person limit at its bound (expired and revoked
// tokens free a place), a token's use noted and audited at most once an hour, the identity cache,
// the lists and a revocation. api-tokens.test.ts drives the same through the production app.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { API_TOKEN_PREFIX, TOKENS_PER_PERSON_MAX } from '../../src/api/api-tokens';
import { resetTestDatabase, testDatabase } from '../testing/database';
import {
  bearerOf,
  createApiTokens,
  FOREIGN_TOKEN_MESSAGE,
  identityOfBearer,
  INVALID_TOKEN_MESSAGE,
  takesApiToken,
  TOKEN_USE_AUDIT_MS,
  type ApiTokens,
} from './api-tokens';
import { SESSION_CACHE_MS } from './identity-cache';
import { tokenHash } from './sessions';
import type { Identity } from './request-identity';
import { createIdentityStore, type IdentityStore } from './store';

const DAY_MS = 24 * 3600 * 1000;
const clock = { now: 0 };
let people: IdentityStore;
let tokens: ApiTokens;
let ana: Identity;

beforeEach(async () => {
  await resetTestDatabase();
  clock.now = Date.UTC(2026, 0, 1, 12);
  people = createIdentityStore(testDatabase(), () => clock.now);
  tokens = createApiTokens(testDatabase(), people, () => clock.now);
  const row = await people.upsertPerson({ source: 'local', subject: 'ana', name: 'Ana', role: 'creator' });
  ana = { userId: row.id, name: 'Ana', role: 'creator', source: 'local' };
});

async function make(days = 30, name = 'nightly') {
  const made = await tokens.create(ana, name, days);
  if (made === 'too-many') throw new Error('too many');
  return made;
}

/** What another instance does: the same database, not this store. */
async function elsewhere(statement: ReturnType<typeof sql>) {
  await statement.execute((await testDatabase()).db);
}

describe('the bearer header', () => {
  it('gives the token of "Bearer <token>", whatever the case and spacing around it, and nothing else', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('  bearer   abc \t')).toBe('abc');
    expect(bearerOf('BEARER abc')).toBe('abc');
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearerabc',
      'Bearer a b',
      'Basic abc',
      'x Bearer abc',
    ])
      expect(bearerOf(header), String(header)).toBeUndefined();
  });

  it('is taken on the API paths only', () => {
    expect(takesApiToken('/v1/image_generate')).toBe(true);
    expect(takesApiToken('/__console/tasks')).toBe(true);
    for (const path of ['/v1', '/__console', '/tasks', '/x/v1/', '/auth/callback'])
      expect(takesApiToken(path), path).toBe(false);
  });

  it('is no console token when absent, on another path or scheme; foreign without the prefix; refused when not valid', async () => {
    const made = await make();
    const header = `Bearer ${made.token}`;
    expect(await identityOfBearer(tokens, '/__console/tasks', undefined)).toBeUndefined();
    expect(await identityOfBearer(tokens, '/tasks', header)).toBeUndefined();
    expect(await identityOfBearer(tokens, '/__console/tasks', `Basic ${made.token}`)).toBeUndefined();
    expect(await identityOfBearer(tokens, '/__console/tasks', 'Bearer service-token')).toBe('foreign');
    expect(await identityOfBearer(tokens, '/v1/x', `Bearer ${API_TOKEN_PREFIX}nope`)).toBe('refused');
    expect(await identityOfBearer(tokens, '/v1/x', header)).toMatchObject({ userId: ana.userId });
  });
});

describe('a token of another shape', () => {
  it('is no token, even with its hash in the table', async () => {
    const made = await make();
    for (const token of [`${API_TOKEN_PREFIX}short`, `${made.token}A`, `x${made.token.slice(1)}`]) {
      await elsewhere(sql`update api_tokens set token_hash = ${tokenHash(token)}`);
      expect(await tokens.identify(token), token).toBeUndefined();
    }
  });

  it("is refused in words a script's author can act on", () => {
    expect(INVALID_TOKEN_MESSAGE).toBe('This API token is not valid: it is unknown, revoked or expired');
    expect(FOREIGN_TOKEN_MESSAGE).toBe(
      "That bearer token is not a console API token (they start with mct_; the service's API_TOKEN is not one): make one on the People screen",
    );
  });
});

describe('making a token', () => {
  it('lasts the days asked, is audited with its end, and is known by its shape only', async () => {
    const made = await make(2);
    expect(made).toMatchObject({ name: 'nightly', expiresAt: clock.now + 2 * DAY_MS });
    expect(made.token).toMatch(new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(await people.listAudit()).toEqual([
      expect.objectContaining({
        actorName: 'Ana',
        action: 'token.create',
        target: 'nightly',
        detail: { tokenId: made.id, expiresAt: new Date(clock.now + 2 * DAY_MS).toISOString() },
      }),
    ]);
    // One character more or less is no token of this console, whatever its hash.
    expect(await tokens.identify(`${made.token}A`)).toBeUndefined();
    expect(await tokens.identify(made.token.slice(0, -1))).toBeUndefined();
    expect(await tokens.identify(` ${made.token}`)).toBeUndefined();
  });

  it(`holds ${TOKENS_PER_PERSON_MAX} live tokens a person; one expiring now frees its place`, async () => {
    await make(1);
    for (let i = 1; i < TOKENS_PER_PERSON_MAX; i++) await make(30);
    expect(await tokens.create(ana, 'one more', 30)).toBe('too-many');
    expect(await people.listAudit({ action: 'token.create' })).toHaveLength(TOKENS_PER_PERSON_MAX);
    clock.now += DAY_MS - 1;
    expect(await tokens.create(ana, 'one more', 30)).toBe('too-many');
    clock.now += 1;
    expect(await tokens.create(ana, 'one more', 30)).toMatchObject({ name: 'one more' });
  });
});

describe('a token in use', () => {
  it('acts as its person with its own session, and notes its last use', async () => {
    const made = await make();
    expect(await tokens.identify(made.token)).toEqual({
      userId: ana.userId,
      name: 'Ana',
      role: 'creator',
      source: 'local',
      sessionId: `token:${made.id}`,
      tokenId: made.id,
    });
    expect(await tokens.find(made.id)).toMatchObject({ lastUsedAt: clock.now, revokedAt: null });
  });

  it('goes in the audit log at its first use, then once TOKEN_USE_AUDIT_MS has passed, not before', async () => {
    const made = await make();
    const uses = async () => (await people.listAudit({ action: 'token.use' })).length;
    const use = async (at: number) => {
      // Each use here is past the identity cache's few seconds, so it reaches the database.
      clock.now = at;
      return tokens.identify(made.token);
    };
    const first = clock.now;
    await use(first);
    expect(await uses()).toBe(1);
    expect((await people.listAudit({ action: 'token.use' }))[0]).toMatchObject({
      actorName: 'Ana',
      target: 'nightly',
      detail: { tokenId: made.id },
    });
    await use(first + TOKEN_USE_AUDIT_MS - 1);
    expect(await uses()).toBe(1);
    // Each use is noted even when it is not audited.
    expect((await tokens.find(made.id))!.lastUsedAt).toBe(first + TOKEN_USE_AUDIT_MS - 1);
    await use(first + 2 * TOKEN_USE_AUDIT_MS - 1);
    expect(await uses()).toBe(2);
  });

  it('is remembered for SESSION_CACHE_MS: a revocation on another instance holds from then on', async () => {
    const made = await make();
    await tokens.identify(made.token);
    await elsewhere(sql`update api_tokens set revoked_at = now()`);
    clock.now += SESSION_CACHE_MS - 1;
    expect(await tokens.identify(made.token)).toMatchObject({ userId: ana.userId });
    clock.now += 1;
    expect(await tokens.identify(made.token)).toBeUndefined();
  });

  it('is refused from its last millisecond on, even when just looked up', async () => {
    const made = await make(1);
    clock.now = made.expiresAt - 2;
    expect(await tokens.identify(made.token)).toBeDefined();
    clock.now = made.expiresAt - 1;
    expect(await tokens.identify(made.token)).toBeDefined();
    clock.now = made.expiresAt;
    expect(await tokens.identify(made.token)).toBeUndefined();
  });

  it('is refused once its person is removed, and a revoked one at once on this instance', async () => {
    const made = await make();
    const other = await make(30, 'other');
    await tokens.identify(made.token);
    await tokens.identify(other.token);
    const revoked = await tokens.revoke(other.id, ana);
    expect(revoked).toMatchObject({ id: other.id, revokedAt: clock.now, personName: 'Ana' });
    expect(await tokens.identify(other.token)).toBeUndefined();
    expect(await tokens.revoke(other.id, ana)).toBeUndefined();
    await elsewhere(sql`update users set removed_at = now()`);
    clock.now += SESSION_CACHE_MS;
    expect(await tokens.identify(made.token)).toBeUndefined();
  });
});

describe('lists and revocations', () => {
  it("lists newest first, one person's or everyone's, and keeps a token whose person's row is gone", async () => {
    const first = await make(30, 'first');
    clock.now += 1000;
    const second = await make(30, 'second');
    clock.now += 1000;
    const ben = await people.upsertPerson({ source: 'local', subject: 'ben', name: 'Ben' });
    const bens = await tokens.create({ ...ana, userId: ben.id, name: 'Ben' }, 'bens', 1);
    expect((await tokens.list(ana.userId)).map((token) => token.name)).toEqual(['second', 'first']);
    expect((await tokens.list()).map((token) => token.name)).toEqual(['bens', 'second', 'first']);
    expect(await tokens.find(first.id)).toEqual({
      id: first.id,
      name: 'first',
      userId: ana.userId,
      personName: 'Ana',
      createdAt: clock.now - 2000,
      expiresAt: first.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    await elsewhere(sql`delete from users where id = ${ben.id}`);
    expect(await tokens.find((bens as { id: string }).id)).toMatchObject({ personName: ben.id });
    expect(await tokens.find('no-such-id')).toBeUndefined();
    expect(second.id).not.toBe(first.id);
  });

  it("logs a revocation by its maker's name and the owner's", async () => {
    const made = await make();
    const admin: Identity = { userId: 'u-boss', name: 'Boss', role: 'admin', source: 'local' };
    await tokens.revoke(made.id, admin);
    expect((await people.listAudit({ action: 'token.revoke' }))[0]).toMatchObject({
      actorName: 'Boss',
      target: 'nightly',
      detail: { tokenId: made.id, owner: 'Ana' },
    });
  });
});

// Personal API tokens: a person's scripts call the console with `Authorization: Bearer <token>` and
// act as that person, with their current role, under their name in the record and within their
// limits. The table keeps the token's sha256 only (a 256-bit random token needs no slow hash); the
// token is shown once, at its creation. Like sessions, a token's identity is looked up at most every
// SESSION_CACHE_MS per instance: revoking, expiry and a removed person hold at once on the instance
// that made the change, within that on the others, and never past the token's own end.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  API_TOKEN_PREFIX,
  TOKENS_PER_PERSON_MAX,
  type CreatedToken,
  type TokenView,
} from '../../src/api/api-tokens';
import type { Database, Db } from '../db/database';
import type { Identity } from './request-identity';
import { IdentityCache, identityOfUser } from './identity-cache';
import { tokenHash } from './sessions';
import type { IdentityStore } from './store';

const DAY_MS = 24 * 3600 * 1000;
/** A token's use goes in the audit log at its first use and then at most once an hour (per token). */
export const TOKEN_USE_AUDIT_MS = 3600 * 1000;
const CACHE_MAX = 10_000;
/** The prefix and 43 base64url characters (32 random bytes). */
const TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** The token of an `Authorization: Bearer …` header; undefined when there is no such header. */
export function bearerOf(header: string | undefined): string | undefined {
  // Trimmed first, so the token is the last thing in the header.
  return header === undefined ? undefined : /^Bearer[ ]+(\S+)$/i.exec(header.trim())?.[1];
}

/** Whether a path takes a personal token: the console's API, not its pages or the sign-in. */
export const takesApiToken = (path: string) => path.startsWith('/v1/') || path.startsWith('/__console/');

/** The 401 a request with a bearer token that is not (or no longer) a valid console token gets. */
export const INVALID_TOKEN_MESSAGE = 'This API token is not valid: it is unknown, revoked or expired';
/** The 401 of a request whose only credential is a bearer token that is not a console token. */
export const FOREIGN_TOKEN_MESSAGE = `That bearer token is not a console API token (they start with ${API_TOKEN_PREFIX}; the service's API_TOKEN is not one): make one on the People screen`;

/**
 * Who the request's `Authorization: Bearer` token says it is:
 * - undefined: no console token (none, another scheme, or a path that takes none): the sign-in
 *   layer goes on with the cookie or the proxy's header;
 * - 'foreign': a bearer token that is not a console token (no `mct_`: the service's API_TOKEN, or an
 *   authenticating proxy's own token passed on): ignored, never compared with anything, and named
 *   in the 401 if nothing else signs the request in;
 * - 'refused': a console token that is not valid (unknown, revoked, expired, its person removed). It
 *   never falls back to the cookie: a script must hear that its token stopped working.
 */
export async function identityOfBearer(
  tokens: ApiTokens,
  path: string,
  authorization: string | undefined,
): Promise<Identity | 'refused' | 'foreign' | undefined> {
  if (!authorization || !takesApiToken(path)) return undefined;
  const token = bearerOf(authorization);
  if (token === undefined) return undefined;
  if (!token.startsWith(API_TOKEN_PREFIX)) return 'foreign';
  return (await tokens.identify(token)) ?? 'refused';
}

export interface ApiTokens {
  /** A new token for `userId`, or 'too-many' when they hold TOKENS_PER_PERSON_MAX already. */
  create(owner: Identity, name: string, days: number): Promise<CreatedToken | 'too-many'>;
  /** The tokens of one person, or everyone's (admins), newest first; revoked and expired ones too. */
  list(userId?: string): Promise<TokenView[]>;
  find(id: string): Promise<TokenView | undefined>;
  /** Revokes the token; undefined when there is no such token or it was already revoked. */
  revoke(id: string, by: Identity): Promise<TokenView | undefined>;
  /** The identity a token acts as, or undefined (unknown, revoked, expired, its person removed). */
  identify(token: string): Promise<Identity | undefined>;
}

interface TokenRow {
  id: string;
  name: string;
  user_id: string;
  display_name: string | null;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toView = (row: TokenRow): TokenView => ({
  id: row.id,
  name: row.name,
  userId: row.user_id,
  personName: row.display_name ?? row.user_id,
  createdAt: row.created_at.getTime(),
  expiresAt: row.expires_at.getTime(),
  lastUsedAt: row.last_used_at?.getTime() ?? null,
  revokedAt: row.revoked_at?.getTime() ?? null,
});

// A left join: a list shows every token, even one whose person's row is gone.
const selectTokens = (d: Db) =>
  d
    .selectFrom('api_tokens')
    .leftJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.name',
      'api_tokens.user_id',
      'users.display_name',
      'api_tokens.created_at',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'api_tokens.revoked_at',
    ]);

/** Notes the use; the first use in TOKEN_USE_AUDIT_MS goes in the audit log, once across instances. */
async function noteUse(
  d: Db,
  people: IdentityStore,
  now: () => number,
  use: { id: string; identity: Identity; name: string },
) {
  const { id, identity, name } = use;
  const at = new Date(now());
  const first = await d
    .updateTable('api_tokens')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', new Date(now() - TOKEN_USE_AUDIT_MS))]),
    )
    .returning('id')
    .executeTakeFirst();
  if (first) {
    await people.audit({
      actor: identity,
      action: 'token.use',
      target: name,
      detail: { tokenId: id },
    });
  } else {
    await d.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}

/** Adds the token unless its person holds TOKENS_PER_PERSON_MAX live ones already; false then. */
function insertUnderLimit(
  d: Db,
  row: { id: string; hash: string; userId: string; name: string },
  now: () => number,
  expiresAt: number,
): Promise<boolean> {
  return d.transaction().execute(async (trx) => {
    // Two creations at once (two instances) must not both pass the count: the person's row is
    // the lock.
    // Stryker disable next-line StringLiteral: the lock matters between two connections at once; the tests' PGlite has one
    await sql`select id from users where id = ${row.userId} for update`.execute(trx);
    const held = await trx
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', row.userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(now()))
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= TOKENS_PER_PERSON_MAX) return false;
    await trx
      .insertInto('api_tokens')
      .values({
        id: row.id,
        token_hash: row.hash,
        user_id: row.userId,
        name: row.name,
        created_at: new Date(now()),
        expires_at: new Date(expiresAt),
      })
      .execute();
    return true;
  });
}

export function createApiTokens(
  database: Promise<Database>,
  people: IdentityStore,
  now: () => number = Date.now,
): ApiTokens {
  const db = async (): Promise<Db> => (await database).db;
  /** Token hash -> the identity it acts as, while it may be used without asking again. */
  const cache = new IdentityCache(now, CACHE_MAX);

  return {
    async create(owner, name, days) {
      const d = await db();
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const id = randomUUID();
      const expiresAt = now() + days * DAY_MS;
      const made = await insertUnderLimit(
        d,
        { id, hash: tokenHash(token), userId: owner.userId, name },
        now,
        expiresAt,
      );
      if (!made) return 'too-many';
      await people.audit({
        actor: owner,
        action: 'token.create',
        target: name,
        detail: { tokenId: id, expiresAt: new Date(expiresAt).toISOString() },
      });
      return { id, token, name, expiresAt };
    },
    async list(userId) {
      let query = selectTokens(await db()).orderBy('api_tokens.created_at', 'desc');
      if (userId) query = query.where('api_tokens.user_id', '=', userId);
      return (await query.execute()).map(toView);
    },
    async find(id) {
      const row = await selectTokens(await db())
        .where('api_tokens.id', '=', id)
        .executeTakeFirst();
      return row ? toView(row) : undefined;
    },
    async revoke(id, by) {
      const d = await db();
      const revoked = await d
        .updateTable('api_tokens')
        .set({ revoked_at: new Date(now()) })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning('token_hash')
        .executeTakeFirst();
      if (!revoked) return undefined;
      cache.delete(revoked.token_hash);
      const view = (await this.find(id))!;
      await people.audit({
        actor: by,
        action: 'token.revoke',
        target: view.name,
        detail: { tokenId: id, owner: view.personName },
      });
      return view;
    },
    async identify(token) {
      if (!TOKEN_SHAPE.test(token)) return undefined;
      const hash = tokenHash(token);
      const cached = cache.get(hash);
      if (cached) return cached;
      const d = await db();
      const row = await d
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select([
          'api_tokens.id',
          'api_tokens.name',
          'api_tokens.expires_at',
          'users.id as userId',
          'users.display_name',
          'users.role',
          'users.source',
        ])
        .where('api_tokens.token_hash', '=', hash)
        .where('api_tokens.revoked_at', 'is', null)
        .where('api_tokens.expires_at', '>', new Date(now()))
        .where('users.removed_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      // Event streams are counted per session; a token counts as one.
      const identity = identityOfUser(row, { sessionId: `token:${row.id}`, tokenId: row.id });
      await noteUse(d, people, now, { id: row.id, identity, name: row.name });
      cache.set(hash, identity, row.expires_at);
      return identity;
    },
  };
}

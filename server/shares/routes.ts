// `/__console/shares`: share links of a board or a request. A creator (or an admin) makes one for
// 1..SHARE_DAYS_MAX days and is shown its address once (only the token's hash is kept); lists the
// live ones (their own; an admin every one, or those of one board or request); revokes their own
// (an admin any). Making and revoking are written to the audit log in the same transaction. Roles
// are in server/identity/access.ts; the visitor's side is ./visitor.ts.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { sql, type Insertable } from 'kysely';
import { roleAtLeast } from '../../src/api/roles';
import { checkShareBody, SHARE_PATH_PREFIX, SHARES_LIVE_MAX, type ShareSummary } from '../../src/api/shares';
import type { Database, Db } from '../db/database';
import type { SharesTable } from '../db/schema';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import { requestOrigin } from '../http/request-origin';
import { identityOf, type Identity } from '../identity/request-identity';
import type { ShareRow } from './items';
import { newShareToken, shareTokenHash } from './tokens';
import { NO_STORE } from '../http/no-store';
import { writeAudit } from '../identity/audit';
import { refusal } from '../http/refusal';
import { isMakerOrAdmin } from '../identity/ownership';

const DAY_MS = 86_400_000;
/** Every creation takes it: the team's count of live links is one number, on any instance. */
const SHARES_LOCK = 45_0001;

const toSummary = (row: ShareRow): ShareSummary => ({
  id: row.id,
  board: row.board_id,
  request: row.request_id,
  title: row.title,
  createdBy: row.created_by_name,
  createdById: row.created_by_id,
  createdAt: row.created_at.getTime(),
  expiresAt: row.expires_at.getTime(),
  openedCount: Number(row.opened_count),
  lastOpenedAt: row.last_opened_at?.getTime() ?? null,
});

async function audit(trx: Db, actor: Identity | undefined, action: string, target: string, detail: object) {
  await writeAudit(trx, { actor: actor, action, target: target, detail: detail as Record<string, unknown> });
}

/** The name of what is shared, or undefined when there is no such board or request. */
async function titleOf(db: Db, target: { board: string } | { request: string }) {
  if ('board' in target) {
    const board = await db
      .selectFrom('boards')
      .select('name')
      .where('id', '=', target.board)
      .executeTakeFirst();
    return board?.name;
  }
  const request = await db
    .selectFrom('requests')
    .select('title')
    .where('id', '=', target.request)
    .executeTakeFirst();
  return request ? (request.title ?? target.request) : undefined;
}

/** Live links at `now`: not revoked, not expired. */
const liveShares = (db: Db, now: () => number) =>
  db
    .selectFrom('shares')
    .selectAll()
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date(now()));

/**
 * Inserts the link and its audit row unless the team holds SHARES_LIVE_MAX live ones, counted
 * under the team's lock (one number across instances); false when full.
 */
async function insertShare(
  db: Db,
  now: () => number,
  row: Insertable<SharesTable>,
  audited: { actor: Identity | undefined; detail: object },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SHARES_LOCK})`.execute(trx);
    const { count } = await liveShares(trx, now)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(count) >= SHARES_LIVE_MAX) return false;
    await trx.insertInto('shares').values(row).execute();
    await audit(trx, audited.actor, 'share.create', row.id, audited.detail);
    return true;
  });
}

export interface ShareRouteOptions {
  now?: () => number;
  /** The console's public address, for the link; else the request's origin. */
  publicBaseUrl?: string;
}

export function createShareRoutes(database: Promise<Database>, options: ShareRouteOptions = {}): Hono {
  const app = new Hono();
  const now = options.now ?? Date.now;
  app.use('/__console/shares', refuseUnstorableText());
  app.use('/__console/shares/*', refuseUnstorableText());
  app.onError(databaseInputErrors('shares'));
  const live = (db: Db) => liveShares(db, now);

  app.post('/__console/shares', async (c) => {
    const checked = checkShareBody(await c.req.json().catch(() => undefined));
    if ('msg' in checked) return refusal(c, 400, checked.msg, { field: checked.field });
    const me = identityOf(c);
    const { db } = await database;
    const title = await titleOf(db, checked.target);
    if (title === undefined)
      return refusal(
        c,
        404,
        'board' in checked.target ? 'There is no such board' : 'There is no such request',
      );
    const token = newShareToken();
    const id = `sh-${randomUUID()}`;
    const expiresAt = new Date(now() + checked.days * DAY_MS);
    const made = await insertShare(
      db,
      now,
      {
        id,
        token_hash: shareTokenHash(token),
        board_id: 'board' in checked.target ? checked.target.board : null,
        request_id: 'request' in checked.target ? checked.target.request : null,
        title,
        created_by_id: me?.userId ?? null,
        created_by_name: me?.name ?? null,
        created_at: new Date(now()),
        expires_at: expiresAt,
      },
      { actor: me, detail: { ...checked.target, title, expiresInDays: checked.days } },
    );
    if (!made)
      return refusal(
        c,
        409,
        `The team has ${SHARES_LIVE_MAX} live share links, the most it may keep: revoke one first`,
      );
    const base = options.publicBaseUrl ?? requestOrigin(c);
    return c.json(
      { id, url: `${base}${SHARE_PATH_PREFIX}${token}`, expiresAt: expiresAt.getTime() },
      201,
      NO_STORE,
    );
  });

  // The live links: one's own, or (an admin) everyone's; `board` or `request` narrows to one target.
  app.get('/__console/shares', async (c) => {
    const me = identityOf(c);
    const { db } = await database;
    let query = live(db);
    const board = c.req.query('board');
    const request = c.req.query('request');
    if (board) query = query.where('board_id', '=', board);
    if (request) query = query.where('request_id', '=', request);
    const admin = roleAtLeast(me?.role ?? 'viewer', 'admin');
    if (!admin) query = query.where('created_by_id', '=', me?.userId ?? '');
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(SHARES_LIVE_MAX).execute();
    return c.json({ code: 0, msg: 'ok', data: { shares: rows.map(toSummary) } }, 200, NO_STORE);
  });

  // Revoked by the person who made it, or by an admin; a link already revoked or expired is 404.
  app.delete('/__console/shares/:id', async (c) => {
    const me = identityOf(c);
    const { db } = await database;
    const outcome = await db.transaction().execute(async (trx) => {
      const share = await live(trx).where('id', '=', c.req.param('id')).forUpdate().executeTakeFirst();
      if (!share) return 'gone';
      if (!isMakerOrAdmin(me, share.created_by_id)) return 'not-yours';
      await trx
        .updateTable('shares')
        .set({ revoked_at: new Date(now()), revoked_by_name: me?.name ?? null })
        .where('id', '=', share.id)
        .execute();
      await audit(trx, me, 'share.revoke', share.id, {
        board: share.board_id,
        request: share.request_id,
        title: share.title,
      });
      return 'revoked';
    });
    if (outcome === 'gone')
      return refusal(c, 404, 'There is no such live link (it may have expired or been revoked)');
    if (outcome === 'not-yours') return refusal(c, 403, 'Only admins can revoke a link another person made');
    return c.json({ code: 0, msg: 'ok', data: { ok: true } }, 200, NO_STORE);
  });

  return app;
}

// Stars: each person marks the results they like; their own, never anyone else's.
// `GET /__console/stars` lists the asker's starred task ids, newest first; `POST /__console/stars`
// with `{ids, starred}` stars or unstars them. At most STARS_MAX per person, counted in the same
// transaction as the insert under a per-person lock, so two instances cannot both pass the bound.
import { sql } from 'kysely';
import type { Context, Hono } from 'hono';
import { STARS_MAX } from '../../src/api/boards';
import { BULK_IDS_MAX } from '../../src/api/bulk-rules';
import type { Database } from '../db/database';
import { identityOf } from '../identity/request-identity';
import { announceBoards } from './live';
import { idsOf, NO_STORE } from './body';

export function mountStars(app: Hono, database: Promise<Database>): void {
  app.get('/__console/stars', async (c) => {
    const userId = identityOf(c)?.userId;
    if (!userId) return c.json({ code: 0, msg: 'ok', data: { ids: [] } }, 200, NO_STORE);
    const { db } = await database;
    const rows = await db
      .selectFrom('starred_tasks')
      .select('task_id')
      .where('user_id', '=', userId)
      .orderBy('starred_at', 'desc')
      .orderBy('task_id')
      .execute();
    return c.json({ code: 0, msg: 'ok', data: { ids: rows.map((row) => row.task_id) } }, 200, NO_STORE);
  });

  app.post('/__console/stars', async (c: Context) => {
    const userId = identityOf(c)?.userId;
    if (!userId) return c.json({ code: 401, msg: 'Sign in to star results' }, 401, NO_STORE);
    const body = await c.req.json<{ ids?: unknown; starred?: unknown }>().catch(() => ({}) as never);
    const ids = idsOf(body?.ids, BULK_IDS_MAX);
    if (ids === 'too-many')
      return c.json({ code: 400, msg: `At most ${BULK_IDS_MAX} results at once` }, 400, NO_STORE);
    if (!ids || typeof body.starred !== 'boolean')
      return c.json({ code: 400, msg: 'Send {"ids": [task ids], "starred": true or false}' }, 400, NO_STORE);
    const { db } = await database;
    const refused = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`stars:${userId}`}))`.execute(trx);
      if (body.starred) {
        const { count } = await trx
          .selectFrom('starred_tasks')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .where('task_id', 'not in', ids)
          .executeTakeFirstOrThrow();
        if (Number(count) + ids.length > STARS_MAX) return true;
        await trx
          .insertInto('starred_tasks')
          .values(ids.map((task_id) => ({ user_id: userId, task_id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      } else
        await trx
          .deleteFrom('starred_tasks')
          .where('user_id', '=', userId)
          .where('task_id', 'in', ids)
          .execute();
      await announceBoards(trx, { type: 'stars', userId });
      return false;
    });
    if (refused)
      return c.json(
        { code: 400, msg: `You can star at most ${STARS_MAX} results: unstar some first` },
        400,
        NO_STORE,
      );
    return c.json({ code: 0, msg: 'ok', data: { changed: ids.length } }, 200, NO_STORE);
  });
}

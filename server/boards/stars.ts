// Stars: each person marks the results they like; their own, never anyone else's.
// `GET /__console/stars` lists the asker's starred task ids, newest first; `POST /__console/stars`
// with `{ids, starred}` stars or unstars them. At most STARS_MAX per person, counted in the same
// transaction as the insert under a per-person lock, so two instances cannot both pass the bound.
import { sql } from 'kysely';
import type { Hono } from 'hono';
import { STARS_MAX } from '../../src/api/boards';
import { BULK_IDS_MAX } from '../../src/api/bulk-rules';
import type { Database } from '../db/database';
import { z } from '../../src/api/zod';
import { taskIdList, tooManyOr } from '../http/task-ids';
import { validJson } from '../http/valid-input';
import { identityOf, requireUserId } from '../identity/request-identity';
import { announceBoards } from './live';
import { NO_STORE } from './body';

const STARS_TOO_MANY = `At most ${BULK_IDS_MAX} results at once`;
const starsBody = z.object({ ids: taskIdList(BULK_IDS_MAX, STARS_TOO_MANY), starred: z.boolean() });

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

  app.post(
    '/__console/stars',
    requireUserId('Sign in to star results'),
    validJson(starsBody, tooManyOr(STARS_TOO_MANY, 'Send {"ids": [task ids], "starred": true or false}')),
    async (c) => {
      const userId = identityOf(c)!.userId!;
      const { ids, ...body } = c.req.valid('json');
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
    },
  );
}

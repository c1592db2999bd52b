// Making a board (`POST /__console/boards`): a name, a description and, optionally, its first
// results. The team's count of boards is bounded (BOARDS_MAX), counted under one lock so two
// instances making boards at once cannot both pass it.
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { sql } from 'kysely';
import { BOARDS_MAX, checkBoardFields } from '../../src/api/boards';
import type { Database } from '../db/database';
import { refusal } from '../http/refusal';
import { identityOf } from '../identity/request-identity';
import { appendItems, boardsQuery, recordBoardChange, toSummary, type BoardRow } from './board-rows';
import { bodyOf, firstItemsOf, NO_STORE } from './body';

/** The lock every board creation and deletion takes: the team's count of boards is one number. */
const BOARDS_LOCK = 44_0001;

export function mountBoardCreation(app: Hono, database: Promise<Database>): void {
  app.post('/__console/boards', async (c) => {
    const body = await bodyOf(c);
    const fields = checkBoardFields(body);
    if ('field' in fields) return refusal(c, 400, fields.msg, { field: fields.field });
    const ids = firstItemsOf(body.ids);
    if ('msg' in ids) return refusal(c, 400, ids.msg, { field: 'ids' });
    const me = identityOf(c);
    const id = `b-${randomUUID()}`;
    const { db } = await database;
    const made = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${BOARDS_LOCK})`.execute(trx);
      const { count } = await trx
        .selectFrom('boards')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) >= BOARDS_MAX) return false;
      await trx
        .insertInto('boards')
        .values({
          id,
          name: fields.name!,
          description: fields.description ?? null,
          created_by_id: me?.userId ?? null,
          created_by_name: me?.name ?? null,
        })
        .execute();
      await appendItems(trx, id, [], ids, me?.name ?? null);
      await recordBoardChange(trx, {
        actor: me,
        action: 'board.create',
        boardId: id,
        detail: { name: fields.name, items: ids.length },
      });
      return true;
    });
    if (!made)
      return refusal(c, 409, `The team has ${BOARDS_MAX} boards, the most it may keep: delete one first`);
    const [board] = (await boardsQuery(db).where('boards.id', '=', id).execute()) as BoardRow[];
    return c.json({ code: 0, msg: 'ok', data: { board: toSummary(board!) } }, 201, NO_STORE);
  });
}

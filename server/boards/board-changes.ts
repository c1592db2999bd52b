// Changing a board: its fields and cover, deleting it, adding, removing and reordering its results,
// and putting a creation's new tasks on it. Each change is one transaction holding the board's row
// (`for update`: one change of a board at a time, on any instance) that also marks the board
// changed, writes the audit log and announces the board (board-rows.ts).
import type { Context, Hono } from 'hono';
import { BOARD_ITEMS_MAX, checkBoardFields } from '../../src/api/boards';
import { z } from '../../src/api/zod';
import type { Database, Db } from '../db/database';
import { refusal } from '../http/refusal';
import { taskIdList, tooManyOr } from '../http/task-ids';
import { validJson } from '../http/valid-input';
import type { Creator } from '../identity/creator';
import { identityOf, type Identity } from '../identity/request-identity';
import { isMakerOrAdmin } from '../identity/ownership';
import { appendItems, itemsOf, NO_SUCH_BOARD, recordBoardUpdate } from './board-rows';
import { BOARD_TOO_MANY, bodyOf, coverOf, NO_STORE } from './body';

const itemsBody = z.object({ ids: taskIdList(BOARD_ITEMS_MAX, BOARD_TOO_MANY) });

type LockedBoard = { id: string; name: string; created_by_id: string | null };
type Refused = { refuse: [400 | 403 | 409, string, object?] };
type Change = (trx: Db, board: LockedBoard) => Promise<Refused | { action: string; detail: object }>;

/** Runs `change` on the board of the route's `:id`; 404 when it is gone, its refusal, or ok. */
async function changeBoard(database: Promise<Database>, c: Context, change: Change) {
  const { db } = await database;
  const me = identityOf(c);
  const id = c.req.param('id')!;
  const outcome = await db.transaction().execute(async (trx) => {
    const board = await trx
      .selectFrom('boards')
      .select(['id', 'name', 'created_by_id'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!board) return undefined;
    const done = await change(trx, board);
    if ('refuse' in done) return done;
    await recordBoardUpdate(trx, { actor: me, action: done.action, boardId: id, detail: done.detail });
    return done;
  });
  if (!outcome) return refusal(c, 404, NO_SUCH_BOARD);
  if ('refuse' in outcome) return refusal(c, ...outcome.refuse);
  return c.json({ code: 0, msg: 'ok', data: { ok: true } }, 200, NO_STORE);
}

/** `{name?, description?, coverTaskId?}`: renames, describes, or chooses the cover (null: the first result). */
function mountFieldChanges(app: Hono, database: Promise<Database>) {
  app.patch('/__console/boards/:id', async (c) => {
    const body = await bodyOf(c);
    const fields = checkBoardFields(body, true);
    if ('field' in fields) return refusal(c, 400, fields.msg, { field: fields.field });
    const cover = coverOf(body.coverTaskId);
    if (cover && typeof cover === 'object') return refusal(c, 400, cover.msg, { field: 'coverTaskId' });
    return changeBoard(database, c, async (trx, board) => {
      if (typeof cover === 'string') {
        const onBoard = await trx
          .selectFrom('board_items')
          .select('task_id')
          .where('board_id', '=', board.id)
          .where('task_id', '=', cover)
          .executeTakeFirst();
        if (!onBoard)
          return { refuse: [400, 'The cover must be one of the board’s results', { field: 'coverTaskId' }] };
      }
      const set = {
        ...(fields.name !== undefined && { name: fields.name }),
        ...(fields.description !== undefined && { description: fields.description }),
        ...(cover !== undefined && { cover_task_id: cover }),
      };
      if (Object.keys(set).length)
        await trx.updateTable('boards').set(set).where('id', '=', board.id).execute();
      return { action: 'board.change', detail: { before: board.name, ...set } };
    });
  });
}

/** Deleted by the person who made it, or by an admin. */
const deleteBoard =
  (me: Identity | undefined): Change =>
  async (trx, board) => {
    if (!isMakerOrAdmin(me, board.created_by_id))
      return { refuse: [403, 'Only admins can delete a board another person made'] };
    await trx.deleteFrom('boards').where('id', '=', board.id).execute();
    return { action: 'board.delete', detail: { name: board.name } };
  };

/** Adds results to the end, in order; the ones already on it stay where they are. */
const addItems =
  (ids: string[], me: Identity | undefined): Change =>
  async (trx, board) => {
    const present = await itemsOf(trx, board.id);
    const have = new Set(present.map((row) => row.task_id));
    const adding = ids.filter((id) => !have.has(id));
    if (present.length + adding.length > BOARD_ITEMS_MAX)
      return {
        refuse: [
          409,
          `A board holds at most ${BOARD_ITEMS_MAX} results; this one has ${present.length}, so ${BOARD_ITEMS_MAX - present.length} more fit`,
        ],
      };
    const known = adding.length
      ? new Set(
          (await trx.selectFrom('tasks').select('id').where('id', 'in', adding).execute()).map(
            (row) => row.id,
          ),
        )
      : new Set<string>();
    const unknown = adding.filter((id) => !known.has(id));
    if (unknown.length) return { refuse: [400, `This console has no record of ${unknown[0]}`] };
    await appendItems(trx, board.id, present, adding, me?.name ?? null);
    return { action: 'board.add', detail: { ids: adding } };
  };

/** Takes results off the board (the tasks themselves stay); a cover taken off falls back to the first. */
const removeItems =
  (ids: string[]): Change =>
  async (trx, board) => {
    await trx
      .deleteFrom('board_items')
      .where('board_id', '=', board.id)
      .where('task_id', 'in', ids)
      .execute();
    await trx
      .updateTable('boards')
      .set({ cover_task_id: null })
      .where('id', '=', board.id)
      .where('cover_task_id', 'in', ids)
      .execute();
    return { action: 'board.remove', detail: { ids } };
  };

/** The board's results in a new order: exactly the ones it holds, each once. */
const reorderItems =
  (ids: string[]): Change =>
  async (trx, board) => {
    const present = await trx
      .selectFrom('board_items')
      .select('task_id')
      .where('board_id', '=', board.id)
      .execute();
    const have = new Set(present.map((row) => row.task_id));
    if (present.length !== ids.length || !ids.every((id) => have.has(id)))
      return { refuse: [409, 'The board changed meanwhile: its results are not the ones sent; reload it'] };
    for (const [position, taskId] of ids.entries())
      await trx
        .updateTable('board_items')
        .set({ position })
        .where('board_id', '=', board.id)
        .where('task_id', '=', taskId)
        .execute();
    return { action: 'board.reorder', detail: { count: ids.length } };
  };

/** PATCH and DELETE of a board, and `{ids}` added, removed, or put in order. */
export function mountBoardChanges(app: Hono, database: Promise<Database>): void {
  mountFieldChanges(app, database);
  app.delete('/__console/boards/:id', async (c) => changeBoard(database, c, deleteBoard(identityOf(c))));
  app.post(
    '/__console/boards/:id/items',
    validJson(itemsBody, tooManyOr(BOARD_TOO_MANY, 'Send {"ids": [task ids]}')),
    async (c) => changeBoard(database, c, addItems(c.req.valid('json').ids, identityOf(c))),
  );
  app.post(
    '/__console/boards/:id/items/remove',
    validJson(itemsBody, () => 'Send {"ids": [task ids on the board]}'),
    async (c) => changeBoard(database, c, removeItems(c.req.valid('json').ids)),
  );
  app.put(
    '/__console/boards/:id/order',
    validJson(itemsBody, () => 'Send {"ids": [every task id on the board, in order]}'),
    async (c) => changeBoard(database, c, reorderItems(c.req.valid('json').ids)),
  );
}

/**
 * Puts a creation's new tasks on the board its form chose, once they are recorded: as many as fit,
 * in the same kind of transaction as "Add to board". A board gone or full meanwhile is said in the
 * log; the creation itself has already happened.
 */
export async function addCreatedToBoard(
  database: Promise<Database>,
  boardId: string,
  ids: string[],
  creator: Creator | string | null,
): Promise<void> {
  const { db } = await database;
  const name = typeof creator === 'string' ? creator : (creator?.name ?? null);
  const actor =
    creator && typeof creator === 'object' && creator.id
      ? { userId: creator.id, name: creator.name }
      : undefined;
  const added = await db.transaction().execute(async (trx) => {
    const board = await trx
      .selectFrom('boards')
      .select('id')
      .where('id', '=', boardId)
      .forUpdate()
      .executeTakeFirst();
    if (!board) return 'gone';
    const present = await itemsOf(trx, boardId);
    const have = new Set(present.map((row) => row.task_id));
    const adding = ids.filter((id) => !have.has(id)).slice(0, Math.max(0, BOARD_ITEMS_MAX - present.length));
    await appendItems(trx, boardId, present, adding, name);
    await recordBoardUpdate(trx, {
      actor,
      action: 'board.add',
      boardId,
      detail: { ids: adding, from: 'creation' },
    });
    return adding.length === ids.length ? 'all' : 'full';
  });
  if (added !== 'all')
    console.warn(`[boards] a creation's results were not all put on board ${boardId}: it is ${added}`);
}

// Boards: the team's collections of results of any kind. Everyone signed in reads them;
// creators make them and fill them (server/identity/access.ts); a board is deleted by the person who
// made it or by an admin. Every change is one transaction that also writes the audit log
// (`board.*`) and announces the board on BOARDS_CHANNEL (./live.ts), so every instance's pages hear
// of it. The bounds (BOARDS_MAX boards, BOARD_ITEMS_MAX results a board) are counted inside that
// transaction under a lock (the team's for boards, the board's row for items), so two instances
// adding at once cannot both pass them.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Hono, type Context } from 'hono';
import { BOARD_ITEMS_MAX, BOARDS_MAX, checkBoardFields, type BoardSummary } from '../../src/api/boards';
import { safeFileStem } from '../../src/api/download-name';
import type { Database, Db } from '../db/database';
import { roleAtLeast } from '../../src/api/roles';
import { identityOf, type Identity } from '../identity/request-identity';
import { createStreamLimits, type StreamLimits } from '../http/stream-limits';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import type { ResultStore } from '../results/store';
import { zipOfTasks } from '../tasks/bulk';
import type { Creator } from '../identity/creator';
import { addCopies, toTaskView, type TaskView } from '../tasks/task-view';
import { announceBoards, createBoardsFeed, mountBoardsEvents } from './live';
import { idsOf, NO_STORE } from './body';
import { escapeLike } from '../db/escape-like';
import { mountStars } from './stars';
import { writeAudit } from '../identity/audit';

/** The lock every board creation and deletion takes: the team's count of boards is one number. */
const BOARDS_LOCK = 44_0001;

type BoardRow = {
  id: string;
  name: string;
  description: string | null;
  cover_task_id: string | null;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  item_count: number | string;
  first_task_id: string | null;
};

const toSummary = (row: BoardRow): BoardSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  coverTaskId: row.cover_task_id ?? row.first_task_id,
  itemCount: Number(row.item_count),
  createdBy: row.created_by_name,
  createdById: row.created_by_id,
  createdAt: row.created_at.getTime(),
  updatedAt: row.updated_at.getTime(),
});

/** Boards with their item count and first item (the cover when none was chosen). */
function boardsQuery(db: Db) {
  return db
    .selectFrom('boards')
    .selectAll('boards')
    .select([
      sql<number>`(select count(*) from board_items i where i.board_id = boards.id)`.as('item_count'),
      sql<
        string | null
      >`(select i.task_id from board_items i where i.board_id = boards.id order by i.position, i.task_id limit 1)`.as(
        'first_task_id',
      ),
    ]);
}

/** Each board with its cover's task as the Tasks screen gets it (`cover`), read in one query. */
async function withCovers(db: Db, boards: BoardSummary[]): Promise<(BoardSummary & { cover?: TaskView })[]> {
  const ids = [...new Set(boards.flatMap((board) => (board.coverTaskId ? [board.coverTaskId] : [])))];
  if (!ids.length) return boards;
  const rows = await db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
  const views = await addCopies(db, rows.map(toTaskView));
  const byId = new Map(views.map((view) => [view.id, view]));
  return boards.map((board) => {
    const cover = board.coverTaskId ? byId.get(board.coverTaskId) : undefined;
    return cover ? { ...board, cover } : board;
  });
}

async function audit(
  trx: Db,
  actor: Pick<Identity, 'userId' | 'name'> | undefined,
  action: string,
  target: string,
  detail: object,
) {
  await writeAudit(trx, { actor: actor, action, target: target, detail: detail as Record<string, unknown> });
}

const refuse = (c: Context, status: 400 | 403 | 404 | 409, msg: string, extra: object = {}) =>
  c.json({ code: status, msg, ...extra }, status, NO_STORE);

type BoardBody = { name?: unknown; description?: unknown; coverTaskId?: unknown; ids?: unknown };
const bodyOf = (c: Context) => c.req.json<BoardBody>().catch((): BoardBody => ({}));

/** A cover: a task id on the board, null for "the first result", or a message. */
function coverOf(value: unknown): string | null | undefined | { msg: string } {
  if (value === undefined || value === null) return value;
  const ids = idsOf([value], 1);
  return Array.isArray(ids) ? ids[0] : { msg: 'coverTaskId is a task id on the board, or null' };
}

export interface BoardRoutes {
  app: Hono;
  /**
   * Puts a creation's new tasks on the board its form chose (the `x-console-board` header), once
   * they are recorded: as many as fit, in the same kind of transaction as "Add to board". A board
   * gone or full meanwhile is said in the log; the creation itself has already happened.
   */
  addCreated(boardId: string, ids: string[], creator: Creator | string | null): Promise<void>;
  close(): Promise<void>;
}

export function createBoardRoutes(
  database: Promise<Database>,
  streams: StreamLimits = createStreamLimits(),
  fetchResult: typeof fetch = fetch,
  resultStore?: Promise<ResultStore>,
): BoardRoutes {
  const app = new Hono();
  const feed = createBoardsFeed(database);
  const closeStreams = new Set<() => void>();
  for (const path of ['/__console/boards', '/__console/boards/*', '/__console/stars'])
    app.use(path, refuseUnstorableText());
  app.onError(databaseInputErrors('boards'));
  mountBoardsEvents(app, feed, closeStreams, streams);
  mountStars(app, database);

  // The team's boards, most recently changed first; `q`: whose name or description contains it.
  app.get('/__console/boards', async (c) => {
    const { db } = await database;
    const q = (c.req.query('q') ?? '').trim().slice(0, 200).toLowerCase();
    let query = boardsQuery(db);
    if (q) {
      const pattern = `%${escapeLike(q)}%`;
      query = query.where(
        sql<boolean>`lower(boards.name || ' ' || coalesce(boards.description, '')) like ${pattern}`,
      );
    }
    const rows = (await query
      .orderBy('boards.updated_at', 'desc')
      .orderBy('boards.id')
      .limit(BOARDS_MAX)
      .execute()) as BoardRow[];
    return c.json(
      { code: 0, msg: 'ok', data: { boards: await withCovers(db, rows.map(toSummary)) } },
      200,
      NO_STORE,
    );
  });

  app.post('/__console/boards', async (c) => {
    const body = await bodyOf(c);
    const fields = checkBoardFields(body);
    if ('field' in fields) return refuse(c, 400, fields.msg, { field: fields.field });
    const ids =
      body.ids === undefined || (Array.isArray(body.ids) && !body.ids.length)
        ? []
        : idsOf(body.ids, BOARD_ITEMS_MAX);
    if (ids === 'too-many')
      return refuse(c, 400, `A board holds at most ${BOARD_ITEMS_MAX} results`, { field: 'ids' });
    if (!ids) return refuse(c, 400, 'ids is a list of task ids', { field: 'ids' });
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
      if (ids.length)
        await trx
          .insertInto('board_items')
          .values(
            ids.map((task_id, position) => ({
              board_id: id,
              task_id,
              position,
              added_by_name: me?.name ?? null,
            })),
          )
          .execute();
      await audit(trx, me, 'board.create', id, { name: fields.name, items: ids.length });
      await announceBoards(trx, { type: 'board', id });
      return true;
    });
    if (!made)
      return refuse(c, 409, `The team has ${BOARDS_MAX} boards, the most it may keep: delete one first`);
    const [board] = (await boardsQuery(db).where('boards.id', '=', id).execute()) as BoardRow[];
    return c.json({ code: 0, msg: 'ok', data: { board: toSummary(board!) } }, 201, NO_STORE);
  });

  // One board with its results in the board's order, each as the Tasks screen gets a task.
  app.get('/__console/boards/:id', async (c) => {
    const { db } = await database;
    const [board] = (await boardsQuery(db)
      .where('boards.id', '=', c.req.param('id'))
      .execute()) as BoardRow[];
    if (!board) return refuse(c, 404, 'There is no such board (it may have been deleted)');
    const rows = await db
      .selectFrom('board_items')
      .innerJoin('tasks', 'tasks.id', 'board_items.task_id')
      .selectAll('tasks')
      .where('board_items.board_id', '=', board.id)
      .orderBy('board_items.position')
      .orderBy('board_items.task_id')
      .execute();
    const items = await addCopies(db, rows.map(toTaskView));
    return c.json({ code: 0, msg: 'ok', data: { board: toSummary(board), items } }, 200, NO_STORE);
  });

  /**
   * Runs `change` in a transaction holding the board's row (`for update`: one change of a board at
   * a time, on any instance), then writes the audit log and announces the board. 404 when it is gone.
   */
  const changeBoard = async (
    c: Context,
    change: (
      trx: Db,
      board: { id: string; name: string; created_by_id: string | null },
    ) => Promise<{ refuse: [400 | 403 | 409, string, object?] } | { action: string; detail: object }>,
  ) => {
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
      await trx
        .updateTable('boards')
        .set({ updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      await audit(trx, me, done.action, id, done.detail);
      await announceBoards(trx, { type: 'board', id });
      return done;
    });
    if (!outcome) return refuse(c, 404, 'There is no such board (it may have been deleted)');
    if ('refuse' in outcome) return refuse(c, ...(outcome.refuse as [400 | 403 | 409, string, object?]));
    return c.json({ code: 0, msg: 'ok', data: { ok: true } }, 200, NO_STORE);
  };

  // `{name?, description?, coverTaskId?}`: renames, describes, or chooses the cover (null: the first result).
  app.patch('/__console/boards/:id', async (c) => {
    const body = await bodyOf(c);
    const fields = checkBoardFields(body, true);
    if ('field' in fields) return refuse(c, 400, fields.msg, { field: fields.field });
    const cover = coverOf(body.coverTaskId);
    if (cover && typeof cover === 'object') return refuse(c, 400, cover.msg, { field: 'coverTaskId' });
    return changeBoard(c, async (trx, board) => {
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

  // Deleted by the person who made it, or by an admin.
  app.delete('/__console/boards/:id', async (c) => {
    const me = identityOf(c);
    return changeBoard(c, async (trx, board) => {
      const mine = me && board.created_by_id === me.userId;
      if (!mine && !roleAtLeast(me?.role ?? 'viewer', 'admin'))
        return { refuse: [403, 'Only admins can delete a board another person made'] };
      await trx.deleteFrom('boards').where('id', '=', board.id).execute();
      return { action: 'board.delete', detail: { name: board.name } };
    });
  });

  // `{ids}`: adds results to the end, in order; the ones already on it stay where they are.
  app.post('/__console/boards/:id/items', async (c) => {
    const ids = idsOf((await bodyOf(c)).ids, BOARD_ITEMS_MAX);
    if (ids === 'too-many') return refuse(c, 400, `A board holds at most ${BOARD_ITEMS_MAX} results`);
    if (!ids) return refuse(c, 400, 'Send {"ids": [task ids]}');
    const me = identityOf(c);
    return changeBoard(c, async (trx, board) => {
      const present = await trx
        .selectFrom('board_items')
        .select(['task_id', 'position'])
        .where('board_id', '=', board.id)
        .execute();
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
      const last = Math.max(-1, ...present.map((row) => Number(row.position)));
      if (adding.length)
        await trx
          .insertInto('board_items')
          .values(
            adding.map((task_id, n) => ({
              board_id: board.id,
              task_id,
              position: last + 1 + n,
              added_by_name: me?.name ?? null,
            })),
          )
          .execute();
      return { action: 'board.add', detail: { ids: adding } };
    });
  });

  // `{ids}`: takes results off the board (the tasks themselves stay).
  app.post('/__console/boards/:id/items/remove', async (c) => {
    const ids = idsOf((await bodyOf(c)).ids, BOARD_ITEMS_MAX);
    if (!ids || ids === 'too-many') return refuse(c, 400, 'Send {"ids": [task ids on the board]}');
    return changeBoard(c, async (trx, board) => {
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
    });
  });

  // `{ids}`: the board's results in a new order; exactly the ones it holds, each once.
  app.put('/__console/boards/:id/order', async (c) => {
    const ids = idsOf((await bodyOf(c)).ids, BOARD_ITEMS_MAX);
    if (!ids || ids === 'too-many')
      return refuse(c, 400, 'Send {"ids": [every task id on the board, in order]}');
    return changeBoard(c, async (trx, board) => {
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
    });
  });

  // Every result file of the board as one zip named after it ("Moodboard.zip").
  app.get('/__console/boards/:id/zip', async (c) => {
    const { db } = await database;
    const board = await db
      .selectFrom('boards')
      .select(['id', 'name'])
      .where('id', '=', c.req.param('id'))
      .executeTakeFirst();
    if (!board) return refuse(c, 404, 'There is no such board (it may have been deleted)');
    const items = await db
      .selectFrom('board_items')
      .select('task_id')
      .where('board_id', '=', board.id)
      .orderBy('position')
      .orderBy('task_id')
      .execute();
    const stem = safeFileStem(board.name) || 'Board';
    const zip = await zipOfTasks(
      db,
      items.map((item) => item.task_id),
      () => `${stem}.zip`,
      fetchResult,
      resultStore,
      c.req.raw.signal,
    );
    return zip ?? refuse(c, 404, 'This board holds no results to download');
  });

  return {
    app,
    async addCreated(boardId, ids, creator) {
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
        const present = await trx
          .selectFrom('board_items')
          .select(['task_id', 'position'])
          .where('board_id', '=', boardId)
          .execute();
        const have = new Set(present.map((row) => row.task_id));
        const adding = ids
          .filter((id) => !have.has(id))
          .slice(0, Math.max(0, BOARD_ITEMS_MAX - present.length));
        const last = Math.max(-1, ...present.map((row) => Number(row.position)));
        if (adding.length)
          await trx
            .insertInto('board_items')
            .values(
              adding.map((task_id, n) => ({
                board_id: boardId,
                task_id,
                position: last + 1 + n,
                added_by_name: name,
              })),
            )
            .execute();
        await trx
          .updateTable('boards')
          .set({ updated_at: sql`now()` })
          .where('id', '=', boardId)
          .execute();
        await audit(trx, actor, 'board.add', boardId, {
          ids: adding,
          from: 'creation',
        });
        await announceBoards(trx, { type: 'board', id: boardId });
        return adding.length === ids.length ? 'all' : 'full';
      });
      if (added !== 'all')
        console.warn(`[boards] a creation's results were not all put on board ${boardId}: it is ${added}`);
    },
    async close() {
      for (const close of closeStreams) close();
      await feed.close();
    },
  };
}

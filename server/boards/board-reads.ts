// Reading boards: the team's list (searched by name or description), one board with its results in
// the board's order, and every result file of a board as one zip.
import type { Hono } from 'hono';
import { sql } from 'kysely';
import { BOARDS_MAX } from '../../src/api/boards';
import { safeFileStem } from '../../src/api/download-name';
import type { Database } from '../db/database';
import { escapeLike } from '../db/escape-like';
import { refusal } from '../http/refusal';
import type { ResultStore } from '../results/store';
import { zipOfTasks } from '../tasks/bulk';
import { addCopies, toTaskView } from '../tasks/task-view';
import { boardsQuery, boardTaskIds, NO_SUCH_BOARD, toSummary, withCovers, type BoardRow } from './board-rows';
import { NO_STORE } from './body';

/** The team's boards, most recently changed first; `q`: whose name or description contains it. */
export function mountBoardList(app: Hono, database: Promise<Database>): void {
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
}

/** One board with its results in the board's order, each as the Tasks screen gets a task. */
export function mountBoardPage(app: Hono, database: Promise<Database>): void {
  app.get('/__console/boards/:id', async (c) => {
    const { db } = await database;
    const [board] = (await boardsQuery(db)
      .where('boards.id', '=', c.req.param('id'))
      .execute()) as BoardRow[];
    if (!board) return refusal(c, 404, NO_SUCH_BOARD);
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
}

/** Every result file of the board as one zip named after it ("Moodboard.zip"). */
export function mountBoardZip(
  app: Hono,
  database: Promise<Database>,
  fetchResult: typeof fetch,
  resultStore: Promise<ResultStore> | undefined,
): void {
  app.get('/__console/boards/:id/zip', async (c) => {
    const { db } = await database;
    const board = await db
      .selectFrom('boards')
      .select(['id', 'name'])
      .where('id', '=', c.req.param('id'))
      .executeTakeFirst();
    if (!board) return refusal(c, 404, NO_SUCH_BOARD);
    const taskIds = await boardTaskIds(db, board.id);
    const stem = safeFileStem(board.name) || 'Board';
    const zip = await zipOfTasks(
      db,
      taskIds,
      () => `${stem}.zip`,
      fetchResult,
      resultStore,
      c.req.raw.signal,
    );
    return zip ?? refusal(c, 404, 'This board holds no results to download');
  });
}

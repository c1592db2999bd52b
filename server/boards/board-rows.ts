// What the boards' routes read and write inside their transactions: a board as the browser gets it
// (its summary, its cover), its items in order, items put at its end, and the record every change
// leaves (the board's time, the audit log, the announcement every instance hears).
import { sql, type Selectable } from 'kysely';
import type { BoardSummary } from '../../src/api/boards';
import type { Db } from '../db/database';
import type { BoardsTable } from '../db/schema';
import type { Identity } from '../identity/request-identity';
import { writeAudit } from '../identity/audit';
import { addCopies, toTaskView, type TaskView } from '../tasks/task-view';
import { announceBoards } from './live';

export const NO_SUCH_BOARD = 'There is no such board (it may have been deleted)';

export type BoardRow = Selectable<BoardsTable> & {
  item_count: number | string;
  first_task_id: string | null;
};

export const toSummary = (row: BoardRow): BoardSummary => ({
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
export function boardsQuery(db: Db) {
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
export async function withCovers(
  db: Db,
  boards: BoardSummary[],
): Promise<(BoardSummary & { cover?: TaskView })[]> {
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

/** The board's items as they are now (any order): which tasks, at which positions. */
export function itemsOf(trx: Db, boardId: string) {
  return trx
    .selectFrom('board_items')
    .select(['task_id', 'position'])
    .where('board_id', '=', boardId)
    .execute();
}

/** Puts `taskIds` at the end of the board, in order, after the `present` items. */
export async function appendItems(
  trx: Db,
  boardId: string,
  present: { position: number | string }[],
  taskIds: string[],
  addedBy: string | null,
): Promise<void> {
  if (!taskIds.length) return;
  const last = Math.max(-1, ...present.map((row) => Number(row.position)));
  await trx
    .insertInto('board_items')
    .values(
      taskIds.map((task_id, n) => ({
        board_id: boardId,
        task_id,
        position: last + 1 + n,
        added_by_name: addedBy,
      })),
    )
    .execute();
}

/** A change of a board as the audit log keeps it (`board.*`). */
export interface BoardChange {
  actor: Pick<Identity, 'userId' | 'name'> | undefined;
  action: string;
  boardId: string;
  detail: object;
}

/** Writes the change in the audit log and announces the board when `trx` commits. */
export async function recordBoardChange(trx: Db, change: BoardChange): Promise<void> {
  const { actor, action, boardId, detail } = change;
  await writeAudit(trx, { actor, action, target: boardId, detail: detail as Record<string, unknown> });
  await announceBoards(trx, { type: 'board', id: boardId });
}

/** As recordBoardChange, after marking the board changed now (the list shows it first). */
export async function recordBoardUpdate(trx: Db, change: BoardChange): Promise<void> {
  await trx
    .updateTable('boards')
    .set({ updated_at: sql`now()` })
    .where('id', '=', change.boardId)
    .execute();
  await recordBoardChange(trx, change);
}

/** The board's task ids in the board's order. */
export async function boardTaskIds(db: Db, boardId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('board_items')
    .select('task_id')
    .where('board_id', '=', boardId)
    .orderBy('position')
    .orderBy('task_id')
    .execute();
  return rows.map((row) => row.task_id);
}

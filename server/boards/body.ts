// What the boards' and stars' routes read from a request body.
import type { Context } from 'hono';
import { BOARD_ITEMS_MAX } from '../../src/api/boards';
import { storedId, taskIdList } from '../http/task-ids';

export { NO_STORE } from '../http/no-store';

export const BOARD_TOO_MANY = `A board holds at most ${BOARD_ITEMS_MAX} results`;

export type BoardBody = { name?: unknown; description?: unknown; coverTaskId?: unknown; ids?: unknown };

/** The body of a board's route; one that is not JSON reads as empty (each field then says so). */
export const bodyOf = (c: Context) => c.req.json<BoardBody>().catch((): BoardBody => ({}));

/** A cover: a task id on the board, null for "the first result", or a message. */
export function coverOf(value: unknown): string | null | undefined | { msg: string } {
  if (value === undefined || value === null) return value;
  const cover = storedId.safeParse(value);
  return cover.success ? cover.data : { msg: 'coverTaskId is a task id on the board, or null' };
}

/** A new board's first results: none, or a list of task ids that fits on a board. */
export function firstItemsOf(value: unknown): string[] | { msg: string } {
  if (value === undefined || (Array.isArray(value) && !value.length)) return [];
  const ids = taskIdList(BOARD_ITEMS_MAX, BOARD_TOO_MANY).safeParse(value);
  if (ids.success) return ids.data;
  return {
    msg: ids.error.issues.some((issue) => issue.message === BOARD_TOO_MANY)
      ? BOARD_TOO_MANY
      : 'ids is a list of task ids',
  };
}

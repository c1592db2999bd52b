// What the boards' and stars' routes read from a request body.
import type { Context } from 'hono';

export { NO_STORE } from '../http/no-store';

const storableId = (id: unknown) =>
  typeof id === 'string' && id.length > 0 && id.length <= 200 && !id.includes('\0');

/** Distinct task ids, in order (at most `max`), or undefined when it is not such a list. */
export function idsOf(value: unknown, max: number): string[] | 'too-many' | undefined {
  if (!Array.isArray(value) || !value.length || !value.every(storableId)) return undefined;
  const distinct = [...new Set(value as string[])];
  return distinct.length > max ? 'too-many' : distinct;
}

export type BoardBody = { name?: unknown; description?: unknown; coverTaskId?: unknown; ids?: unknown };

/** The body of a board's route; one that is not JSON reads as empty (each field then says so). */
export const bodyOf = (c: Context) => c.req.json<BoardBody>().catch((): BoardBody => ({}));

/** A cover: a task id on the board, null for "the first result", or a message. */
export function coverOf(value: unknown): string | null | undefined | { msg: string } {
  if (value === undefined || value === null) return value;
  const ids = idsOf([value], 1);
  return Array.isArray(ids) ? ids[0] : { msg: 'coverTaskId is a task id on the board, or null' };
}

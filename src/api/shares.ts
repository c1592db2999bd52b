// Share links of a board or a request: the bounds the server enforces and the browser says before
// asking, and the shapes the server answers. Plain values: the server loads this file too.

/** How long a new link lives when the person does not say. */
export const SHARE_DAYS_DEFAULT = 7;
/** A link lives at least a day and at most this many days. */
export const SHARE_DAYS_MIN = 1;
export const SHARE_DAYS_MAX = 90;
/** Live links the team may hold at once (the admin's list reads them all). */
export const SHARES_LIVE_MAX = 500;
/** Where a link opens: `/s/<token>` on the console's own address. */
export const SHARE_PATH_PREFIX = '/s/';

/** A live link as the lists show it: never its token (only its hash is kept). */
export interface ShareSummary {
  id: string;
  /** What it shows: one of the two. */
  board: string | null;
  request: string | null;
  title: string;
  createdBy: string | null;
  createdById: string | null;
  createdAt: number;
  expiresAt: number;
  openedCount: number;
  lastOpenedAt: number | null;
}

export type ShareTarget = { board: string } | { request: string };

/**
 * What a share link's body asks for, or why not (a sentence, and the field it is about). The same
 * check on both sides, so the dialog says what the server would.
 */
export function checkShareBody(
  input: unknown,
): { target: ShareTarget; days: number } | { msg: string; field: string } {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const board = body.board;
  const request = body.request;
  const isId = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 200;
  if ((board === undefined) === (request === undefined))
    return { msg: 'Send either "board" or "request": the id of what to share', field: 'board' };
  if (board !== undefined && !isId(board)) return { msg: 'board is a board id', field: 'board' };
  if (request !== undefined && !isId(request)) return { msg: 'request is a request id', field: 'request' };
  const days = body.expiresInDays === undefined ? SHARE_DAYS_DEFAULT : body.expiresInDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < SHARE_DAYS_MIN || days > SHARE_DAYS_MAX)
    return {
      msg: `A link lives a whole number of days, from ${SHARE_DAYS_MIN} to at most ${SHARE_DAYS_MAX} days`,
      field: 'expiresInDays',
    };
  return { target: board !== undefined ? { board: board as string } : { request: request as string }, days };
}

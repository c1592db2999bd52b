// Boards and stars change live for everyone, on every instance: a change's transaction sends a
// NOTIFY on BOARDS_CHANNEL (as server/tasks/announce.ts does for tasks), one LISTEN per process hears
// it, and every open `GET /__console/boards/events` stream of this process is told. The payload is
// `b:<board id>` (a board or its items changed, or it was deleted) or `s:<user id>` (that person's
// stars changed: only their own streams are told). The browser reads what changed again.
import { sql } from 'kysely';
import type { Hono } from 'hono';
import type { Database, Db } from '../db/database';
import { createListenFeed, type ListenFeed } from '../db/listen-feed';
import { identityOf } from '../identity/request-identity';
import { streamUntilEnd } from '../http/sse-lifetime';
import { boundedSSE, type StreamLimits } from '../http/stream-limits';

export const BOARDS_CHANNEL = 'console_boards';

export type BoardsEvent = { type: 'board'; id: string } | { type: 'stars'; userId: string };

/** Announces the change when `trx` commits (NOTIFY is transactional). */
export async function announceBoards(trx: Db, event: BoardsEvent): Promise<void> {
  const payload = event.type === 'board' ? `b:${event.id}` : `s:${event.userId}`;
  await sql`select pg_notify(${BOARDS_CHANNEL}, ${payload})`.execute(trx);
}

/** Announces every board that holds the task: a change to the task shows on their pages. */
export async function announceBoardsHolding(trx: Db, taskId: string): Promise<void> {
  const boards = await trx
    .selectFrom('board_items')
    .select('board_id')
    .where('task_id', '=', taskId)
    .execute();
  for (const { board_id } of boards) await announceBoards(trx, { type: 'board', id: board_id });
}

export function parseBoardsPayload(payload: string): BoardsEvent | undefined {
  if (payload.startsWith('b:') && payload.length > 2) return { type: 'board', id: payload.slice(2) };
  if (payload.startsWith('s:') && payload.length > 2) return { type: 'stars', userId: payload.slice(2) };
  return undefined;
}

export type BoardsFeed = ListenFeed<BoardsEvent>;

export function createBoardsFeed(database: Promise<Database>): BoardsFeed {
  return createListenFeed<BoardsEvent>(database, BOARDS_CHANNEL, (payload, audience) => {
    const event = parseBoardsPayload(payload);
    if (event) audience.tell(event);
  });
}

export function mountBoardsEvents(
  app: Hono,
  feed: BoardsFeed,
  closeStreams: Set<() => void>,
  streams: StreamLimits,
): void {
  app.get('/__console/boards/events', (c) => {
    const me = identityOf(c)?.userId;
    return boundedSSE(c, streams, 'boards', async (out) => {
      const unsubscribe = feed.subscribe((event) => {
        if (event.type === 'board') void out.send({ event: 'board', data: JSON.stringify({ id: event.id }) });
        else if (event.userId === me) void out.send({ event: 'stars', data: '{}' });
      });
      await streamUntilEnd(out, closeStreams, unsubscribe);
    });
  });
}

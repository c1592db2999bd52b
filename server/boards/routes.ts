// Boards: the team's collections of results of any kind. Everyone signed in reads them;
// creators make them and fill them (server/identity/access.ts); a board is deleted by the person who
// made it or by an admin. Every change is one transaction that also writes the audit log
// (`board.*`) and announces the board on BOARDS_CHANNEL (./live.ts), so every instance's pages hear
// of it. The bounds (BOARDS_MAX boards, BOARD_ITEMS_MAX results a board) are counted inside that
// transaction under a lock (the team's for boards, the board's row for items), so two instances
// adding at once cannot both pass them. This module puts the routes together: reading
// (board-reads.ts), making (new-board.ts), changing (board-changes.ts), stars and live events.
import { Hono } from 'hono';
import type { Database } from '../db/database';
import { createStreamLimits, type StreamLimits } from '../http/stream-limits';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import type { ResultStore } from '../results/store';
import type { Creator } from '../identity/creator';
import { createBoardsFeed, mountBoardsEvents } from './live';
import { mountStars } from './stars';
import { mountBoardList, mountBoardPage, mountBoardZip } from './board-reads';
import { mountBoardCreation } from './new-board';
import { addCreatedToBoard, mountBoardChanges } from './board-changes';

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
  // The events' path before a board's, which would take `events` for an id.
  mountBoardsEvents(app, feed, closeStreams, streams);
  mountStars(app, database);
  mountBoardList(app, database);
  mountBoardCreation(app, database);
  mountBoardPage(app, database);
  mountBoardChanges(app, database);
  mountBoardZip(app, database, fetchResult, resultStore);
  return {
    app,
    addCreated: (boardId, ids, creator) => addCreatedToBoard(database, boardId, ids, creator),
    async close() {
      for (const close of closeStreams) close();
      await feed.close();
    },
  };
}

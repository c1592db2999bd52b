// The routes of the team's record and what hangs off it: kept result files, tasks and their live
// events, the follower's state, stars and boards, share links and their visitors, reviews, Insights,
// link previews and spending limits.
import type { Hono } from 'hono';
import { sql } from 'kysely';
import type { ServerConfig } from '../config/config';
import type { Database } from '../db/database';
import type { StreamLimits } from '../http/stream-limits';
import type { IdentityStore } from '../identity/store';
import type { Follower } from '../follow/follower';
import { createFollowRoutes } from '../follow/routes';
import { createBoardRoutes, type BoardRoutes } from '../boards/routes';
import { announceBoardsHolding } from '../boards/live';
import { createInsightsRoutes } from '../insights/routes';
import { createLimitsRoutes } from '../limits/routes';
import { createPreviewRoutes } from '../preview/preview-route';
import { createResultRoutes } from '../results/routes';
import { createReviewRoutes } from '../reviews/routes';
import { createShareRoutes } from '../shares/routes';
import { createShareVisitorRoutes } from '../shares/visitor';
import { TASKS_CHANNEL } from '../tasks/recorder';
import { createTaskRoutes } from '../tasks/routes';
import { auditAfter } from './audit-hooks';
import type { ResultKeeping } from './result-keeping';

export interface RecordRouteParts {
  config: ServerConfig;
  database: Promise<Database>;
  identity: IdentityStore;
  streams: StreamLimits;
  follower: Follower;
  /** Downloads, zips and previews go through it (own-addresses.ts). */
  resultFetch: typeof fetch;
  keeping: ResultKeeping;
  now?: () => number;
}

/** Mounts the record's routes on `app`; returns the two whose streams and feeds close with it. */
export function mountRecordRoutes(app: Hono, parts: RecordRouteParts) {
  const { config, database, identity, streams, resultFetch, now } = parts;
  const { resultStore, announceTask } = parts.keeping;
  // Removing a task's kept files is an admin's action: it goes in the audit log.
  app.delete(
    '/__console/results/:task',
    auditAfter(identity, 'results.remove', (c) => c.req.param('task')!),
  );
  app.route('/', createResultRoutes(database, resultStore, announceTask));
  const taskRoutes = createTaskRoutes(database, streams, resultFetch, resultStore);
  app.route('/', taskRoutes.app);
  app.route('/', createFollowRoutes(database, parts.follower));
  // Stars and boards (server/boards), live on every instance through their own channel.
  const boardRoutes: BoardRoutes = createBoardRoutes(database, streams, resultFetch, resultStore);
  app.route('/', boardRoutes.app);
  // Share links (server/shares): made by creators, opened by visitors with no account.
  app.route('/', createShareRoutes(database, { now, publicBaseUrl: config.publicBaseUrl }));
  app.route(
    '/',
    createShareVisitorRoutes(database, resultStore, { now, trustedProxies: config.trustedProxies }),
  );
  // Comments and decisions on results (server/reviews): a change is announced as a change of the
  // task (its cards, its page, its request's page) and of the boards holding it (their pages).
  app.route(
    '/',
    createReviewRoutes(database, async (trx, taskId) => {
      await sql`select pg_notify(${TASKS_CHANNEL}, ${taskId})`.execute(trx);
      await announceBoardsHolding(trx, taskId);
    }),
  );
  app.route('/', createInsightsRoutes(database));
  // Previews of pasted external images (server/preview): through the same guard as downloads.
  app.route('/', createPreviewRoutes(resultFetch));
  app.route('/', createLimitsRoutes(database, identity, { now }));
  return { taskRoutes, boardRoutes };
}

// How the console learns that a task moved: the server follows every unfinished task itself
// (server/follow), and the service's callbacks land in the inbox (server/callbacks), where they are
// logged and taken as hints to ask the service again; a callback moves no task by itself.
import type { Hono } from 'hono';
import { API_PATHS } from '../../src/api/paths';
import type { TaskType } from '../../src/api/core/rules';
import { createCallbackHints, type CallbackHints } from '../callbacks/hints';
import { createCallbackInbox, type CallbackInbox } from '../callbacks/inbox';
import { CallbackStore } from '../callbacks/store';
import { DEFAULT_FOLLOW_RATE_PER_SECOND, type ServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createFollower, type Follower } from '../follow/follower';
import { createStreamLimits, type StreamLimits } from '../http/stream-limits';
import { IDENTITY_KEY, SYSTEM_IDENTITY } from '../identity/request-identity';
import { trustedResultUrlOf, type OwnAddresses } from './own-addresses';

/** The status query of each kind, as the browser's client sends it (src/api/paths.ts). */
const STATUS_PATHS: Record<TaskType, (id: string) => string> = {
  image_generate: API_PATHS.imageGenerateTask,
  video_translate: API_PATHS.videoTranslateTask,
  image_to_video: API_PATHS.imageToVideoTask,
};

export interface TaskTracking {
  follower: Follower;
  hints: CallbackHints;
  /** The callback log. */
  store: CallbackStore;
  inbox: CallbackInbox;
  /** One allowance of event streams for both kinds (callbacks, tasks): per session and in total. */
  streams: StreamLimits;
}

export function createTaskTracking(
  app: Hono,
  config: ServerConfig,
  database: Promise<Database>,
  own: OwnAddresses,
): TaskTracking {
  const store = new CallbackStore(database);
  // Through this app, as a browser's status query would go, so the proxy adds the token (or the
  // emulator answers) and the traffic recorder records the answer like any status answer.
  const follower = createFollower({
    database,
    ask: async (kind, id) =>
      app.fetch(
        new Request(`${own.ownOrigin}${STATUS_PATHS[kind](id)}`, { headers: { accept: 'application/json' } }),
        { [IDENTITY_KEY]: SYSTEM_IDENTITY },
      ),
    ratePerSecond: config.followRatePerSecond ?? DEFAULT_FOLLOW_RATE_PER_SECOND,
    // No status query for the kind here: a callback already received is the only news there will be.
    onEnded: async (id, end) => {
      if (end === 'unavailable') await hints.noStatusQuery(id, own.ownOrigin);
    },
  });
  const hints = createCallbackHints({
    database,
    askSoon: () => follower.wake(),
    trustedResultUrl: trustedResultUrlOf(config, own),
  });
  const streams = createStreamLimits({ perSession: config.streamsPerSession, total: config.streamsTotal });
  const inbox = createCallbackInbox({
    dataDir: config.dataDir,
    secret: config.callbackSecret,
    ratePerSecond: config.callbackRateLimit,
    trustedProxies: config.trustedProxies,
    store,
    streams,
    hints,
  });
  return { follower, hints, store, inbox, streams };
}

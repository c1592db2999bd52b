// A callback is a hint, never the truth (shared/design.md): it carries no proof, and anyone who has
// the inbox address can POST one (`status: SUCCEEDED, image_url: https://evil.example/phish.png`).
// The inbox keeps every callback in the log exactly as received, and here:
// - a callback naming a task the team record does not know is logged as unknown, never added;
// - for a known task it makes the server's follower (server/follow) ask the service about the task at
//   once, with the token: the record takes only what the service's answer says;
// - when this backend has no status query for the task's kind (the follower stopped asking: 404
//   without a business code, as a backend without the provider's extras answers), the callback is the
//   only news there will be: its status and text are taken as reported by a callback (timeline source
//   "callback", never "status check"), and its links only when they point at an origin the service's
//   results come from (the API's own, MEDIA_ORIGINS, or on the emulator this console's media), since
//   those are the links the Content-Security-Policy lets the page load anyway.
import type { TaskType } from '../../src/api/core/rules';
import type { CallbackBody } from '../../src/api/schemas';
import { isTerminalStatus } from '../../src/api/status';
import type { Database } from '../db/database';
import { isTaskId } from '../proxy/proxy-routes';
import { applyStatus } from '../tasks/recorder';
import { sql } from 'kysely';

/** What the inbox says about the callback's task in its reply (`data.task`). */
export type HintOutcome =
  /** The record does not know the task: the callback stays in the log only. */
  | 'unknown'
  /** The service is being asked about the task (the follower asks at once). */
  | 'checking'
  /** The record already holds the service's own final answer: nothing to confirm. */
  | 'settled'
  /** No status query for its kind here: the callback is taken, unconfirmed, with trusted links only. */
  | 'unconfirmed';

interface CallbackHintOptions {
  database: Promise<Database>;
  /** The task is due now: the follower looks at once (server/follow/follower.ts). */
  askSoon(id: string): void;
  /** May an unconfirmed callback (no status query for its kind here) bring this link? */
  trustedResultUrl(url: URL, origin: string): boolean;
  log?: (message: string) => void;
}

export interface CallbackHints {
  /** Called once the callback is stored (`body` as stored); `origin` is the address it came in on. */
  received(body: CallbackBody, origin: string): Promise<HintOutcome>;
  /**
   * Tasks the record has just added: a callback that arrived before the creation answer was
   * recorded (it was "unknown" then) is looked at now, the latest one per task.
   */
  created(ids: readonly string[], origin: string): Promise<void>;
  /** The follower stopped asking about the task (no status query for its kind): its latest callback, if any, is taken. */
  noStatusQuery(id: string, origin: string): Promise<void>;
}

const LINK_FIELD = /url$/i;
const LINK_VALUE = /^[a-z][a-z\d+.-]*:\/\//i;
const shown = (id: string) => JSON.stringify(id.length > 120 ? `${id.slice(0, 120)}…` : id);

/** The callback's data without the links an unconfirmed callback may not bring; names what it dropped. */
export function withoutUntrustedLinks(
  data: Record<string, unknown>,
  trusted: (url: URL) => boolean,
): { data: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  const kept = Object.entries(data).filter(([key, value]) => {
    const link = LINK_FIELD.test(key) || (typeof value === 'string' && LINK_VALUE.test(value.trim()));
    if (!link || value === null || value === undefined || value === '') return true;
    let url: URL | undefined;
    try {
      url = typeof value === 'string' ? new URL(value.trim()) : undefined;
    } catch {
      url = undefined;
    }
    const ok = url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') && trusted(url);
    if (!ok) dropped.push(key);
    return ok;
  });
  return { data: Object.fromEntries(kept), dropped };
}

/**
 * At most `max` lines per `windowMs`, then one line counting the rest: anyone with the inbox address
 * can send callbacks by the thousand, and must not fill the server's log as well.
 */
export function throttledLog(log: (message: string) => void, max = 20, windowMs = 60_000, now = Date.now) {
  let windowStart = -Infinity;
  let count = 0;
  let held = 0;
  return (message: string) => {
    const time = now();
    if (time - windowStart >= windowMs) {
      if (held)
        log(
          `[callbacks] … and ${held} more such lines in the last ${windowMs / 1000} s, not written one by one`,
        );
      windowStart = time;
      count = 0;
      held = 0;
    }
    if (count++ < max) log(message);
    else held++;
  };
}

export function createCallbackHints(options: CallbackHintOptions): CallbackHints {
  const log = throttledLog(options.log ?? ((message: string) => console.log(message)));

  async function takeUnconfirmed(kind: TaskType, id: string, body: CallbackBody, origin: string) {
    const db = (await options.database).db;
    const { data, dropped } = withoutUntrustedLinks(body.data, (url) =>
      options.trustedResultUrl(url, origin),
    );
    await db.transaction().execute(async (trx) => {
      // Known when the callback came; checked again here, so a callback never adds a task.
      const task = await trx.selectFrom('tasks').select('kind').where('id', '=', id).executeTakeFirst();
      if (task) await applyStatus(trx, task.kind as TaskType, id, data, 'callback');
    });
    log(
      `[callbacks] task ${shown(id)}: no status query for ${kind} on this backend; the callback's ${body.data.status} is kept as reported by a callback, unconfirmed` +
        (dropped.length ? ` (links not from a trusted origin left out: ${dropped.join(', ')})` : ''),
    );
  }

  const hints: CallbackHints = {
    async received(body, origin) {
      const id = body.data.task_id;
      const db = (await options.database).db;
      const task = isTaskId(id)
        ? await db
            .selectFrom('tasks')
            .leftJoin('task_follows', 'task_follows.task_id', 'tasks.id')
            .select(['tasks.kind', 'tasks.status', 'tasks.last_source', 'task_follows.ended'])
            .where('tasks.id', '=', id)
            .executeTakeFirst()
        : undefined;
      if (!task) {
        log(
          `[callbacks] a ${body.data.status} callback names task ${shown(id)}, which the team record does not know: kept in the log only`,
        );
        return 'unknown';
      }
      const kind = task.kind as TaskType;
      // Finished by an earlier unconfirmed callback: the service still cannot be asked about it.
      const unconfirmedBefore = isTerminalStatus(task.status) && task.last_source === 'callback';
      if (task.ended === 'unavailable' || unconfirmedBefore) {
        await takeUnconfirmed(kind, id, body, origin);
        return 'unconfirmed';
      }
      if (isTerminalStatus(task.status)) return 'settled';
      await db
        .updateTable('task_follows')
        .set({ due_at: sql<Date>`now()` })
        .where('task_id', '=', id)
        .where('due_at', 'is not', null)
        .execute();
      options.askSoon(id);
      return 'checking';
    },
    async created(ids, origin) {
      for (const id of ids) {
        const early = await latestCallback(id);
        if (early) await hints.received(early, origin);
      }
    },
    async noStatusQuery(id, origin) {
      const latest = await latestCallback(id);
      const db = (await options.database).db;
      const task = await db.selectFrom('tasks').select('kind').where('id', '=', id).executeTakeFirst();
      if (latest && task) await takeUnconfirmed(task.kind as TaskType, id, latest, origin);
    },
  };

  async function latestCallback(id: string): Promise<CallbackBody | undefined> {
    const db = (await options.database).db;
    const row = await db
      .selectFrom('callbacks')
      .select('body')
      .where('task_id', '=', id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.body;
  }

  return hints;
}

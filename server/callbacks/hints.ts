// A callback is a hint, never the truth (shared/design.md): it carries no proof, and anyone who has
// the inbox address can POST one (`status: SUCCEEDED, image_url: https://evil.example/phish.png`).
// The inbox keeps every callback in the log exactly as received, and here:
// - a callback naming a task the team record does not know is logged as unknown, never added;
// - for a known task it triggers a status query with the token at once, sent like the browser's
//   (through /v1, so the proxy adds the token and the traffic recorder records the answer): the
//   record takes only what the service's answer says;
// - when this backend has no status query for the task's kind (404 without a business code, as a
//   backend without the provider's extras answers), the callback is the only news there will be:
//   its status and text are taken as reported by a callback (timeline source "callback", never
//   "status check"), and its links only when they point at an origin the service's results come
//   from (the API's own, MEDIA_ORIGINS, or on the emulator this console's media), since those are
//   the links the Content-Security-Policy lets the page load anyway.
import type { TaskType } from '../../src/api/core/rules';
import type { CallbackBody } from '../../src/api/schemas';
import { isTerminalStatus } from '../../src/api/status';
import type { Database } from '../db/database';
import { isTaskId } from '../proxy/proxy-routes';
import { applyStatus } from '../tasks/recorder';

/** What the inbox says about the callback's task in its reply (`data.task`). */
export type HintOutcome =
  /** The record does not know the task: the callback stays in the log only. */
  | 'unknown'
  /** A status query was sent (or queued) to confirm it. */
  | 'checking'
  /** The record already holds the service's own final answer: nothing to confirm. */
  | 'settled'
  /** Too many checks waiting: this one is not sent; the browsers' polls will tell. */
  | 'busy';

interface CallbackHintOptions {
  database: Promise<Database>;
  /**
   * The status query of a task, sent as the browser's would be. `origin` is the address the
   * callback came in on: the in-process emulator builds its media links from it.
   */
  checkStatus(kind: TaskType, id: string, origin: string): Promise<Response>;
  /** May an unconfirmed callback (no status query for its kind here) bring this link? */
  trustedResultUrl(url: URL, origin: string): boolean;
  /** Waits before asking again after a 429, a 5xx, no answer, or a still-running status. */
  retryDelaysMs?: readonly number[];
  /** Status queries in flight at once. */
  concurrency?: number;
  /** Tasks waiting for a check; past this a callback is stored but not checked ('busy'). */
  queueMax?: number;
  log?: (message: string) => void;
}

export interface CallbackHints {
  /** Called once the callback is stored (`body` as stored). */
  received(body: CallbackBody, origin: string): Promise<HintOutcome>;
  /**
   * Tasks the record has just added: a callback that arrived before the creation answer was
   * recorded (it was "unknown" then) is looked at now, the latest one per task.
   */
  created(ids: readonly string[], origin: string): Promise<void>;
  /** Resolves when no check is waiting, sleeping before a retry, or running (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** One task's check; a newer callback for the same task replaces `body` while it waits. */
interface Job {
  kind: TaskType;
  id: string;
  body: CallbackBody;
  origin: string;
  attempt: number;
}

type Answer =
  | { type: 'confirmed' }
  | { type: 'unavailable' }
  | { type: 'retry'; why: string }
  | { type: 'refused'; why: string };

const ANSWER_MAX_BYTES = 1024 * 1024;
const LINK_FIELD = /url$/i;
const LINK_VALUE = /^[a-z][a-z\d+.-]*:\/\//i;
const shown = (id: string) => JSON.stringify(id.length > 120 ? `${id.slice(0, 120)}…` : id);

async function readEnvelope(response: Response): Promise<{ code?: unknown; msg?: unknown; data?: unknown }> {
  try {
    if (Number(response.headers.get('content-length') ?? 0) > ANSWER_MAX_BYTES) return {};
    const text = await response.text();
    return text.length > ANSWER_MAX_BYTES ? {} : ((JSON.parse(text) as object) ?? {});
  } catch {
    return {};
  }
}

async function ask(options: CallbackHintOptions, job: Job): Promise<Answer> {
  let response: Response;
  try {
    response = await options.checkStatus(job.kind, job.id, job.origin);
  } catch (error) {
    return { type: 'retry', why: (error as Error).message };
  }
  const envelope = await readEnvelope(response);
  const { code, msg } = envelope;
  const status = (envelope.data as { status?: unknown } | null | undefined)?.status;
  const why = `HTTP ${response.status}${typeof code === 'number' ? `, code ${code}` : ''}${typeof msg === 'string' ? `: ${msg.slice(0, 200)}` : ''}`;
  if (response.status === 200 && code === 0 && typeof status === 'string') {
    // The service may lag behind its own callback: a running status is asked again later.
    return isTerminalStatus(status) ? { type: 'confirmed' } : { type: 'retry', why: `still ${status}` };
  }
  if (response.status === 429 || response.status >= 500) return { type: 'retry', why };
  const noBusinessCode = code === undefined || code === 0 || code === response.status;
  if ([404, 405, 501].includes(response.status) && noBusinessCode) return { type: 'unavailable' };
  return { type: 'refused', why };
}

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
  const delays = options.retryDelaysMs ?? [2_000, 15_000, 60_000];
  const concurrency = options.concurrency ?? 4;
  const queueMax = options.queueMax ?? 1_000;
  /** Every task with a check waiting, sleeping or running: one at a time per task. */
  const jobs = new Map<string, Job>();
  const queue: Job[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (jobs.size || running.size) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  async function takeUnconfirmed(job: Job) {
    const db = (await options.database).db;
    const { data, dropped } = withoutUntrustedLinks(job.body.data, (url) =>
      options.trustedResultUrl(url, job.origin),
    );
    await db.transaction().execute(async (trx) => {
      // Known when the callback came; checked again here, so a callback never adds a task.
      const task = await trx.selectFrom('tasks').select('kind').where('id', '=', job.id).executeTakeFirst();
      if (task) await applyStatus(trx, task.kind as TaskType, job.id, data, 'callback');
    });
    log(
      `[callbacks] task ${shown(job.id)}: no status query for ${job.kind} on this backend; the callback's ${job.body.data.status} is kept as reported by a callback, unconfirmed` +
        (dropped.length ? ` (links not from a trusted origin left out: ${dropped.join(', ')})` : ''),
    );
  }

  async function check(job: Job) {
    const answer = await ask(options, job);
    if (answer.type === 'unavailable') await takeUnconfirmed(job);
    if (answer.type === 'refused')
      log(
        `[callbacks] task ${shown(job.id)}: the status query after its callback answered ${answer.why}; the callback is not taken`,
      );
    if (answer.type === 'retry') {
      const delay = delays[job.attempt];
      if (delay !== undefined && !closed) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          job.attempt += 1;
          queue.push(job);
          pump();
        }, delay);
        timers.add(timer);
        return; // the job stays in `jobs`: a newer callback for the task joins it
      }
      log(
        `[callbacks] task ${shown(job.id)}: the status query after its callback gave no final answer (${answer.why}); the record keeps its state`,
      );
    }
    jobs.delete(job.id);
  }

  function pump() {
    while (!closed && running.size < concurrency && queue.length) {
      const job = queue.shift()!;
      const run = check(job)
        .catch((error: unknown) => {
          jobs.delete(job.id);
          log(
            `[callbacks] task ${shown(job.id)}: its callback could not be checked: ${(error as Error).message}`,
          );
        })
        .finally(() => {
          running.delete(run);
          pump();
          settleIdle();
        });
      running.add(run);
    }
    settleIdle();
  }

  const hints: CallbackHints = {
    async received(body, origin) {
      const id = body.data.task_id;
      const db = (await options.database).db;
      const task = isTaskId(id)
        ? await db
            .selectFrom('tasks')
            .select(['kind', 'status', 'last_source'])
            .where('id', '=', id)
            .executeTakeFirst()
        : undefined;
      if (!task) {
        log(
          `[callbacks] a ${body.data.status} callback names task ${shown(id)}, which the team record does not know: kept in the log only`,
        );
        return 'unknown';
      }
      if (isTerminalStatus(task.status) && task.last_source !== 'callback') return 'settled';
      const waiting = jobs.get(id);
      if (waiting) {
        waiting.body = body; // the newest callback is the one to judge
        return 'checking';
      }
      if (closed || jobs.size >= queueMax) return 'busy';
      const job: Job = { kind: task.kind as TaskType, id, body, origin, attempt: 0 };
      jobs.set(id, job);
      queue.push(job);
      pump();
      return 'checking';
    },
    async created(ids, origin) {
      const db = (await options.database).db;
      for (const id of ids) {
        const early = await db
          .selectFrom('callbacks')
          .select('body')
          .where('task_id', '=', id)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (early) await hints.received(early.body, origin);
      }
    },
    idle() {
      if (!jobs.size && !running.size) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      queue.length = 0;
      jobs.clear();
      await Promise.allSettled([...running]);
      settleIdle();
    },
  };
  return hints;
}

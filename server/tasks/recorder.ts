// The team's record of tasks. Everything here comes from traffic through the Node side: creation
// requests and their answers, status answers, callbacks. Statuses merge by the browser's rule: a
// terminal status (SUCCEEDED, FAILED) is never replaced by a running one, so a late poll cannot
// undo a callback. Each change is announced on TASKS_CHANNEL when its transaction commits.
import { sql } from 'kysely';
import { requestMediaUrls, type RequestFile } from '../../src/api/task-detail/request-files';
import { isTerminalStatus } from '../../src/api/status';
import type { TaskType } from '../../src/api/schemas';
import type { Database, Db } from '../db/database';
import { GroupCommitQueue } from '../db/group-commit-queue';
import { storableJson, TOO_DEEP } from '../db/storable';
import type { TaskErrorValue, TaskEventSource } from '../db/schema';
import { queueResultCopies } from '../results/queue';
import { queueRequestEnded } from '../notify/outbox';
import { publicParams, requestIdOf, requestTitle } from './request-fields';
import type { Creator } from '../identity/creator';

export const TASKS_CHANNEL = 'console_tasks';

export type TaskUpdate = { status?: unknown } & Record<string, unknown>;

export interface CreatedTask {
  id: string;
  /** Video translations: the target language of this task. */
  language?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * The answer's fields as the service sent them, but for text PostgreSQL cannot hold (U+0000, lone
 * surrogates: written out as `\u0000`) and, from an answer nested absurdly deep, only its plain values.
 */
function cleanFields(data: TaskUpdate): Record<string, unknown> {
  const present = Object.entries(data).filter(([, value]) => value !== undefined && value !== null);
  const storable = storableJson(Object.fromEntries(present));
  if (storable !== TOO_DEEP) return storable as Record<string, unknown>;
  const flat = present.filter(([, value]) => typeof value !== 'object');
  return storableJson(Object.fromEntries(flat)) as Record<string, unknown>;
}

async function announce(trx: Db, id: string) {
  await sql`select pg_notify(${TASKS_CHANNEL}, ${id})`.execute(trx);
}

async function addEvent(
  trx: Db,
  taskId: string,
  source: TaskEventSource,
  status: string | null,
  error: TaskErrorValue | null = null,
  at?: Date,
) {
  await trx
    .insertInto('task_events')
    .values({ task_id: taskId, source, status, error: error && JSON.stringify(error), ...(at && { at }) })
    .execute();
}

/**
 * Merges a status answer or a callback's data into the task, adding the task when it is unknown
 * (a lookup by id, or a callback for a task created elsewhere). Runs inside `trx`.
 */
export async function applyStatus(
  trx: Db,
  kind: TaskType,
  id: string,
  data: TaskUpdate,
  source: 'poll' | 'lookup' | 'callback',
): Promise<void> {
  const now = new Date();
  const added = await trx
    .insertInto('tasks')
    .values({ id, kind, source: source === 'callback' ? 'callback' : 'lookup' })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  const old = await trx
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const fields = cleanFields(data);
  const incoming = text(fields.status) ?? undefined;
  const regress = isTerminalStatus(old.status) && !isTerminalStatus(incoming);
  if (regress) {
    await trx
      .updateTable('tasks')
      .set({ last_checked_at: now, last_error: null })
      .where('id', '=', id)
      .execute();
    return;
  }
  const status = incoming ?? old.status;
  await trx
    .updateTable('tasks')
    .set({
      // A callback names the task type authoritatively; a lookup only guessed it.
      kind: source === 'callback' ? kind : old.kind,
      status,
      result: JSON.stringify({ ...old.result, ...fields }),
      language: old.language ?? text(fields.language),
      name: text(fields.name) ?? old.name,
      last_error: null,
      // A poll that added the task looked it up.
      last_source: added && source === 'poll' ? 'lookup' : source,
      last_checked_at: now,
      updated_at: now,
      finished_at: !isTerminalStatus(old.status) && isTerminalStatus(status) ? now : old.finished_at,
    })
    .where('id', '=', id)
    .execute();
  if (added || status !== old.status)
    await addEvent(trx, id, added && source !== 'callback' ? 'lookup' : source, status);
  // Its files go into the team's store (server/results), queued with the status that makes them due.
  if (status === 'SUCCEEDED') await queueResultCopies(trx, [id]);
  await keepFollowing(trx, id, status);
  // The request's last task ending tells the webhooks that want to hear of it (server/notify).
  if (!isTerminalStatus(old.status) && isTerminalStatus(status)) await queueRequestEnded(trx, id);
  await announce(trx, id);
}

/**
 * The server asks about every task until its status is final (server/follow): a task the record
 * learns of by a lookup starts being followed, and a final status, however it came, ends it.
 */
async function keepFollowing(trx: Db, id: string, status: string) {
  if (isTerminalStatus(status)) await trx.deleteFrom('task_follows').where('task_id', '=', id).execute();
  else
    await trx
      .insertInto('task_follows')
      .values({ task_id: id, due_at: new Date() })
      .onConflict((oc) => oc.column('task_id').doNothing())
      .execute();
}

export type { Creator } from '../identity/creator';

const creatorColumns = (creator: Creator | string | null) =>
  creator === null
    ? { creator: null, creator_id: null }
    : typeof creator === 'string'
      ? { creator, creator_id: null }
      : { creator: creator.name, creator_id: creator.id };

export interface TaskRecorder {
  created(
    kind: TaskType,
    params: Record<string, unknown>,
    tasks: CreatedTask[],
    creator: Creator | string | null,
    /** When the request was made: now, except for the demo's example tasks (server/entry/demo.ts). */
    at?: Date,
    /** What the form asked for beside the service's body: see CreationLinks. */
    links?: CreationLinks,
  ): Promise<void>;
  /**
   * Resolves once the answer is in the record (committed). An answer this process already recorded
   * for the task, word for word, changes nothing there: it costs no write, only a later, batched
   * `last_checked_at` (see createTaskRecorder). Resolves to whether this call wrote the task.
   */
  status(
    kind: TaskType,
    id: string,
    data: TaskUpdate,
    /**
     * The answer exactly as the service sent it, when the caller has it: compared as it is, instead
     * of `data` serialised again. Two texts of one answer that differ only in spacing are written twice.
     */
    answerText?: string,
  ): Promise<boolean>;
  /**
   * True when `answerText` is, word for word, the answer last recorded for the task and none is
   * being written: it changes nothing, only its check time is kept (as `status` does for it). The
   * caller can skip reading such an answer at all; false means it should go through `status`.
   */
  unchanged(kind: TaskType, id: string, answerText: string): boolean;
  /** A failed status request of a known task: the last state stays, the error is kept beside it. */
  error(id: string, error: Omit<TaskErrorValue, 'at'>): Promise<void>;
  /** A file the upload endpoint accepted: its URL and the name it had. */
  uploaded(url: string, fileName: string, creator: Creator | string | null): Promise<void>;
  /** Writes the pending `last_checked_at` of unchanged answers now (closing, tests). */
  flush(): Promise<void>;
}

/**
 * A creation's links to the console's own record, sent by the form in headers (never to the
 * service): "More like this" names the request it makes again (`parentRequestId`, kept on the new
 * request when that request is known); `boardId` is the board its results go to (server/app puts
 * them there once they are recorded).
 */
export interface CreationLinks {
  parentRequestId?: string;
  boardId?: string;
}

/** How many tasks' last recorded answers are remembered (a few hundred bytes each). */
const REMEMBERED_ANSWERS = 10_000;
/** Unchanged answers move `last_checked_at` on in one statement at most this often. */
const CHECKED_FLUSH_MS = 2000;

/** The request's media URLs that are files uploaded through the console, with their names. */
async function filesOf(trx: Db, params: Record<string, unknown>): Promise<RequestFile[]> {
  const named = requestMediaUrls(params);
  if (named.length === 0) return [];
  const rows = await trx
    .selectFrom('uploads')
    .select(['url', 'file_name'])
    .where(
      'url',
      'in',
      named.map((entry) => entry.url),
    )
    .execute();
  const names = new Map(rows.map((row) => [row.url, row.file_name]));
  return named.flatMap(({ field, url }) => {
    const name = names.get(url);
    return name ? [{ field, url, name }] : [];
  });
}

/** One submission of a form as the recorder is told of it (TaskRecorder.created). */
interface Creation {
  kind: TaskType;
  params: Record<string, unknown>;
  tasks: CreatedTask[];
  creator: Creator | string | null;
  at?: Date;
  links?: CreationLinks;
}

/** Writes the request, then each of its tasks with its first event, and starts following them. */
async function recordCreation(trx: Db, { kind, params, tasks, creator, at, links }: Creation) {
  const batch = tasks.length > 1 ? JSON.stringify(tasks.map((task) => task.id)) : null;
  const files = await filesOf(trx, params);
  // The request first, in the same transaction as its tasks: none is ever seen without the other.
  const requestId = requestIdOf(tasks[0]!.id);
  const parent = links?.parentRequestId
    ? await trx.selectFrom('requests').select('id').where('id', '=', links.parentRequestId).executeTakeFirst()
    : undefined;
  const request = {
    ...(parent && { parent_request_id: parent.id }),
    kind,
    ...creatorColumns(creator),
    params: JSON.stringify(publicParams(params)),
    title: requestTitle({ prompt: params.prompt, name: params.name, files }),
    task_ids: JSON.stringify(tasks.map((task) => task.id)),
    ...(at && { created_at: at }),
  };
  await trx
    .insertInto('requests')
    .values({ id: requestId, ...request })
    .onConflict((oc) => oc.column('id').doUpdateSet(request))
    .execute();
  for (const task of tasks) {
    const values = {
      kind,
      source: 'created' as const,
      params: JSON.stringify(params),
      batch,
      prompt: text(params.prompt),
      name: text(params.name),
      language: task.language ?? null,
      ...creatorColumns(creator),
      files: files.length ? JSON.stringify(files) : null,
      request_id: requestId,
      ...(at && { created_at: at, updated_at: at }),
    };
    // A callback can beat the creation answer; the creation's facts win, its status stays.
    const { status } = await trx
      .insertInto('tasks')
      .values({ id: task.id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .returning('status')
      .executeTakeFirstOrThrow();
    await addEvent(trx, task.id, 'created', null, null, at);
    // Asked about at once, whoever created it and whether or not a browser is watching.
    await keepFollowing(trx, task.id, status);
    await announce(trx, task.id);
  }
}

/** A failed status request: the last state stays, the error is kept beside it and announced. */
async function recordStatusError(db: Db, id: string, error: Omit<TaskErrorValue, 'at'>) {
  const value: TaskErrorValue = { ...error, at: Date.now() };
  // Announced like any change: the card says why the task cannot be read.
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('tasks')
      .set({ last_error: JSON.stringify(value) })
      .where('id', '=', id)
      .executeTakeFirst();
    if (changed.numUpdatedRows > 0n) await announce(trx, id);
  });
}

/** Unchanged answers' check times, in one UPDATE; a failure only loses those times (logged). */
async function writeCheckTimes(db: () => Promise<Db>, due: [id: string, at: Date][]) {
  // Ids in order, as every writer of several tasks does, so two writers cannot deadlock.
  due.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ids = due.map(([id]) => id);
  const times = due.map(([, when]) => when.toISOString());
  try {
    // Never earlier than a check time a write has already set (a changed answer meanwhile).
    await sql`
      update tasks t set last_checked_at = greatest(t.last_checked_at, c.at), last_error = null
      from unnest(${ids}::text[], ${times}::timestamptz[]) as c(id, at)
      where t.id = c.id`.execute(await db());
  } catch (error) {
    console.error(`[tasks] could not record check times: ${(error as Error).message}`);
  }
}

/**
 * Status answers are polled far more often than they change (every browser with the gallery open
 * asks every few seconds; a task's answer changes a handful of times in its life). The recorder
 * remembers, per task, the last answer it committed; the same answer again changes nothing in the
 * record (applyStatus would write the same row) and is not written: only its check time is kept,
 * and written for all such tasks in one UPDATE every CHECKED_FLUSH_MS, off the request path. A
 * crash then loses at most those check times, never anything the service reported: an answer that
 * changes the record is committed before the browser gets it, as before. Identical answers that
 * arrive while the first is being written wait for that write instead of writing again; changed
 * answers of different tasks that arrive together share one transaction (group commit, changedAnswers).
 */
export function createTaskRecorder(database: Promise<Database>): TaskRecorder {
  const db = async () => (await database).db;
  /** Task id -> its last answer committed by this recorder (kind and JSON), oldest first. */
  const recorded = new Map<string, string>();
  /** Task id -> the answer being written and the write. */
  const writing = new Map<string, { answer: string; done: Promise<boolean> }>();
  /** Task id -> when an unchanged answer was last seen, not yet written. */
  const checked = new Map<string, Date>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const remember = (id: string, answer: string) => {
    recorded.delete(id);
    recorded.set(id, answer);
    if (recorded.size > REMEMBERED_ANSWERS) recorded.delete(recorded.keys().next().value!);
  };
  const forget = (id: string) => {
    recorded.delete(id);
    checked.delete(id);
  };
  const writeChecked = async () => {
    timer = undefined;
    if (checked.size === 0) return;
    const due = [...checked];
    checked.clear();
    await writeCheckTimes(db, due);
  };
  const flush = () => {
    clearTimeout(timer);
    return (flushing = flushing.then(writeChecked));
  };
  /** An unchanged answer: its check time is written later, with the others' (writeChecked). */
  const noteChecked = (id: string) => {
    checked.set(id, new Date());
    timer ??= setTimeout(() => void flush(), CHECKED_FLUSH_MS).unref();
  };
  const answerKey = (kind: TaskType, text: string) => `${kind} ${text}`;
  /**
   * Changed answers share transactions (group commit): the first is written at once; those that
   * arrive while a transaction runs share the next one, and each is acknowledged only once the
   * transaction holding it has committed. A group that fails is written again task by task, so one
   * bad answer costs only its own poll.
   */
  const changedAnswers = new GroupCommitQueue<{ kind: TaskType; id: string; data: TaskUpdate }, true>({
    commit: async (group) => {
      await (await db()).transaction().execute(async (trx) => {
        // A task the record did not know yet is added by applyStatus as a lookup.
        for (const { kind, id, data } of group) await applyStatus(trx, kind, id, data, 'poll');
      });
      return group.map(() => true as const);
    },
    // Ids in order, as every writer of several tasks does, so two writers cannot deadlock.
    order: (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  });
  return {
    async created(kind, params, tasks, creator, at, links) {
      await (
        await db()
      )
        .transaction()
        .execute((trx) => recordCreation(trx, { kind, params, tasks, creator, at, links }));
    },
    unchanged(kind, id, answerText) {
      if (writing.has(id) || recorded.get(id) !== answerKey(kind, answerText)) return false;
      noteChecked(id);
      return true;
    },
    async status(kind, id, data, answerText) {
      const answer = answerKey(kind, answerText ?? JSON.stringify(data));
      const pending = writing.get(id);
      if (pending?.answer === answer) return pending.done.then(() => false);
      if (!pending && recorded.get(id) === answer) {
        noteChecked(id);
        return false;
      }
      // A different answer while one is being written goes after it, in the order they came.
      const done = (pending?.done.catch(() => false) ?? Promise.resolve(false)).then(async () => {
        recorded.delete(id);
        await changedAnswers.add({ kind, id, data });
        // Written with its own check time: no older one is left to write.
        checked.delete(id);
        remember(id, answer);
        return true;
      });
      writing.set(id, { answer, done });
      try {
        return await done;
      } finally {
        if (writing.get(id)?.done === done) writing.delete(id);
      }
    },
    async error(id, error) {
      // The next answer, even one recorded before, clears this error: it is written again.
      forget(id);
      await recordStatusError(await db(), id, error);
    },
    async uploaded(url, fileName, creator) {
      const values = { file_name: fileName, ...creatorColumns(creator), uploaded_at: new Date() };
      await (
        await db()
      )
        .insertInto('uploads')
        .values({ url, ...values })
        .onConflict((oc) => oc.column('url').doUpdateSet(values))
        .execute();
    },
    flush,
  };
}

// Task history, persisted in IndexedDB (./history-storage.ts) and mirrored in memory.
//
// Why not Dexie or IndexedDB indexes: the gallery filters, counts and searches across every task on
// each keystroke, which is fastest on an in-memory array (10,000 records filter in ~1 ms). So the
// store loads everything once with a single getAll, keeps a newest-first array, and writes changes
// back in batches (setMany). Screens subscribe through `subscribeHistory` / useSyncExternalStore.
import type { RequestFile } from '@/api/task-detail/request-files';
import type { TaskType } from '@/api/core/rules';
import { isTerminalStatus } from '@/api/status';
import { setFollowing } from './following';
import { onOtherTabWrites, persist as persistBatch, readAllStored } from './history-storage';
import { isFinalPollError } from '@/api/core/follow-schedule';
import {
  isTaskRecord,
  toTaskError,
  type TaskError,
  type TaskRecord,
  type TaskUpdate,
  type TaskUpdateSource,
} from './task-record';

export interface HistorySnapshot {
  loaded: boolean;
  /** IndexedDB could not be read or written (private window, full disk); memory still works. */
  storageError?: string;
  /** Newest first. A new array whenever anything changes, so it can be compared by identity. */
  tasks: readonly TaskRecord[];
}

type TaskFinishedListener = (record: TaskRecord, source: TaskUpdateSource) => void;

const byId = new Map<string, TaskRecord>();
let snapshot: HistorySnapshot = { loaded: false, tasks: [] };
let orderDirty = false;
let isLoaded = false;
let storageError: string | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();
const finishedListeners = new Set<TaskFinishedListener>();

const newestFirst = (a: TaskRecord, b: TaskRecord) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1);

/** Running, or waiting for a callback; a task the service does not know stays as it is. */
function mayStillChange(task: TaskRecord): boolean {
  const kind = task.lastError?.kind;
  return !isTerminalStatus(task.status) && !(kind && kind !== 'unavailable' && isFinalPollError(kind));
}

function publish(changedIds: readonly string[] = []) {
  let tasks: TaskRecord[];
  if (orderDirty) {
    tasks = [...byId.values()].sort(newestFirst);
    orderDirty = false;
  } else {
    // Updates never change createdAt, so swapping records in place keeps the order (O(n), no sort).
    const changed = new Set(changedIds);
    tasks = snapshot.tasks.map((task) => (changed.has(task.id) ? (byId.get(task.id) ?? task) : task));
  }
  snapshot = { loaded: isLoaded, storageError, tasks };
  if (isLoaded) setFollowing(tasks.some(mayStillChange));
  for (const listener of listeners) listener();
}

function persist(records: readonly TaskRecord[], removed: readonly string[] = []): Promise<void> {
  return persistBatch(records, removed, (error) => {
    // Keep working from memory; the screen says the history is not being saved.
    storageError = `The task history could not be saved: ${error.message}`;
    publish();
  });
}

/** Loads the history once; later calls return the same promise. */
export function loadHistory(): Promise<void> {
  loading ??= readAllStored().then(
    (all) => {
      // Records written before the load finished are newer than what IndexedDB holds.
      for (const record of all) if (isTaskRecord(record) && !byId.has(record.id)) byId.set(record.id, record);
      orderDirty = true;
      isLoaded = true;
      publish();
    },
    (error: unknown) => {
      storageError = `The task history could not be opened: ${(error as Error).message}`;
      isLoaded = true;
      orderDirty = true;
      publish();
    },
  );
  return loading;
}

onOtherTabWrites((changes) => {
  for (const [id, record] of changes) {
    if (record) byId.set(id, record);
    else byId.delete(id);
  }
  orderDirty = true;
  publish();
});

export function subscribeHistory(listener: () => void): () => void {
  listeners.add(listener);
  void loadHistory();
  return () => listeners.delete(listener);
}

export const historySnapshot = (): HistorySnapshot => snapshot;

/** Synchronous read of the in-memory copy (undefined until loaded or unknown). */
export const peekTask = (id: string): TaskRecord | undefined => byId.get(id);

/** Called when a task reaches SUCCEEDED or FAILED for the first time, from any source. */
export function onTaskFinished(listener: TaskFinishedListener): () => void {
  finishedListeners.add(listener);
  return () => finishedListeners.delete(listener);
}

function commit(records: readonly TaskRecord[], { added = false } = {}): Promise<void> {
  for (const record of records) byId.set(record.id, record);
  if (added) orderDirty = true;
  publish(records.map((r) => r.id));
  return persist(records);
}

export interface CreatedTask {
  task_id: string;
  language?: string;
}

export async function recordCreatedTasks(
  kind: TaskType,
  params: unknown,
  tasks: readonly CreatedTask[],
  options: { rerunOf?: string; animatedFrom?: string; files?: RequestFile[] } = {},
): Promise<TaskRecord[]> {
  await loadHistory();
  const now = Date.now();
  const records = tasks.map<TaskRecord>((task) => ({
    id: task.task_id,
    kind,
    source: 'created',
    params,
    language: task.language,
    createdAt: now,
    updatedAt: now,
    status: '',
    rerunOf: options.rerunOf,
    animatedFrom: options.animatedFrom,
    ...(options.files?.length && { files: options.files }),
  }));
  await commit(records, { added: true });
  return records;
}

export async function getTask(id: string): Promise<TaskRecord | undefined> {
  await loadHistory();
  return byId.get(id);
}

export async function listTasks(): Promise<TaskRecord[]> {
  await loadHistory();
  return [...snapshot.tasks];
}

export async function updateTask(id: string, patch: Partial<TaskRecord>): Promise<void> {
  await loadHistory();
  const old = byId.get(id);
  if (old) await commit([{ ...old, ...patch, id, updatedAt: Date.now() }]);
}

/** Adds tasks looked up by id (kind already resolved); known ids are left as they are. */
export async function addLookedUpTasks(
  /** With `lastError` when the lookup was asked already and failed (recorded in the same write). */
  tasks: readonly { id: string; kind: TaskType; lastError?: TaskError }[],
): Promise<TaskRecord[]> {
  await loadHistory();
  const now = Date.now();
  const fresh = tasks
    .filter((task, i) => !byId.has(task.id) && tasks.findIndex((t) => t.id === task.id) === i)
    .map<TaskRecord>((task, i) => ({
      ...task,
      source: 'lookup',
      // The first id pasted is shown first (the gallery is newest first).
      createdAt: now - i,
      updatedAt: now,
      status: '',
    }));
  if (fresh.length) await commit(fresh, { added: true });
  return fresh;
}

function cleanUpdate(data: TaskUpdate): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data))
    if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/**
 * The one way a status reaches the history, for polls and callbacks alike: merges `data` into the
 * record (creating it when unknown). A terminal status is never replaced by a running one, so a
 * late poll answer cannot undo a callback, and either source ends polling.
 */
export async function applyTaskUpdate(
  id: string,
  kind: TaskType,
  data: TaskUpdate,
  source: TaskUpdateSource,
): Promise<TaskRecord> {
  await loadHistory();
  const now = Date.now();
  const old = byId.get(id);
  const base: TaskRecord = old ?? {
    id,
    kind,
    source: source === 'callback' ? 'callback' : 'lookup',
    createdAt: now,
    updatedAt: now,
    status: '',
  };
  const incoming = typeof data.status === 'string' && data.status ? data.status : undefined;
  const regress = isTerminalStatus(base.status) && !isTerminalStatus(incoming);
  const fields = cleanUpdate(data);
  const language = typeof fields.language === 'string' ? fields.language : undefined;
  const record: TaskRecord = regress
    ? { ...base, lastCheckedAt: now, lastError: undefined }
    : {
        ...base,
        // A callback names the task type authoritatively; a lookup only guessed it.
        kind: source === 'callback' ? kind : base.kind,
        status: incoming ?? base.status,
        result: { ...base.result, ...fields },
        language: base.language ?? language,
        lastError: undefined,
        lastCheckedAt: now,
        lastSource: source,
        updatedAt: now,
      };
  const finished = !isTerminalStatus(base.status) && isTerminalStatus(record.status);
  if (finished) record.finishedAt = now;
  await commit([record], { added: !old });
  if (finished) for (const listener of finishedListeners) listener(record, source);
  return record;
}

/**
 * The team's record is the truth about a task's status (the server follows every task): this
 * browser's copy takes its status, answer, error, check and finish times and kept files as the
 * record has them, keeping what only this browser knows (its own params, files, re-run links).
 * A task this browser does not have is left alone.
 */
export async function applyRecordedTask(view: TaskRecord): Promise<void> {
  await loadHistory();
  const old = byId.get(view.id);
  if (!old) return;
  // A late read of the record never takes a finished task back to running.
  if (isTerminalStatus(old.status) && !isTerminalStatus(view.status)) return;
  const record: TaskRecord = {
    ...old,
    status: view.status,
    result: view.result ?? old.result,
    lastError: view.lastError,
    lastSource: view.lastSource ?? old.lastSource,
    lastCheckedAt: view.lastCheckedAt ?? old.lastCheckedAt,
    finishedAt: view.finishedAt ?? old.finishedAt,
    updatedAt: view.updatedAt,
    copies: view.copies ?? old.copies,
    language: old.language ?? view.language,
  };
  const same =
    record.status === old.status &&
    record.updatedAt === old.updatedAt &&
    record.lastCheckedAt === old.lastCheckedAt &&
    JSON.stringify([record.lastError, record.copies]) === JSON.stringify([old.lastError, old.copies]);
  if (same) return;
  await commit([record]);
  const finished = !isTerminalStatus(old.status) && isTerminalStatus(record.status);
  const source = record.lastSource === 'callback' ? 'callback' : 'poll';
  if (finished) for (const listener of finishedListeners) listener(record, source);
}

export async function recordTaskError(
  id: string,
  error: { kind: string; httpStatus: number; code?: number; msg: string },
): Promise<void> {
  await loadHistory();
  const old = byId.get(id);
  if (!old) return;
  await commit([{ ...old, lastError: toTaskError(error) }]);
}

export async function removeTasks(ids: readonly string[]): Promise<void> {
  await loadHistory();
  for (const id of ids) byId.delete(id);
  orderDirty = true;
  publish();
  await persist([], ids);
}

/** Writes many records at once (import, benchmark seeding); the newer `updatedAt` wins. */
export async function mergeTasks(
  records: readonly TaskRecord[],
): Promise<{ added: number; updated: number; unchanged: number }> {
  await loadHistory();
  let added = 0;
  let updated = 0;
  const writes: TaskRecord[] = [];
  for (const record of records) {
    const old = byId.get(record.id);
    if (!old) added++;
    else if (record.updatedAt > old.updatedAt) updated++;
    else continue;
    writes.push(record);
  }
  await commit(writes, { added: added > 0 });
  return { added, updated, unchanged: records.length - writes.length };
}

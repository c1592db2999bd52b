// Task history, persisted in IndexedDB. MINIMAL first version: the gallery issue grows it
// (indexes, 10,000 tasks, export/import, subscriptions) but keeps these signatures.
import { createStore, get, set, update, values } from 'idb-keyval';
import type { TaskType } from '@/api/schemas';

export type TaskKind = TaskType;

export interface TaskError {
  kind: string;
  httpStatus: number;
  code?: number;
  msg: string;
  at: number;
}

export interface TaskRecord {
  id: string;
  kind: TaskKind;
  /** How the console learned of the task. */
  source: 'created' | 'lookup' | 'callback';
  /** The creation request body, when this browser created the task. */
  params?: unknown;
  /** For video translations: the target language of this task. */
  language?: string;
  createdAt: number;
  updatedAt: number;
  /** Last known status, verbatim; '' before the first answer. */
  status: string;
  /** Last successful status response `data` (or callback `data`). */
  result?: Record<string, unknown>;
  lastError?: TaskError;
  /** The task this one re-runs. */
  rerunOf?: string;
}

const store = () => createStore('media-console', 'tasks');
let cached: ReturnType<typeof createStore> | undefined;
const db = () => (cached ??= store());

export interface CreatedTask {
  task_id: string;
  language?: string;
}

export async function recordCreatedTasks(
  kind: TaskKind,
  params: unknown,
  tasks: readonly CreatedTask[],
  options: { rerunOf?: string } = {},
): Promise<TaskRecord[]> {
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
  }));
  for (const record of records) await set(record.id, record, db());
  return records;
}

export function getTask(id: string): Promise<TaskRecord | undefined> {
  return get<TaskRecord>(id, db());
}

export async function listTasks(): Promise<TaskRecord[]> {
  const all = await values<TaskRecord>(db());
  return all.sort((a, b) => b.createdAt - a.createdAt);
}

export function updateTask(id: string, patch: Partial<TaskRecord>): Promise<void> {
  return update<TaskRecord>(id, (old) => (old ? { ...old, ...patch, updatedAt: Date.now() } : old) as TaskRecord, db());
}

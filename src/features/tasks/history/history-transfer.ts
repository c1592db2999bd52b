// Export and import of the task history as JSON, so support staff can hand a set of tasks over and
// a browser can be moved or reset without losing anything.
import { z } from '@/api/zod';
import { TASK_TYPES } from '@/api/core/rules';
import { checkTask } from '@/features/tasks/history/check-task';
import { applyRecordedTask, listTasks, mergeTasks, recordTaskError } from './history';
import type { TaskRecord } from './task-record';
import { createSemaphore } from './semaphore';

const HISTORY_FORMAT = 'media-console.task-history';
const HISTORY_VERSION = 1;

const taskErrorSchema = z.looseObject({
  kind: z.string(),
  httpStatus: z.number(),
  code: z.optional(z.number()),
  msg: z.string(),
  at: z.number(),
});

const recordSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  kind: z.enum(TASK_TYPES),
  source: z.catch(z.enum(['created', 'lookup', 'callback']), 'lookup'),
  params: z.optional(z.unknown()),
  // Names of uploaded files; a malformed list is dropped rather than refusing the whole record.
  files: z.catch(
    z.optional(z.array(z.object({ field: z.string(), url: z.string(), name: z.string() }))),
    undefined,
  ),
  language: z.optional(z.string()),
  createdAt: z.number(),
  updatedAt: z.catch(z.number(), 0),
  status: z.catch(z.string(), ''),
  result: z.optional(z.record(z.string(), z.unknown())),
  lastError: z.optional(taskErrorSchema),
  rerunOf: z.optional(z.string()),
  animatedFrom: z.optional(z.string()),
  finishedAt: z.optional(z.number()),
  lastCheckedAt: z.optional(z.number()),
});

interface HistoryFile {
  format: typeof HISTORY_FORMAT;
  version: number;
  exportedAt: string;
  count: number;
  tasks: TaskRecord[];
}

function serializeHistory(tasks: readonly TaskRecord[], now = new Date()): string {
  const file: HistoryFile = {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    exportedAt: now.toISOString(),
    count: tasks.length,
    tasks: [...tasks],
  };
  return JSON.stringify(file, null, 1);
}

export async function exportHistory(): Promise<string> {
  return serializeHistory(await listTasks());
}

interface ParsedHistory {
  tasks: TaskRecord[];
  /** Entries that are not task records, with the reason for the first few. */
  rejected: number;
  problems: string[];
}

/** Accepts an export file or a bare array of records; bad entries are skipped, not fatal. */
export function parseHistory(text: string): ParsedHistory {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON.');
  }
  const list = Array.isArray(json) ? json : (json as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(list)) throw new Error('This file is not a task history export (no "tasks" list).');
  const tasks: TaskRecord[] = [];
  const problems: string[] = [];
  let rejected = 0;
  list.forEach((entry, index) => {
    const parsed = recordSchema.safeParse(entry);
    if (parsed.success) tasks.push(parsed.data as TaskRecord);
    else {
      rejected++;
      const issue = parsed.error.issues[0];
      if (problems.length < 3)
        problems.push(`#${index + 1}: ${issue?.path.join('.') || 'entry'} ${issue?.message ?? 'is invalid'}`);
    }
  });
  return { tasks, rejected, problems };
}

/** Imported ids looked up at once, at most. */
const LOOKUPS_AT_ONCE = 4;

/**
 * The team's record takes nothing on a file's word: each imported id is looked up once through
 * the server (which asks the service, records what it answers and follows the task from then on),
 * a few at a time. The record's answer goes into the history; why the service could not tell (an id
 * it does not know) is kept beside the task, for the card and the look-up form to say.
 */
export function lookUpImported(
  tasks: readonly Pick<TaskRecord, 'id' | 'kind'>[],
  deps = { check: checkTask, semaphore: createSemaphore(LOOKUPS_AT_ONCE) },
): Promise<void> {
  return Promise.all(
    tasks.map((task) =>
      deps.semaphore
        .run(() => deps.check(task.id, task.kind))
        .then((checked) =>
          'found' in checked
            ? applyRecordedTask(checked.found.task)
            : recordTaskError(task.id, checked.error),
        )
        .catch(() => undefined),
    ),
  ).then(() => undefined);
}

export async function importHistory(text: string) {
  const parsed = parseHistory(text);
  const merged = await mergeTasks(parsed.tasks);
  void lookUpImported(parsed.tasks);
  return { ...merged, rejected: parsed.rejected, problems: parsed.problems };
}

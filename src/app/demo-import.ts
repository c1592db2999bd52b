// Demo mode (`npm run demo`): the server seeds the emulator with example tasks and lists them in
// `/__console/config`; this puts them into the task history once per server run, so the gallery
// starts full. A history that holds anything besides earlier demo tasks is never touched.
import type { TaskRecord } from '@/features/tasks/history/task-record';

const STORAGE_KEY = 'media-console:demo';

interface StoredDemo {
  run: string;
  ids: string[];
}

function readStored(): StoredDemo | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredDemo | null;
    return value && typeof value.run === 'string' && Array.isArray(value.ids) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Returns whether the demo tasks were imported. */
export async function importDemoTasks(run: string, tasks: TaskRecord[]): Promise<boolean> {
  const stored = readStored();
  if (stored?.run === run) return false;
  // Loaded only in demo mode: the history store is not needed to paint the first screen.
  const { historySnapshot, loadHistory, mergeTasks, removeTasks } =
    await import('@/features/tasks/history/history');
  await loadHistory();
  const previous = new Set(stored?.ids ?? []);
  const current = historySnapshot().tasks;
  // The user's own tasks are never mixed with, or replaced by, demo data.
  if (current.some((task) => !previous.has(task.id))) return false;
  // Earlier runs' tasks are gone from the emulator's memory; they would only show "Not found".
  if (current.length > 0) await removeTasks(current.map((task) => task.id));
  await mergeTasks(tasks);
  localStorage.setItem(
    STORAGE_KEY,
    JSON.stringify({ run, ids: tasks.map((task) => task.id) } satisfies StoredDemo),
  );
  return true;
}

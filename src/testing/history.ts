import { historySnapshot, loadHistory, removeTasks } from '@/features/tasks/history/history';

/** Empties this page's task history, memory and IndexedDB, through its public API. */
export async function emptyHistory(): Promise<void> {
  await loadHistory();
  await removeTasks(historySnapshot().tasks.map((task) => task.id));
}

// React access to the history store: re-renders when it changes, nothing else to wire up.
import { useSyncExternalStore } from 'react';
import {
  historySnapshot,
  loadHistory,
  subscribeHistory,
  type HistorySnapshot,
  type TaskRecord,
} from '@/features/tasks/history/history';

// Start reading IndexedDB as soon as a task screen's code arrives, before React renders it.
void loadHistory();

export function useHistory(): HistorySnapshot {
  return useSyncExternalStore(subscribeHistory, historySnapshot, historySnapshot);
}

export function useTaskRecord(id: string): { loaded: boolean; record: TaskRecord | undefined } {
  const { loaded, tasks } = useHistory();
  // Linear, but only on history changes; a Map index would cost memory for every snapshot.
  return { loaded, record: tasks.find((task) => task.id === id) };
}

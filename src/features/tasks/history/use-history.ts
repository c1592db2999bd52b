// React access to the history store: re-renders when it changes, nothing else to wire up.
import { useSyncExternalStore } from 'react';
import {
  historySnapshot,
  loadHistory,
  subscribeHistory,
  type HistorySnapshot,
} from '@/features/tasks/history/history';

// Start reading IndexedDB as soon as a task screen's code arrives, before React renders it.
void loadHistory();

export function useHistory(): HistorySnapshot {
  return useSyncExternalStore(subscribeHistory, historySnapshot, historySnapshot);
}

// This browser's history on the Tasks screen, only when it is needed: the team's record is what the
// screen shows, and the history (IndexedDB and its store) loads only when that record cannot be
// read and the screen falls back to what this browser knows.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { HistorySnapshot } from '@/features/tasks/history/history';

type HistoryStore = typeof import('@/features/tasks/history/history');

const noSubscription = () => () => {};
const nothing = () => undefined;

export function useHistoryWhen(active: boolean): HistorySnapshot | undefined {
  const [store, setStore] = useState<HistoryStore>();
  useEffect(() => {
    if (!active || store) return;
    let live = true;
    void import('@/features/tasks/history/history').then(async (loaded) => {
      await loaded.loadHistory();
      if (live) setStore(loaded);
    });
    return () => {
      live = false;
    };
  }, [active, store]);
  const snapshot = useSyncExternalStore(
    store?.subscribeHistory ?? noSubscription,
    store?.historySnapshot ?? nothing,
    store?.historySnapshot ?? nothing,
  );
  return active ? snapshot : undefined;
}

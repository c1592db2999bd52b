// Whether this browser has tasks still running, kept in localStorage by the history store, so the
// shell can decide without loading the history, the poller or TanStack Query whether to start
// following anything. Other tabs learn of a change through the storage event.
import { useSyncExternalStore } from 'react';

const FOLLOWING_KEY = 'media-console:following';
const EVENT = 'media-console:following';

function isFollowing(): boolean {
  try {
    return localStorage.getItem(FOLLOWING_KEY) === '1';
  } catch {
    return true; // storage unavailable: follow, since nothing can say that nothing is running
  }
}

export function setFollowing(following: boolean) {
  if (following === isFollowing()) return;
  try {
    if (following) localStorage.setItem(FOLLOWING_KEY, '1');
    else localStorage.removeItem(FOLLOWING_KEY);
  } catch {
    return;
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(listener: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === FOLLOWING_KEY || event.key === null) listener();
  };
  window.addEventListener(EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** True while any task in this browser's history may still change. */
export function useFollowing(): boolean {
  return useSyncExternalStore(subscribe, isFollowing, () => false);
}

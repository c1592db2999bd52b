// The inbox connection state, shared between the app-level subscriber and the Callbacks screen.
import { useSyncExternalStore } from 'react';
import type { InboxConnection } from './inbox-subscription';

let state: InboxConnection = 'off';
const listeners = new Set<() => void>();

export const getInboxConnection = (): InboxConnection => state;

export function setInboxConnection(next: InboxConnection) {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInboxConnection(): InboxConnection {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

// What the Node side says about its backend (`/__console/config`), fetched once per page and shared
// by the header, the forms and the callback view. A small store rather than a query: the header
// shows it on every screen, and TanStack Query loads only with the screens that poll.
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ConsoleInfo } from './console-info-schema';

export type { ConsoleInfo, DemoTask } from './console-info-schema';

interface ConsoleInfoState {
  data?: ConsoleInfo;
  isPending: boolean;
  isError: boolean;
  /** Why it could not be read, in words for the screen. */
  error?: string;
}

/** Where screens read the console info from: one per page, or a fixed one (tests, stories). */
interface ConsoleInfoStore {
  subscribe(listener: () => void): () => void;
  get(): ConsoleInfoState;
  /** Reads it again (the server may have restarted with another inbox secret). */
  refresh(): Promise<void>;
}

/** Static hosting without the Node side answers HTML here; an object with the two fields every server sends is trusted. */
function looksLikeConsoleInfo(value: unknown): value is ConsoleInfo {
  const info = value as Partial<ConsoleInfo> | null;
  return Boolean(info) && typeof info?.backend === 'string' && typeof info.callbackUrlReachable === 'boolean';
}

/** A store that asks `/__console/config` when first read, and again on refresh. */
export function createConsoleInfoStore(
  initial: ConsoleInfoState = { isPending: true, isError: false },
): ConsoleInfoStore {
  let state = initial;
  let request: Promise<void> | undefined;
  const listeners = new Set<() => void>();

  function set(next: ConsoleInfoState) {
    state = next;
    for (const listener of listeners) listener();
  }

  async function fetchConsoleInfo(): Promise<void> {
    try {
      const response = await fetch('/__console/config', { headers: { accept: 'application/json' } });
      const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
      if (!response.ok) throw new Error(`/__console/config answered HTTP ${response.status}`);
      if (!looksLikeConsoleInfo(body))
        throw new Error('/__console/config is not the console server’s answer');
      set({ data: body, isPending: false, isError: false });
    } catch (error) {
      set({ ...state, isPending: false, isError: true, error: (error as Error).message });
    } finally {
      request = undefined;
    }
  }

  const refresh = () => (request ??= fetchConsoleInfo());
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (state.isPending && !request) void refresh();
      return () => listeners.delete(listener);
    },
    get: () => state,
    refresh,
  };
}

const pageStore = createConsoleInfoStore();

/** The store screens read; the page's own unless a provider gives another. */
export const ConsoleInfoContext = createContext<ConsoleInfoStore>(pageStore);

/** Reads the page's console info again (the server may have restarted with another inbox secret). */
export function refreshConsoleInfo(): Promise<void> {
  return pageStore.refresh();
}

export function useConsoleInfo(): ConsoleInfoState {
  const store = useContext(ConsoleInfoContext);
  return useSyncExternalStore(store.subscribe, store.get);
}

// What the Node side says about its backend (`/__console/config`), fetched once per page and shared
// by the header, the forms and the callback view. A small store rather than a query: the header
// shows it on every screen, and TanStack Query loads only with the screens that poll.
import { useSyncExternalStore } from 'react';
import type { ConsoleInfo } from './console-info-schema';

export type { ConsoleInfo, DemoTask } from './console-info-schema';

export interface ConsoleInfoState {
  data?: ConsoleInfo;
  isPending: boolean;
  isError: boolean;
  /** Why it could not be read, in words for the screen. */
  error?: string;
}

let state: ConsoleInfoState = { isPending: true, isError: false };
let request: Promise<void> | undefined;
const listeners = new Set<() => void>();

function set(next: ConsoleInfoState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Static hosting without the Node side answers HTML here; an object with the two fields every server sends is trusted. */
function looksLikeConsoleInfo(value: unknown): value is ConsoleInfo {
  const info = value as Partial<ConsoleInfo> | null;
  return Boolean(info) && typeof info?.backend === 'string' && typeof info.callbackUrlReachable === 'boolean';
}

async function fetchConsoleInfo(): Promise<void> {
  try {
    const response = await fetch('/__console/config', { headers: { accept: 'application/json' } });
    const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
    if (!response.ok) throw new Error(`/__console/config answered HTTP ${response.status}`);
    if (!looksLikeConsoleInfo(body)) throw new Error('/__console/config is not the console server’s answer');
    set({ data: body, isPending: false, isError: false });
  } catch (error) {
    set({ ...state, isPending: false, isError: true, error: (error as Error).message });
  } finally {
    request = undefined;
  }
}

/** Reads it again (the server may have restarted with another inbox secret). */
export function refreshConsoleInfo(): Promise<void> {
  request ??= fetchConsoleInfo();
  return request;
}

export function useConsoleInfo(): ConsoleInfoState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (state.isPending && !request) void refreshConsoleInfo();
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/** Tests: answer without a server (or start over with `undefined`). */
export function setConsoleInfoForTests(info: ConsoleInfo | undefined) {
  request = undefined;
  set(info ? { data: info, isPending: false, isError: false } : { isPending: true, isError: false });
}

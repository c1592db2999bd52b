// One EventSource on the inbox's event stream. Reconnects are done here rather than by the
// browser, so each new connection asks for exactly what this page has not seen (`?since=<id>`).
import { storedCallbackCheck, type StoredCallback } from './inbox-api';

export type InboxConnection = 'connecting' | 'live' | 'reconnecting' | 'off';

interface SubscriptionHandlers {
  onCallback(entry: StoredCallback): void;
  onState(state: InboxConnection): void;
  /** Called after several failed attempts in a row: the inbox address may have changed. */
  onRepeatedFailure?(): void;
}

const POSITION_KEY = 'media-console:callbacks:position';
const MAX_DELAY_MS = 15_000;

/** The last callback id this browser handled for an inbox, or undefined for a fresh browser. */
export function readPosition(inboxPath: string): number | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(POSITION_KEY) ?? 'null') as {
      path?: string;
      id?: number;
    } | null;
    return saved?.path === inboxPath && Number.isInteger(saved.id) ? saved.id : undefined;
  } catch {
    return undefined;
  }
}

export function savePosition(inboxPath: string, id: number) {
  // Several tabs write this key; keeping the highest means a reload resumes after the newest.
  const current = readPosition(inboxPath) ?? 0;
  try {
    localStorage.setItem(POSITION_KEY, JSON.stringify({ path: inboxPath, id: Math.max(current, id) }));
  } catch {
    // Storage full or blocked: the next page load starts at the end of the log instead.
  }
}

export function subscribeToInbox(inboxPath: string, handlers: SubscriptionHandlers): () => void {
  // A fresh browser starts at the end: its history begins now, and the Callbacks screen shows the
  // older ones. A browser that has been here before resumes where it stopped.
  let position: number | 'end' = readPosition(inboxPath) ?? 'end';
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;

  const connect = () => {
    handlers.onState(failures ? 'reconnecting' : 'connecting');
    const es = new EventSource(`${inboxPath}/events?since=${position}`);
    source = es;
    es.addEventListener('ready', (event) => {
      failures = 0;
      handlers.onState('live');
      if (position === 'end') {
        const lastId = Number(
          (JSON.parse((event as MessageEvent<string>).data) as { lastId?: unknown }).lastId,
        );
        position = Number.isInteger(lastId) ? lastId : 0;
        savePosition(inboxPath, position);
      }
    });
    es.addEventListener('callback', (event) => {
      let parsed;
      try {
        parsed = storedCallbackCheck.safeParse(JSON.parse((event as MessageEvent<string>).data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      position = Math.max(typeof position === 'number' ? position : 0, parsed.data.id);
      handlers.onCallback(parsed.data);
    });
    es.onerror = () => {
      es.close();
      if (stopped) return;
      failures++;
      handlers.onState('reconnecting');
      if (failures === 3) handlers.onRepeatedFailure?.();
      timer = setTimeout(connect, Math.min(MAX_DELAY_MS, 500 * 2 ** failures));
    };
  };

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    handlers.onState('off');
  };
}

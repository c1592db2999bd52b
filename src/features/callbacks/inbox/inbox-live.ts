// The working part of the Callbacks screen's subscription to the inbox, loaded on demand so the
// callback schemas stay out of the first page's bundle.
//
// One tab per browser holds the event stream (a Web Lock elects it) and shares what it receives
// with the other tabs: browsers allow only six HTTP/1.1 connections per host, and a stream per tab
// would starve the app's own requests once six tabs are open. The history store already tells
// other tabs about the records it changes.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { refreshConsoleInfo } from '@/api/console-info';
import { getInboxConnection, setInboxConnection } from './connection-state';
import { callbackKeys, type CallbackLogPage, type StoredCallback } from './inbox-api';
import { savePosition, subscribeToInbox, type InboxConnection } from './inbox-subscription';

type LogData = InfiniteData<CallbackLogPage, number | undefined>;
type TabMessage =
  { type: 'callback'; entry: StoredCallback } | { type: 'state'; state: InboxConnection } | { type: 'hello' };

/** Puts a live callback at the top of the cached log, unless it is there already. */
export function prependToLog(data: LogData | undefined, entry: StoredCallback): LogData | undefined {
  const first = data?.pages[0];
  if (!data || !first) return data;
  if (data.pages.some((page) => page.items.some((item) => item.id === entry.id))) return data;
  const page: CallbackLogPage = {
    total: first.total + 1,
    lastId: Math.max(first.lastId, entry.id),
    items: [entry, ...first.items],
  };
  return { ...data, pages: [page, ...data.pages.slice(1)] };
}

/** Lists every callback the inbox stores from now on (or since this browser last looked). */
export function startInboxLive(inboxPath: string, queryClient: QueryClient): () => void {
  const addToLog = (entry: StoredCallback) => {
    queryClient.setQueryData<LogData>(callbackKeys.log(inboxPath), (old) => prependToLog(old, entry));
    // A filtered view may or may not match: let the server decide.
    void queryClient.invalidateQueries({
      queryKey: callbackKeys.logs(inboxPath),
      predicate: (query) => query.queryKey[3] !== '',
    });
  };
  const channel =
    typeof BroadcastChannel === 'undefined'
      ? undefined
      : new BroadcastChannel(`media-console:inbox:${inboxPath}`);
  const send = (message: TabMessage) => channel?.postMessage(message);
  let leading = false;

  const lead = () => {
    leading = true;
    return subscribeToInbox(inboxPath, {
      // The log only: the server makes a callback's task be asked about at once, and the record's
      // change reaches every screen through the task events (server/callbacks/hints.ts).
      onCallback(entry) {
        addToLog(entry);
        send({ type: 'callback', entry });
        savePosition(inboxPath, entry.id);
      },
      onState(state) {
        setInboxConnection(state);
        if (state !== 'off') send({ type: 'state', state });
      },
      // The server may have restarted (or been replaced by an older one): read its settings again.
      onRepeatedFailure: () => void refreshConsoleInfo(),
    });
  };

  channel?.addEventListener('message', (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    if (message.type === 'callback' && !leading) addToLog(message.entry);
    if (message.type === 'state' && !leading) setInboxConnection(message.state);
    if (message.type === 'hello' && leading) send({ type: 'state', state: getInboxConnection() });
  });

  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || !channel) {
    const stop = lead();
    return () => {
      stop();
      channel?.close();
    };
  }

  const abort = new AbortController();
  let stopLeading: (() => void) | undefined;
  let releaseLock: (() => void) | undefined;
  setInboxConnection('connecting');
  send({ type: 'hello' });
  locks
    .request(
      `media-console:inbox:${inboxPath}`,
      { signal: abort.signal },
      () =>
        new Promise<void>((release) => {
          releaseLock = release;
          stopLeading = lead();
        }),
    )
    .catch(() => undefined); // aborted while waiting: this tab closed before it had to lead
  return () => {
    abort.abort();
    stopLeading?.();
    releaseLock?.();
    channel.close();
    leading = false;
  };
}

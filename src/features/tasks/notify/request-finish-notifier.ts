// Tells a person when their requests finish or fail, from the server's live stream of task changes
// (`/__console/tasks/events`), whoever or whatever moved the task on (a poll in any browser, a
// callback, the server): one browser notification per request once all its tasks have ended. One
// tab per browser listens (a Web Lock), so several open tabs give one notice and hold one stream.
// Loaded by ./request-notifier-gate.tsx once notifications are wanted and allowed.
import { navigate } from 'wouter/use-browser-location';
import { isTerminalStatus } from '@/api/status';
import { requestNotice, type FinishedRequest } from './request-notice';

const LOCK = 'media-console:request-notifier';

interface PushedTask {
  id?: unknown;
  status?: unknown;
  creatorId?: unknown;
  requestId?: unknown;
}

async function readRequest(id: string): Promise<FinishedRequest | undefined> {
  const response = await fetch(`/__console/requests/${encodeURIComponent(id)}`, {
    headers: { accept: 'application/json' },
  }).catch(() => undefined);
  if (!response?.ok) return undefined;
  const body = (await response.json().catch(() => undefined)) as { data?: FinishedRequest } | undefined;
  return Array.isArray(body?.data?.tasks) ? body.data : undefined;
}

/** Whether the person is looking at this tab now: then the page shows the change itself. */
const watching = () => document.visibilityState === 'visible' && document.hasFocus();

function show(notice: NonNullable<ReturnType<typeof requestNotice>>, requestId: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || watching()) return;
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  notification.onclick = () => {
    window.focus();
    navigate(`/requests/${encodeURIComponent(requestId)}`);
    notification.close();
  };
}

/**
 * Listens for `me`'s finished requests until the returned function is called. `decided` hears each
 * request looked at and whether it was finished (tests wait for it rather than for time).
 */
export function startRequestFinishNotifier(
  me: string,
  { decided }: { decided?: (requestId: string, finished: boolean) => void } = {},
): () => void {
  let stopped = false;
  let release: (() => void) | undefined;
  let source: EventSource | undefined;
  // Requests told (or being looked at), so each is told once even when its last tasks end together.
  const told = new Set<string>();

  const listen = () => {
    if (stopped) return;
    source = new EventSource('/__console/tasks/events');
    source.addEventListener('task', (event: MessageEvent<string>) => {
      let task: PushedTask;
      try {
        task = JSON.parse(event.data) as PushedTask;
      } catch {
        return;
      }
      const requestId = typeof task.requestId === 'string' ? task.requestId : undefined;
      if (task.creatorId !== me || !requestId || told.has(requestId)) return;
      if (!isTerminalStatus(typeof task.status === 'string' ? task.status : undefined)) return;
      told.add(requestId);
      void readRequest(requestId).then((request) => {
        const notice = request && requestNotice(request);
        // Not finished yet (a sibling still runs): its last task's change asks again.
        if (!notice) told.delete(requestId);
        else show(notice, requestId);
        decided?.(requestId, Boolean(notice));
      });
    });
  };

  if (typeof navigator !== 'undefined' && navigator.locks) {
    const controller = new AbortController();
    navigator.locks
      .request(LOCK, { signal: controller.signal }, () => {
        listen();
        // Held until stopped; then the next tab waiting for it takes over.
        return new Promise<void>((resolve) => (release = resolve));
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
      source?.close();
      release?.();
      controller.abort();
    };
  }
  listen();
  return () => {
    stopped = true;
    source?.close();
  };
}

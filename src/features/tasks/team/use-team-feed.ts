// The server's task events (`/__console/tasks/events`), merged into TanStack Query's cache: each
// pushed task goes into every cached list it belongs to (and invalidates its detail), and the tab
// counts of the list on screen are read again. The detail page uses it too, without the lists' paging code.
import { hashKey, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { HIDDEN_KEY } from '@/features/tasks/shared/bulk-slot';
import { mergePushedTask } from './team-merge';
import {
  fetchTaskPage,
  teamKeys,
  toTeamTask,
  type TaskPage,
  type TeamQuery,
  type TeamTask,
} from './team-tasks';
import { STARS_KEY } from '@/features/tasks/shared/stars';

type Pages = InfiniteData<TaskPage, string | undefined>;

/** The tasks I hid from my view, as last read (./selection.tsx): pushes leave them out. */
const hiddenOf = (client: QueryClient) => client.getQueryData<ReadonlySet<string>>(HIDDEN_KEY);
/** My stars, as last read (../shared/stars.tsx): the Starred view takes in only these. */
const starsOf = (client: QueryClient) => client.getQueryData<ReadonlySet<string>>(STARS_KEY);

/** Merges one pushed task into every cached list and the task's detail. */
function applyPushedTask(client: QueryClient, task: TeamTask) {
  const hidden = hiddenOf(client);
  for (const query of client.getQueryCache().findAll({ queryKey: teamKeys.lists() })) {
    const filters = query.queryKey[2] as TeamQuery | undefined;
    if (!filters) continue;
    client.setQueryData<Pages>(
      query.queryKey,
      (data) => data && mergePushedTask(data, task, filters, hidden, starsOf(client)),
    );
  }
  // The timeline gained an entry: read the task again if a detail page shows it, and its request
  // if a request's page shows that (./requests/use-request.ts: its review changes after it ends).
  void client.invalidateQueries({ queryKey: teamKeys.detail(task.id) });
  if (task.requestId) void client.invalidateQueries({ queryKey: ['team-requests', task.requestId] });
}

/** The tab counts of the first page, read again (a one-item page brings them). */
async function refreshCounts(client: QueryClient, query: TeamQuery) {
  const page = await fetchTaskPage(query, { limit: 1 }).catch(() => undefined);
  if (!page?.counts) return;
  const counts = page.counts;
  client.setQueryData<Pages>(teamKeys.list(query), (data) =>
    data?.pages[0] ? { ...data, pages: data.pages.with(0, { ...data.pages[0], counts }) } : data,
  );
}

const COUNTS_DELAY_MS = 250;

/**
 * Pushes that arrive while a list is being read are merged into nothing (the list has no data yet),
 * and the answer may predate them: a card would keep the state it had when the server read it. So
 * each push is kept a while, and a list's answer gets, in order, the pushes that came since its
 * read began.
 */
const REPLAY_MS = 30_000;

function replayIntoAnswers(client: QueryClient, pushed: { at: number; task: TeamTask }[]) {
  const started = new Map<string, number>();
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    const { queryKey, queryHash } = event.query;
    if (queryKey[0] !== teamKeys.all[0] || queryKey[1] !== 'list') return;
    const action = event.action as { type: string; manual?: boolean };
    if (action.type === 'fetch') {
      if (!started.has(queryHash)) started.set(queryHash, Date.now());
      return;
    }
    if (action.type !== 'success' || action.manual) return;
    const since = started.get(queryHash);
    started.delete(queryHash);
    const filters = queryKey[2] as TeamQuery | undefined;
    // A read begun before this subscription (the screen's first): every push kept is since then.
    const missed = pushed.filter((push) => push.at >= (since ?? 0));
    if (!filters || !missed.length) return;
    const hidden = hiddenOf(client);
    client.setQueryData<Pages>(
      queryKey,
      (data) =>
        data &&
        missed.reduce(
          (merged, push) => mergePushedTask(merged, push.task, filters, hidden, starsOf(client)),
          data,
        ),
    );
  });
}

interface TaskEventListener {
  /** A task the record changed, as the record now holds it. */
  task(task: TeamTask): void;
  /** The stream (re)connected: changes from now on come as events; what was missed must be read. */
  ready(reconnected: boolean): void;
}

const listeners = new Set<TaskEventListener>();
let source: EventSource | undefined;

/**
 * One stream of the server's task events per page, however many parts of it listen (the list, a
 * task's page, this browser's own tasks): each open stream counts against the person's allowance.
 */
export function subscribeTaskEvents(listener: TaskEventListener): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  listeners.add(listener);
  if (!source) {
    const stream = new EventSource('/__console/tasks/events');
    source = stream;
    let connected = false;
    stream.addEventListener('ready', () => {
      for (const each of [...listeners]) each.ready(connected);
      connected = true;
    });
    stream.addEventListener('task', (event: MessageEvent<string>) => {
      let task: TeamTask | undefined;
      try {
        task = toTeamTask(JSON.parse(event.data));
      } catch {
        return; // not JSON: nothing to merge
      }
      if (task) for (const each of [...listeners]) each.task(task);
    });
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      source?.close();
      source = undefined;
    }
  };
}

/**
 * Subscribes to the server's task events while mounted. `query` is the list on screen: its counts
 * are read again after a burst of events; other cached lists are marked stale for their next visit.
 */
export function useTeamFeed(query: TeamQuery | undefined) {
  const client = useQueryClient();
  const current = useRef(query);
  useEffect(() => {
    current.current = query;
  });
  useEffect(() => {
    const pushed: { at: number; task: TeamTask }[] = [];
    const stopReplay = replayIntoAnswers(client, pushed);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const countsSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const shown = current.current;
        if (shown) void refreshCounts(client, shown);
        const shownHash = shown && hashKey(teamKeys.list(shown));
        void client.invalidateQueries({
          queryKey: teamKeys.lists(),
          refetchType: 'none',
          predicate: (q) => q.queryHash !== shownHash,
        });
      }, COUNTS_DELAY_MS);
    };
    const unsubscribe = subscribeTaskEvents({
      // The stream carries changes from now on: after a reconnect, what was missed is read again.
      ready: (reconnected) => {
        if (reconnected) void client.invalidateQueries({ queryKey: teamKeys.all });
      },
      task: (task) => {
        const now = Date.now();
        while (pushed.length && pushed[0]!.at < now - REPLAY_MS) pushed.shift();
        pushed.push({ at: now, task });
        applyPushedTask(client, task);
        countsSoon();
      },
    });
    return () => {
      clearTimeout(timer);
      stopReplay();
      unsubscribe();
    };
  }, [client]);
}

// The server's task events (`/__console/tasks/events`), merged into TanStack Query's cache: each
// pushed task goes into every cached list it belongs to (and invalidates its detail), and the tab
// counts of the list on screen are read again. The detail page uses it too, without the lists' paging code.
import { hashKey, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { mergePushedTask } from './team-merge';
import {
  fetchTaskPage,
  teamKeys,
  toTeamTask,
  type TaskPage,
  type TeamQuery,
  type TeamTask,
} from './team-tasks';

type Pages = InfiniteData<TaskPage, string | undefined>;

/** Merges one pushed task into every cached list and the task's detail. */
export function applyPushedTask(client: QueryClient, task: TeamTask) {
  for (const query of client.getQueryCache().findAll({ queryKey: teamKeys.lists() })) {
    const filters = query.queryKey[2] as TeamQuery | undefined;
    if (!filters) continue;
    client.setQueryData<Pages>(query.queryKey, (data) => data && mergePushedTask(data, task, filters));
  }
  // The timeline gained an entry: read the task again if a detail page shows it.
  void client.invalidateQueries({ queryKey: teamKeys.detail(task.id) });
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

export const COUNTS_DELAY_MS = 250;

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
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/__console/tasks/events');
    let timer: ReturnType<typeof setTimeout> | undefined;
    let connected = false;
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
    source.addEventListener('ready', () => {
      // The stream carries changes from now on: after a reconnect, what was missed is read again.
      if (connected) void client.invalidateQueries({ queryKey: teamKeys.all });
      connected = true;
    });
    source.addEventListener('task', (event: MessageEvent<string>) => {
      let task: TeamTask | undefined;
      try {
        task = toTeamTask(JSON.parse(event.data));
      } catch {
        return; // not JSON: nothing to merge
      }
      if (!task) return;
      applyPushedTask(client, task);
      countsSoon();
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [client]);
}

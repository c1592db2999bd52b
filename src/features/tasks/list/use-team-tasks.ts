// The Tasks screen's data: the team's list, page by page (TanStack Query's infinite query, keyed
// by the filters); use-team-feed.ts keeps it live.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { fetchTaskPage, teamKeys, type TeamQuery } from '@/features/tasks/team/team-tasks';

export function useTeamTasks(query: TeamQuery, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: teamKeys.list(query),
    queryFn: ({ pageParam, signal }) => fetchTaskPage(query, { cursor: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The event stream keeps the list current; a refetch would reload every page loaded so far.
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    retry: 1,
    // A new view's first page (and its counts) loads under the last view's: the tabs keep the counts
    // they had until the new ones come, never "0" meanwhile (`isPlaceholderData`: the cards wait).
    placeholderData: keepPreviousData,
  });
}

// One request of the team's record, read with TanStack Query: by its page and by its presentation.
import { useQuery } from '@tanstack/react-query';
import { isTerminalStatus } from '@/api/status';
import { fetchRecordEntry, toTeamRequest, type TeamRequest } from '@/features/tasks/team/team-tasks';

/** The record's answer for one request, checked by hand; null when it has none (404). */
async function fetchRequest(id: string, signal?: AbortSignal): Promise<TeamRequest | null> {
  const data = await fetchRecordEntry(`/__console/requests/${encodeURIComponent(id)}`, signal);
  if (data === null) return null;
  const request = toTeamRequest(data);
  if (!request) throw new Error('The record answered a request without an id or a creation time.');
  return request;
}

const requestKey = (id: string) => ['team-requests', id] as const;

/** The request, read again every 2 s while any of its tasks runs (and live through the event stream's cache). */
export function useRequest(id: string | undefined) {
  return useQuery({
    queryKey: requestKey(id ?? ''),
    queryFn: ({ signal }) => fetchRequest(id!, signal),
    enabled: Boolean(id),
    retry: 1,
    refetchInterval: (query) =>
      query.state.data && query.state.data.tasks.every((task) => isTerminalStatus(task.status))
        ? false
        : 2_000,
  });
}

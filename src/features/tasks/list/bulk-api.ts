// The Tasks screen's bulk actions as the server takes them (server/tasks/routes.ts, bulk.ts):
// every id of the view ("Select all matching") and hiding tasks from my view. Loaded with the bulk
// bar, so the screen's first load carries none of it; the read of what I hid is ./hidden-tasks-api.ts.
import { consoleData, consoleJson } from '@/api/console-fetch';
import { teamQueryParams, type TeamQuery } from '@/features/tasks/team/team-tasks';

/** The ids of the whole view, with whether the server stopped at its limit (BULK_IDS_MAX). */
export function fetchMatchingIds(query: TeamQuery): Promise<{ ids: string[]; capped: boolean }> {
  const params = teamQueryParams({ ...query, group: undefined });
  params.delete('limit');
  params.set('select', 'ids');
  return consoleData(`/__console/tasks?${params}`);
}

/** Hides the tasks from my view (or brings them back); throws the server's reason if it refuses. */
export async function setHidden(ids: readonly string[], hidden: boolean): Promise<void> {
  await consoleJson('/__console/tasks/hidden', { method: 'POST', body: JSON.stringify({ ids, hidden }) });
}

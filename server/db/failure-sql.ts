// What a failed task failed with, as SQL on `tasks`: read by Insights (failures by reason) and by
// the Tasks screen's failure filter and its counts (server/tasks/list-filter.ts and
// list-filter-choices.ts). The browser's mirror of it is failureOf in src/api/task-view/task-view-rule.ts.
import { sql } from 'kysely';

/** The status answer's error code and message, else the last error's. */
export const FAILURE_CODE = sql<string | null>`coalesce(
  nullif(result->>'error_code', ''), nullif(result->>'code', ''), (last_error->>'code'))`;
export const FAILURE_REASON = sql<string>`coalesce(
  nullif(btrim(result->>'error_message'), ''), nullif(btrim(last_error->>'msg'), ''), 'No reason given')`;

// Tests' reference answer for the tab counts: a full scan of `tasks`, whatever the indexes and the
// kept counts say.
import type { Db } from '../db/database';
import type { TaskCounts } from '../tasks/list-counts';

/**
 * The tab counts as a full scan of `tasks` gives them, to check the kept ones against; with `q`,
 * those of a search (contains, case-insensitive, in `search`).
 */
export async function scannedCounts(
  db: Db,
  filter: { kind?: string; creator?: string; q?: string } = {},
): Promise<TaskCounts> {
  let query = db.selectFrom('tasks');
  if (filter.q) query = query.where('search', 'like', `%${filter.q.toLowerCase()}%`);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.creator) query = query.where('creator', '=', filter.creator);
  const rows = await query
    .select(['phase', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('phase')
    .execute();
  const counts = { all: 0, running: 0, succeeded: 0, failed: 0 };
  for (const row of rows) {
    counts[row.phase] = Number(row.n);
    counts.all += Number(row.n);
  }
  return counts;
}

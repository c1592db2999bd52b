// The Tasks screen's list, answered by the database: one page of the team's tasks (newest first,
// keyset-paged so page 500 costs what page 1 does; a search walks the newest rows, then the trigram
// indexes), and one task with its timeline. Beside it, by job: the view's SQL (list-filter.ts), the
// cursor (list-cursor.ts), other orders (list-sorted.ts), a search's time limit (list-time-limit.ts),
// the tab counts (list-counts.ts), the filters' pick lists (list-filter-choices.ts), and the task as
// the browser gets it (task-view.ts).
import { sql, type SqlBool } from 'kysely';
import { tabPhases } from '../../src/api/task-view/task-view-rule';
import type { Db } from '../db/database';
import type { TasksTableRow } from '../db/schema';
import { decodeCursor, encodeCursor, olderThan, type TaskPage } from './list-cursor';
import { conditions, indexable, searchPattern, type TaskFilter } from './list-filter';
import { listSorted, sortKeyOf } from './list-sorted';
import { deadlineOf, indexDriven, type SearchOptions } from './list-time-limit';
import { addCopies, toEventView, toTaskView, type TaskEventView, type TaskView } from './task-view';

export const PAGE_SIZE_MAX = 200;

/** A search page walks at most this many of the newest rows before the index takes over. */
const PROBE_ROWS = 5000;

export async function listTasks(
  db: Db,
  filter: TaskFilter,
  page: { cursor?: string; limit: number },
  options: SearchOptions = {},
): Promise<TaskPage> {
  const deadline = deadlineOf(options);
  const phases = tabPhases(filter.tab);
  const phase = phases.length === 1 ? phases[0] : undefined;
  const after = decodeCursor(page.cursor);
  const afterCursor = after ? olderThan(after) : sql<SqlBool>`true`;
  const toPage = (rows: TasksTableRow[]): TaskPage => {
    const items = rows.slice(0, page.limit).map(toTaskView);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null };
  };
  const want = page.limit + 1;
  const sortKey = sortKeyOf(filter.sort, filter.asker);
  if (sortKey) return listSorted(db, filter, phase, sortKey, after, page.limit);
  if (!searchPattern(filter.q)) {
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where(conditions(filter, phase))
      .where(afterCursor)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(want)
      .execute();
    return toPage(rows);
  }
  // A search. First the newest probeRows rows (whatever their tab): a common word fills the page
  // within a few hundred. The walk is bounded here rather than left to the plan: the planner
  // guesses the matches from each condition alone, and a search whose matches were all in other
  // tabs (or of other kinds or creators) walked the whole tab to find none (~1 s at 1M tasks).
  const probeRows = options.probeRows ?? PROBE_ROWS;
  // One statement, so one snapshot: the matches among the newest probeRows rows and the last row
  // the walk looked at (the boundary; none when the table ended before it). Read apart, a task
  // created between them moved the boundary, and the index query below found rows the probe had.
  const walked = (await db
    .selectFrom(
      db
        .selectFrom('tasks')
        .selectAll()
        .select([
          sql<boolean>`${conditions(filter, phase)}`.as('hit'),
          sql<number>`row_number() over (order by created_at desc, id desc)`.as('walked'),
        ])
        .where(afterCursor)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(probeRows)
        .as('newest'),
    )
    .selectAll()
    .where(sql<SqlBool>`hit or walked = ${probeRows}`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(want + 1)
    .execute()) as (TasksTableRow & { hit: boolean; walked: number | string })[];
  const probe = walked.filter((row) => row.hit).slice(0, want);
  if (probe.length === want) return toPage(probe);
  const boundary = walked.find((row) => Number(row.walked) === probeRows);
  if (!boundary) return toPage(probe);
  // Fewer than a page among the newest probeRows: the search is sparse, so the tab's trigram index
  // finds the rest (the cost grows with the tab's matches, not with the tab), then a sort. A search
  // too short for the index stops here, cut short.
  // Stryker disable next-line StringLiteral: without phases every task matches all the same; `every` is for the planner (list-rules.test.ts)
  const restPhase = phase ?? 'every';
  // Stryker disable next-line ArithmeticOperator: a longer rest is cut to the page all the same (only its cost differs)
  const restCount = want - probe.length;
  const rest = indexable(filter.q)
    ? await indexDriven(db, deadline, options, (trx) =>
        trx
          .selectFrom('tasks')
          .selectAll()
          .where(conditions(filter, restPhase))
          .where(olderThan({ id: boundary.id, at: boundary.created_at }))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(restCount)
          .execute(),
      )
    : undefined;
  if (rest) return toPage([...probe, ...rest]);
  const lookedAt = { createdAt: boundary.created_at.getTime(), id: boundary.id };
  return { items: probe.map(toTaskView), nextCursor: encodeCursor(lookedAt), cutShort: true };
}

export async function getTask(
  db: Db,
  id: string,
): Promise<{ task: TaskView; events: TaskEventView[] } | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const events = await db
    .selectFrom('task_events')
    .selectAll()
    .where('task_id', '=', id)
    .orderBy('id')
    .execute();
  const [task] = await addCopies(db, [toTaskView(row)]);
  return { task: task!, events: events.map(toEventView) };
}

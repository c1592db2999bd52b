// The demo's team and its last 30 days (`npm run demo`, DEMO=1): people in the users table with
// their roles, and a few hundred requests with their tasks and timelines, written with a handful of
// bulk INSERTs into an empty database so Tasks, task pages, requests and Insights have a believable
// history from the first screen. Deterministic (a seeded random generator): every run makes the
// same team, prompts, outcomes and durations, placed relative to the start time. Results link to the
// demo media the emulator serves (server/emulator/assets/demo/); failure messages read like the
// service's, never like the emulator's trigger words (docs/emulator.md).
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { ROLE_FIELDS } from '../results/queue';
import { seedDemoReviews } from './demo-reviews';
import {
  drawClipRequest,
  drawImageRequest,
  drawTranslationRequest,
  startDraw,
  type DemoHistory,
  type DemoPerson,
  type EventRow,
  type RequestRow,
  type TaskRow,
} from './demo-requests';

export { FAILURE_MESSAGES } from './demo-requests';

/** Two creators, an admin who also makes things, and a viewer who only looks. */
export const DEMO_PEOPLE = {
  maya: { id: 'demo-maya', name: 'Maya Okafor', email: 'maya.okafor@example.com', role: 'creator' },
  jonas: { id: 'demo-jonas', name: 'Jonas Berg', email: 'jonas.berg@example.com', role: 'creator' },
  priya: { id: 'demo-priya', name: 'Priya Raman', email: 'priya.raman@example.com', role: 'admin' },
  tom: { id: 'demo-tom', name: 'Tom Keller', email: 'tom.keller@example.com', role: 'viewer' },
} as const satisfies Record<string, DemoPerson>;
const { maya, jonas, priya }: Record<'maya' | 'jonas' | 'priya', DemoPerson> = DEMO_PEOPLE;

const DAY = 24 * 3600_000;
export const DEMO_HISTORY_DAYS = 30;
/** The history stops before the live examples (demo.ts) begin, so the newest cards are theirs. */
const DEMO_HISTORY_GAP_MS = 90 * 60_000;

/** Requests per hour of the day (UTC): a team in Europe, busiest mid-morning and mid-afternoon. */
const HOURS = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map(
  (hour) => [hour, [1, 3, 6, 8, 7, 3, 5, 8, 7, 5, 3, 2, 1, 1][hour - 7]!] as const,
);

/** The same team and 30 days every time, ending DEMO_HISTORY_GAP_MS before `now`. */
export function buildDemoHistory(origin: string, now: number): DemoHistory {
  const draw = startDraw(30, origin, { maya, jonas, priya });
  const { rng } = draw;
  const end = now - DEMO_HISTORY_GAP_MS;
  const start = now - DEMO_HISTORY_DAYS * DAY;
  const firstDay = Math.floor(start / DAY) * DAY;
  for (let day = firstDay; day < end; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const requests = weekend ? Math.floor(rng.next() * 3) : 9 + Math.floor(rng.next() * 8);
    const times = Array.from(
      { length: requests },
      () => day + rng.weighted(HOURS) * 3600_000 + Math.floor(rng.next() * 3600_000),
    ).sort((a, b) => a - b);
    for (const at of times) {
      const kind = rng.weighted([
        [drawImageRequest, 5],
        [drawClipRequest, 3],
        [drawTranslationRequest, 2],
      ] as const);
      // Drawn even when out of range, so the history inside the window is the same at any start time of day.
      if (at >= start && at <= end) kind(draw, at);
    }
  }
  return draw.history;
}

/**
 * One INSERT of many rows as one JSON parameter (json_to_recordset): far faster in PGlite than
 * thousands of bound parameters. `types` names each column and its SQL type.
 */
async function insertRows(db: Db, table: string, rows: object[], types: Record<string, string>) {
  const columns = Object.keys(types);
  const quoted = columns.map((column) => `"${column}"`);
  await sql`insert into ${sql.table(table)} (${sql.raw(quoted.join(', '))})
    select ${sql.raw(columns.map((column, i) => `${quoted[i]}::${types[column]}`).join(', '))}
    from json_to_recordset(${JSON.stringify(rows)}::json)
    as x(${sql.raw(quoted.map((column) => `${column} text`).join(', '))})`.execute(db);
}

const TASK_COLUMNS = {
  id: 'text',
  kind: 'text',
  source: 'text',
  params: 'jsonb',
  batch: 'jsonb',
  prompt: 'text',
  name: 'text',
  language: 'text',
  creator: 'text',
  creator_id: 'text',
  status: 'text',
  result: 'jsonb',
  last_source: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  finished_at: 'timestamptz',
  last_checked_at: 'timestamptz',
  request_id: 'text',
} satisfies Record<keyof TaskRow, string>;
const REQUEST_COLUMNS = {
  id: 'text',
  kind: 'text',
  creator: 'text',
  creator_id: 'text',
  created_at: 'timestamptz',
  params: 'jsonb',
  title: 'text',
  task_ids: 'jsonb',
} satisfies Record<keyof RequestRow, string>;
const EVENT_COLUMNS = {
  task_id: 'text',
  at: 'timestamptz',
  source: 'text',
  status: 'text',
} satisfies Record<keyof EventRow, string>;

/**
 * Queues a kept copy of every seeded result, old ones too: the team keeps its results
 * (server/results), so the demo's 30 days show pictures, never "Result expired". The copy job takes
 * them from the emulator in-process; the usual backfill only queues links younger than 7 days, which
 * real links older than that would no longer answer (the emulator's demo files always do).
 */
async function queueKeptCopies(db: Db) {
  const roles = sql.raw(
    `(values ${Object.entries(ROLE_FIELDS)
      .map(([role, field]) => `('${role}', '${field}')`)
      .join(', ')}) as f(role, field)`,
  );
  await sql`insert into result_copies (task_id, role, idx, source_url)
    select t.id, f.role, 0, t.result->>f.field from tasks t cross join ${roles}
    where t.status = 'SUCCEEDED' and t.result->>f.field ~* '^https?://'
    order by t.finished_at desc
    on conflict (task_id, role, idx) do nothing`.execute(db);
}

/**
 * Seeds the team and its history into an empty database; does nothing when any task or request is
 * there already (a demo on a DATABASE_URL that holds real work). Returns whether it seeded.
 */
export async function seedDemoHistory(db: Db, origin: string, now = Date.now()): Promise<boolean> {
  const existing = await sql<{ any: boolean }>`
    select exists(select 1 from tasks) or exists(select 1 from requests) as any`.execute(db);
  if (existing.rows[0]?.any) return false;
  const history = buildDemoHistory(origin, now);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values(
        Object.values(DEMO_PEOPLE).map((person) => ({
          id: person.id,
          source: 'local' as const,
          subject: person.email,
          display_name: person.name,
          email: person.email,
          role: person.role,
          created_at: new Date(now - 45 * DAY),
          last_sign_in_at: new Date(now - DEMO_HISTORY_GAP_MS),
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await insertRows(trx, 'requests', history.requests, REQUEST_COLUMNS);
    await insertRows(trx, 'tasks', history.tasks, TASK_COLUMNS);
    await insertRows(trx, 'task_events', history.events, EVENT_COLUMNS);
    await queueKeptCopies(trx);
    await seedDemoReviews(trx, history.tasks, DEMO_PEOPLE, now);
  });
  await sql`analyze tasks`.execute(db);
  return true;
}

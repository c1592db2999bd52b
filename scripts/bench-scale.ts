// Bench section: the record at scale. For each size of BENCH_SCALE_SIZES (default 1,000,000 and
// 10,000,000 tasks), a throwaway PostgreSQL (server/testing/postgres.ts) is seeded inside the
// database (generate_series, in batches, with the triggers on, as the console writes), then every
// call a screen makes is timed as server time of the functions its route calls: 3 warm-up calls, then
// BENCH_SCALE_RUNS (default 40); p50 and p95, and the largest size's p95 over the smallest's. Then
// the same calls through the console's HTTP API (scripts/bench-scale-http.ts), then the follower's
// claim with 50,000 tasks running and followed, and its plan (scripts/bench-scale-follow.ts).
// Printed, not asserted; the machine's load is printed beside the figures.
// The history is a year of a busy team's work (kinds, people, ~8% failed with one of five reasons,
// the newest 1% half still running, one request per task, a common word in one prompt of seven), as
// scripts/bench-insights.ts seeds it. BENCH_SCALE_ENGINE=pglite measures the embedded PGlite instead.
// Usage: nice npx tsx scripts/bench-scale.ts   (BENCH_SCALE_SIZES=100000,1000000 for a quicker run)
//        npm run bench -- scale                (the same, as a section of `npm run bench`)
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Database } from '../server/db/database';
import {
  computeInsights,
  failuresStatement,
  insightsCsvRows,
  mainStatement,
  type InsightsFilter,
} from '../server/insights/insights';
import { queueResultCopies } from '../server/results/queue';
import { getTask, listTasks } from '../server/tasks/list';
import { countTasks } from '../server/tasks/list-counts';
import type { TaskFilter } from '../server/tasks/list-filter';
import { countFailures } from '../server/tasks/list-filter-choices';
import { requestsOfTasks } from '../server/tasks/requests';
import { LOCAL_ADMIN } from '../server/identity/request-identity';
import { startTestPostgres } from '../server/testing/postgres';
import { claimCalls, explainClaim, followRunning } from './bench-scale-follow';
import { startHttpConsole } from './bench-scale-http';
import { printRows, type BenchRow } from './bench-size';

const DAY = 24 * 3600_000;
const YEAR_SECONDS = 365 * 24 * 3600;
const BATCH = 250_000;
/**
 * The person the calls are made as: their hidden tasks are left out, as the routes do. The local
 * admin, whom the console on loopback takes a request without a sign-in for (the HTTP column).
 */
const ASKER = LOCAL_ADMIN.userId;

type Db = Database['db'];

/**
 * The secondary indexes of `tasks` and `requests` are dropped while the rows go in and built again
 * after (as a restore does): the same database, made in minutes instead of an hour at 10M tasks.
 */
async function withoutIndexes(db: Db, write: () => Promise<void>): Promise<void> {
  const { rows } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where tablename in ('tasks', 'requests') and indexname not like '%_pkey'`.execute(db);
  for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(db);
  await write();
  await sql`set maintenance_work_mem = '512MB'`.execute(db).catch(() => undefined);
  for (const { definition } of rows) await sql.raw(definition).execute(db);
}

/** `count` tasks over the year before now, one request each, written by SQL inside the database. */
export async function seed(db: Db, count: number): Promise<void> {
  await withoutIndexes(db, () => seedRows(db, count));
  // A few hidden tasks for the person asking, as a person who tidies their view has.
  await sql`insert into hidden_tasks (user_id, task_id)
    select ${ASKER}, 'scale-' || g from generate_series(13, 13 * 200, 13) g`.execute(db);
  await sql`vacuum analyze`.execute(db);
}

/** The newest `rows` tasks (all of them by default) of a year of `count`. */
export async function seedRows(db: Db, count: number, rows = count): Promise<void> {
  const spacing = YEAR_SECONDS / count;
  for (let start = 1; start <= rows; start += BATCH) {
    const end = Math.min(rows, start + BATCH - 1);
    await sql`
      insert into tasks (id, kind, source, prompt, language, creator, status, params, result,
        created_at, updated_at, finished_at, request_id)
      select id, kind, 'created', prompt, language, creator, status,
        case when kind = 'image_to_video' then jsonb_build_object('duration', 5 + 5 * (g % 2)) end,
        case when status = 'FAILED' then jsonb_build_object('status', status, 'error_message',
          (array['Content policy','The source video could not be decoded','Timed out while rendering',
                 'Face not detected in the reference image','Audio track missing'])[1 + g % 5])
          else jsonb_build_object('status', status) end,
        created_at, created_at, case when status in ('SUCCEEDED', 'FAILED')
          then created_at + make_interval(secs => 20 + (g::bigint * 7919) % 880) end,
        'req-' || id
      from (
        select g, 'scale-' || g as id,
          (array['image_generate','video_translate','image_to_video'])[1 + g % 3] as kind,
          (array['red','blue','green','golden','misty','neon'])[1 + g % 6] || ' '
            || (array['fox','whale','castle','forest','city','river','lighthouse'])[1 + (g / 7) % 7]
            || ' ' || g as prompt,
          case when g % 3 = 1 then (array['Japanese','German','French','Spanish'])[1 + (g / 3) % 4] end as language,
          (array['Ana','Bo','Chen Wei','Dee','Emeka','Farah','Gus', null])[1 + (g * 31) % 8] as creator,
          case when g <= ${Math.ceil(count / 100)} and g % 2 = 0 then 'PROCESSING'
               when g % 13 = 0 then 'FAILED' else 'SUCCEEDED' end as status,
          now() - make_interval(secs => g * ${spacing}::float8) as created_at
        from generate_series(${start}::int, ${end}::int) g
      ) t`.execute(db);
    await sql`
      insert into requests (id, kind, creator, created_at, title, task_ids)
      select request_id, kind, creator, created_at, prompt, jsonb_build_array(id)
      from tasks where id in (select 'scale-' || g from generate_series(${start}::int, ${end}::int) g)`.execute(
      db,
    );
  }
}

function quantile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

export async function timeRepeated(runs: number, call: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/** One call of the issue's table: what its route calls, and the route (none: not a screen's call). */
interface ScaleCall {
  name: string;
  call: () => Promise<unknown>;
  path?: string;
}

/** The calls of the issue's table, each as its route makes it (the list and its counts together). */
export function calls(db: Db, now: number): ScaleCall[] {
  const tasksPage = (filter: Omit<TaskFilter, 'tab'> & { tab?: TaskFilter['tab'] }) => () =>
    Promise.all([
      listTasks(db, { tab: 'all', hiddenBy: ASKER, ...filter } as TaskFilter, { limit: 50 }),
      countTasks(db, { hiddenBy: ASKER, ...filter }),
    ]);
  const byRequest = async () => {
    const [page] = await tasksPage({})();
    return requestsOfTasks(db, page.items, ASKER);
  };
  const period = (days: number, extra: Partial<InsightsFilter> = {}): InsightsFilter => ({
    from: new Date(now - days * DAY),
    to: new Date(now),
    ...extra,
  });
  const insightsQuery = (days: number, creator?: string) =>
    `from=${encodeURIComponent(new Date(now - days * DAY).toISOString())}` +
    `&to=${encodeURIComponent(new Date(now).toISOString())}${creator ? `&creator=${creator}` : ''}`;
  return [
    { name: 'Tasks, first page and counts, by task', call: tasksPage({}), path: '/__console/tasks' },
    { name: 'Tasks, first page, by request', call: byRequest, path: '/__console/tasks?group=request' },
    { name: 'Tasks, tab=failed', call: tasksPage({ tab: 'failed' }), path: '/__console/tasks?tab=failed' },
    { name: 'Tasks, one creator', call: tasksPage({ creator: 'Ana' }), path: '/__console/tasks?creator=Ana' },
    {
      name: 'Tasks, a 7-day period',
      call: tasksPage({ from: now - 7 * DAY }),
      path: `/__console/tasks?from=${now - 7 * DAY}`,
    },
    {
      name: 'Tasks, search for a common word',
      call: tasksPage({ q: 'fox' }),
      path: '/__console/tasks?q=fox',
    },
    { name: 'a task page', call: () => getTask(db, 'scale-4242'), path: '/__console/tasks/scale-4242' },
    {
      name: 'failure choices (/tasks/errors)',
      call: () => countFailures(db, { hiddenBy: ASKER }),
      path: '/__console/tasks/errors',
    },
    {
      name: 'failure choices, one creator',
      call: () => countFailures(db, { hiddenBy: ASKER, creator: 'Ana' }),
      path: '/__console/tasks/errors?creator=Ana',
    },
    {
      name: 'Insights, 24 hours',
      call: () => computeInsights(db, period(1)),
      path: `/__console/insights?${insightsQuery(1)}`,
    },
    {
      name: 'Insights, 7 days',
      call: () => computeInsights(db, period(7)),
      path: `/__console/insights?${insightsQuery(7)}`,
    },
    {
      name: 'Insights, 30 days',
      call: () => computeInsights(db, period(30)),
      path: `/__console/insights?${insightsQuery(30)}`,
    },
    {
      name: 'Insights, 30 days, one person',
      call: () => computeInsights(db, period(30, { creator: 'Ana' })),
      path: `/__console/insights?${insightsQuery(30, 'Ana')}`,
    },
    {
      name: 'Insights CSV, 30 days',
      call: () => insightsCsvRows(db, period(30)),
      path: `/__console/insights.csv?${insightsQuery(30)}`,
    },
    { name: 'results back-fill at start', call: () => queueResultCopies(db) },
  ];
}

interface SizeFigures {
  size: number;
  seconds: number;
  /** The machine's load (1/5/15 min) as the calls began and as they ended. */
  load: [string, string];
  figures: Map<string, { p50: number; p95: number }>;
  /** EXPLAIN (ANALYZE, BUFFERS) of the statements worth reading at this size, by name. */
  plans: [string, string[]][];
}

/** EXPLAIN (ANALYZE, BUFFERS) of Insights' two statements over the last 24 hours. */
async function explainInsights(db: Db, now: number): Promise<[string, string[]][]> {
  const filter = { from: new Date(now - DAY), to: new Date(now) };
  const plans: [string, string[]][] = [];
  for (const [name, statement] of [
    ["Insights' main statement, 24 hours", mainStatement(filter)],
    ["Insights' failures, 24 hours", failuresStatement(filter)],
  ] as const) {
    const compiled = statement.compile(db);
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
      ...compiled,
      sql: `explain (analyze, buffers, costs off) ${compiled.sql}`,
    });
    plans.push([name, rows.map((row) => row['QUERY PLAN'])]);
  }
  return plans;
}

const loadNow = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

/** The name of a call's figures through the console's HTTP API. */
const throughHttp = (name: string) => `${name}, through HTTP`;

/**
 * Seeds `size` tasks, then times each call as server time of the functions its route calls, then
 * the same calls through HTTP, then (as it changes rows the others read) the follower's claim.
 */
async function measureSize(database: Database, size: number, runs: number): Promise<SizeFigures> {
  const { db } = database;
  const seeded = performance.now();
  await seed(db, size);
  const seconds = (performance.now() - seeded) / 1000;
  const loadBefore = loadNow();
  const figures = new Map<string, { p50: number; p95: number }>();
  const table = calls(db, Date.now());
  for (const { name, call } of table) figures.set(name, await timeRepeated(runs, call));
  const http = await startHttpConsole(database, ASKER);
  try {
    for (const { name, path } of table)
      if (path) figures.set(throughHttp(name), await timeRepeated(runs, () => http.get(path)));
  } finally {
    await http.close();
  }
  const plans = await explainInsights(db, Date.now());
  await followRunning(db, size);
  for (const [name, call] of claimCalls(db)) figures.set(name, await timeRepeated(runs, call));
  plans.push(["the follower's claim of 8", await explainClaim(db)]);
  return { size, seconds, load: [loadBefore, loadNow()], figures, plans };
}

async function withDatabase<T>(engine: string, size: number, use: (database: Database) => Promise<T>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const server = engine === 'pglite' ? undefined : await startTestPostgres();
  const database = await openDatabase({ dataDir, databaseUrl: server?.createDatabase(`scale_${size}`) });
  try {
    return await use(database);
  } finally {
    await database.close();
    server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sizeLabel = (size: number) =>
  size >= 1_000_000 ? `${size / 1_000_000}M` : size >= 1000 ? `${size / 1000}k` : String(size);

async function measureScale(): Promise<{ rows: BenchRow[]; plans: [string, string[]][] }> {
  const engine = process.env.BENCH_SCALE_ENGINE === 'pglite' ? 'pglite' : 'postgres';
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000000,10000000')
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);
  const runs = Number(process.env.BENCH_SCALE_RUNS ?? 40);
  const measured: SizeFigures[] = [];
  for (const size of sizes)
    measured.push(await withDatabase(engine, size, (database) => measureSize(database, size, runs)));
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const rows: BenchRow[] = [];
  for (const { size, seconds, load } of measured)
    rows.push({
      figure: `${label}, ${sizeLabel(size)}: seeding; load (1/5/15 min, ${availableParallelism()} cores) as the calls began, ended`,
      value: `${seconds.toFixed(0)} s`,
      target: `${load[0]}; ${load[1]}`,
      ok: true,
    });
  const first = measured[0];
  const last = measured.at(-1);
  for (const name of first ? first.figures.keys() : []) {
    for (const { size, figures } of measured) {
      const { p50, p95 } = figures.get(name)!;
      rows.push({
        figure: `${label}, ${sizeLabel(size)}: ${name}, p50 / p95`,
        value: `${p50.toFixed(1)} / ${p95.toFixed(1)} ms`,
        target: 'p95 ≤ 100 ms',
        ok: true, // printed, not asserted
      });
    }
    if (first && last && last !== first) {
      const ratio = last.figures.get(name)!.p95 / Math.max(first.figures.get(name)!.p95, 0.1);
      rows.push({
        figure: `${label}: ${name}, ${sizeLabel(last.size)} / ${sizeLabel(first.size)} p95`,
        value: `${ratio.toFixed(2)}×`,
        target: '≤ 2×',
        ok: true,
      });
    }
  }
  const plans = measured.flatMap(({ size, plans }) =>
    plans.map(([name, plan]): [string, string[]] => [`${name} at ${sizeLabel(size)} tasks`, plan]),
  );
  return { rows, plans };
}

export async function benchScale(): Promise<BenchRow[]> {
  const { rows, plans } = await measureScale();
  for (const [name, plan] of plans) console.log(`\n${name}, EXPLAIN (ANALYZE, BUFFERS):\n${plan.join('\n')}`);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows(
    "The record at scale (server time of each call, then through HTTP, then the follower's claim; BENCH_SCALE_SIZES tasks)",
    await benchScale(),
  );
  process.exit(0);
}

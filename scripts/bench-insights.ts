// Bench section: the Insights figures (GET /__console/insights and its CSV) with BENCH_TASKS tasks
// (default 1,000,000) in the team's record, on PostgreSQL (a throwaway cluster, as the other benches)
// and on PGlite. The tasks are a year of a busy team's work (about 2,700 a day, every kind and
// person, ~8% failed with one of five reasons, the newest ~1% still running, finished in 20 s to
// 15 min), so a 30-day period holds ~82,000 of them. Server time of the function the route calls,
// p50 and p95 of repeated calls per period; printed, not asserted.
// Usage: npx tsx scripts/bench-insights.ts   (BENCH_TASKS=100000 for a quicker run;
// BENCH_INSIGHTS=postgres or pglite for one of the two)
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Database } from '../server/db/database';
import { computeInsights, insightsCsvRows, type InsightsFilter } from '../server/insights/insights';
import { startTestPostgres } from '../server/testing/postgres';
import { printRows, type BenchRow } from './bench-size';

const DAY = 24 * 3600_000;
const YEAR_SECONDS = 365 * 24 * 3600;

function quantile(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function seed(db: Database['db'], count: number) {
  const batch = 100_000;
  const spacing = YEAR_SECONDS / count;
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1);
    await sql`
      insert into tasks (id, kind, source, prompt, language, creator, status, params, result,
        created_at, updated_at, finished_at)
      select id, kind, 'created', 'a prompt ' || g, language, creator, status,
        case when kind = 'image_to_video' then jsonb_build_object('duration', 5 + 5 * (g % 2)) end,
        case when status = 'FAILED' then jsonb_build_object('status', status, 'error_message',
          (array['Content policy','The source video could not be decoded','Timed out while rendering',
                 'Face not detected in the reference image','Audio track missing'])[1 + g % 5])
          else jsonb_build_object('status', status) end,
        created_at, created_at, case when status in ('SUCCEEDED', 'FAILED')
          then created_at + make_interval(secs => 20 + (g::bigint * 7919) % 880) end
      from (
        select g, 'bench-' || g as id,
          (array['image_generate','video_translate','image_to_video'])[1 + g % 3] as kind,
          case when g % 3 = 1 then (array['Japanese','German','French','Spanish'])[1 + (g / 3) % 4] end as language,
          (array['Ana','Bo','Chen Wei','Dee','Emeka','Farah','Gus', null])[1 + (g * 31) % 8] as creator,
          case when g <= ${Math.ceil(count / 100)} and g % 2 = 0 then 'PROCESSING'
               when g % 13 = 0 then 'FAILED' else 'SUCCEEDED' end as status,
          now() - make_interval(secs => g * ${spacing}::float8) as created_at
        from generate_series(${start}::int, ${end}::int) g
      ) t`.execute(db);
  }
  await sql`vacuum analyze tasks`.execute(db);
}

async function timeRepeated(runs: number, task: () => Promise<unknown>) {
  await task(); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

async function benchOne(label: string, database: Database, tasks: number): Promise<BenchRow[]> {
  const { db } = database;
  const seeded = performance.now();
  await seed(db, tasks);
  const rows: BenchRow[] = [
    {
      figure: `${label}: seeding ${tasks.toLocaleString('en-US')} tasks`,
      value: `${((performance.now() - seeded) / 1000).toFixed(0)} s`,
      target: '(set-up)',
      ok: true,
    },
  ];
  const now = Date.now();
  const period = (days: number, extra: Partial<InsightsFilter> = {}): InsightsFilter => ({
    from: new Date(now - days * DAY),
    to: new Date(now),
    ...extra,
  });
  const cases: [string, () => Promise<unknown>][] = [
    ['insights, 24 h', () => computeInsights(db, period(1))],
    ['insights, 7 d', () => computeInsights(db, period(7))],
    ['insights, 30 d', () => computeInsights(db, period(30))],
    ['insights, 30 d, one person', () => computeInsights(db, period(30, { creator: 'Ana' }))],
    ['CSV, 30 d', () => insightsCsvRows(db, period(30))],
  ];
  for (const [name, task] of cases) {
    const { p50, p95 } = await timeRepeated(20, task);
    rows.push({
      figure: `${label}: ${name}, p50 / p95`,
      value: `${p50.toFixed(0)} / ${p95.toFixed(0)} ms`,
      target: label === 'PostgreSQL' ? 'p95 ≤ 100 ms' : '(printed)',
      ok: true, // printed, not asserted
    });
  }
  const sample = (await computeInsights(db, period(30))).totals.created;
  rows.push({
    figure: `${label}: machine load (1-minute average, ${availableParallelism()} cores)`,
    value: loadavg()[0]!.toFixed(1),
    target: '',
    ok: true,
  });
  rows.push({
    figure: `${label}: tasks in the 30-day period`,
    value: sample.toLocaleString('en-US'),
    target: '',
    ok: true,
  });
  return rows;
}

export async function benchInsights(): Promise<BenchRow[]> {
  const tasks = Number(process.env.BENCH_TASKS ?? 1_000_000);
  const only = process.env.BENCH_INSIGHTS;
  const rows: BenchRow[] = [];
  if (!only || only === 'postgres') {
    const server = await startTestPostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-insights-'));
    const database = await openDatabase({ dataDir, databaseUrl: server.createDatabase('insights') });
    try {
      rows.push(...(await benchOne('PostgreSQL', database, tasks)));
    } finally {
      await database.close();
      server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!only || only === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-insights-'));
    const database = await openDatabase({ dataDir });
    try {
      rows.push(...(await benchOne('PGlite', database, tasks)));
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows(
    'Insights (server time; BENCH_TASKS tasks over a year, default 1,000,000)',
    await benchInsights(),
  );
}

// Bench section: the server's follower with BENCH_FOLLOW_TASKS (10,000) tasks running that never
// finish, on a throwaway PostgreSQL (or PGlite with BENCH_FOLLOW_DB=pglite). A stub service on
// loopback counts the status requests it receives: the rate it sees (bounded by
// FOLLOW_RATE_PER_SECOND for the whole team, two instances here), how evenly the tasks are asked,
// and the instances' CPU and memory while they follow. Then the claim's time at that size.
// Usage: npx tsx scripts/bench-follow.ts
import { serve, type ServerType } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { createNodeApp, type NodeApp } from '../server/app/node-app';
import { DEFAULT_FOLLOW_RATE_PER_SECOND, readServerConfig } from '../server/config/config';
import { claimDue } from '../server/follow/claims';
import { startTestPostgres } from '../server/testing/postgres';
import { printRows, type BenchRow } from './bench-size';

const TASKS = Number(process.env.BENCH_FOLLOW_TASKS ?? 10_000);
/** Finished tasks beside them (the record of a large team's year), which the follower must never scan. */
const FINISHED = Number(process.env.BENCH_FOLLOW_FINISHED ?? 0);
const SECONDS = Number(process.env.BENCH_FOLLOW_SECONDS ?? 20);
const RATE = Number(process.env.FOLLOW_RATE_PER_SECOND ?? DEFAULT_FOLLOW_RATE_PER_SECOND);

export async function benchFollow(): Promise<BenchRow[]> {
  const asked: number[] = [];
  const perTask = new Map<string, number>();
  let service!: ServerType;
  const api = await new Promise<string>((resolve) => {
    service = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: (request) => {
          const id = new URL(request.url).pathname.split('/').pop()!;
          asked.push(Date.now());
          perTask.set(id, (perTask.get(id) ?? 0) + 1);
          return Response.json({ code: 0, msg: 'ok', data: { task_id: id, status: 'PROCESSING' } });
        },
      },
      (info) => resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  const postgres = process.env.BENCH_FOLLOW_DB === 'pglite' ? undefined : await startTestPostgres();
  const dirs: string[] = [];
  const apps: NodeApp[] = [];
  const databaseUrl = postgres?.createDatabase('bench_follow');
  const instance = () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-follow-'));
    dirs.push(dataDir);
    const app = createNodeApp(
      readServerConfig({
        DATA_DIR: dataDir,
        ...(databaseUrl && { DATABASE_URL: databaseUrl }),
        API_BASE_URL: api,
        API_TOKEN: 'bench',
        CALLBACK_SECRET: 'bench-follow-secret-0123456789',
        FOLLOW_RATE_PER_SECOND: String(RATE),
      }),
      { followTasks: false, keepResults: false },
    );
    apps.push(app);
    return app;
  };
  try {
    const first = instance();
    const { db } = await first.database;
    // Running for an hour: each is due every 30 s, so the team's rate is what bounds the requests.
    await sql`insert into tasks (id, kind, source, status, created_at)
      select 'i2v-bench-' || g, 'image_to_video', 'created', 'PROCESSING', now() - interval '1 hour'
      from generate_series(1, ${TASKS}) g`.execute(db);
    await sql`insert into task_follows (task_id, due_at) select id, now() from tasks`.execute(db);
    // In batches of 500,000: one statement for millions of rows would hold them all in memory at once.
    for (let from = 1; from <= FINISHED; from += 500_000)
      await sql`insert into tasks (id, kind, source, status, created_at, finished_at)
        select 'i2is-done-' || g, 'image_generate', 'created', 'SUCCEEDED', now() - make_interval(secs => g),
          now() - make_interval(secs => g) + interval '8 seconds'
        from generate_series(${from}::int, ${Math.min(FINISHED, from + 499_999)}::int) g`.execute(db);
    if (FINISHED) await sql`analyze`.execute(db);
    const claimTimes: number[] = [];
    for (let n = 0; n < 20; n++) {
      const start = performance.now();
      await claimDue(db, 8, 1_000_000, 60_000);
      claimTimes.push(performance.now() - start);
    }
    await sql`update task_follows set due_at = now(), claims = 0`.execute(db);
    const second = postgres ? instance() : undefined;
    if (second) await second.database;
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    first.follower!.start();
    second?.follower!.start();
    let peakRss = process.memoryUsage().rss;
    while (Date.now() - started < SECONDS * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const elapsed = (Date.now() - started) / 1000;
    const counts = [...perTask.values()];
    const seconds = new Map<number, number>();
    for (const at of asked)
      seconds.set(
        Math.floor((at - started) / 1000),
        (seconds.get(Math.floor((at - started) / 1000)) ?? 0) + 1,
      );
    const busiest = Math.max(0, ...seconds.values());
    claimTimes.sort((a, b) => a - b);
    const row = (figure: string, value: string, target = 'printed', ok = true): BenchRow => ({
      figure,
      value,
      target,
      ok,
    });
    const mean = asked.length / elapsed;
    const rows: BenchRow[] = [
      row('running tasks followed', String(TASKS)),
      row('finished tasks beside them in the record', FINISHED.toLocaleString('en-US')),
      row('instances on one database', postgres ? '2 (PostgreSQL 15)' : '1 (PGlite)'),
      row('FOLLOW_RATE_PER_SECOND', String(RATE)),
      row('status requests the service saw, per second (mean)', mean.toFixed(2), `≤ ${RATE}`, mean <= RATE),
      row('status requests in the busiest second', String(busiest)),
      row(
        'a task asked twice within the run',
        String(counts.filter((n) => n > 1).length),
        '0 (each is due every 30 s at most)',
      ),
      row(
        'CPU of the instances (this process), % of one core',
        ((100 * (cpu.user + cpu.system)) / 1e6 / elapsed).toFixed(1),
      ),
      row('peak RSS of the process (both instances)', `${Math.round(peakRss / 1024 / 1024)} MB`),
      row(
        `claim of the next 8 due tasks among ${TASKS} (p50 / max of 20)`,
        `${claimTimes[10]!.toFixed(1)} / ${claimTimes.at(-1)!.toFixed(1)} ms`,
      ),
    ];
    return rows;
  } finally {
    await Promise.all(apps.map((app) => app.close()));
    await new Promise((resolve) => service.close(resolve));
    postgres?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows('The server following running tasks', await benchFollow());
}

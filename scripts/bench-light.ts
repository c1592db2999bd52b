// `npm run bench -- embedded`: the embedded default as a new user runs it (`npm start` built: the
// built-in emulator and PGlite in DATA_DIR), measured from outside, beside the service alone:
// - start-up: from launching the process to its first answer (GET /), on a DATA_DIR it has made,
//   and to its database being ready (GET /healthz 200: it listens before the database is open);
// - idle memory: the resident set (VmRSS) of the `npm start` process a few seconds after that;
// - the proxy: status polls at BENCH_LIGHT_CONCURRENCY (100) at once,
//   straight to a service on loopback and through the console (PGlite in DATA_DIR) to that same
//   service, in BENCH_LIGHT_ROUNDS (5) rounds of one run each, BENCH_LIGHT_SECONDS (4) a run: rate,
//   p50 and p99, and the console's peak resident set (VmHWM) during the polls.
// Needs `npm run build` (dist-server/prod.js). Figures are printed, never asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { freePort } from '../server/testing/postgres';
import type { BenchRow } from './bench-size';
import { memoryMb, resetPeak } from './bench-upload';

const TOKEN = 'bench-light-token';
const BUILT_SERVER = 'dist-server/prod.js';
const TASKS = 20;

interface Server {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

function spawnServer(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; port: Promise<number> } {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line) ?? /^Media Console on http:\/\/[^ ]+:(\d+) /.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, port };
}

const stopper = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** The service alone: the built-in emulator in a process of its own, its data in `dataDir`. */
async function startService(dataDir: string): Promise<Server> {
  const { child, port } = spawnServer(['--import', 'tsx', 'scripts/bench-upload-server.ts', 'emulator'], {
    DATA_DIR: dataDir,
  });
  return { child, origin: `http://127.0.0.1:${await port}`, stop: stopper(child) };
}

/**
 * `npm start` (what its script runs) on `dataDir`; resolves with the milliseconds from launch to
 * its first answer to GET / (asked every 10 ms from launch).
 */
async function startConsole(dataDir: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const port = await freePort();
  const started = performance.now();
  const { child } = spawnServer([...nodeArgs, BUILT_SERVER], {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    API_BASE_URL: '',
    DATABASE_URL: '',
    APP_PASSWORD: '',
    DIST_DIR: 'dist',
    ...env,
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`))),
  );
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    const answered = await Promise.race([
      fetch(`${origin}/`).then(
        (response) => response.arrayBuffer().then(() => response.ok),
        () => false,
      ),
      exited,
    ]);
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startupMs = performance.now() - started;
  const startupCpuMs = cpuMs(child);
  // It answers before its database is open (server/entry/prod.ts): the rest waits for /healthz.
  for (;;) {
    const ready = await Promise.race([
      fetch(`${origin}/healthz`).then(
        (response) => response.arrayBuffer().then(() => response.status === 200),
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  const server: Server = { child, origin, stop: stopper(child) };
  return { server, startupMs, startupCpuMs, readyMs };
}

/**
 * CPU time (user + system, every thread) a process has used so far, in ms: on a machine other work
 * shares, the part of the start-up wait that is the console's own.
 */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function createTasks(origin: string): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < TASKS) {
    const response = await fetch(`${origin}/v1/image_generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: `a lighthouse at dusk ${ids.length}`, generate_count: 1 }),
    });
    const answer = (await response.json()) as { code?: number; data?: { task_ids?: string[] } };
    if (answer.code !== 0 || !answer.data?.task_ids)
      throw new Error(`create answered ${JSON.stringify(answer)}`);
    ids.push(...answer.data.task_ids);
  }
  return ids;
}

/** One run of polls. */
interface Run {
  rate: number;
  /** Each poll's time from asking to its whole answer, in ms. */
  latencies: number[];
  /** CPU time of this process (the poller), in ms. */
  pollerCpuMs: number;
  failed: number;
}

/** `concurrency` pollers asking the tasks' status in turn for `seconds`. */
async function poll(origin: string, ids: string[], concurrency: number, seconds: number): Promise<Run> {
  const pool = new Pool(origin, { connections: concurrency });
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const id = ids[next++ % ids.length]!;
      const started = performance.now();
      try {
        const response = await pool.request({ path: `/v1/image_generate/${id}`, method: 'GET', headers });
        await response.body.text();
        if (response.statusCode !== 200) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await pool.close();
  return {
    rate: latencies.length / elapsed,
    latencies,
    pollerCpuMs: (used.user + used.system) / 1000,
    failed,
  };
}

/** The middle value (the upper of the two middle ones for an even count; 5 rounds by default). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Several runs of one kind as one: the median rate, percentiles over every poll. */
function summary(runs: Run[]) {
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    rate: median(runs.map((run) => run.rate)),
    count: latencies.length,
    pollerCpu: runs.reduce((sum, run) => sum + run.pollerCpuMs, 0) / latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
  };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const mb = (value: number) => `${value.toFixed(0)} MB`;

export async function benchLight(
  concurrency = Number(process.env.BENCH_LIGHT_CONCURRENCY ?? 100),
  seconds = Number(process.env.BENCH_LIGHT_SECONDS ?? 4),
  rounds = Math.max(1, Number(process.env.BENCH_LIGHT_ROUNDS ?? 5)),
): Promise<BenchRow[]> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build first`);
  const folder = mkdtempSync(join(tmpdir(), 'bench-light-'));
  const running: Server[] = [];
  try {
    // The embedded default. Its first start makes the database (initdb: seconds, once); a start
    // on the DATA_DIR it made is what a user waits for every other time.
    const embeddedDir = join(folder, 'embedded');
    const step = (what: string) => process.env.BENCH_VERBOSE && console.error(`[light] ${what}`);
    step('first start');
    const first = await startConsole(embeddedDir);
    step(`first start ${first.startupMs}, ready ${first.readyMs}`);
    await first.server.stop();
    step('second start');
    const { server: embedded, startupMs, startupCpuMs, readyMs } = await startConsole(embeddedDir);
    running.push(embedded);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = memoryMb(embedded.child, 'VmRSS');
    step(`idle ${idle}`);
    await embedded.stop();

    const service = await startService(join(folder, 'service'));
    running.push(service);
    step('service up');
    // BENCH_LIGHT_PROFILE=<folder>: the proxying console writes a CPU profile there when it stops.
    const profile = process.env.BENCH_LIGHT_PROFILE;
    const { server: proxy } = await startConsole(
      join(folder, 'proxy'),
      { API_BASE_URL: service.origin, API_TOKEN: TOKEN },
      profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
    );
    running.push(proxy);
    step('proxy up');
    const ids = await createTasks(proxy.origin);
    // Each task once through the console: the record knows them, as it does a gallery's tasks.
    await poll(proxy.origin, ids, 1, 0.5);
    const serviceIdle = memoryMb(service.child, 'VmRSS');
    const proxyIdle = memoryMb(proxy.child, 'VmRSS');
    step('polling');
    // Rounds of a run straight to the service and one through the console, alternating which goes
    // first: a moment of load from elsewhere on the machine then falls on both sides of a round,
    // not on one side of the whole comparison. The ratio is the median of the rounds' ratios.
    const fromIdle = resetPeak(proxy.child);
    resetPeak(service.child);
    const directRuns: Run[] = [];
    const throughRuns: Run[] = [];
    let directCpu = 0;
    let throughCpu = 0;
    let behindCpu = 0;
    for (let round = 0; round < rounds; round++) {
      const straight = async () => {
        const serviceBefore = cpuMs(service.child);
        directRuns.push(await poll(service.origin, ids, concurrency, seconds));
        directCpu += cpuMs(service.child) - serviceBefore;
      };
      const proxied = async () => {
        const [proxyBefore, serviceBefore] = [cpuMs(proxy.child), cpuMs(service.child)];
        throughRuns.push(await poll(proxy.origin, ids, concurrency, seconds));
        throughCpu += cpuMs(proxy.child) - proxyBefore;
        behindCpu += cpuMs(service.child) - serviceBefore;
      };
      for (const run of round % 2 === 0 ? [straight, proxied] : [proxied, straight]) await run();
    }
    const direct = summary(directRuns);
    const through = summary(throughRuns);
    directCpu /= direct.count;
    throughCpu /= through.count;
    behindCpu /= through.count;
    const peak = memoryMb(proxy.child, 'VmHWM');
    const servicePeak = memoryMb(service.child, 'VmHWM');
    const ratios = throughRuns.map((run, round) => run.rate / directRuns[round]!.rate);
    const ratio = median(ratios);
    const failures = direct.failed + through.failed;
    return [
      {
        figure: 'Start-up of npm start, launch to first answer',
        value: ms(startupMs),
        target: '≤ 1500 ms',
        ok: startupMs <= 1500,
      },
      {
        figure: '  CPU time it used to get there (all threads)',
        value: ms(startupCpuMs),
        target: '—',
        ok: true,
      },
      {
        figure: '  its database open and migrated (GET /healthz 200)',
        value: ms(readyMs),
        target: '—',
        ok: true,
      },
      {
        figure: '  (its first start, making the database, to /healthz 200)',
        value: ms(first.readyMs),
        target: '—',
        ok: true,
      },
      {
        figure: 'Idle RSS, embedded default (emulator + PGlite)',
        value: mb(idle),
        target: '≤ 200 MB',
        ok: idle <= 200,
      },
      {
        figure: '  the console proxying, idle / the service alone, idle',
        value: `${mb(proxyIdle)} / ${mb(serviceIdle)}`,
        target: '—',
        ok: true,
      },
      {
        figure: `Peak RSS ${fromIdle ? 'during' : 'up to the end of'} the proxy polls (console, PGlite)`,
        value: mb(peak),
        target: '≤ 300 MB',
        ok: peak <= 300,
      },
      { figure: '  the service alone, peak during the polls', value: mb(servicePeak), target: '—', ok: true },
      {
        figure: `Status polls at ${concurrency}, straight to the service: rate (median run)`,
        value: `${direct.rate.toFixed(0)}/s`,
        target: '—',
        ok: true,
      },
      { figure: '  p50 / p99', value: `${ms(direct.p50)} / ${ms(direct.p99)}`, target: '—', ok: true },
      {
        figure: `Status polls at ${concurrency}, through the console: rate (median run)`,
        value: `${through.rate.toFixed(0)}/s`,
        target: '—',
        ok: true,
      },
      {
        figure: '  p50 / p99',
        value: `${ms(through.p50)} / ${ms(through.p99)}`,
        target: 'p99 ≤ 250 ms',
        ok: through.p99 <= 250,
      },
      {
        figure: '  CPU per poll: console / service behind it / poller (alone: service / poller)',
        value: `${throughCpu.toFixed(2)} / ${behindCpu.toFixed(2)} / ${through.pollerCpu.toFixed(2)} ms (${directCpu.toFixed(2)} / ${direct.pollerCpu.toFixed(2)} ms)`,
        target: '—',
        ok: true,
      },
      {
        figure: `Proxy rate / the service alone (median of ${rounds} rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
        value: ratio.toFixed(2),
        target: '≥ 0.5',
        ok: ratio >= 0.5,
      },
      { figure: 'Failed polls (either run)', value: String(failures), target: '0', ok: failures === 0 },
    ];
  } finally {
    for (const server of running) await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

// The inside attacks on long-lived and large answers, against the console with the
// built-in emulator and a sign-in, in its own process on 127.0.0.1 (from the sources, under tsx), so
// its memory and file handles are its own. For each attack it prints the time, the console's peak
// resident memory (Linux VmHWM, reset before the attack) and its open file handles; it asserts
// nothing about time (the tests in server/ assert the behaviour).
//   1. 520 callbacks of 1 MB, then 14 callback event streams from the start that never read
//      (unbounded, a server spends 4.6 GB on it and dies: "JavaScript heap out of memory").
//   2. Thousands of task event streams from one session (unbounded, ~20,000 use up the file handles).
//   3. One /log?limit=500 over those callbacks (whole bodies in the answer: ~1.4 GB and 6 s; trimmed: 2 MB).
//   4. A start with an old callbacks.jsonl of 600 lines of 1 MB (read whole, every start dies).
//   0. Run first: six JSON bodies of 450 MB at once, sent in chunks, to each of
//      POST /__console/tasks/hidden and /zip (unbounded: 278 MB to 4.96 GB; each is cut off at 257 KB).
// Usage: npx tsx scripts/bench-attacks.ts
// Counts: BENCH_ATTACK_CALLBACKS (520), BENCH_ATTACK_SLOW_STREAMS (14), BENCH_ATTACK_TASK_STREAMS
// (3000), BENCH_ATTACK_IMPORT_LINES (600; 0 skips the fourth attack), BENCH_ATTACK_BODIES (6; 0 skips
// attack 0) and BENCH_ATTACK_BODY_MB (450).
import { serve } from '@hono/node-server';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SECRET = 'bench-attacks-secret-0123456789';
const PASSWORD = 'bench-attacks-password';
const MB = 1024 * 1024;
const count = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
};
const CALLBACKS = count('BENCH_ATTACK_CALLBACKS', 520);
const SLOW_STREAMS = count('BENCH_ATTACK_SLOW_STREAMS', 14);
const TASK_STREAMS = count('BENCH_ATTACK_TASK_STREAMS', 3000);
const IMPORT_LINES = count('BENCH_ATTACK_IMPORT_LINES', 600);
const BODIES = count('BENCH_ATTACK_BODIES', 6);
const BODY_MB = count('BENCH_ATTACK_BODY_MB', 450);
/** Longest the bench waits for the console to let go of streams that never read (it drops them after 30 s). */
const DROP_WAIT_MS = 60_000;

// ---- The console, in a child process ------------------------------------------------------------

/** `--serve`: the production app (stand-in dist/, the attacks need no page) with PGlite in DATA_DIR. */
async function serveChild() {
  const { makeDist } = await import('../server/testing/prod-server');
  const { readProdConfig } = await import('../server/app/prod-config');
  const { createProdApp } = await import('../server/app/prod-app');
  const dist = makeDist();
  const prod = createProdApp(readProdConfig({ ...process.env, DIST_DIR: dist.dir }));
  await prod.ready;
  const server = serve({ fetch: prod.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
    console.log(`PORT ${info.port}`),
  );
  process.on('SIGTERM', () => {
    server.close();
    setTimeout(() => process.exit(0), 3000).unref();
    void prod.close().finally(() => {
      dist.cleanup();
      process.exit(0);
    });
  });
}

interface Console {
  child: ChildProcess;
  origin: string;
  port: number;
  startMs: number;
  log: string[];
  stop(): Promise<void>;
}

async function startConsole(dataDir: string): Promise<Console> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      API_BASE_URL: '',
      HOST: '127.0.0.1',
      APP_PASSWORD: PASSWORD,
      CALLBACK_SECRET: SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code, signal) =>
      reject(
        new Error(`the console exited (${signal ?? code}) before listening:\n${log.slice(-5).join('\n')}`),
      ),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    startMs: performance.now() - started,
    log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Resident memory (VmRSS now, VmHWM the peak since the last reset), in MB. */
function memoryMb(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN; // the process is gone
  }
}

/** The kernel keeps the peak exactly; "5" starts it again from now. */
function resetPeak(child: ChildProcess): void {
  try {
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not allowed: the peak then includes what came before
  }
}

function openFiles(child: ChildProcess): number {
  try {
    return readdirSync(`/proc/${child.pid}/fd`).length;
  } catch {
    return NaN;
  }
}

/** Samples the file handles every 50 ms until stopped; resolves to the most seen. */
function watchFiles(child: ChildProcess) {
  let peak = openFiles(child);
  const timer = setInterval(() => (peak = Math.max(peak, openFiles(child) || 0)), 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, openFiles(child) || 0);
  };
}

// ---- The attacker's side --------------------------------------------------------------------------

async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: PASSWORD, name: 'Mallory', next: '/' }),
    redirect: 'manual',
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie;
}

function bigCallback(i: number): string {
  return JSON.stringify({
    code: 0,
    msg: 'ok',
    task_type: 'video_translate',
    data: {
      task_id: `vt-attack-${i}`,
      name: 'attack',
      language: 'Japanese',
      status: 'SUCCEEDED',
      video_url: 'https://media.example.com/v.mp4',
      caption_url: 'https://media.example.com/v.ass',
      error_message: '',
    },
    // The inbox takes bodies up to 1 MB.
    pad: 'x'.repeat(MB - 1024),
  });
}

/** Where a signed-in browser reads the callback log and stream (the secret-free paths when present). */
async function callbackPaths(origin: string, cookie: string) {
  const own = await fetch(`${origin}/__console/callbacks/log?limit=1`, { headers: { cookie } });
  await own.body?.cancel();
  const base = own.ok ? '/__console/callbacks' : `/callbacks/${SECRET}`;
  return { log: `${base}/log`, events: `${base}/events` };
}

/** A raw HTTP request on its own socket; `status` is the answer's status, read from its first line. */
function rawRequest(port: number, path: string, cookie: string, readBody: boolean) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  const status = new Promise<number>((resolve) => {
    socket.once('data', (chunk: Buffer) => {
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0));
      // A reader goes on reading (and dropping) what comes; a non-reader stops right here.
      if (!readBody) socket.pause();
    });
    socket.once('close', () => resolve(0));
  });
  return { socket, status };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  attack: string;
  time: string;
  peakMb: string;
  files: string;
  result: string;
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** `megabytes` of JSON-looking bytes, made only as they are sent, counting what was taken. */
function lazyBody(megabytes: number) {
  const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
  const total = megabytes * MB;
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"ids":['));
        if (sent >= total) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, sent: () => sent };
}

async function bigBodies(con: Console, cookie: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const path of ['/__console/tasks/hidden', '/__console/tasks/zip']) {
    resetPeak(con.child);
    const before = memoryMb(con.child, 'VmRSS');
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: BODIES }, async () => {
        const body = lazyBody(BODY_MB);
        const status = await fetch(`${con.origin}${path}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
          body: body.stream,
          duplex: 'half',
        } as RequestInit)
          .then(async (response) => {
            await response.body?.cancel();
            return response.status;
          })
          .catch(() => 0);
        return { status, sentMb: body.sent() / MB };
      }),
    );
    const statuses = [...new Set(answers.map((a) => a.status))].join(', ');
    const mostSent = Math.max(...answers.map((a) => a.sentMb));
    rows.push({
      attack: `0. ${BODIES} × ${BODY_MB} MB to POST ${path}`,
      time: `${fmt(performance.now() - started)} ms`,
      peakMb: `${fmt(memoryMb(con.child, 'VmHWM'))} (before ${fmt(before)})`,
      files: String(openFiles(con.child)),
      result: `${statuses}; at most ${fmt(mostSent, 1)} MB taken from one sender`,
    });
  }
  return rows;
}

async function slowReaders(con: Console, cookie: string, events: string): Promise<Row[]> {
  const rows: Row[] = [];
  resetPeak(con.child);
  let stopFiles = watchFiles(con.child);
  let started = performance.now();
  let refused = 0;
  const bodies = Array.from({ length: CALLBACKS }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = bodies.shift(); i !== undefined && alive(con.child); i = bodies.shift()) {
        const response = await fetch(`${con.origin}/callbacks/${SECRET}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bigCallback(i),
        }).catch(() => undefined);
        if (!response?.ok) refused++;
        await response?.body?.cancel();
      }
    }),
  );
  rows.push({
    attack: `1a. POST ${CALLBACKS} callbacks of 1 MB`,
    time: `${fmt((performance.now() - started) / 1000, 1)} s`,
    peakMb: fmt(memoryMb(con.child, 'VmHWM')),
    files: String(stopFiles()),
    result: `${CALLBACKS - refused} accepted, ${refused} refused`,
  });

  resetPeak(con.child);
  const before = openFiles(con.child);
  stopFiles = watchFiles(con.child);
  started = performance.now();
  const streams = Array.from({ length: SLOW_STREAMS }, () =>
    rawRequest(con.port, `${events}?since=0`, cookie, false),
  );
  const statuses = await Promise.all(streams.map((stream) => stream.status));
  const opened = statuses.filter((status) => status === 200).length;
  const dropLines = () => con.log.filter((line) => line.includes('dropped a callback stream')).length;
  const droppedBefore = dropLines();
  // Until the console has dropped every one (it says so in its log), or the bench gives up.
  while (
    performance.now() - started < DROP_WAIT_MS &&
    alive(con.child) &&
    dropLines() - droppedBefore < opened
  )
    await sleep(250);
  const letGo = performance.now() - started;
  const dropped = dropLines() - droppedBefore;
  await sleep(500);
  rows.push({
    attack: `1b. ${SLOW_STREAMS} callback streams from id 0 that never read`,
    time: `${fmt(letGo / 1000, 1)} s until let go`,
    peakMb: fmt(memoryMb(con.child, 'VmHWM')),
    files: `${stopFiles()} (before ${before}, after ${openFiles(con.child)})`,
    result: alive(con.child)
      ? `alive; ${opened} opened, ${dropped} dropped by the console`
      : 'THE CONSOLE DIED',
  });
  for (const stream of streams) stream.socket.destroy();
  return rows;
}

async function manyStreams(con: Console, cookie: string): Promise<Row[]> {
  resetPeak(con.child);
  const before = openFiles(con.child);
  const stopFiles = watchFiles(con.child);
  const started = performance.now();
  const opened: ReturnType<typeof rawRequest>[] = [];
  const statuses = new Map<number, number>();
  for (let sent = 0; sent < TASK_STREAMS && alive(con.child); sent += 250) {
    const wave = Array.from({ length: Math.min(250, TASK_STREAMS - sent) }, () =>
      rawRequest(con.port, '/__console/tasks/events', cookie, true),
    );
    for (const stream of wave) {
      const status = await stream.status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 200) opened.push(stream);
      else stream.socket.destroy();
    }
  }
  const flood = performance.now() - started;
  // While the session's streams are open: do the sign-in page and the service's callbacks answer?
  const timed = async (run: () => Promise<Response>) => {
    const at = performance.now();
    const response = await run().catch(() => undefined);
    await response?.body?.cancel();
    return `${response?.status ?? 'no answer'} in ${fmt(performance.now() - at)} ms`;
  };
  const login = await timed(() => fetch(`${con.origin}/login`, { signal: AbortSignal.timeout(10_000) }));
  const callback = await timed(() =>
    fetch(`${con.origin}/callbacks/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigCallback(-1).replace(/"pad":"x+"/, '"pad":""'),
      signal: AbortSignal.timeout(10_000),
    }),
  );
  const files = stopFiles();
  for (const stream of opened) stream.socket.destroy();
  const summary = [...statuses].map(([status, n]) => `${n} × ${status || 'no answer'}`).join(', ');
  return [
    {
      attack: `2. ${TASK_STREAMS} task streams, one session`,
      time: `${fmt(flood / 1000, 1)} s`,
      peakMb: fmt(memoryMb(con.child, 'VmHWM')),
      files: `${files} (before ${before})`,
      result: `${alive(con.child) ? 'alive' : 'THE CONSOLE DIED'}; ${summary}; meanwhile /login ${login}, a callback ${callback}`,
    },
  ];
}

async function bigLogPage(con: Console, cookie: string, log: string): Promise<Row[]> {
  resetPeak(con.child);
  const stopFiles = watchFiles(con.child);
  const started = performance.now();
  const response = await fetch(`${con.origin}${log}?limit=500`, { headers: { cookie } });
  const text = await response.text();
  const time = performance.now() - started;
  let items = NaN;
  try {
    items = (JSON.parse(text) as { data: { items: unknown[] } }).data.items.length;
  } catch {
    // not the log's JSON: the status says what happened
  }
  return [
    {
      attack: '3. GET /log?limit=500',
      time: `${fmt(time)} ms`,
      peakMb: fmt(memoryMb(con.child, 'VmHWM')),
      files: String(stopFiles()),
      result: `${response.status}, ${items} callbacks, ${fmt(text.length / MB, 2)} MB`,
    },
  ];
}

async function oldLogAtStart(): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-attacks-import-'));
  try {
    const { callbackKey } = await import('../server/callbacks/log-entry');
    const file = createWriteStream(join(dataDir, 'callbacks.jsonl'));
    for (let i = 0; i < IMPORT_LINES; i++) {
      const body = JSON.parse(bigCallback(i)) as Parameters<typeof callbackKey>[0];
      const line = JSON.stringify({ receivedAt: new Date().toISOString(), key: callbackKey(body), body });
      if (!file.write(`${line}\n`)) await once(file, 'drain');
    }
    file.end();
    await once(file, 'finish');
    let con: Console | undefined;
    try {
      con = await startConsole(dataDir);
      const peak = memoryMb(con.child, 'VmHWM');
      const files = openFiles(con.child);
      const outcome = existsSync(join(dataDir, 'callbacks.jsonl.imported'))
        ? 'imported, renamed .imported'
        : existsSync(join(dataDir, 'callbacks.jsonl.failed'))
          ? 'moved aside (.failed)'
          : 'file left in place';
      return [
        {
          attack: `4. start with an old callbacks.jsonl of ${IMPORT_LINES} × 1 MB`,
          time: `${fmt(con.startMs / 1000, 1)} s to listen`,
          peakMb: fmt(peak),
          files: String(files),
          result: `started; ${outcome}`,
        },
      ];
    } catch (error) {
      return [
        {
          attack: `4. start with an old callbacks.jsonl of ${IMPORT_LINES} × 1 MB`,
          time: '—',
          peakMb: '—',
          files: '—',
          result: `DID NOT START: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`,
        },
      ];
    } finally {
      await con?.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: Row[]) {
  const head: Row = {
    attack: 'attack',
    time: 'time',
    peakMb: 'peak RSS MB',
    files: 'open files (peak)',
    result: 'result',
  };
  const keys = Object.keys(head) as (keyof Row)[];
  const width = (key: keyof Row) => Math.max(...[head, ...rows].map((row) => row[key].length));
  for (const row of [head, ...rows]) console.log(keys.map((key) => row[key].padEnd(width(key))).join(' | '));
}

async function main() {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-attacks-'));
  const con = await startConsole(dataDir);
  try {
    console.log(
      `console on ${con.origin} (sources under tsx, PGlite, sign-in) started in ${fmt(con.startMs / 1000, 1)} s, ` +
        `${fmt(memoryMb(con.child, 'VmRSS'))} MB, ${openFiles(con.child)} open files`,
    );
    const cookie = await signIn(con.origin);
    const paths = await callbackPaths(con.origin, cookie);
    if (BODIES > 0) rows.push(...(await bigBodies(con, cookie)));
    rows.push(...(await slowReaders(con, cookie, paths.events)));
    if (alive(con.child)) rows.push(...(await manyStreams(con, cookie)));
    if (alive(con.child)) rows.push(...(await bigLogPage(con, cookie, paths.log)));
  } finally {
    await con.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (IMPORT_LINES > 0) rows.push(...(await oldLogAtStart()));
  print(rows);
}

if (process.argv[2] === '--serve') await serveChild();
else await main();

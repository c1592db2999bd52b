// Kept results (server/results): how fast the copy job keeps a BENCH_RESULTS_MB file (default
// 1 GB) and the console's peak memory while it does (VmHWM, reset just before the copy), to the
// disk store and to an S3-compatible server (s3rver, in this process); then how fast a kept result
// is served by the console against fetching the service's own link. The "service" is a local HTTP
// server that generates the file on the fly (an MP4 header, then filler), so no disk holds it and
// its speed is not the network's. The console runs in its own process (bench-results-worker.ts)
// with its records in a throwaway PostgreSQL server when the binaries are there.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import S3rver from 's3rver';
import { request } from 'undici';
import { freePort, startTestPostgres, type TestPostgres } from '../server/testing/postgres';
import type { BenchRow } from './bench-size';
import { memoryMb, resetPeak } from './bench-upload';

const MB = 1024 * 1024;
const BUCKET = 'bench-results';

/** The service's file server: GET any path = `bytes` bytes of video, produced as they are sent. */
function startSource(bytes: number): Promise<{ server: Server; origin: string }> {
  const chunk = Buffer.alloc(256 * 1024, 0x2e);
  const ftyp = Buffer.from([0, 0, 0, 0x20, ...Buffer.from('ftypisom'), ...new Uint8Array(20)]);
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes) });
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const piece = sent === 0 ? ftyp : chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!response.write(piece)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ server, origin: `http://127.0.0.1:${address.port}` });
    }),
  );
}

function startConsole(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-results-worker.ts'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the console exited with ${code}`));
      child.once('exit', onExit);
      const onLine = (line: string) => {
        const match = pattern.exec(line);
        if (!match) return;
        lines.off('line', onLine);
        child.off('exit', onExit);
        resolve(match[1]!);
      };
      lines.on('line', onLine);
    });
  return { child, port: next(/^PORT (\d+)$/), next };
}

/** Milliseconds to read all of `url`'s body (and that it was `bytes` long). */
async function timeGet(url: string, bytes: number): Promise<number> {
  const started = performance.now();
  const response = await request(url);
  let received = 0;
  for await (const chunk of response.body) received += (chunk as Buffer).length;
  if (response.statusCode !== 200 || received !== bytes)
    throw new Error(`${url} answered ${response.statusCode} with ${received} bytes`);
  return performance.now() - started;
}

async function throwawayPostgres(): Promise<TestPostgres | undefined> {
  try {
    return await startTestPostgres();
  } catch (error) {
    console.warn(`bench-results: ${(error as Error).message}; the console keeps PGlite in its process`);
    return undefined;
  }
}

export async function benchResults(
  fileMb = Number(process.env.BENCH_RESULTS_MB ?? 1024),
): Promise<BenchRow[]> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-results-'));
  const bytes = fileMb * MB;
  const rate = (ms: number) => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
  const source = await startSource(bytes);
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(folder, 's3'),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port: s3Port } = await s3.run();
  const postgres = await throwawayPostgres();
  const rows: BenchRow[] = [];
  try {
    const direct = await timeGet(`${source.origin}/direct.mp4`, bytes);
    rows.push({
      figure: `${fileMb} MB from the service's own link`,
      value: rate(direct),
      target: '—',
      ok: true,
    });
    const stores: [string, Record<string, string>][] = [
      ['disk (DATA_DIR/results)', { RESULTS_STORE: 'disk' }],
      [
        's3 (s3rver on loopback)',
        {
          RESULTS_STORE: 's3',
          S3_BUCKET: BUCKET,
          S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
          S3_FORCE_PATH_STYLE: '1',
          // Served through the console, to compare like with like (no presigned redirect).
          S3_PRESIGN_ABOVE_MB: '0',
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
        },
      ],
    ];
    for (const [index, [name, env]] of stores.entries()) {
      const taskId = `i2v-bench-${index}-${Date.now().toString(36)}`;
      const consoleServer = startConsole({
        ...env,
        DATA_DIR: join(folder, `console-${index}`),
        ...(postgres && { DATABASE_URL: postgres.url }),
        RESULTS_MAX_MB: String(fileMb + 10),
        BENCH_SOURCE: source.origin,
        PORT: String(await freePort()),
      });
      try {
        const origin = `http://127.0.0.1:${await consoleServer.port}`;
        const idle = memoryMb(consoleServer.child, 'VmRSS');
        const fromIdle = resetPeak(consoleServer.child);
        const copied = consoleServer.next(/^COPIED (\d+)$/);
        consoleServer.child.stdin!.write(`COPY ${taskId}\n`);
        const copyMs = Number(await copied);
        const peak = memoryMb(consoleServer.child, 'VmHWM');
        const served = await timeGet(`${origin}/__console/results/${taskId}/video/0`, bytes);
        rows.push(
          { figure: `Copy of ${fileMb} MB into ${name}`, value: rate(copyMs), target: '—', ok: true },
          {
            figure: `  console peak RSS ${fromIdle ? 'during the copy' : 'since start'} (idle ${idle.toFixed(0)} MB)`,
            value: `${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)})`,
            target: '< 250 MB',
            ok: peak < 250,
          },
          {
            figure: `  the kept file served by the console from ${name.split(' ')[0]}`,
            value: `${rate(served)} (${(direct / served).toFixed(2)} × the service's link)`,
            target: '—',
            ok: true,
          },
        );
      } finally {
        consoleServer.child.kill('SIGTERM');
      }
    }
    return rows;
  } finally {
    source.server.close();
    await s3.close();
    postgres?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

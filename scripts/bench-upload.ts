// Upload throughput through the console's proxy against straight to the emulator, and the console
// process's peak memory (VmHWM, reset just before the upload) while a 500 MB file streams through
// it. The file is generated on the fly (an MP4 header, then filler), so neither disk nor the bench
// process holds it. The console keeps its records in a throwaway PostgreSQL server when the
// binaries are there (BENCH_UPLOAD_DB=pglite keeps PGlite's few hundred MB of WebAssembly in it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { freePort, startTestPostgres, type TestPostgres } from '../server/testing/postgres';
import type { BenchRow } from './bench-size';

const MB = 1024 * 1024;
const TOKEN = 'bench-upload-token';

/** What `npm start` runs, once `npm run build` made it; the bench measures that process. */
const BUILT_SERVER = 'dist-server/prod.js';

function start(mode: 'emulator' | 'console', env: Record<string, string>) {
  const built = mode === 'console' && existsSync(BUILT_SERVER);
  const args = built ? [BUILT_SERVER] : ['--import', 'tsx', 'scripts/bench-upload-server.ts', mode];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, ...(built && { HOST: '127.0.0.1', DIST_DIR: 'dist' }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      // bench-upload-server.ts says `PORT n`; the production server `Media Console on http://…:n`.
      const match = /^PORT (\d+)$/.exec(line) ?? /^Media Console on http:\/\/[^ ]+:(\d+) /.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, port, built };
}

/** A multipart body of `bytes` file bytes, produced chunk by chunk as the request pulls it. */
function multipartBody(bytes: number) {
  const boundary = 'bench-upload-boundary';
  const encode = (text: string) => new TextEncoder().encode(text);
  const ftyp = new Uint8Array([0, 0, 0, 0x20, ...encode('ftypisom'), ...new Uint8Array(20)]);
  const chunk = new Uint8Array(256 * 1024).fill(0x2e);
  async function* parts() {
    yield encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    yield ftyp;
    for (let sent = ftyp.byteLength; sent < bytes; sent += chunk.byteLength)
      yield chunk.subarray(0, Math.min(chunk.byteLength, bytes - sent));
    yield encode(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: Readable.from(parts(), { objectMode: false }),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

// undici's request(), not fetch: fetch tees a streamed body it might have to resend (redirect mode
// other than "error"), which would hold the whole file in the bench process.
async function timeUpload(origin: string, bytes: number): Promise<number> {
  const { body, type } = multipartBody(bytes);
  const started = performance.now();
  const response = await request(`${origin}/v1/figure-resource/upload/file`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: `Bearer ${TOKEN}` },
    body,
  });
  const answer = (await response.body.json()) as { code?: number; result?: { url?: string } };
  if (response.statusCode !== 200 || answer.code !== 0)
    throw new Error(`upload answered ${response.statusCode} ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

/** Resident memory of a process (Linux: VmRSS now, VmHWM its peak), in MB. */
export function memoryMb(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
}

/** The kernel keeps the peak exactly (no sampling to miss it); "5" starts it again from now. */
export function resetPeak(child: ChildProcess): boolean {
  try {
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    return true;
  } catch {
    return false; // not Linux, or not allowed: the peak then includes the start-up
  }
}

async function throwawayPostgres(): Promise<TestPostgres | undefined> {
  if (process.env.BENCH_UPLOAD_DB === 'pglite') return undefined;
  try {
    return await startTestPostgres();
  } catch (error) {
    console.warn(`bench-upload: ${(error as Error).message}; the console keeps PGlite in its process`);
    return undefined;
  }
}

export async function benchUpload(fileMb = Number(process.env.BENCH_UPLOAD_MB ?? 500)): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const limit = String(fileMb + 20);
  const postgres = await throwawayPostgres();
  const emulator = start('emulator', { DATA_DIR: join(dataDir, 'emulator'), UPLOAD_MAX_MB: limit });
  let consoleServer: ReturnType<typeof start> | undefined;
  try {
    const emulatorOrigin = `http://127.0.0.1:${await emulator.port}`;
    consoleServer = start('console', {
      API_BASE_URL: emulatorOrigin,
      API_TOKEN: TOKEN,
      DATA_DIR: join(dataDir, 'console'),
      ...(postgres && { DATABASE_URL: postgres.url }),
      UPLOAD_MAX_MB: limit,
      PORT: String(await freePort()),
      NODE_OPTIONS: process.env.BENCH_CONSOLE_NODE_OPTIONS ?? '',
    });
    const consoleOrigin = `http://127.0.0.1:${await consoleServer.port}`;
    const bytes = fileMb * MB;
    const direct = await timeUpload(emulatorOrigin, bytes);
    const idleMb = memoryMb(consoleServer.child, 'VmRSS');
    const fromIdle = resetPeak(consoleServer.child);
    const proxied = await timeUpload(consoleOrigin, bytes);
    const peak = memoryMb(consoleServer.child, 'VmHWM');
    const rate = (ms: number) => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
    const database = postgres ? 'records in PostgreSQL' : 'PGlite in the process';
    const how = consoleServer.built ? 'npm start' : 'under tsx: run npm run build first';
    return [
      { figure: `${fileMb} MB straight to the emulator`, value: rate(direct), target: '—', ok: true },
      { figure: `${fileMb} MB through the console's proxy`, value: rate(proxied), target: '—', ok: true },
      {
        figure: 'Proxy throughput / direct',
        value: `${(direct / proxied).toFixed(2)}`,
        target: '≥ 0.5',
        ok: direct / proxied >= 0.5,
      },
      {
        figure: `Console peak RSS ${fromIdle ? 'during the upload' : 'since start'} (${how}; idle ${idleMb.toFixed(0)} MB, ${database})`,
        value: `${peak.toFixed(0)} MB`,
        target: '< 150 MB',
        ok: peak < 150,
      },
      {
        figure: 'Of which the upload (peak − idle; the rest is the console at rest)',
        value: `${(peak - idleMb).toFixed(0)} MB`,
        target: '—',
        ok: true,
      },
    ];
  } finally {
    consoleServer?.child.kill('SIGTERM');
    emulator.child.kill('SIGTERM');
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

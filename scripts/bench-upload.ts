// Upload throughput through the console's proxy against straight to the emulator, and the console
// process's peak memory (VmHWM) while a 500 MB file streams through it. The file is generated on
// the fly (an MP4 header, then filler), so neither disk nor the bench process holds it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchRow } from './bench-size';

const MB = 1024 * 1024;
const TOKEN = 'bench-upload-token';

function start(mode: 'emulator' | 'console', env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-upload-server.ts', mode], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, port };
}

/** A multipart body of `bytes` file bytes, produced chunk by chunk as fetch pulls it. */
function multipartStream(bytes: number) {
  const boundary = 'bench-upload-boundary';
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const ftyp = new Uint8Array([
    0,
    0,
    0,
    0x20,
    ...new TextEncoder().encode('ftypisom'),
    ...new Uint8Array(20),
  ]);
  const chunk = new Uint8Array(256 * 1024).fill(0x2e);
  let sent = 0;
  let phase = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (phase === 0) {
        phase = 1;
        controller.enqueue(head);
        controller.enqueue(ftyp);
        sent = ftyp.byteLength;
      } else if (sent < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.byteLength, bytes - sent));
        sent += part.byteLength;
        controller.enqueue(part);
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
  return { stream, type: `multipart/form-data; boundary=${boundary}` };
}

async function timeUpload(origin: string, bytes: number): Promise<number> {
  const { stream, type } = multipartStream(bytes);
  const started = performance.now();
  const response = await fetch(`${origin}/v1/figure-resource/upload/file`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: `Bearer ${TOKEN}` },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  const answer = (await response.json()) as { code?: number; result?: { url?: string } };
  if (!response.ok || answer.code !== 0)
    throw new Error(`upload answered ${response.status} ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

/** Peak resident memory of a process so far (Linux: VmHWM), in MB. */
function peakMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

export async function benchUpload(fileMb = Number(process.env.BENCH_UPLOAD_MB ?? 500)): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const limit = String(fileMb + 20);
  const emulator = start('emulator', { DATA_DIR: join(dataDir, 'emulator'), UPLOAD_MAX_MB: limit });
  let consoleServer: ReturnType<typeof start> | undefined;
  try {
    const emulatorOrigin = `http://127.0.0.1:${await emulator.port}`;
    consoleServer = start('console', {
      API_BASE_URL: emulatorOrigin,
      API_TOKEN: TOKEN,
      DATA_DIR: join(dataDir, 'console'),
      UPLOAD_MAX_MB: limit,
      NODE_OPTIONS: process.env.BENCH_CONSOLE_NODE_OPTIONS ?? '',
    });
    const consoleOrigin = `http://127.0.0.1:${await consoleServer.port}`;
    const bytes = fileMb * MB;
    const idleMb = peakMb(consoleServer.child);
    const direct = await timeUpload(emulatorOrigin, bytes);
    const proxied = await timeUpload(consoleOrigin, bytes);
    const peak = peakMb(consoleServer.child);
    const rate = (ms: number) => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
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
        figure: `Console peak RSS (idle ${idleMb.toFixed(0)} MB) with the file through it`,
        value: `${peak.toFixed(0)} MB`,
        target: '< 150 MB',
        ok: peak < 150,
      },
    ];
  } finally {
    consoleServer?.child.kill('SIGTERM');
    emulator.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run bench -- zip`: the zip of bulk downloads (server/tasks/bulk.ts) made from ~1 GB of result
// files, and the peak memory of the process while it streams. The files come from a local HTTP
// server that makes their bytes as they are read (so no disk and no buffer holds them), fetched as
// the service's links would be; the zip is read as a browser would and thrown away chunk by chunk.
// A flat peak (tens of MB over the baseline, whatever the size) is the point: nothing is buffered.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { openDatabase, MEMORY_URL } from '../server/db/database';
import { migrate } from '../server/db/migrations';
import { mountBulk } from '../server/tasks/bulk';
import type { BenchRow } from './bench-size';

const MB = 1024 * 1024;

export async function benchZip(
  files = Number(process.env.BENCH_ZIP_FILES ?? 10),
  fileMb = 100,
): Promise<BenchRow[]> {
  const chunk = Buffer.alloc(MB, 7);
  const media = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(fileMb * MB) });
    let left = fileMb;
    const pump = () => {
      while (left > 0) {
        left--;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  const database = await openDatabase({ dataDir: MEMORY_URL, databaseUrl: MEMORY_URL });
  await migrate(database.db as never);
  const ids = Array.from({ length: files }, (_, i) => `bench-zip-${i}`);
  await database.db
    .insertInto('tasks')
    .values(
      ids.map((id, i) => ({
        id,
        kind: 'video_translate',
        source: 'created',
        name: 'Bench recap',
        language: `Language ${i}`,
        status: 'SUCCEEDED',
        result: JSON.stringify({ video_url: `${origin}/video-${i}.mp4` }),
      })) as never,
    )
    .execute();
  const app = new Hono();
  mountBulk(app, Promise.resolve(database), fetch);

  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const response = await app.request('/__console/tasks/zip', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ids }),
  });
  let bytes = 0;
  for await (const part of response.body!) bytes += (part as Uint8Array).byteLength;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  media.close();
  await database.close();
  const grew = (peak - baseline) / MB;
  return [
    {
      figure: `Zip of ${files} files × ${fileMb} MB streamed`,
      value: `${(bytes / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s (${(bytes / MB / seconds).toFixed(0)} MB/s)`,
      target: 'complete',
      ok: bytes > files * fileMb * MB,
    },
    {
      figure: 'Peak RSS while streaming (over the baseline)',
      value: `${(peak / MB).toFixed(0)} MB (+${grew.toFixed(0)} MB over ${(baseline / MB).toFixed(0)} MB)`,
      target: '≤ +100 MB (flat)',
      ok: grew <= 100,
    },
  ];
}

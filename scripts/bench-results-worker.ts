// The console for bench-results.ts, in its own process so its memory is measured alone: the Node
// side (serving kept results from the store RESULTS_STORE names) and a copy job whose outbound
// requests for `https://media.bench.example/…` go to BENCH_SOURCE (the bench's local file server,
// a loopback address the guard would otherwise refuse, rightly). Prints `PORT <n>` once ready;
// reads `COPY <task id>` lines and answers `COPIED <ms>` once that task's video is kept.
import { serve } from '@hono/node-server';
import { createInterface } from 'node:readline';
import { createNodeApp } from '../server/app/node-app';
import { readServerConfig } from '../server/config/config';
import { createGuardedFetch } from '../server/proxy/outbound';
import { createCopyJob } from '../server/results/copy-job';
import { openResultStore } from '../server/results/open-store';
import { applyStatus } from '../server/tasks/recorder';

const config = readServerConfig(process.env);
const source = process.env.BENCH_SOURCE!;
const nodeApp = createNodeApp(config, { keepResults: false });
const database = await nodeApp.database;
const job = createCopyJob({
  database: Promise.resolve(database),
  store: openResultStore(config.results, config.dataDir),
  fetch: createGuardedFetch({
    transport: (url, init) => fetch(`${source}${url.pathname}`, init),
  }),
  maxBytes: config.results!.maxBytes,
  log: (line) => console.error(line),
});
const server = serve({ fetch: nodeApp.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  console.log(`PORT ${info.port}`),
);
createInterface({ input: process.stdin }).on('line', (line) => {
  const id = /^COPY (\S+)$/.exec(line)?.[1];
  if (!id) return;
  const started = performance.now();
  void database.db
    .transaction()
    .execute((trx) =>
      applyStatus(
        trx,
        'image_to_video',
        id,
        { status: 'SUCCEEDED', video_url: `https://media.bench.example/${id}.mp4` },
        'poll',
      ),
    )
    .then(() => job.drain())
    .then(() => console.log(`COPIED ${(performance.now() - started).toFixed(0)}`));
});
process.on('SIGTERM', () => {
  void job.close();
  server.close(() => process.exit(0));
});

// A team that runs the service (or its media) on its own network: the results are kept from the
// origins an admin configured (API_BASE_URL's, MEDIA_ORIGINS), whatever their address; every other
// private or loopback address stays refused, as the outbound guard refuses it everywhere.
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStatus } from '../tasks/recorder';
import { testNodeApp } from '../testing/test-node-app';
import { createDiskStore } from './disk-store';

const server = testNodeApp('trusted-origins');
const VIDEO = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109, 1, 2, 3, 4]);
const closers: (() => Promise<void>)[] = [];

function started(fetch: (request: Request) => Response): Promise<string> {
  return new Promise((resolve) => {
    const running = serve({ hostname: '127.0.0.1', port: 0, fetch }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
    closers.push(() => new Promise((done) => running.close(() => done())));
  });
}

let service: string;
let media: string;
let stranger: string;
beforeAll(async () => {
  const file = (path: string) => (request: Request) =>
    new URL(request.url).pathname === path
      ? new Response(VIDEO.slice(), { headers: { 'content-type': 'video/mp4' } })
      : new Response('no', { status: 404 });
  service = await started(file('/media/clip.mp4'));
  media = await started(file('/cdn/clip.mp4'));
  // Another service on this machine that nobody configured.
  stranger = await started(file('/media/clip.mp4'));
  const store = await createDiskStore(server.dataDir);
  await server.open({
    env: { API_BASE_URL: service, API_TOKEN: 't', MEDIA_ORIGINS: media },
    options: { resultStore: store },
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all(closers.map((close) => close()));
  server.remove();
});

const succeed = (id: string, videoUrl: string) =>
  server.database.db
    .transaction()
    .execute((trx) =>
      applyStatus(
        trx,
        'image_to_video',
        id,
        { task_id: id, status: 'SUCCEEDED', video_url: videoUrl },
        'poll',
      ),
    );

describe('result copies from the team’s own network', () => {
  it('come from the service’s origin and MEDIA_ORIGINS; another loopback address stays refused', async () => {
    await succeed('i2v-service', `${service}/media/clip.mp4`);
    await succeed('i2v-media', `${media}/cdn/clip.mp4`);
    await succeed('i2v-stranger', `${stranger}/media/clip.mp4`);
    await server.nodeApp.results!.drain();
    const rows = await server.database.db
      .selectFrom('result_copies')
      .select(['task_id', 'state', 'error'])
      .orderBy('task_id')
      .execute();
    expect(rows.map((row) => [row.task_id, row.state])).toEqual([
      ['i2v-media', 'kept'],
      ['i2v-service', 'kept'],
      ['i2v-stranger', 'failed'],
    ]);
    expect(rows[2]!.error).toMatch(/not a public address/);
    const kept = await server.request('/__console/results/i2v-service/video/0');
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(VIDEO);
  });
});

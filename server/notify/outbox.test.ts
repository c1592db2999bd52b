// Which webhooks hear of a request that ended (PGlite, queueRequestEnded called directly): nothing
// while one task still runs, "failed" once any task failed, the creator's own webhooks and the
// team's but not another person's, only those that want the event, and once however often the
// ending is recorded.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import type { WebhookEvent } from '../db/schema';
import { resetTestDatabase } from '../testing/database';
import { queueRequestEnded } from './outbox';

let db: Db;
beforeEach(async () => {
  db = (await resetTestDatabase()).db;
  await db
    .insertInto('requests')
    .values({ id: 'req-1', kind: 'image_generate', creator: 'Ana', creator_id: 'u-ana', task_ids: '[]' })
    .execute();
});

async function tasks(statuses: string[]) {
  for (const [n, status] of statuses.entries())
    await db
      .insertInto('tasks')
      .values({ id: `t${n}`, kind: 'image_generate', source: 'created', status, request_id: 'req-1' })
      .execute();
}
async function webhook(id: string, scope: 'person' | 'team', userId: string | null, events: WebhookEvent[]) {
  await db
    .insertInto('webhooks')
    .values({
      id,
      scope,
      user_id: userId,
      name: id,
      url: 'https://h.example',
      secret: 's',
      events: JSON.stringify(events),
    })
    .execute();
}
const queued = () =>
  db
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'request_id', 'event'])
    .orderBy('webhook_id')
    .execute();

describe('queueRequestEnded', () => {
  beforeEach(async () => {
    await webhook('wh-ana', 'person', 'u-ana', ['finished', 'failed']);
    await webhook('wh-bo', 'person', 'u-bo', ['finished', 'failed']);
    await webhook('wh-team', 'team', null, ['finished', 'failed']);
    await webhook('wh-team-failures', 'team', null, ['failed']);
  });

  it('queues nothing while a task of the request is not final', async () => {
    await tasks(['SUCCEEDED', 'PROCESSING']);
    await queueRequestEnded(db, 't0');
    expect(await queued()).toEqual([]);
  });

  it("all succeeded: 'finished', to the creator's webhooks and the team's that want it, once", async () => {
    await tasks(['SUCCEEDED', 'SUCCEEDED']);
    await queueRequestEnded(db, 't1');
    await queueRequestEnded(db, 't0');
    expect(await queued()).toEqual([
      { webhook_id: 'wh-ana', request_id: 'req-1', event: 'finished' },
      { webhook_id: 'wh-team', request_id: 'req-1', event: 'finished' },
    ]);
  });

  it("any task failed: 'failed', to the webhooks that want it", async () => {
    await tasks(['SUCCEEDED', 'FAILED']);
    await queueRequestEnded(db, 't1');
    expect(await queued()).toEqual([
      { webhook_id: 'wh-ana', request_id: 'req-1', event: 'failed' },
      { webhook_id: 'wh-team', request_id: 'req-1', event: 'failed' },
      { webhook_id: 'wh-team-failures', request_id: 'req-1', event: 'failed' },
    ]);
  });

  it('a task of no request queues nothing', async () => {
    await db
      .insertInto('tasks')
      .values({ id: 'lone', kind: 'image_generate', source: 'lookup', status: 'SUCCEEDED' })
      .execute();
    await queueRequestEnded(db, 'lone');
    expect(await queued()).toEqual([]);
  });
});

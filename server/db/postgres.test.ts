// Integration on a real PostgreSQL server (Debian's `postgresql`): a throwaway cluster made here,
// two console instances on one database, as behind a load balancer.
import { sql } from 'kysely';
import { asPerson } from '../testing/identity';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testEmulator } from '../testing/emulator';
import type { NodeApp } from '../app/node-app';
import { databaseSignedOutSessions } from '../auth/signed-out-sessions';
import { imageGenerateCallback } from '../testing/callback-fixtures';
import { usePostgresInstances } from '../testing/postgres-instances';
import { openDatabase } from './database';
import { migrate, MIGRATIONS, NewerDatabaseError } from './migrations';

const SECRET = 'pg-test-secret-0123456789';
const ORIGIN = 'http://127.0.0.1:5173';
const { freshDatabase, instance } = usePostgresInstances(SECRET);

const postCallback = (app: NodeApp, taskId: string) =>
  app.app.request(`${ORIGIN}/callbacks/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ...imageGenerateCallback,
      data: { ...imageGenerateCallback.data, task_id: taskId },
    }),
  });

/** Reads SSE frames until `done` says enough; returns the raw text. */
async function readUntil(response: Response, done: (text: string) => boolean, timeoutMs = 5000) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!done(text)) {
    if (Date.now() > deadline) throw new Error(`timed out; got: ${text.slice(-500)}`);
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}
const eventIds = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

describe('two instances on one PostgreSQL database', () => {
  it('share tasks, callbacks and live events, and lose nothing across a restart', async () => {
    const url = freshDatabase();
    // One service behind both, as in a deployment: whichever instance's follower asks, it knows the task.
    const emulator = testEmulator({ timeScale: 0, token: 'pg-service-token' });
    const service = serve({ fetch: emulator.service.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => service.once('listening', resolve));
    const { port } = service.address() as AddressInfo;
    const shared = { API_BASE_URL: `http://127.0.0.1:${port}`, API_TOKEN: 'pg-service-token' };
    onTestFinished(async () => {
      await emulator.close();
      await new Promise((resolve) => service.close(resolve));
    });
    let a = instance(url, shared);
    let b = instance(url, shared);
    await Promise.all([a.database, b.database]);

    // B's streams are open before anything happens on A.
    const callbacks = await b.app.request(`${ORIGIN}/callbacks/${SECRET}/events?since=end`);
    const tasks = await b.app.request(`${ORIGIN}/__console/tasks/events`);

    // Created on A, listed and opened on B.
    const created = await a.app.request(
      `${ORIGIN}/v1/image_generate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
        // The emulator fails it: what the server's follower (on either instance) then records.
        body: JSON.stringify({ prompt: 'two instances emulator:fail', generate_count: 1 }),
      },
      asPerson('Ana'),
    );
    const [taskId] = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
    const listed = (await (await b.app.request(`${ORIGIN}/__console/tasks?q=two%20instances`)).json()) as {
      data: { items: { id: string; creator: string }[] };
    };
    expect(listed.data.items).toEqual([expect.objectContaining({ id: taskId, creator: 'Ana' })]);
    expect((await b.app.request(`${ORIGIN}/__console/tasks/${taskId}`)).status).toBe(200);

    // The service's answer, asked by the server with no browser, reaches B's task stream; a
    // callback received by A reaches B's callback stream at once.
    const taskText = await readUntil(tasks, (text) => text.includes('"status":"FAILED"'));
    expect(taskText).toContain(taskId);
    const started = Date.now();
    expect((await postCallback(a, taskId!)).status).toBe(200);
    const callbackText = await readUntil(callbacks, (text) => text.includes('event: callback'));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(callbackText).toContain(taskId);

    // Both restart: everything is still there.
    await Promise.all([a.close(), b.close()]);
    a = instance(url, shared);
    b = instance(url, shared);
    const after = (await (await b.app.request(`${ORIGIN}/__console/tasks/${taskId}`)).json()) as {
      data: { task: { status: string }; events: { source: string }[] };
    };
    expect(after.data.task.status).toBe('FAILED');
    expect(after.data.events.map((event) => event.source)).toEqual(['created', 'poll']);
    const log = (await (await a.app.request(`${ORIGIN}/callbacks/${SECRET}/log`)).json()) as {
      data: { total: number };
    };
    expect(log.data.total).toBe(1);
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('hands out callback ids in commit order, so a stream resuming from any id misses none', async () => {
    const url = freshDatabase();
    const a = instance(url);
    const b = instance(url);
    await Promise.all([a.database, b.database]);
    const stream = await b.app.request(`${ORIGIN}/callbacks/${SECRET}/events`);
    const sends = Array.from({ length: 40 }, (_, i) => postCallback(i % 2 ? a : b, `i2is-order-${i}`));
    const replies = await Promise.all(sends);
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const text = await readUntil(stream, (seen) => eventIds(seen).length >= 40);
    const ids = eventIds(text);
    expect(ids).toHaveLength(40);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids); // strictly in order as streamed
    const resumed = await readUntil(
      await a.app.request(`${ORIGIN}/callbacks/${SECRET}/events`, {
        headers: { 'last-event-id': String(ids[19]) },
      }),
      (seen) => eventIds(seen).length >= 20,
    );
    expect(eventIds(resumed)).toEqual(ids.slice(20));
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('keeps a sign-out on one instance for every instance', async () => {
    const url = freshDatabase();
    const [one, two] = await Promise.all([
      openDatabase({ dataDir: '', databaseUrl: url }),
      openDatabase({ dataDir: '', databaseUrl: url }),
    ]);
    await databaseSignedOutSessions(Promise.resolve(one)).add('session-1', Date.now() + 60_000);
    expect(await databaseSignedOutSessions(Promise.resolve(two)).has('session-1')).toBe(true);
    expect(await databaseSignedOutSessions(Promise.resolve(two)).has('session-2')).toBe(false);
    await Promise.all([one.close(), two.close()]);
  });

  it('refuses a database a newer console has migrated', async () => {
    const url = freshDatabase();
    const database = await openDatabase({ dataDir: '', databaseUrl: url });
    await migrate(database.db as never, { ...MIGRATIONS, '9999_future': { up: async () => {} } });
    await database.close();
    await expect(openDatabase({ dataDir: '', databaseUrl: url })).rejects.toThrow(NewerDatabaseError);
  });

  it('runs its sessions with JIT off, whichever connection of the pool answers', async () => {
    const database = await openDatabase({ dataDir: '', databaseUrl: freshDatabase() });
    try {
      const answers = await Promise.all(
        Array.from({ length: 3 }, () => sql<{ jit: string }>`show jit`.execute(database.db)),
      );
      expect(answers.map((answer) => answer.rows[0]!.jit)).toEqual(['off', 'off', 'off']);
    } finally {
      await database.close();
    }
  });
});

// Webhooks told when a request ends, driven by the server with no browser open: the creator's own
// and the team's get one signed message per request (finished, or failed), another person's none;
// failed sends are retried with backoff, a 4xx gives up, and the rows are the delivery log. The
// routes: bounds at the limit and one past it, roles, the secret shown once, the audit log.
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testNodeApp } from '../testing/test-node-app';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verify } from './message';
import {
  WEBHOOK_BODY_MAX_BYTES,
  WEBHOOK_NAME_MAX,
  WEBHOOK_URL_MAX,
  WEBHOOKS_PER_PERSON,
  WEBHOOKS_PER_TEAM,
} from './routes';

const server = testNodeApp('webhooks-test');
let receiver: ServerType;
let RECEIVER: string;
let received: { headers: Headers; body: string }[] = [];
let answer: () => Response = () => new Response('ok');

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    receiver = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          received.push({ headers: request.headers, body: await request.text() });
          return answer();
        },
      },
      (info) => {
        RECEIVER = `http://127.0.0.1:${info.port}`;
        resolve();
      },
    );
  });
});
beforeEach(async () => {
  received = [];
  answer = () => new Response('ok');
  await server.open({
    env: { WEBHOOK_PRIVATE_ORIGINS: RECEIVER, PUBLIC_BASE_URL: 'https://console.example.com' },
  });
});
afterEach(() => server.close());
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  server.remove();
});

const db = () => server.database.db;
async function addWebhook(who: string, body: Record<string, unknown>, role: 'creator' | 'admin' = 'creator') {
  const reply = await server.postJsonAs(
    who,
    '/__console/webhooks',
    { name: 'Mine', url: `${RECEIVER}/hook`, ...body },
    role,
  );
  return {
    status: reply.status,
    body: (await reply.json()) as { data?: { id: string; secret: string }; msg?: string },
  };
}
/** Ana's request of two images, as the recorder writes a creation. */
async function anaRequest(ids = ['i2is-a1', 'i2is-a2'], creator = 'Ana') {
  await server.postJsonAs(creator, '/v1/image_generate', {
    prompt: `${creator}'s fox`,
    generate_count: ids.length,
  });
  const tasks = await db()
    .selectFrom('tasks')
    .select(['id', 'request_id'])
    .where('creator', '=', creator)
    .orderBy('id')
    .execute();
  return tasks;
}
/** The service's final answer for a task, recorded as the follower records it. */
async function finish(id: string, status: 'SUCCEEDED' | 'FAILED', extra: Record<string, unknown> = {}) {
  const { applyStatus } = await import('../tasks/recorder');
  await db()
    .transaction()
    .execute((trx) => applyStatus(trx, 'image_generate', id, { task_id: id, status, ...extra }, 'poll'));
}
const deliveries = () => db().selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
const send = () => server.nodeApp.webhooks!.drain();

describe('when a request ends', () => {
  it("tells the creator's webhook and the team's once, signed, and not another person's", async () => {
    const ana = await addWebhook('Ana', {});
    const team = await addWebhook('Root', { name: 'Team', scope: 'team' }, 'admin');
    await addWebhook('Bo', { name: 'Bo' });
    const [first, second] = await anaRequest();
    await finish(first!.id, 'SUCCEEDED');
    expect(await deliveries()).toEqual([]);
    await finish(second!.id, 'SUCCEEDED');
    // The same ending recorded again (another answer, another instance) queues nothing more.
    await finish(second!.id, 'SUCCEEDED');
    expect((await deliveries()).map((row) => [row.webhook_id, row.event])).toEqual([
      [ana.body.data!.id, 'finished'],
      [team.body.data!.id, 'finished'],
    ]);
    await send();
    expect(received).toHaveLength(2);
    for (const message of received) {
      const body = JSON.parse(message.body) as {
        text: string;
        event: string;
        request: { id: string; url: string };
      };
      expect(body.event).toBe('request.finished');
      expect(body.text).toContain("“Ana's fox” by Ana finished: all 2 done");
      expect(body.request.url).toBe(`https://console.example.com/requests/${first!.request_id}`);
      const secrets = [ana.body.data!.secret, team.body.data!.secret];
      const signedBy = secrets.filter((secret) =>
        verify(
          secret,
          message.headers.get(SIGNATURE_HEADER),
          message.headers.get(TIMESTAMP_HEADER),
          message.body,
        ),
      );
      expect(signedBy).toHaveLength(1);
      // Tampered, or signed with another secret: refused.
      expect(
        verify(
          signedBy[0]!,
          message.headers.get(SIGNATURE_HEADER),
          message.headers.get(TIMESTAMP_HEADER),
          `${message.body} `,
        ),
      ).toBe(false);
    }
    expect((await deliveries()).map((row) => row.state)).toEqual(['delivered', 'delivered']);
  });

  it('says "failed" with the service\'s words when a task failed, only to webhooks that want it', async () => {
    await addWebhook('Ana', { name: 'Failures', events: ['failed'] });
    await addWebhook('Ana', { name: 'Successes', events: ['finished'] });
    const [first, second] = await anaRequest();
    await finish(first!.id, 'SUCCEEDED');
    await finish(second!.id, 'FAILED', { error_message: 'content policy' });
    await send();
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body) as { text: string; event: string };
    expect(body.event).toBe('request.failed');
    expect(body.text).toMatch(/^❌ .* failed: 1 of 2 succeeded \(content policy\)/);
  });

  it('retries a 5xx with backoff (30 s, then 60 s), gives up on a 404 at once, and after 8 attempts', async () => {
    const hook = await addWebhook('Ana', {});
    const [task] = await anaRequest(['only']);
    answer = () => new Response('busy', { status: 503 });
    await finish(task!.id, 'SUCCEEDED');
    await send();
    let [row] = await deliveries();
    expect(row).toMatchObject({ state: 'queued', attempts: 1, last_status: 503, last_error: 'HTTP 503' });
    expect((row!.due_at.getTime() - Date.now()) / 1000).toBeCloseTo(30, 0);
    await db().updateTable('webhook_deliveries').set({ due_at: new Date() }).execute();
    await send();
    [row] = await deliveries();
    expect((row!.due_at.getTime() - Date.now()) / 1000).toBeCloseTo(60, 0);
    // The 8th failed attempt is the last: 6 more.
    for (let attempt = 3; attempt <= 8; attempt++) {
      await db().updateTable('webhook_deliveries').set({ due_at: new Date() }).execute();
      await send();
      [row] = await deliveries();
      expect(row).toMatchObject({ attempts: attempt, state: attempt < 8 ? 'queued' : 'failed' });
    }
    // A 404 is final at the first attempt.
    await db().deleteFrom('webhook_deliveries').execute();
    answer = () => new Response('gone', { status: 404 });
    await db()
      .insertInto('webhook_deliveries')
      .values({ webhook_id: hook.body.data!.id, request_id: task!.request_id!, event: 'finished' })
      .execute();
    await send();
    [row] = await deliveries();
    expect(row).toMatchObject({ state: 'failed', attempts: 1, last_status: 404 });
    const log = await server.requestAs('Ana', `/__console/webhooks/${hook.body.data!.id}/deliveries`);
    expect((await log.json()).data.deliveries[0]).toMatchObject({ state: 'failed', last_status: 404 });
  });

  it('never posts to a private address the admin did not name', async () => {
    await server.close();
    await server.open({ env: {} });
    await addWebhook('Ana', {});
    const [task] = await anaRequest(['private']);
    await finish(task!.id, 'SUCCEEDED');
    await send();
    expect(received).toEqual([]);
    expect((await deliveries())[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await deliveries())[0]!.last_error).toMatch(/not a public address/);
  });
});

describe('with no browser anywhere', () => {
  it('a request a script makes through /v1 ends, and the webhook on loopback gets its signed message', async () => {
    await server.close();
    await server.open({
      env: { WEBHOOK_PRIVATE_ORIGINS: RECEIVER },
      options: { emulator: { timeScale: 0.02, log: () => {} } },
    });
    const hook = await addWebhook('Ana', {});
    const made = await server.postJsonAs('Ana', '/v1/image_generate', {
      prompt: 'A script at night',
      generate_count: 2,
    });
    expect(made.status).toBe(200);
    server.nodeApp.follower!.start();
    server.nodeApp.webhooks!.start();
    const deadline = Date.now() + 20_000;
    while (received.length === 0) {
      if (Date.now() > deadline) throw new Error('no message reached the webhook');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [message] = received;
    expect(
      verify(
        hook.body.data!.secret,
        message!.headers.get(SIGNATURE_HEADER),
        message!.headers.get(TIMESTAMP_HEADER),
        message!.body,
      ),
    ).toBe(true);
    expect(JSON.parse(message!.body)).toMatchObject({
      event: 'request.finished',
      request: { title: 'A script at night', creator: 'Ana' },
    });
  });
});

describe('/__console/webhooks', () => {
  it('takes a name of exactly the limit, refuses one longer, a non-http URL and a bad event', async () => {
    expect((await addWebhook('Ana', { name: 'n'.repeat(WEBHOOK_NAME_MAX) })).status).toBe(200);
    expect((await addWebhook('Ana', { name: 'n'.repeat(WEBHOOK_NAME_MAX + 1) })).status).toBe(400);
    expect((await addWebhook('Ana', { url: 'ftp://example.com/x' })).status).toBe(400);
    expect((await addWebhook('Ana', { events: ['started'] })).status).toBe(400);
    expect((await addWebhook('Ana', { events: [] })).status).toBe(400);
  });

  it(`keeps ${WEBHOOKS_PER_PERSON} per person, refuses one more, and a body one byte over its limit`, async () => {
    for (let n = 0; n < WEBHOOKS_PER_PERSON; n++) expect((await addWebhook('Ana', {})).status).toBe(200);
    const more = await addWebhook('Ana', {});
    expect(more.status).toBe(409);
    expect((await addWebhook('Bo', {})).status).toBe(200);
    const padding = (size: number) => {
      const base = JSON.stringify({ name: 'Big', url: `${RECEIVER}/hook`, pad: '' });
      return JSON.stringify({ name: 'Big', url: `${RECEIVER}/hook`, pad: 'x'.repeat(size - base.length) });
    };
    const post = (body: string) =>
      server.requestAs('Cy', '/__console/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post(padding(WEBHOOK_BODY_MAX_BYTES))).status).toBe(200);
    expect((await post(padding(WEBHOOK_BODY_MAX_BYTES + 1))).status).toBe(413);
  });

  it("shows the secret once, lists only one's own (admins also the team's), and lets only the owner or an admin remove", async () => {
    const made = await addWebhook('Ana', {});
    expect(made.body.data!.secret).toMatch(/^whsec_/);
    const list = await (await server.requestAs('Ana', '/__console/webhooks')).json();
    expect(list.data.webhooks).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(made.body.data!.secret);
    expect((await (await server.requestAs('Bo', '/__console/webhooks')).json()).data.webhooks).toEqual([]);
    expect((await addWebhook('Bo', { scope: 'team' })).status).toBe(403);
    const id = made.body.data!.id;
    expect((await server.requestAs('Bo', `/__console/webhooks/${id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await server.requestAs('Bo', `/__console/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await server.requestAs('Ana', '/__console/webhooks', undefined, 'viewer')).status).toBe(403);
    expect(
      (
        await server.requestAs('Ana', `/__console/webhooks/${id}`, {
          method: 'DELETE',
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await server.requestAs('Root', `/__console/webhooks/${id}`, { method: 'DELETE' }, 'admin')).status,
    ).toBe(200);
    const audit = await db().selectFrom('audit_log').select(['action', 'target']).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'webhook.create', target: id },
      { action: 'webhook.delete', target: id },
    ]);
  });
});

describe('/__console/webhooks at its edges', () => {
  it(`keeps ${WEBHOOKS_PER_TEAM} for the team and refuses one more, naming the limit`, async () => {
    for (let n = 0; n < WEBHOOKS_PER_TEAM; n++)
      expect((await addWebhook('Root', { scope: 'team' }, 'admin')).status).toBe(200);
    const more = await addWebhook('Root', { scope: 'team' }, 'admin');
    expect(more).toMatchObject({ status: 409 });
    expect(more.body.msg).toBe(`The team has ${WEBHOOKS_PER_TEAM} webhooks already: remove one first`);
    // The team's do not count against the admin's own.
    expect((await addWebhook('Root', {}, 'admin')).status).toBe(200);
  });

  it('takes a URL of exactly the limit and refuses one longer, a blank name, and three events', async () => {
    const url = (length: number) =>
      `https://hooks.example/${'u'.repeat(length - 'https://hooks.example/'.length)}`;
    expect((await addWebhook('Ana', { url: url(WEBHOOK_URL_MAX) })).status).toBe(200);
    expect((await addWebhook('Ana', { url: url(WEBHOOK_URL_MAX + 1) })).status).toBe(400);
    expect((await addWebhook('Ana', { name: '   ' })).status).toBe(400);
    expect((await addWebhook('Ana', { events: ['failed', 'finished', 'failed'] })).status).toBe(400);
    const twice = await addWebhook('Ana', { name: '  Twice  ', events: ['failed', 'failed'] });
    const row = await db()
      .selectFrom('webhooks')
      .select(['name', 'events', 'scope', 'user_id'])
      .where('id', '=', twice.body.data!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Twice', events: ['failed'], scope: 'person', user_id: expect.any(String) });
  });

  it("an admin lists the team's and their own, not another person's; the log is the newest 50, newest first", async () => {
    const ana = await addWebhook('Ana', { name: 'Ana' });
    await addWebhook('Root', { name: 'Team', scope: 'team' }, 'admin');
    await addWebhook('Root', { name: 'Root' }, 'admin');
    const list = await (await server.requestAs('Root', '/__console/webhooks', undefined, 'admin')).json();
    expect(list.data.webhooks.map((hook: { name: string }) => hook.name)).toEqual(['Team', 'Root']);
    const id = ana.body.data!.id;
    await db()
      .insertInto('webhook_deliveries')
      .values(
        Array.from({ length: 51 }, (_, n) => ({ webhook_id: id, request_id: `req-${n}`, event: 'finished' })),
      )
      .execute();
    const log = await (
      await server.requestAs('Root', `/__console/webhooks/${id}/deliveries`, undefined, 'admin')
    ).json();
    expect(log.data.deliveries).toHaveLength(50);
    expect(log.data.deliveries[0].request_id).toBe('req-50');
    expect(log.data.deliveries[49].request_id).toBe('req-1');
    expect((await server.requestAs('Ana', '/__console/webhooks/wh-none', { method: 'DELETE' })).status).toBe(
      404,
    );
  });

  it('answers in words: made, listed, refused, removed; the audit log says what was made and removed', async () => {
    const made = await server.postJsonAs('Ana', '/__console/webhooks', {
      name: 'Mine',
      url: `${RECEIVER}/hook`,
      scope: 'person',
    });
    const madeBody = await made.json();
    expect(madeBody).toMatchObject({ code: 0, msg: 'ok' });
    const id = madeBody.data.id as string;
    expect(
      await db().selectFrom('webhooks').select('events').where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({
      events: ['finished', 'failed'],
    });
    expect(await (await server.requestAs('Ana', '/__console/webhooks')).json()).toMatchObject({
      code: 0,
      msg: 'ok',
    });
    expect(
      await (await server.requestAs('Ana', `/__console/webhooks/${id}/deliveries`)).json(),
    ).toMatchObject({
      code: 0,
      msg: 'ok',
    });
    expect((await addWebhook('Bo', { scope: 'team' })).body.msg).toBe(
      "Only admins can add the team's webhooks",
    );
    expect(
      (await (await server.requestAs('Bo', `/__console/webhooks/${id}`, { method: 'DELETE' })).json()).msg,
    ).toBe('No such webhook of yours');
    expect((await (await server.requestAs('Bo', `/__console/webhooks/${id}/deliveries`)).json()).msg).toBe(
      'No such webhook of yours',
    );
    for (let n = 1; n < WEBHOOKS_PER_PERSON; n++) await addWebhook('Ana', {});
    expect((await addWebhook('Ana', {})).body.msg).toBe(
      `You have ${WEBHOOKS_PER_PERSON} webhooks already: remove one first`,
    );
    const removed = await server.requestAs('Ana', `/__console/webhooks/${id}`, { method: 'DELETE' });
    expect(await removed.json()).toEqual({ code: 0, msg: 'ok', data: { id } });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target', '=', id)
      .orderBy('id')
      .execute();
    const detail = { scope: 'person', name: 'Mine', url: `${RECEIVER}/hook` };
    expect(audit).toEqual([
      { action: 'webhook.create', detail },
      { action: 'webhook.delete', detail },
    ]);
  });

  it("keeps the team's webhook to no one person, and refuses URLs of any other scheme", async () => {
    const team = await addWebhook('Root', { scope: 'team' }, 'admin');
    expect(
      await db()
        .selectFrom('webhooks')
        .select('user_id')
        .where('id', '=', team.body.data!.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ user_id: null });
    expect((await addWebhook('Ana', { url: 'xhttps://hooks.example/in' })).status).toBe(400);
    expect((await addWebhook('Ana', { url: 'httpsx://hooks.example/in' })).status).toBe(400);
  });
});

// The webhook sender on its own (PGlite, a fetch stub instead of the outbound guard): what it sends,
// which answers are retried and which are final, at the attempt limit and one before it, the
// default backoff to its 1 h cap, the claim's fence, and how it starts, wakes and closes.
// webhooks.test.ts runs it inside the Node app with a real receiver.
import { countingReads, oneTurn } from '../testing/counting-reads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database';
import { BlockedTargetError } from '../proxy/outbound';
import { resetTestDatabase } from '../testing/database';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verify } from './message';
import { createWebhookSender, type SenderOptions, type WebhookSender } from './sender';

let database: Database;
const senders: WebhookSender[] = [];
let posted: { url: string; init: RequestInit }[];
let answer: () => Response | Promise<Response>;

beforeEach(async () => {
  database = await resetTestDatabase();
  posted = [];
  answer = () => new Response('ok');
  await db()
    .insertInto('webhooks')
    .values({ id: 'wh-1', scope: 'team', name: 'Team', url: 'https://hooks.example/in', secret: 'whsec_t' })
    .execute();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  vi.restoreAllMocks();
});

const db = () => database.db;
const stubFetch = (async (url: string, init: RequestInit) => {
  posted.push({ url, init });
  return answer();
}) as typeof fetch;

function senderWith(options: Partial<SenderOptions> = {}): WebhookSender {
  const sender = createWebhookSender({
    database: Promise.resolve(database),
    fetch: stubFetch,
    log: () => {},
    ...options,
  });
  senders.push(sender);
  return sender;
}

/** A request that ended, with its tasks, and one delivery queued for it. */
async function ended(
  requestId = 'req/1',
  tasks: { status: string; result?: Record<string, unknown> }[] = [{ status: 'SUCCEEDED' }],
) {
  await db()
    .insertInto('requests')
    .values({ id: requestId, kind: 'image_generate', creator: 'Ana', title: 'Fox', task_ids: '[]' })
    .execute();
  for (const [n, task] of tasks.entries())
    await db()
      .insertInto('tasks')
      .values({
        id: `${requestId}-t${n}`,
        kind: 'image_generate',
        source: 'created',
        status: task.status,
        result: JSON.stringify(task.result ?? {}),
        request_id: requestId,
      })
      .execute();
  await queue(requestId);
}
const queue = (requestId: string) =>
  db()
    .insertInto('webhook_deliveries')
    .values({ webhook_id: 'wh-1', request_id: requestId, event: 'finished' })
    .execute();
const delivery = () => db().selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
/** Seconds until the delivery is due again, by the database's clock. */
async function dueIn() {
  const { rows } = await sql<{
    s: number;
  }>`select extract(epoch from due_at - now()) as s from webhook_deliveries`.execute(db());
  return Number(rows[0]!.s);
}
const dueNow = () =>
  db()
    .updateTable('webhook_deliveries')
    .set({ due_at: new Date(0) })
    .execute();

describe('what is sent', () => {
  it('one signed POST with its event, delivery id and a link to the request', async () => {
    await ended('req/1', [
      { status: 'SUCCEEDED' },
      { status: 'FAILED', result: { error_message: '' } },
      { status: 'FAILED', result: { error_message: 7 } },
    ]);
    await senderWith({ publicBaseUrl: 'https://console.example' }).drain();
    expect(posted).toHaveLength(1);
    const { url, init } = posted[0]!;
    expect(url).toBe('https://hooks.example/in');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    const { id } = await delivery();
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'media-console-webhooks',
      'x-media-console-event': 'request.finished',
      'x-media-console-delivery': String(id),
    });
    expect(
      verify('whsec_t', headers[SIGNATURE_HEADER]!, headers[TIMESTAMP_HEADER]!, init.body as string),
    ).toBe(true);
    const body = JSON.parse(init.body as string);
    expect(body.request.url).toBe('https://console.example/requests/req%2F1');
    // An error message is passed on only when it is words.
    expect(body.request.tasks).toEqual([
      { id: 'req/1-t0', status: 'SUCCEEDED' },
      { id: 'req/1-t1', status: 'FAILED' },
      { id: 'req/1-t2', status: 'FAILED' },
    ]);
    expect(await delivery()).toMatchObject({
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
    });
  });

  it('with no public address, no link', async () => {
    await ended('req-2', [{ status: 'FAILED', result: { error_message: 'policy' } }]);
    await senderWith().drain();
    const body = JSON.parse(posted[0]!.init.body as string);
    expect(body.request.url).toBeUndefined();
    expect(body.text).not.toContain('·');
    expect(body.request.tasks).toEqual([{ id: 'req-2-t0', status: 'FAILED', error_message: 'policy' }]);
  });
});

describe('what an answer does to the delivery', () => {
  it.each([
    [408, 'queued'],
    [429, 'queued'],
    [500, 'queued'],
    [399, 'queued'],
    [400, 'failed'],
    [499, 'failed'],
  ])('HTTP %i: %s', async (status, state) => {
    await ended();
    answer = () => new Response('no', { status });
    await senderWith().drain();
    expect(await delivery()).toMatchObject({ state, last_status: status, last_error: `HTTP ${status}` });
  });

  it('a request no longer in the record, or a refused address: given up, status 0, logged', async () => {
    await queue('req-gone');
    const log = vi.fn();
    await senderWith({ log }).drain();
    expect(await delivery()).toMatchObject({
      state: 'failed',
      last_status: 0,
      last_error: 'the request is no longer in the record',
    });
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/^\[webhooks\] delivery \d+ given up after 1 attempt\(s\): the request/),
    );
    await db().deleteFrom('webhook_deliveries').execute();
    await ended();
    answer = () => {
      throw new BlockedTargetError();
    };
    await senderWith().drain();
    expect(await delivery()).toMatchObject({ state: 'failed', last_status: 0 });
    expect((await delivery()).last_error).toMatch(/^refused: not a public address/);
  });

  it('no answer: retried, in its own words or as "no answer"', async () => {
    await ended();
    answer = () => {
      throw new Error('');
    };
    await senderWith().drain();
    expect(await delivery()).toMatchObject({ state: 'queued', last_status: null, last_error: 'no answer' });
  });

  it('an answer with no body is delivered; a retried one is not logged as given up', async () => {
    await ended();
    answer = () => new Response(null, { status: 204 });
    await senderWith().drain();
    expect(await delivery()).toMatchObject({ state: 'delivered', last_status: 204 });
    await db().deleteFrom('webhook_deliveries').execute();
    await queue('req/1');
    answer = () => new Response('busy', { status: 503 });
    const log = vi.fn();
    await senderWith({ log }).drain();
    expect(await delivery()).toMatchObject({ state: 'queued' });
    expect(log).not.toHaveBeenCalled();
  });

  it('a task whose result is JSON null is sent without its words', async () => {
    await ended('req-n', [{ status: 'SUCCEEDED' }]);
    await db().updateTable('tasks').set({ result: 'null' }).execute();
    await senderWith().drain();
    expect(await delivery()).toMatchObject({ state: 'delivered' });
  });

  it('drain() sends every due delivery, more than one claim holds', async () => {
    for (let n = 0; n < 5; n++) await ended(`req-${n}`);
    await senderWith().drain();
    expect(posted).toHaveLength(5);
  });

  it('gives up at the last attempt and not one before', async () => {
    await ended();
    answer = () => new Response('busy', { status: 503 });
    const sender = senderWith({ maxAttempts: 3, backoffMs: () => 60_000 });
    await sender.drain();
    await dueNow();
    await sender.drain();
    expect(await delivery()).toMatchObject({ state: 'queued', attempts: 2 });
    await dueNow();
    await sender.drain();
    expect(await delivery()).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('backs off 30 s, doubling, up to 1 h (the default)', async () => {
    await ended();
    answer = () => new Response('busy', { status: 503 });
    const sender = senderWith({ maxAttempts: 100 });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 9; attempt++) {
      await dueNow();
      await sender.drain();
      waits.push(Math.round(await dueIn()));
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  it('a send that outlived its lease writes nothing over the claim that took it again', async () => {
    await ended();
    let release!: () => void;
    answer = () =>
      new Promise<Response>((resolve) => {
        release = () => resolve(new Response('late'));
      });
    const sender = senderWith();
    const sending = sender.drain();
    await vi.waitFor(() => expect(release).toBeDefined());
    // Another claim took it meanwhile (its attempt 2).
    await db().updateTable('webhook_deliveries').set({ attempts: 2 }).execute();
    release();
    answer = () => new Response('ok');
    await sending;
    expect(await delivery()).toMatchObject({ state: 'sending', attempts: 2, last_status: null });
  });

  it('gives each send the time it is allowed, and holds the claim twice as long', async () => {
    await ended();
    let signal: AbortSignal | undefined;
    const fetchSpy = (async (url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      return stubFetch(url, init);
    }) as typeof fetch;
    let leaseS = 0;
    const sender = senderWith({ fetch: fetchSpy, timeoutMs: 40_000 });
    answer = async () => {
      leaseS = await dueIn();
      return new Response('ok');
    };
    await sender.drain();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(leaseS).toBeCloseTo(80, 0);
  });
});

describe('sending in the background', () => {
  it('start() sends what is due; wake() sends what came since at once, not after the poll interval', async () => {
    await ended('req-a');
    const sender = senderWith({ pollMs: 60_000 });
    sender.start();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    await vi.waitFor(async () => expect((await delivery()).state).toBe('delivered'));
    await ended('req-b');
    sender.wake();
    await vi.waitFor(() => expect(posted).toHaveLength(2), { timeout: 5_000 });
  });

  it('sends only between start() and close(): wake() does nothing before or after', async () => {
    const counted = countingReads(database.db);
    const sender = senderWith({ database: Promise.resolve(counted.database), pollMs: 60_000 });
    sender.wake();
    await oneTurn();
    expect(counted.reads()).toBe(0);
    sender.start();
    await vi.waitFor(() => expect(counted.reads()).toBeGreaterThanOrEqual(1));
    await sender.close();
    const before = counted.reads();
    sender.wake();
    await oneTurn();
    expect(counted.reads()).toBe(before);
  });

  it('a round that fails is logged while open', async () => {
    const broken = Promise.reject(new Error('database gone'));
    broken.catch(() => {});
    const log = vi.fn();
    senderWith({ database: broken, log }).start();
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('[webhooks] could not send: database gone'));
  });

  it('close() waits for the send in flight to be written', async () => {
    await ended();
    let release!: () => void;
    answer = () => new Promise<Response>((resolve) => (release = () => resolve(new Response('ok'))));
    const sender = senderWith();
    sender.start();
    await vi.waitFor(() => expect(release).toBeDefined());
    const closed = sender.close();
    release();
    await closed;
    expect(await delivery()).toMatchObject({ state: 'delivered' });
  });

  it('gives up on console.warn unless told otherwise', async () => {
    await queue('req-gone');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await senderWith({ log: undefined }).drain();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[webhooks\] delivery \d+ given up/));
  });
});

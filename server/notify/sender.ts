// Sends queued webhook deliveries: claims due rows with `for update skip locked` (instances share the
// queue and never send one twice at once), holds each under a lease, POSTs the signed message
// through the outbound guard, and writes the outcome fenced by the claim's attempt number. A
// failure (no answer, a 5xx, a 429) is retried with backoff: 30 s doubling, at most 1 h, 8 attempts;
// another 4xx is final. Every attempt's outcome is in the row, which is the delivery log.
import { sql } from 'kysely';
import type { Database, Db } from '../db/database';
import type { WebhookEvent } from '../db/schema';
import { BlockedTargetError } from '../proxy/outbound';
import { messageBody, sign, SIGNATURE_HEADER, TIMESTAMP_HEADER, type EndedRequest } from './message';

export interface SenderOptions {
  database: Promise<Database>;
  /** The outbound guard (server/proxy/outbound.ts), or a fetch that may reach WEBHOOK_PRIVATE_ORIGINS. */
  fetch: typeof fetch;
  /** This console's public address: messages link to the request's page. */
  publicBaseUrl?: string;
  maxAttempts?: number;
  backoffMs?: (attempts: number) => number;
  /** How long one send may take before it is given up and retried. */
  timeoutMs?: number;
  pollMs?: number;
  log?: (line: string) => void;
}

export interface WebhookSender {
  start(): void;
  wake(): void;
  /** Sends every due delivery until none is left (tests). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

interface Claimed {
  id: number;
  attempts: number;
  event: WebhookEvent;
  request_id: string;
  url: string;
  secret: string;
}

const defaultBackoff = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

async function claim(db: Db, limit: number, leaseMs: number): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`
    update webhook_deliveries d set state = 'sending', attempts = d.attempts + 1,
      due_at = now() + ${`${leaseMs} milliseconds`}::interval
    from webhooks w
    where w.id = d.webhook_id and d.id in (
      select id from webhook_deliveries where state in ('queued', 'sending') and due_at <= now()
      order by due_at limit ${limit} for update skip locked)
    returning d.id, d.attempts, d.event, d.request_id, w.url, w.secret`.execute(db);
  return rows;
}

async function endedRequest(db: Db, id: string): Promise<EndedRequest | undefined> {
  const request = await db
    .selectFrom('requests')
    .select(['id', 'kind', 'title', 'creator'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!request) return undefined;
  const tasks = await db
    .selectFrom('tasks')
    .select(['id', 'status', 'result'])
    .where('request_id', '=', id)
    .orderBy('id')
    .execute();
  return {
    ...request,
    tasks: tasks.map((task) => {
      const message = task.result?.error_message;
      return {
        id: task.id,
        status: task.status,
        ...(typeof message === 'string' && message && { error_message: message }),
      };
    }),
  };
}

/** What sending one delivery needs of the sender's options, defaults filled in. */
interface SendSettings {
  fetch: typeof fetch;
  publicBaseUrl?: string;
  maxAttempts: number;
  backoff: (attempts: number) => number;
  timeoutMs: number;
  log: (line: string) => void;
}

/** POSTs one delivery's signed message; throws a final error when its request left the record. */
async function postMessage(database: Db, row: Claimed, settings: SendSettings): Promise<Response> {
  const request = await endedRequest(database, row.request_id);
  if (!request) throw Object.assign(new Error('the request is no longer in the record'), { final: true });
  const link = settings.publicBaseUrl
    ? `${settings.publicBaseUrl}/requests/${encodeURIComponent(row.request_id)}`
    : undefined;
  const body = JSON.stringify(messageBody(row.event, request, link));
  const timestamp = Math.floor(Date.now() / 1000);
  return settings.fetch(row.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'media-console-webhooks',
      'x-media-console-event': `request.${row.event}`,
      'x-media-console-delivery': String(row.id),
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: sign(row.secret, timestamp, body),
    },
    body,
    signal: AbortSignal.timeout(settings.timeoutMs),
  });
}

/**
 * Sends one claimed delivery and writes its outcome, fenced by the claim's attempt number (a claim
 * that outlived its lease and was taken again writes nothing). Status 0 in the log marks a failure
 * that retrying cannot mend: a refused address, a request no longer in the record.
 */
async function send(database: Db, row: Claimed, settings: SendSettings): Promise<void> {
  const fenced = sql`id = ${row.id} and attempts = ${row.attempts} and state = 'sending'`;
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await postMessage(database, row, settings);
    status = response.status;
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) {
      await sql`update webhook_deliveries set state = 'delivered', delivered_at = now(), last_status = ${status},
        last_error = null where ${fenced}`.execute(database);
      return;
    }
    error = `HTTP ${status}`;
  } catch (caught) {
    error = (caught as Error).message || 'no answer';
    if (caught instanceof BlockedTargetError) {
      error = 'refused: not a public address (WEBHOOK_PRIVATE_ORIGINS names the team’s own)';
      status = 0;
    }
    if ((caught as { final?: boolean }).final) status = 0;
  }
  // A 4xx other than 408 and 429 will not change by itself: given up at once.
  const final =
    row.attempts >= settings.maxAttempts ||
    status === 0 ||
    (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429);
  if (final)
    settings.log(`[webhooks] delivery ${row.id} given up after ${row.attempts} attempt(s): ${error}`);
  await sql`update webhook_deliveries set state = ${final ? 'failed' : 'queued'}, last_status = ${status},
    last_error = ${error}, due_at = now() + ${`${settings.backoff(row.attempts)} milliseconds`}::interval
    where ${fenced}`.execute(database);
}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  const settings: SendSettings = {
    fetch: options.fetch,
    publicBaseUrl: options.publicBaseUrl,
    maxAttempts: options.maxAttempts ?? 8,
    backoff: options.backoffMs ?? defaultBackoff,
    timeoutMs: options.timeoutMs ?? 15_000,
    log: options.log ?? ((line: string) => console.warn(line)),
  };
  const { log } = settings;
  const pollMs = options.pollMs ?? 5_000;
  const leaseMs = settings.timeoutMs * 2;
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const db = async () => (await options.database).db;

  async function round(): Promise<number> {
    const database = await db();
    const rows = await claim(database, 4, leaseMs);
    await Promise.all(
      rows.map((row) => send(database, row, settings).catch((e: Error) => log(`[webhooks] ${e.message}`))),
    );
    return rows.length;
  }

  function schedule(delay: number) {
    if (!started || closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = (async () => {
        try {
          while (!closed && (await round()) > 0);
        } catch (error) {
          if (!closed) log(`[webhooks] could not send: ${(error as Error).message}`);
        }
      })().finally(() => {
        running = undefined;
        schedule(pollMs);
      });
    }, delay);
    // Stryker disable next-line OptionalChaining: Node's timers always have unref (the ?. is for other runtimes' typings)
    timer.unref?.();
  }

  return {
    start() {
      started = true;
      schedule(0);
    },
    wake() {
      if (!running) schedule(0);
    },
    async drain() {
      while ((await round()) > 0);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}

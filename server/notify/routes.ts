// `/__console/webhooks`: a person's own webhooks (told when their requests finish or fail) and, for
// admins, the team's (every request). The secret that signs the messages is shown once, when the
// webhook is made. Each webhook's deliveries are its log. Every change goes in the audit log.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import { z } from '../../src/api/zod';
import { roleAtLeast } from '../../src/api/roles';
import type { Database, Db } from '../db/database';
import { identityOf, type Identity } from '../identity/request-identity';
import type { IdentityStore } from '../identity/store';
import { NO_STORE } from '../http/no-store';
import { refusal } from '../http/refusal';
import { firstIssueAtPath, validJson } from '../http/valid-input';

/** A webhook's settings are a few hundred bytes (enforced by server/app/body-limits.ts). */
export const WEBHOOK_BODY_MAX_BYTES = 4 * 1024;
export const WEBHOOK_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2048;
/** Webhooks one person may have, and the team. */
export const WEBHOOKS_PER_PERSON = 5;
export const WEBHOOKS_PER_TEAM = 10;
const DELIVERIES_SHOWN = 50;

const webhookInput = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(WEBHOOK_NAME_MAX)),
  url: z.string().check(z.trim(), z.maxLength(WEBHOOK_URL_MAX), z.url({ protocol: /^https?$/ })),
  events: z.optional(z.array(z.enum(['finished', 'failed'])).check(z.minLength(1), z.maxLength(2))),
  scope: z.optional(z.enum(['person', 'team'])),
});

type WebhookInput = z.output<typeof webhookInput>;

/** The webhooks a person sees: their own, and for an admin also the team's. */
function visibleWebhooks(db: Db, who: Identity) {
  return db
    .selectFrom('webhooks')
    .select(['id', 'scope', 'name', 'url', 'events', 'created_at'])
    .where((eb) =>
      roleAtLeast(who.role, 'admin')
        ? eb.or([eb('scope', '=', 'team'), eb('user_id', '=', who.userId)])
        : eb.and([eb('scope', '=', 'person'), eb('user_id', '=', who.userId)]),
    )
    .orderBy('created_at')
    .execute();
}

/**
 * Makes a webhook with a new id and secret, unless its owner (the person, or the team) already has
 * the most they may keep: then `made` is false and nothing is written.
 */
async function insertWebhook(db: Db, who: Identity, { name, url, events, scope }: Required<WebhookInput>) {
  const id = `wh-${randomBytes(8).toString('hex')}`;
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const made = await db.transaction().execute(async (trx) => {
    // One writer per owner at a time, on every instance: the count below cannot be overtaken.
    await sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${scope === 'team' ? '' : who.userId}`}))`.execute(
      trx,
    );
    const count = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        scope === 'team'
          ? eb('scope', '=', 'team')
          : eb.and([eb('scope', '=', 'person'), eb('user_id', '=', who.userId)]),
      )
      .executeTakeFirstOrThrow();
    const max = scope === 'team' ? WEBHOOKS_PER_TEAM : WEBHOOKS_PER_PERSON;
    if (Number(count.n) >= max) return false;
    await trx
      .insertInto('webhooks')
      .values({
        id,
        scope,
        user_id: scope === 'person' ? who.userId : null,
        name,
        url,
        secret,
        events: JSON.stringify([...new Set(events)]),
        created_by: who.userId,
      })
      .execute();
    return true;
  });
  return { id, secret, made };
}

/** A webhook's latest deliveries, newest first: its log. */
function recentDeliveries(db: Db, webhookId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'request_id',
      'event',
      'state',
      'attempts',
      'last_status',
      'last_error',
      'created_at',
      'delivered_at',
      'due_at',
    ])
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(DELIVERIES_SHOWN)
    .execute();
}

export function createWebhookRoutes(database: Promise<Database>, identity: IdentityStore): Hono {
  const app = new Hono();

  app.get('/__console/webhooks', async (c) => {
    const who = identityOf(c)!;
    const { db } = await database;
    const rows = await visibleWebhooks(db, who);
    return c.json({ code: 0, msg: 'ok', data: { webhooks: rows } }, 200, NO_STORE);
  });

  app.post('/__console/webhooks', validJson(webhookInput, firstIssueAtPath), async (c) => {
    const who = identityOf(c)!;
    const { name, url, events = ['finished', 'failed'], scope = 'person' } = c.req.valid('json');
    if (scope === 'team' && !roleAtLeast(who.role, 'admin'))
      return refusal(c, 403, "Only admins can add the team's webhooks");
    const { db } = await database;
    const { id, secret, made } = await insertWebhook(db, who, { name, url, events, scope });
    if (!made)
      return refusal(
        c,
        409,
        scope === 'team'
          ? `The team has ${WEBHOOKS_PER_TEAM} webhooks already: remove one first`
          : `You have ${WEBHOOKS_PER_PERSON} webhooks already: remove one first`,
      );
    await identity.audit({ actor: who, action: 'webhook.create', target: id, detail: { scope, name, url } });
    return c.json({ code: 0, msg: 'ok', data: { id, secret } }, 200, NO_STORE);
  });

  /** The webhook if this person may see and change it: their own, or the team's for an admin. */
  async function owned(c: Context) {
    const who = identityOf(c)!;
    const { db } = await database;
    const row = await db
      .selectFrom('webhooks')
      .select(['id', 'scope', 'user_id', 'name', 'url'])
      .where('id', '=', c.req.param('id')!)
      .executeTakeFirst();
    if (!row) return undefined;
    const mine = row.scope === 'person' && row.user_id === who.userId;
    return mine || roleAtLeast(who.role, 'admin') ? row : undefined;
  }

  app.delete('/__console/webhooks/:id', async (c) => {
    const row = await owned(c);
    if (!row) return refusal(c, 404, 'No such webhook of yours');
    const { db } = await database;
    await db.deleteFrom('webhooks').where('id', '=', row.id).execute();
    await identity.audit({
      actor: identityOf(c),
      action: 'webhook.delete',
      target: row.id,
      detail: { scope: row.scope, name: row.name, url: row.url },
    });
    return c.json({ code: 0, msg: 'ok', data: { id: row.id } }, 200, NO_STORE);
  });

  app.get('/__console/webhooks/:id/deliveries', async (c) => {
    const row = await owned(c);
    if (!row) return refusal(c, 404, 'No such webhook of yours');
    const { db } = await database;
    const deliveries = await recentDeliveries(db, row.id);
    return c.json({ code: 0, msg: 'ok', data: { deliveries } }, 200, NO_STORE);
  });
  return app;
}

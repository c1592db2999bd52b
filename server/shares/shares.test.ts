// Share links: roles of create/list/revoke, the lifetime's bounds (exactly at them and one past),
// expiry on an injected clock, revocation, the visitor's page and media (only what was shared, the
// same 404 for unknown, revoked and expired), the guessing brake across instances, the count of
// openings and the audit log.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/api/roles';
import { SHARE_DAYS_MAX } from '../../src/api/shares';
import { accessRule } from '../identity/access';
import { createDiskStore } from '../results/disk-store';
import { keyFor, type ResultStore } from '../results/store';
import { testNodeApp } from '../testing/test-node-app';
import { SHARE_GUESSES_PER_MINUTE } from './guesses';
import { itemKey } from './items';
import { shareTokenHash } from './tokens';

const server = testNodeApp('shares-test');
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1, 12);
let clock = START;
let store: ResultStore;

const setup = () => ({ options: { resultStore: store, now: () => clock, anonymous: null } });

beforeEach(async () => {
  clock = START;
  store = await createDiskStore(server.dataDir);
  await server.open(setup());
});
afterEach(() => server.close());
afterAll(server.remove);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely, then asserted
type Any = any;

const send = async (method: string, path: string, body?: unknown, user = 'Ana', role: Role = 'creator') => {
  const response = await server.requestAs(
    user,
    path,
    body === undefined
      ? { method }
      : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    role,
  );
  return { status: response.status, body: (await response.json()) as Any };
};
/** A visitor: no identity at all. */
const visit = (path: string) => server.request(path);
const tokenOf = (url: string) => new URL(url).pathname.slice('/s/'.length);

/** A succeeded image task with its image kept in the store; `kept: false` leaves it unkept. */
async function seedTask(id: string, title: string, creator = 'Ana', kept = true) {
  const db = server.database.db;
  await db
    .insertInto('tasks')
    .values({ id, kind: 'image_generate', source: 'created', status: 'SUCCEEDED', prompt: title, creator })
    .execute();
  if (!kept) return;
  const bytes = Buffer.from(`png bytes of ${id}`);
  const key = keyFor(id, 'image', 0);
  await store.put(key, Readable.from([bytes]), 'image/png');
  await db
    .insertInto('result_copies')
    .values({
      task_id: id,
      role: 'image',
      source_url: `https://cdn.example.com/${id}.png`,
      state: 'kept',
      store_key: key,
      size: bytes.length,
      content_type: 'image/png',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      kept_at: new Date(START),
    })
    .execute();
}

/** A board holding `ids`, made by Ana. */
async function seedBoard(id: string, name: string, ids: string[]) {
  const db = server.database.db;
  await db
    .insertInto('boards')
    .values({ id, name, description: 'For the review', created_by_name: 'Ana' })
    .execute();
  if (ids.length)
    await db
      .insertInto('board_items')
      .values(ids.map((task_id, position) => ({ board_id: id, task_id, position })))
      .execute();
}

async function boardWithTwoResults() {
  await seedTask('t-sea', 'Calm sea at dawn', 'Ana');
  await seedTask('t-city', 'City lights at night', 'Bo');
  await seedTask('t-secret', 'Unreleased product shot', 'Ana');
  await seedBoard('b-picks', 'Team picks', ['t-sea', 't-city']);
}

const share = async (body: object, user = 'Ana', role: Role = 'creator') =>
  send('POST', '/__console/shares', body, user, role);

describe('making, listing and revoking share links', () => {
  it('lets creators and admins make one, never a viewer; the token is shown once and kept hashed', async () => {
    await boardWithTwoResults();
    const refused = await share({ board: 'b-picks' }, 'Vi', 'viewer');
    expect(refused.status).toBe(403);
    const made = await share({ board: 'b-picks' });
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(/^http:\/\/127\.0\.0\.1:5173\/s\/[A-Za-z0-9_-]{43}$/);
    expect(made.body.expiresAt).toBe(START + 7 * DAY);
    const token = tokenOf(made.body.url);
    const row = await server.database.db.selectFrom('shares').selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(shareTokenHash(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await share({ board: 'b-picks' }, 'Ad', 'admin')).status).toBe(201);
  });

  it('lives 1 to 90 whole days: exactly at each bound is made, one past is refused', async () => {
    await boardWithTwoResults();
    for (const days of [1, SHARE_DAYS_MAX]) {
      const made = await share({ board: 'b-picks', expiresInDays: days });
      expect(made.status, `${days}`).toBe(201);
      expect(made.body.expiresAt).toBe(START + days * DAY);
    }
    for (const days of [0, SHARE_DAYS_MAX + 1, 1.5, '7', null]) {
      const refused = await share({ board: 'b-picks', expiresInDays: days });
      expect(refused.status, `${days}`).toBe(400);
      expect(refused.body.field).toBe('expiresInDays');
    }
  });

  it('shares one board or one request that exists', async () => {
    await boardWithTwoResults();
    expect((await share({})).status).toBe(400);
    expect((await share({ board: 'b-picks', request: 'req-1' })).status).toBe(400);
    expect((await share({ board: 'b-none' })).status).toBe(404);
    expect((await share({ request: 'req-none' })).status).toBe(404);
    const bad = await server.requestAs('Ana', '/__console/shares', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
  });

  it("lists one's own live links; an admin sees every one; revoked and expired ones leave the list", async () => {
    await boardWithTwoResults();
    const ana = await share({ board: 'b-picks' }, 'Ana');
    const bo = await share({ board: 'b-picks', expiresInDays: 1 }, 'Bo');
    const ids = async (user: string, role: Role = 'creator', query = '') =>
      (await send('GET', `/__console/shares${query}`, undefined, user, role)).body.data.shares.map(
        (s: Any) => s.id,
      );
    expect(await ids('Ana')).toEqual([ana.body.id]);
    expect((await ids('Ad', 'admin')).sort()).toEqual([ana.body.id, bo.body.id].sort());
    expect(await ids('Ad', 'admin', '?board=b-other')).toEqual([]);
    expect((await send('GET', '/__console/shares', undefined, 'Vi', 'viewer')).status).toBe(403);
    clock = START + DAY;
    expect(await ids('Ad', 'admin')).toEqual([ana.body.id]);
  });

  it('is revoked by its maker or an admin, not by another creator; then it answers 404', async () => {
    await boardWithTwoResults();
    const made = await share({ board: 'b-picks' }, 'Ana');
    const token = tokenOf(made.body.url);
    expect((await send('DELETE', `/__console/shares/${made.body.id}`, undefined, 'Bo')).status).toBe(403);
    expect((await visit(`/s/${token}`)).status).toBe(200);
    expect((await send('DELETE', `/__console/shares/${made.body.id}`, undefined, 'Ana')).status).toBe(200);
    expect((await visit(`/s/${token}`)).status).toBe(404);
    expect((await send('DELETE', `/__console/shares/${made.body.id}`, undefined, 'Ana')).status).toBe(404);
    const other = await share({ board: 'b-picks' }, 'Bo');
    expect(
      (await send('DELETE', `/__console/shares/${other.body.id}`, undefined, 'Ad', 'admin')).status,
    ).toBe(200);
    expect((await visit(`/s/${tokenOf(other.body.url)}`)).status).toBe(404);
  });

  it('writes making and revoking to the audit log, with who did it', async () => {
    await boardWithTwoResults();
    const made = await share({ board: 'b-picks', expiresInDays: 3 }, 'Ana');
    await send('DELETE', `/__console/shares/${made.body.id}`, undefined, 'Ad', 'admin');
    const rows = await server.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'target', 'detail'])
      .where('action', 'like', 'share.%')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        action: 'share.create',
        actor_name: 'Ana',
        target: made.body.id,
        detail: { board: 'b-picks', title: 'Team picks', expiresInDays: 3 },
      },
      {
        action: 'share.revoke',
        actor_name: 'Ad',
        target: made.body.id,
        detail: { board: 'b-picks', request: null, title: 'Team picks' },
      },
    ]);
  });
});

describe('a visitor with no account', () => {
  it('sees exactly the shared results, who made them, unindexed and without a referrer; nothing else answers', async () => {
    await boardWithTwoResults();
    const token = tokenOf((await share({ board: 'b-picks' })).body.url);
    const page = await visit(`/s/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain('Team picks');
    expect(html).toContain('Calm sea at dawn');
    expect(html).toContain('by Bo');
    expect(html).not.toContain('Unreleased product shot');
    expect(html).not.toContain('t-sea');
    for (const path of ['/__console/tasks', '/__console/boards/b-picks', '/__console/shares', '/v1/tasks'])
      expect((await visit(path)).status, path).toBe(401);
    expect((await visit(`/s/${token}/other`)).status).toBe(401);
  });

  it('shows names, titles and descriptions as text, never as markup', async () => {
    const hostile = `<script>alert("x")</script>' onerror='alert(1)`;
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onerror=&#39;alert(1)';
    await seedTask('t-sea', hostile, hostile);
    await seedBoard('b-picks', hostile, ['t-sea']);
    await server.database.db.updateTable('boards').set({ description: hostile }).execute();
    const html = await (await visit(`/s/${tokenOf((await share({ board: 'b-picks' })).body.url)}`)).text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain(`'alert(1)`);
    expect(html).toContain(`<title>${escaped} · Media Console</title>`);
    expect(html).toContain(`<h1>${escaped}</h1>`);
    expect(html).toContain(`<p class="description">${escaped}</p>`);
    expect(html).toContain(`alt="${escaped}"`);
    expect(html).toContain(`<p class="title">${escaped}</p>`);
    expect(html).toContain(`by ${escaped}`);
  });

  it("loads a shared result's kept file, and 404 for a result not in the share", async () => {
    await boardWithTwoResults();
    await seedTask('t-unkept', 'Not kept yet', 'Ana', false);
    await server.database.db
      .insertInto('board_items')
      .values({ board_id: 'b-picks', task_id: 't-unkept', position: 9 })
      .execute();
    const made = await share({ board: 'b-picks' });
    const token = tokenOf(made.body.url);
    const media = (task: string, role = 'image') =>
      visit(`/s/${token}/media/${itemKey(made.body.id, task)}/${role}`);
    const file = await media('t-sea');
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('png bytes of t-sea');
    expect(file.headers.get('referrer-policy')).toBe('no-referrer');
    expect(file.headers.get('cache-control')).toBe('private, no-cache');
    expect((await media('t-secret')).status).toBe(404);
    expect((await media('t-unkept')).status).toBe(404);
    expect((await media('t-sea', 'video')).status).toBe(404);
    expect((await media('t-sea', 'caption')).status).toBe(404);
    // The key of the same task under another link is not this link's.
    const other = await share({ board: 'b-picks' });
    expect((await visit(`/s/${token}/media/${itemKey(other.body.id, 't-sea')}/image`)).status).toBe(404);
    expect(await (await visit(`/s/${token}`)).text()).not.toContain('Not kept yet');
  });

  it('answers 404 once the shared board is deleted', async () => {
    await boardWithTwoResults();
    const token = tokenOf((await share({ board: 'b-picks' })).body.url);
    expect((await send('DELETE', '/__console/boards/b-picks', undefined, 'Ad', 'admin')).status).toBe(200);
    expect((await visit(`/s/${token}`)).status).toBe(404);
  });

  it("shares a request's results too", async () => {
    await seedTask('t-a', 'Desert at noon');
    await seedTask('t-b', 'Desert at noon');
    await seedTask('t-c', 'Another request');
    await server.database.db
      .insertInto('requests')
      .values({
        id: 'req-t-a',
        kind: 'image_generate',
        title: 'Desert at noon',
        task_ids: JSON.stringify(['t-a', 't-b']),
      })
      .execute();
    const made = await share({ request: 'req-t-a' });
    const html = await (await visit(`/s/${tokenOf(made.body.url)}`)).text();
    expect(html).toContain('Request · 2 results');
    expect(html).not.toContain('Another request');
  });

  it('expires exactly at its end: a moment before it opens, at it the answer is 404', async () => {
    await boardWithTwoResults();
    const token = tokenOf((await share({ board: 'b-picks', expiresInDays: 1 })).body.url);
    clock = START + DAY - 1;
    expect((await visit(`/s/${token}`)).status).toBe(200);
    clock = START + DAY;
    const gone = await visit(`/s/${token}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('This link is not available');
  });

  it('counts each opening of the page, not its files', async () => {
    await boardWithTwoResults();
    const made = await share({ board: 'b-picks' });
    const token = tokenOf(made.body.url);
    await visit(`/s/${token}`);
    await visit(`/s/${token}`);
    await visit(`/s/${token}/media/${itemKey(made.body.id, 't-sea')}/image`);
    const [listed] = (await send('GET', '/__console/shares')).body.data.shares;
    expect(listed.openedCount).toBe(2);
    expect(listed.lastOpenedAt).toBe(START);
  });

  it('slows a client that guesses: the same 404 for each wrong token up to the limit, then 429 on every instance', async () => {
    await boardWithTwoResults();
    const token = tokenOf((await share({ board: 'b-picks' })).body.url);
    const other = await server.make(setup());
    try {
      for (let n = 0; n < SHARE_GUESSES_PER_MINUTE; n++) {
        // One character off the real token: never the token itself.
        const guess = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        const answer = await (n % 2 ? other.app : server.nodeApp.app).request(`/s/${guess}`);
        expect(answer.status, `guess ${n + 1}`).toBe(404);
      }
      const slowed = await other.app.request(`/s/${token}`);
      expect(slowed.status).toBe(429);
      expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await visit(`/s/${token}`)).status).toBe(429);
      clock = START + 60_000;
      expect((await visit(`/s/${token}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('one fewer guess than the limit is not slowed', async () => {
    await boardWithTwoResults();
    const token = tokenOf((await share({ board: 'b-picks' })).body.url);
    for (let n = 0; n < SHARE_GUESSES_PER_MINUTE - 1; n++) expect((await visit(`/s/x${n}`)).status).toBe(404);
    expect((await visit(`/s/${token}`)).status).toBe(200);
  });

  it('are the only public paths under /s/', () => {
    expect(accessRule('GET', '/s/abc').need).toBe('public');
    expect(accessRule('GET', '/s/abc/media/k/image').need).toBe('public');
    expect(accessRule('GET', '/s/-/share.js').need).toBe('public');
    expect(accessRule('POST', '/s/abc').need).not.toBe('public');
    expect(accessRule('GET', '/s/abc/media/k').need).not.toBe('public');
    expect(accessRule('GET', '/s/a/b').need).not.toBe('public');
  });
});

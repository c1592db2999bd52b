// What a visitor with no account reaches: `/s/<token>` (the page), `/s/<token>/media/<key>/<role>`
// (a shared result's kept file) and the page's own stylesheet and script under /s/-/. Public in
// server/identity/access.ts; everything else stays behind the sign-in. An unknown, revoked or
// expired token gets the same 404; each wrong token counts against the client (./guesses.ts), and
// past the brake every request under /s/ answers 429 for the rest of the minute. Each opening of
// the page is counted on the link's row. Every answer is kept out of search engines and sends no
// referrer, so the token in the address does not travel on.
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { clientKey } from '../http/client-address';
import type { TrustedProxies } from '../http/trusted-proxies';
import { keptRow } from '../results/kept-rows';
import { serveKept } from '../results/serve';
import type { ResultStore } from '../results/store';
import { createShareGuesses } from './guesses';
import { liveShareOf, sharedItems, sharedTaskOfKey, SHARED_ROLES, type ShareRow } from './items';
import { renderShareGone, renderSharePage, renderShareSlowed } from './page';
import { SHARE_ASSETS_PATH, SHARE_CSS, SHARE_JS } from './page-assets';
import { SHARE_TOKEN_PATTERN } from './tokens';
import { NO_STORE } from '../http/no-store';

/** On every answer under /s/. */
export const SHARE_PAGE_HEADERS = {
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
} as const;
const PAGE_NO_STORE = { ...SHARE_PAGE_HEADERS, ...NO_STORE };

export interface VisitorOptions {
  now?: () => number;
  trustedProxies?: TrustedProxies;
}

export function createShareVisitorRoutes(
  database: Promise<Database>,
  store: Promise<ResultStore>,
  options: VisitorOptions = {},
): Hono {
  const app = new Hono();
  const now = options.now ?? Date.now;
  const guesses = createShareGuesses(async () => (await database).db, now);
  const client = (c: Context) => clientKey(c, options.trustedProxies);

  app.get(`${SHARE_ASSETS_PATH}/share.css`, (c) =>
    c.body(SHARE_CSS, 200, {
      ...SHARE_PAGE_HEADERS,
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );
  app.get(`${SHARE_ASSETS_PATH}/share.js`, (c) =>
    c.body(SHARE_JS, 200, {
      ...SHARE_PAGE_HEADERS,
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );

  /** The live link of the path's token; otherwise the answer to send (429 braked, 404 gone). */
  const shareOf = async (c: Context, html: boolean): Promise<ShareRow | Response> => {
    const who = client(c);
    const wait = await guesses.wait(who);
    if (wait > 0)
      return html
        ? c.html(renderShareSlowed(wait), 429, { ...PAGE_NO_STORE, 'retry-after': String(wait) })
        : c.json({ code: 429, msg: 'Too many wrong links; try again later' }, 429, {
            ...PAGE_NO_STORE,
            'retry-after': String(wait),
          });
    const token = c.req.param('token') ?? '';
    const share = SHARE_TOKEN_PATTERN.test(token)
      ? await liveShareOf((await database).db, token, new Date(now()))
      : undefined;
    if (share) return share;
    await guesses.miss(who);
    return html
      ? c.html(renderShareGone(), 404, PAGE_NO_STORE)
      : c.json({ code: 404, msg: 'Not found' }, 404, PAGE_NO_STORE);
  };

  app.get('/s/:token', async (c) => {
    const share = await shareOf(c, true);
    if (share instanceof Response) return share;
    const { db } = await database;
    const [items, board] = await Promise.all([
      sharedItems(db, share),
      share.board_id
        ? db
            .selectFrom('boards')
            .select(['name', 'description'])
            .where('id', '=', share.board_id)
            .executeTakeFirst()
        : undefined,
    ]);
    // A board deleted since is gone for its links too (its items went with it).
    if (share.board_id && !board) return c.html(renderShareGone(), 404, PAGE_NO_STORE);
    await db
      .updateTable('shares')
      .set({ opened_count: sql`opened_count + 1`, last_opened_at: new Date(now()) })
      .where('id', '=', share.id)
      .execute();
    const page = renderSharePage({
      token: c.req.param('token'),
      what: share.board_id ? 'Board' : 'Request',
      title: board?.name ?? share.title,
      description: board?.description ?? null,
      sharedBy: share.created_by_name,
      expiresAt: share.expires_at,
      items,
    });
    return c.html(page, 200, PAGE_NO_STORE);
  });

  app.get('/s/:token/media/:key/:role', async (c) => {
    const share = await shareOf(c, false);
    if (share instanceof Response) return share;
    const role = c.req.param('role');
    if (!(SHARED_ROLES as readonly string[]).includes(role))
      return c.json({ code: 404, msg: 'Not found' }, 404, PAGE_NO_STORE);
    const { db } = await database;
    const taskId = await sharedTaskOfKey(db, share, c.req.param('key'));
    const row = taskId ? await keptRow(db, taskId, role, 0) : undefined;
    if (!row?.store_key) return c.json({ code: 404, msg: 'Not found' }, 404, PAGE_NO_STORE);
    const answer = await serveKept(c.req.raw, row, await store);
    for (const [name, value] of Object.entries(SHARE_PAGE_HEADERS)) answer.headers.set(name, value);
    // Asked again each time (a 304 when unchanged), so a revoked link stops showing even cached files.
    if (answer.status !== 302) answer.headers.set('cache-control', 'private, no-cache');
    return answer;
  });

  return app;
}

// `GET /__console/limits` (what applies to me, with what is used), `GET /__console/limits/all` and
// `PUT /__console/limits` (admins: every configured limit; replace one scope's), and the check on
// every creation under `/v1` (limitsGuard), which refuses one past a limit with HTTP 429.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { LIMIT_MAX, LIMIT_MEASURES, LIMIT_PERIODS, LIMIT_REFUSAL_CODE } from '../../src/api/limits';
import type { Database } from '../db/database';
import { jsonOfCopy } from '../http/json-copy';
import type { IdentityStore } from '../identity/store';
import { identityOf } from '../identity/roles';
import { ERROR_CODES } from '../../src/api/errors';
import { TARGET_LANGUAGES } from '../../src/api/schemas';
import {
  admit,
  allLimits,
  costOf,
  limitStatuses,
  setLimits,
  translationListProblem,
  type LimitInput,
  type LimitRow,
} from './limits';
import { NO_STORE } from '../http/no-store';

const CREATE_PATH = /^\/v1\/(image_generate|video_translate|image_to_video)\/?$/;
/** As the proxy's JSON limit (server/proxy/proxy.ts): the body is read here before the proxy does. */
const MAX_BODY_BYTES = 1024 * 1024;

interface LimitsOptions {
  /** The clock of the limits' days and months (tests move it). */
  now?: () => number;
}

interface GuardOptions extends LimitsOptions {
  /**
   * The target languages the service offers (its own list; TARGET_LANGUAGES when it cannot be
   * read): a translation asks for at most that many, none twice.
   */
  offeredLanguages?: () => Promise<readonly string[]>;
}

const fail = (c: Context, status: 400 | 403 | 404, msg: string) =>
  c.json({ code: status, msg }, status, NO_STORE);

const view = (row: LimitRow) => ({ measure: row.measure, period: row.period, max: row.max_amount });

/** The body of a PUT: `{scope: 'team'|'person', userId?, limits: [{measure, period, max|null}]}`. */
function parseBody(
  body: unknown,
): { scope: 'team' | 'person'; userId: string; limits: LimitInput[] } | string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (b.scope !== 'team' && b.scope !== 'person') return 'scope must be team or person';
  const userId = typeof b.userId === 'string' ? b.userId : '';
  if (b.scope === 'person' && (!userId || userId.length > 200))
    return 'userId names the person the limits are for';
  if (!Array.isArray(b.limits)) return 'limits must be a list of {measure, period, max}';
  const seen = new Set<string>();
  const limits: LimitInput[] = [];
  for (const item of b.limits as Record<string, unknown>[]) {
    const { measure, period, max } = item ?? {};
    if (!LIMIT_MEASURES.includes(measure as never)) return 'measure must be tasks, images or video_minutes';
    if (!LIMIT_PERIODS.includes(period as never)) return 'period must be day or month';
    // Number.isInteger is false for anything that is not a number: no typeof check is needed.
    const whole = Number.isInteger(max) ? (max as number) : -1;
    if (max !== null && !(whole >= 0 && whole <= LIMIT_MAX))
      return `max must be a whole number from 0 to ${LIMIT_MAX}, or null for no limit`;
    const key = `${String(measure)}:${String(period)}`;
    if (seen.has(key)) return `${key} is given twice`;
    seen.add(key);
    limits.push({
      measure: measure as LimitInput['measure'],
      period: period as LimitInput['period'],
      max: max as number | null,
    });
  }
  return { scope: b.scope, userId: b.scope === 'team' ? '' : userId, limits };
}

export function createLimitsRoutes(
  database: Promise<Database>,
  identity: IdentityStore,
  options: LimitsOptions = {},
): Hono {
  const now = options.now ?? Date.now;
  const app = new Hono();

  app.get('/__console/limits', async (c) => {
    const who = identityOf(c);
    if (!who) return fail(c, 403, 'Sign in to the console first');
    const { db } = await database;
    return c.json({ limits: await limitStatuses(db, who.userId, now()) }, 200, NO_STORE);
  });

  app.get('/__console/limits/all', async (c) => {
    const { db } = await database;
    const rows = await allLimits(db);
    const team = rows.filter((row) => row.scope === 'team').map(view);
    const people: Record<string, ReturnType<typeof view>[]> = {};
    for (const row of rows.filter((r) => r.scope === 'person')) (people[row.user_id] ??= []).push(view(row));
    return c.json({ team, people }, 200, NO_STORE);
  });

  app.put('/__console/limits', async (c) => {
    // From another site: refused before here (server/http/same-site.ts); the body is bounded there too.
    const parsed = parseBody(await c.req.json().catch(() => undefined));
    if (typeof parsed === 'string') return fail(c, 400, parsed);
    let target: string | null = 'team';
    if (parsed.scope === 'person') {
      const person = await identity.findPerson(parsed.userId);
      if (!person || person.removed) return fail(c, 404, 'No such person');
      target = person.name;
    }
    const actor = identityOf(c);
    const { db } = await database;
    const { before, after } = await setLimits(
      db,
      parsed.scope,
      parsed.userId,
      parsed.limits,
      actor?.userId ?? null,
    );
    await identity.audit({
      actor,
      action: 'limits.change',
      target,
      detail: {
        scope: parsed.scope,
        ...(parsed.userId && { userId: parsed.userId }),
        from: before.map(view),
        to: after.map(view),
      },
    });
    return c.json({ limits: after.map(view) }, 200, NO_STORE);
  });

  return app;
}

/**
 * Before the proxy or the emulator (and before the recorder, which records inside it): a creation
 * past a limit of its creator or of the team is answered 429 in the service's envelope, with the
 * limit's figures; one that fits holds its amounts until its tasks are recorded.
 */
export function limitsGuard(database: Promise<Database>, options: GuardOptions = {}): MiddlewareHandler {
  const now = options.now ?? Date.now;
  const tooLarge = (c: Context) => c.json({ code: 413, msg: 'The request body is too large' }, 413);
  const readLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  return async (c, next) => {
    const create = c.req.method === 'POST' ? CREATE_PATH.exec(c.req.path) : null;
    const who = identityOf(c);
    if (!create || !who) return next();
    let refused: Response | undefined;
    const answer = await readLimit(c, async () => {
      const body = await jsonOfCopy(c);
      if (create[1] === 'video_translate') {
        const offered = (await options.offeredLanguages?.().catch(() => undefined)) ?? TARGET_LANGUAGES;
        const problem = translationListProblem(body, offered);
        if (problem) {
          refused = c.json({ code: ERROR_CODES.validation, msg: problem }, 400, NO_STORE);
          return;
        }
      }
      const { db } = await database;
      const admission = await admit(db, who.userId, costOf(create[1]!, body), now());
      if (!admission.ok) {
        const { refusal } = admission;
        const retry = Math.max(1, Math.ceil((Date.parse(refusal.resetsAt) - now()) / 1000));
        refused = c.json({ code: LIMIT_REFUSAL_CODE, msg: refusal.message, limit: refusal }, 429, {
          ...NO_STORE,
          'retry-after': String(retry),
        });
        return;
      }
      try {
        await next();
      } finally {
        await admission.release().catch((error: Error) => console.error(`[limits] ${error.message}`));
      }
    });
    return refused ?? answer;
  };
}

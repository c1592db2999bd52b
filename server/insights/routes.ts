// `GET /__console/insights` (JSON) and `GET /__console/insights.csv`: the Insights screen's figures
// for a period, optionally one kind and one person. Behind the sign-in like the rest of /__console.
import { Hono, type Context } from 'hono';
import { TASK_TYPES } from '../../src/api/schemas';
import type { Database } from '../db/database';
import { databaseInputErrors, unstorableText } from '../http/request-text';
import { computeInsights, CSV_COLUMNS, csvField, insightsCsvRows, type InsightsFilter } from './insights';
import { NO_STORE } from '../http/no-store';

const DAY_MS = 24 * 3600_000;
/** The longest period one request may cover. */
const MAX_PERIOD_DAYS = 366;
const DEFAULT_PERIOD_MS = 7 * DAY_MS;

type Parsed = { filter: InsightsFilter } | { error: string };

/** A date as ISO 8601 (`2026-01-31`, `2026-01-31T12:00:00Z`) or epoch milliseconds. */
function parseInstant(value: string): Date | undefined {
  const trimmed = value.trim();
  if (/^\d{1,15}$/.test(trimmed)) return new Date(Number(trimmed));
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) return undefined;
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The query's period and filters, or the message of a 400. `now` is injectable for tests. */
export function parseInsightsQuery(query: Record<string, string>, now = Date.now()): Parsed {
  const known = new Set(['from', 'to', 'kind', 'creator']);
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length) return { error: `unknown parameter ${unknown[0]}: use from, to, kind and creator` };
  for (const [name, value] of Object.entries(query)) {
    const why = unstorableText(value);
    if (why) return { error: `${name} ${why}` };
  }
  let to = new Date(now);
  if (query.to !== undefined && query.to !== '') {
    const parsed = parseInstant(query.to);
    if (!parsed)
      return { error: 'to must be a date (2026-01-31 or 2026-01-31T12:00:00Z) or epoch milliseconds' };
    to = parsed;
  }
  let from = new Date(to.getTime() - DEFAULT_PERIOD_MS);
  if (query.from !== undefined && query.from !== '') {
    const parsed = parseInstant(query.from);
    if (!parsed)
      return { error: 'from must be a date (2026-01-31 or 2026-01-31T12:00:00Z) or epoch milliseconds' };
    from = parsed;
  }
  if (
    [from, to].some(
      (date) => Number.isNaN(date.getTime()) || date.getUTCFullYear() < 2000 || date.getUTCFullYear() > 9999,
    )
  )
    return { error: 'the period must lie between the years 2000 and 9999' };
  if (from.getTime() >= to.getTime()) return { error: 'from must be before to' };
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS)
    return { error: `the period may be at most ${MAX_PERIOD_DAYS} days` };
  const kind = query.kind || undefined;
  if (kind && !(TASK_TYPES as readonly string[]).includes(kind))
    return { error: `kind must be one of ${TASK_TYPES.join(', ')}` };
  const creator = query.creator?.trim() || undefined;
  if (creator && creator.length > 80) return { error: 'creator may be at most 80 characters' };
  return { filter: { from, to, kind, creator } };
}

function badRequest(c: Context, message: string) {
  return c.json({ code: 400, msg: message }, 400, NO_STORE);
}

export function createInsightsRoutes(database: Promise<Database>): Hono {
  const app = new Hono();
  app.onError(databaseInputErrors('insights'));

  app.get('/__console/insights', async (c) => {
    const parsed = parseInsightsQuery(c.req.query());
    if ('error' in parsed) return badRequest(c, parsed.error);
    const { db } = await database;
    const data = await computeInsights(db, parsed.filter);
    return c.json({ code: 0, msg: 'ok', data }, 200, NO_STORE);
  });

  app.get('/__console/insights.csv', async (c) => {
    const parsed = parseInsightsQuery(c.req.query());
    if ('error' in parsed) return badRequest(c, parsed.error);
    const { db } = await database;
    const rows = await insightsCsvRows(db, parsed.filter);
    const lines = [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(csvField).join(','))];
    const day = (date: Date) => date.toISOString().slice(0, 10);
    return c.body(`${lines.join('\r\n')}\r\n`, 200, {
      ...NO_STORE,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="insights-${day(parsed.filter.from)}-to-${day(parsed.filter.to)}.csv"`,
    });
  });

  return app;
}

// Insights on PGlite: every figure of GET /__console/insights and every row of the CSV equal the ones
// computed here from a known seeded history; bad query parameters are a 400 with a message.
import { beforeAll, describe, expect, it } from 'vitest';
import { resetTestDatabase } from '../testing/database';
import { createInsightsRoutes, parseInsightsQuery } from './routes';
import { expectedCsvRows, expectedInsights } from './insights-expected';
import { HISTORY_END, insertHistory, seededHistory } from './seeded-history';
import { csvField, type Insights, type InsightsFilter } from './insights';

const history = seededHistory();
const database = resetTestDatabase();
const routes = createInsightsRoutes(database);

beforeAll(async () => {
  await insertHistory((await database).db, history);
});

const DAY = 24 * 3600_000;
const at = (ms: number) => new Date(ms);
const query = (filter: InsightsFilter) =>
  new URLSearchParams({
    from: filter.from.toISOString(),
    to: filter.to.toISOString(),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.creator ? { creator: filter.creator } : {}),
  }).toString();

async function insights(filter: InsightsFilter): Promise<Insights> {
  const response = await routes.request(`http://127.0.0.1/__console/insights?${query(filter)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Insights }).data;
}

// Groups whose order the database leaves to ties are compared as sets.
const byKey = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const FILTERS: [string, InsightsFilter][] = [
  ['ten days, everything', { from: at(HISTORY_END - 10 * DAY), to: at(HISTORY_END) }],
  ['the last 24 hours (hourly)', { from: at(HISTORY_END - DAY), to: at(HISTORY_END) }],
  ['seven days, one kind', { from: at(HISTORY_END - 7 * DAY), to: at(HISTORY_END), kind: 'image_to_video' }],
  ['ten days, one person', { from: at(HISTORY_END - 10 * DAY), to: at(HISTORY_END), creator: 'Chen Wei' }],
  ['a period with nothing in it', { from: at(HISTORY_END + DAY), to: at(HISTORY_END + 2 * DAY) }],
];

describe('insights from a known history (PGlite)', () => {
  it.each(FILTERS)('%s: every figure equals the one counted from the rows', async (_, filter) => {
    const expected = expectedInsights(history, filter);
    const got = await insights(filter);
    expect(got.period.bucket).toBe(filter.to.getTime() - filter.from.getTime() <= 3 * DAY ? 'hour' : 'day');
    expect(got.totals).toEqual(expected.totals);
    expect(got.overTime).toEqual(expected.overTime);
    expect(got.durations).toEqual(expected.durations);
    expect(byKey(got.failures)).toEqual(byKey(expected.failures));
    expect(byKey(got.people)).toEqual(byKey(expected.people));
    expect(got.busiestHours).toEqual(expected.busiestHours);
    expect(got.creators).toEqual(['Ana', 'Bo', 'Chen Wei']);
  });

  it('has something in every section for the whole history (the check is not vacuous)', async () => {
    const got = await insights(FILTERS[0]![1]);
    expect(got.totals.created).toBe(history.length);
    expect(got.totals.failed).toBeGreaterThan(10);
    expect(got.totals.running).toBeGreaterThan(5);
    expect(got.durations).toHaveLength(3);
    expect(got.failures.length).toBeGreaterThanOrEqual(3);
    expect(got.people.find((p) => p.creator === 'Ana')?.videoMinutes).toBeGreaterThan(0);
    expect(got.people.find((p) => p.creator === 'Bo')?.languages.length).toBeGreaterThan(0);
  });

  it.each(FILTERS)(
    '%s: the CSV has exactly the columns and rows counted from the rows',
    async (_, filter) => {
      const response = await routes.request(`http://127.0.0.1/__console/insights.csv?${query(filter)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="insights-.*\.csv"$/,
      );
      const lines = (await response.text()).split('\r\n');
      expect(lines.pop()).toBe('');
      expect(lines[0]).toBe('day,kind,creator,created,succeeded,failed,running,p50_seconds,p95_seconds');
      expect(lines.slice(1)).toEqual(expectedCsvRows(history, filter).map((row) => row.join(',')));
    },
  );
});

describe('bad query parameters', () => {
  it.each([
    ['from=yesterday', 'from must be a date'],
    ['to=2026-13-45', 'to must be a date'],
    ['from=2026-03-02&to=2026-03-01', 'from must be before to'],
    ['from=2020-01-01&to=2026-01-01', 'at most 366 days'],
    ['kind=sculpture', 'kind must be one of image_generate'],
    [`creator=${'x'.repeat(81)}`, 'creator may be at most 80 characters'],
    ['creator=a%00b', 'creator contains a NUL character'],
    ['limit=5', 'unknown parameter limit'],
    ['from=0', 'between the years 2000 and 9999'],
  ])('%s is a 400 saying why, on both routes', async (search, message) => {
    for (const path of ['/__console/insights', '/__console/insights.csv']) {
      const response = await routes.request(`http://127.0.0.1${path}?${search}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: number; msg: string };
      expect(body.code).toBe(400);
      expect(body.msg).toContain(message);
    }
  });

  it('the period defaults to the seven days before now', () => {
    const now = Date.UTC(2026, 0, 8);
    const parsed = parseInsightsQuery({}, now);
    expect(parsed).toEqual({ filter: { from: new Date(Date.UTC(2026, 0, 1)), to: new Date(now) } });
  });
});

describe('the bounds of a period', () => {
  const from = at(HISTORY_END - 400 * DAY);
  it('takes exactly 366 days and refuses one millisecond more', () => {
    expect(
      parseInsightsQuery({ from: from.toISOString(), to: at(from.getTime() + 366 * DAY).toISOString() }),
    ).toEqual({
      filter: { from, to: at(from.getTime() + 366 * DAY) },
    });
    expect(
      parseInsightsQuery({ from: from.toISOString(), to: at(from.getTime() + 366 * DAY + 1).toISOString() }),
    ).toEqual({
      error: 'the period may be at most 366 days',
    });
  });

  it('counts by the hour up to exactly 3 days, by the day one millisecond past', async () => {
    const start = HISTORY_END - 3 * DAY;
    expect((await insights({ from: at(start), to: at(HISTORY_END) })).period.bucket).toBe('hour');
    expect((await insights({ from: at(start - 1), to: at(HISTORY_END) })).period.bucket).toBe('day');
  });
});

describe('the instants of a period', () => {
  const TO = '2026-03-10T00:00:00Z';
  const fromOf = (from: string) => {
    const parsed = parseInsightsQuery({ from, to: TO });
    return 'filter' in parsed ? parsed.filter.from.toISOString() : parsed.error;
  };

  it.each([
    ['a day', '2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['a day with spaces round it', ' 2026-03-01 ', '2026-03-01T00:00:00.000Z'],
    // Without a zone it is the server's local time, as Date reads it.
    ['a time without a zone', '2026-03-01T12:00:00', new Date('2026-03-01T12:00:00').toISOString()],
    ['a time in UTC', '2026-03-01T12:00:00Z', '2026-03-01T12:00:00.000Z'],
    ['a time 2 hours east', '2026-03-01T12:00:00+02:00', '2026-03-01T10:00:00.000Z'],
    ['a time 2 hours west, no colon', '2026-03-01T12:00:00-0200', '2026-03-01T14:00:00.000Z'],
    ['epoch milliseconds (13 digits)', String(Date.UTC(2026, 2, 1)), '2026-03-01T00:00:00.000Z'],
    ['the first instant of 2000', '2000-01-01T00:00:00Z', '2000-01-01T00:00:00.000Z'],
  ])('takes %s', (_, from, iso) => {
    const to = from.startsWith('2000') ? '2000-06-01' : TO;
    const parsed = parseInsightsQuery({ from, to });
    expect('filter' in parsed && parsed.filter.from.toISOString()).toBe(iso);
  });

  it.each([
    ['words before the day', 'on 2026-03-01', 'from must be a date'],
    ['words after the day', '2026-03-01junk', 'from must be a date'],
    ['an hour of one digit in the zone', '2026-03-01T12:00:00+2:00', 'from must be a date'],
    ['16 digits', '1'.repeat(16), 'from must be a date'],
    ['the last instant of 1999', '1999-12-31T23:59:59.999Z', 'between the years 2000 and 9999'],
    ['the instant it ends', TO, 'from must be before to'],
  ])('refuses %s', (_, from, error) => {
    expect(fromOf(from)).toContain(error);
  });

  it('takes the year 9999 and refuses 10000', () => {
    expect(parseInsightsQuery({ from: '9999-12-30', to: '9999-12-31' })).toEqual({
      filter: { from: new Date('9999-12-30T00:00:00Z'), to: new Date('9999-12-31T00:00:00Z') },
    });
    const year10000 = String(Date.UTC(10000, 0, 1));
    expect(parseInsightsQuery({ from: '9999-12-31', to: year10000 })).toEqual({
      error: 'the period must lie between the years 2000 and 9999',
    });
  });

  it('reads an empty from or to as not given', () => {
    const now = Date.UTC(2026, 0, 8);
    expect(parseInsightsQuery({ from: '', to: '' }, now)).toEqual({
      filter: { from: new Date(Date.UTC(2026, 0, 1)), to: new Date(now) },
    });
  });

  it('names every kind, and takes a creator of 80 characters, trimmed', () => {
    expect(parseInsightsQuery({ kind: 'x' })).toEqual({
      error: 'kind must be one of image_generate, video_translate, image_to_video',
    });
    const name = 'y'.repeat(80);
    const parsed = parseInsightsQuery({ creator: ` ${name} ` });
    expect('filter' in parsed && parsed.filter.creator).toBe(name);
  });

  it('answers with code 0 and "ok", and names the CSV file by the days of the period', async () => {
    const search = 'from=2026-03-01T06:00:00Z&to=2026-03-10T00:00:00Z';
    const json = (await (await routes.request(`http://127.0.0.1/__console/insights?${search}`)).json()) as {
      code: number;
      msg: string;
    };
    expect([json.code, json.msg]).toEqual([0, 'ok']);
    const csv = await routes.request(`http://127.0.0.1/__console/insights.csv?${search}`);
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="insights-2026-03-01-to-2026-03-10.csv"',
    );
  });
});

describe('a CSV field (RFC 4180, and nothing a spreadsheet runs)', () => {
  it.each([
    ['plain', 'Ada Lovelace', 'Ada Lovelace'],
    ['a comma: quoted', 'Lovelace, Ada', '"Lovelace, Ada"'],
    ['a quote: quoted and doubled', 'the "best" one', '"the ""best"" one"'],
    ['a line feed: quoted', 'two\nlines', '"two\nlines"'],
    ['a carriage return inside: quoted', 'two\rlines', '"two\rlines"'],
    ['a leading "-": defused', '-2+3', "'-2+3"],
    ['a leading "=": defused', '=1+1', "'=1+1"],
    ['a leading "+": defused', '+1', "'+1"],
    ['a leading "@": defused', '@SUM(A1)', "'@SUM(A1)"],
    ['a leading tab: defused', '\tx', "'\tx"],
    ['a leading carriage return: defused and quoted', '\rx', `"'\rx"`],
    ['a "-" further on: left alone', 'a-b', 'a-b'],
    ['a formula with a quote: defused, then quoted', '=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ])('%s', (_, value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

// The rollup the insights read (migration 0012, `insights_rollup`): backfilled from the tasks a
// database already holds, kept exact as tasks are inserted, change status and are deleted, read
// together with the tasks of a period's partial first and last day; and a person is their user id
// (two people of one name are two rows, a renamed person one row under the current name).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/migrations';
import { resetTestDatabase } from '../testing/database';
import { rollBackTo } from '../testing/roll-back';
import { computeInsights, insightsCsvRows, type InsightsFilter } from './insights';
import { expectedCsvRows, expectedInsights } from './insights-expected';
import {
  changeEdgeTasks,
  EDGE_PERIODS,
  edgeTasks,
  HISTORY_END,
  insertHistory,
  seededHistory,
  type SeededTask,
} from './seeded-history';
import type { Db } from '../db/database';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const byKey = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The seeded history with some people signed in: two named Ana, and Bo since renamed. */
function historyWithIds(): SeededTask[] {
  return seededHistory().map((task, i) => {
    if (task.creator === 'Ana')
      return { ...task, creatorId: i % 16 < 8 ? 'u-ana-1' : 'u-ana-2', currentName: 'Ana' };
    if (task.creator === 'Bo') return { ...task, creatorId: 'u-bo', currentName: 'Bo Lee' };
    return task;
  });
}

async function addUsers(db: Db) {
  await sql`insert into users (id, source, subject, display_name, role) values
    ('u-ana-1', 'local', 'ana1', 'Ana', 'member'), ('u-ana-2', 'local', 'ana2', 'Ana', 'member'),
    ('u-bo', 'local', 'bo', 'Bo Lee', 'member')`.execute(db);
}

const FILTERS: InsightsFilter[] = [
  { from: new Date(HISTORY_END - 10 * DAY), to: new Date(HISTORY_END) },
  // Partial days at both ends: the rollup's whole days and the ends' tasks together.
  { from: new Date(HISTORY_END - 6 * DAY - 7 * HOUR - 1234), to: new Date(HISTORY_END - 17 * HOUR + 5678) },
  // Under three days, hourly, partial at both ends.
  { from: new Date(HISTORY_END - 2 * DAY - 5 * HOUR), to: new Date(HISTORY_END - 3 * HOUR) },
  // Inside one day.
  { from: new Date(HISTORY_END - DAY + 2 * HOUR), to: new Date(HISTORY_END - 9 * HOUR) },
  { from: new Date(HISTORY_END - 8 * DAY + HOUR), to: new Date(HISTORY_END), kind: 'image_to_video' },
  { from: new Date(HISTORY_END - 9 * DAY - HOUR), to: new Date(HISTORY_END - HOUR), creator: 'Ana' },
  { from: new Date(HISTORY_END - 10 * DAY), to: new Date(HISTORY_END), creator: 'Bo Lee' },
  { from: new Date(HISTORY_END - 10 * DAY), to: new Date(HISTORY_END), creator: 'Chen Wei' },
];

async function expectFigures(db: Db, history: SeededTask[]) {
  for (const filter of FILTERS) {
    const expected = expectedInsights(history, filter);
    const got = await computeInsights(db, filter);
    expect(got.totals).toEqual(expected.totals);
    expect(got.overTime).toEqual(expected.overTime);
    expect(got.durations).toEqual(expected.durations);
    expect(byKey(got.failures)).toEqual(byKey(expected.failures));
    expect(byKey(got.people)).toEqual(byKey(expected.people));
    expect(got.busiestHours).toEqual(expected.busiestHours);
    expect(await insightsCsvRows(db, filter)).toEqual(expectedCsvRows(history, filter));
  }
}

describe('the insights rollup', () => {
  it('groups people by user id: two people named Ana are two rows, Bo renamed is one row', async () => {
    const { db } = await resetTestDatabase();
    const history = historyWithIds();
    await addUsers(db);
    await insertHistory(db, history);
    const got = await computeInsights(db, FILTERS[0]!);
    const named = (name: string | null) => got.people.filter((p) => p.creator === name);
    expect(
      named('Ana')
        .map((p) => p.creatorId)
        .sort(),
    ).toEqual(['u-ana-1', 'u-ana-2']);
    expect(named('Bo Lee')).toHaveLength(1);
    expect(named('Bo')).toHaveLength(0);
    expect(named('Chen Wei')[0]?.creatorId).toBeNull();
    const csv = await insightsCsvRows(db, FILTERS[0]!);
    const anaRows = csv.filter((row) => row[2] === 'Ana');
    // Some day and kind has both Anas: two rows with the same day, kind and name.
    const keys = anaRows.map((row) => `${row[0]} ${row[1]}`);
    expect(new Set(keys).size).toBeLessThan(keys.length);
    expect(csv.some((row) => row[2] === 'Bo')).toBe(false);
    await expectFigures(db, history);
  });

  it('equals the figures counted from the rows, for periods of whole and partial days', async () => {
    const { db } = await resetTestDatabase();
    const history = seededHistory();
    await insertHistory(db, history);
    await expectFigures(db, history);
  });

  it('follows status changes, a change of person and deletions', async () => {
    const { db } = await resetTestDatabase();
    await addUsers(db);
    let history = historyWithIds();
    await insertHistory(db, history);
    // Every running task finishes: the even ones succeed, the odd ones fail.
    const running = history.filter((t) => t.phase === 'running');
    expect(running.length).toBeGreaterThan(5);
    for (const [i, task] of running.entries()) {
      const succeeded = i % 2 === 0;
      const finishedAt = task.createdAt + (30 + i * 41) * 1000;
      await sql`update tasks set status = ${succeeded ? 'SUCCEEDED' : 'FAILED'},
        finished_at = ${new Date(finishedAt).toISOString()}::timestamptz,
        result = ${JSON.stringify(succeeded ? { status: 'SUCCEEDED' } : { status: 'FAILED', error_message: 'Late failure' })}::jsonb
        where id = ${task.id}`.execute(db);
      history = history.map((t) =>
        t.id === task.id
          ? {
              ...t,
              phase: succeeded ? 'succeeded' : 'failed',
              status: succeeded ? 'SUCCEEDED' : 'FAILED',
              finishedAt,
              code: null,
              reason: succeeded ? null : 'Late failure',
            }
          : t,
      );
    }
    // Chen Wei's tasks are claimed by Bo's account; a tenth of the tasks are deleted in one statement.
    await sql`update tasks set creator_id = 'u-bo' where creator = 'Chen Wei'`.execute(db);
    history = history.map((t) =>
      t.creator === 'Chen Wei' ? { ...t, creatorId: 'u-bo', currentName: 'Bo Lee' } : t,
    );
    const gone = history.filter((_, i) => i % 10 === 3).map((t) => t.id);
    await sql`delete from tasks where id in (${sql.join(gone)})`.execute(db);
    history = history.filter((t) => !gone.includes(t.id));
    await expectFigures(db, history);
  });

  it('puts a task created exactly at midnight or at an hour in the period starting there, before and after it changes', async () => {
    const { db } = await resetTestDatabase();
    let history = [...seededHistory(), ...edgeTasks()];
    await insertHistory(db, history);
    const periods = EDGE_PERIODS;
    const expectPeriods = async () => {
      for (const filter of periods) {
        const expected = expectedInsights(history, filter);
        const got = await computeInsights(db, filter);
        expect(got.totals).toEqual(expected.totals);
        expect(got.overTime).toEqual(expected.overTime);
        expect(got.durations).toEqual(expected.durations);
        expect(byKey(got.failures)).toEqual(byKey(expected.failures));
        expect(byKey(got.people)).toEqual(byKey(expected.people));
        expect(got.busiestHours).toEqual(expected.busiestHours);
        expect(await insightsCsvRows(db, filter)).toEqual(expectedCsvRows(history, filter));
      }
    };
    await expectPeriods();
    history = await changeEdgeTasks(db, history);
    await expectPeriods();
    const { rows } = await sql<{ n: string }>`select sum(n) as n from insights_rollup_hourly`.execute(db);
    expect(Number(rows[0]!.n)).toBe(history.length);
  });

  it('is emptied with the tasks by a truncate', async () => {
    const { db } = await resetTestDatabase();
    await insertHistory(db, seededHistory());
    await sql`truncate tasks cascade`.execute(db);
    for (const table of [
      'insights_rollup',
      'insights_rollup_hourly',
      'insights_failures_daily',
      'insights_failures_hourly',
    ])
      expect(
        (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]!.n,
      ).toBe(0);
    const { totals, failures } = await computeInsights(db, FILTERS[1]!);
    expect(totals.created).toBe(0);
    expect(failures).toEqual([]);
  });

  it('is backfilled from the tasks a database already holds', async () => {
    const { db } = await resetTestDatabase();
    // Back to the schema before 0012, with tasks recorded then.
    await rollBackTo(db, '0012');
    await addUsers(db);
    const history = historyWithIds();
    await insertHistory(db, history);
    await migrate(db as never);
    expect(
      Number((await sql<{ n: string }>`select sum(n) as n from insights_rollup`.execute(db)).rows[0]!.n),
    ).toBe(history.length);
    const hourly = await sql<{ n: string }>`select sum(n) as n from insights_rollup_hourly`.execute(db);
    expect(Number(hourly.rows[0]!.n)).toBe(history.length);
    const failed = await sql<{ n: string }>`select sum(n) as n from insights_failures_daily`.execute(db);
    expect(Number(failed.rows[0]!.n)).toBe(history.filter((t) => t.phase === 'failed').length);
    const failedHourly = await sql<{ n: string }>`select sum(n) as n from insights_failures_hourly`.execute(
      db,
    );
    expect(Number(failedHourly.rows[0]!.n)).toBe(history.filter((t) => t.phase === 'failed').length);
    await expectFigures(db, history);
  });
});

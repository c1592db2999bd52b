// The same figures on a real PostgreSQL server as on PGlite (./insights.test.ts): every section of
// the JSON and every CSV row equal the ones counted from the known seeded history.
import { describe, expect, it } from 'vitest';
import { usePostgresInstances } from '../testing/postgres-instances';
import { computeInsights, insightsCsvRows, type InsightsFilter } from './insights';
import { expectedCsvRows, expectedInsights } from './insights-expected';
import {
  changeEdgeTasks,
  EDGE_PERIODS,
  edgeTasks,
  HISTORY_END,
  insertHistory,
  seededHistory,
} from './seeded-history';

const { freshDatabase, instance } = usePostgresInstances('insights-pg-secret-0123456789');
const DAY = 24 * 3600_000;
const byKey = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('insights on PostgreSQL', () => {
  it('equal the figures counted from a known history, at the edges and after a change', async () => {
    const app = instance(freshDatabase());
    try {
      const { db } = await app.database;
      let history = [...seededHistory(), ...edgeTasks()];
      await insertHistory(db, history);
      const filters: InsightsFilter[] = [
        { from: new Date(HISTORY_END - 10 * DAY), to: new Date(HISTORY_END) },
        { from: new Date(HISTORY_END - DAY), to: new Date(HISTORY_END) },
        { from: new Date(HISTORY_END - 7 * DAY), to: new Date(HISTORY_END), kind: 'video_translate' },
        { from: new Date(HISTORY_END - 10 * DAY), to: new Date(HISTORY_END), creator: 'Ana' },
        // Partial first and last days: the rollup's whole days with the ends' tasks.
        { from: new Date(HISTORY_END - 6.3 * DAY), to: new Date(HISTORY_END - 0.7 * DAY) },
        { from: new Date(HISTORY_END - 1.6 * DAY), to: new Date(HISTORY_END - 0.2 * DAY) },
      ];
      const expectFigures = async () => {
        for (const filter of [...filters, ...EDGE_PERIODS]) {
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
      await expectFigures();
      // Tasks counted by the rollups, then changed: the figures follow.
      history = await changeEdgeTasks(db, history);
      await expectFigures();
    } finally {
      await app.close();
    }
  });
});

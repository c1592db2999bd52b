// What GET /__console/insights answers: the server computes it (server/insights), the Insights
// screen shows it (src/features/insights). One definition for both sides.
export type Bucket = 'hour' | 'day';

export interface OverTimeRow {
  /** Start of the bucket, ISO 8601 in UTC. */
  at: string;
  kind: string;
  succeeded: number;
  failed: number;
  running: number;
}

export interface Insights {
  period: { from: string; to: string; bucket: Bucket };
  totals: { created: number; succeeded: number; failed: number; running: number; successRate: number | null };
  overTime: OverTimeRow[];
  durations: { kind: string; finished: number; p50Seconds: number | null; p95Seconds: number | null }[];
  failures: { kind: string; code: string | null; reason: string; count: number }[];
  /** One row per person: by user id (a renamed person is one row, under the current name), or by the
   * recorded name for tasks recorded without a user id (creatorId null). */
  people: {
    creatorId: string | null;
    creator: string | null;
    tasks: number;
    succeeded: number;
    failed: number;
    images: number;
    videoMinutes: number;
    languages: string[];
  }[];
  /** Tasks created in each hour of the day (UTC), 0-23, all 24 present. */
  busiestHours: { hour: number; tasks: number }[];
  /** Everyone who has created a task (from the tab counts), for the person filter. */
  creators: string[];
}

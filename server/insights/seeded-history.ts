// A known history of tasks for the insights tests, and the figures they should give computed here in
// plain TypeScript from the same rows (the database's answer is checked against these). Test-only.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { InsightsFilter } from './insights';

export const HISTORY_END = Date.UTC(2026, 2, 10, 0, 0, 0);
const KINDS = ['image_generate', 'video_translate', 'image_to_video'] as const;
const PEOPLE = ['Ana', 'Bo', 'Chen Wei', null] as const;
const REASONS = [
  ['300101', 'Content policy'],
  [null, 'The source video could not be decoded'],
  ['300207', 'Timed out, rendering'],
] as const;
const LANGUAGES = ['English', 'Japanese', 'French'];

export interface SeededTask {
  id: string;
  kind: string;
  creator: string | null;
  status: string;
  phase: 'succeeded' | 'failed' | 'running';
  createdAt: number;
  finishedAt: number | null;
  language: string | null;
  code: string | null;
  reason: string | null;
  duration: number | null;
  /** The person's user id, when recorded by a signed-in person (then `currentName` is their name now). */
  creatorId?: string;
  currentName?: string;
}

/** `count` tasks over the ten days before HISTORY_END, every kind, person and outcome mixed. */
export function seededHistory(count = 240): SeededTask[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % 3]!;
    const phase = i % 5 === 0 ? 'failed' : i % 7 === 0 ? 'running' : 'succeeded';
    const createdAt = HISTORY_END - ((i * 61 * 60_000 + i * i * 1_000) % (10 * 24 * 3600_000)) - 1000;
    const reason = phase === 'failed' ? REASONS[i % 3]! : null;
    return {
      id: `task-${String(i).padStart(4, '0')}`,
      kind,
      creator: PEOPLE[(i >> 1) % 4]!,
      status: phase === 'failed' ? 'FAILED' : phase === 'running' ? 'PROCESSING' : 'SUCCEEDED',
      phase,
      createdAt,
      finishedAt: phase === 'running' ? null : createdAt + (20 + ((i * 37) % 900)) * 1000,
      language: kind === 'video_translate' ? LANGUAGES[i % 3]! : null,
      code: reason?.[0] ?? null,
      reason: reason?.[1] ?? null,
      duration: kind === 'image_to_video' ? (i % 2 ? 5 : 10) : null,
    };
  });
}

export async function insertHistory(db: Db, tasks: SeededTask[]): Promise<void> {
  for (let start = 0; start < tasks.length; start += 200) {
    const values = tasks.slice(start, start + 200).map((task) => ({
      id: task.id,
      kind: task.kind,
      source: 'created' as const,
      params: JSON.stringify(task.duration ? { duration: task.duration } : {}),
      batch: null,
      prompt: `prompt ${task.id}`,
      name: null,
      language: task.language,
      creator: task.creator,
      creator_id: task.creatorId ?? null,
      status: task.status,
      result: JSON.stringify(
        task.phase === 'failed'
          ? {
              status: task.status,
              error_message: task.reason,
              ...(task.code ? { error_code: task.code } : {}),
            }
          : { status: task.status },
      ),
      created_at: new Date(task.createdAt),
      updated_at: new Date(task.finishedAt ?? task.createdAt),
      finished_at: task.finishedAt === null ? null : new Date(task.finishedAt),
    }));
    await db.insertInto('tasks').values(values).execute();
  }
  await sql`analyze tasks`.execute(db);
}

export const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

const HOUR = 3600_000;
const EDGE_MIDNIGHT = HISTORY_END - 3 * 24 * HOUR;
const EDGE_HOUR = HISTORY_END - 17 * HOUR;

function edgeTask(
  id: string,
  createdAt: number,
  phase: SeededTask['phase'],
  finishedAt: number | null,
): SeededTask {
  return {
    id,
    kind: 'image_generate',
    creator: 'Ana',
    createdAt,
    finishedAt,
    phase,
    status: phase === 'failed' ? 'FAILED' : phase === 'running' ? 'PROCESSING' : 'SUCCEEDED',
    language: null,
    code: phase === 'failed' ? '300101' : null,
    reason: phase === 'failed' ? 'Edge failure' : null,
    duration: null,
  };
}

/** Tasks on the rollups' edges: created exactly at a UTC midnight and an hour, a millisecond before, finished at midnight. */
export function edgeTasks(): SeededTask[] {
  return [
    edgeTask('edge-midnight', EDGE_MIDNIGHT, 'running', null),
    edgeTask('edge-before-midnight', EDGE_MIDNIGHT - 1, 'failed', EDGE_MIDNIGHT),
    edgeTask('edge-finished-at-midnight', EDGE_MIDNIGHT - 20_000, 'succeeded', EDGE_MIDNIGHT),
    edgeTask('edge-hour', EDGE_HOUR, 'failed', EDGE_HOUR + 60_000),
    edgeTask('edge-before-hour', EDGE_HOUR - 1, 'succeeded', EDGE_HOUR + 1),
  ];
}

/** Periods that start or end on the edge tasks: whole days, whole hours, a millisecond either side. */
export const EDGE_PERIODS: InsightsFilter[] = [
  [EDGE_MIDNIGHT, HISTORY_END],
  [EDGE_MIDNIGHT - 4 * 24 * HOUR, EDGE_MIDNIGHT],
  [EDGE_MIDNIGHT - HOUR, EDGE_MIDNIGHT],
  [EDGE_MIDNIGHT, EDGE_MIDNIGHT + HOUR],
  [EDGE_MIDNIGHT - 1, EDGE_MIDNIGHT + 1],
  [EDGE_MIDNIGHT + 1, EDGE_HOUR],
  [EDGE_HOUR, EDGE_HOUR + HOUR],
  [EDGE_HOUR - 2 * 24 * HOUR - 1, EDGE_HOUR + 1],
  [EDGE_MIDNIGHT - 24 * HOUR - 30 * 60_000, EDGE_HOUR],
].map(([from, to]) => ({ from: new Date(from!), to: new Date(to!) }));

/** After they were counted, the task at midnight fails and the one at the hour succeeds. */
export async function changeEdgeTasks(db: Db, history: SeededTask[]): Promise<SeededTask[]> {
  const failedAt = EDGE_MIDNIGHT + 90_000;
  await sql`update tasks set status = 'FAILED', finished_at = ${new Date(failedAt).toISOString()}::timestamptz,
    result = '{"status":"FAILED","error_message":"Late failure"}'::jsonb where id = 'edge-midnight'`.execute(
    db,
  );
  await sql`update tasks set status = 'SUCCEEDED', result = '{"status":"SUCCEEDED"}'::jsonb
    where id = 'edge-hour'`.execute(db);
  return history.map((t) =>
    t.id === 'edge-midnight'
      ? { ...t, phase: 'failed', status: 'FAILED', finishedAt: failedAt, code: null, reason: 'Late failure' }
      : t.id === 'edge-hour'
        ? { ...t, phase: 'succeeded', status: 'SUCCEEDED', code: null, reason: null }
        : t,
  );
}

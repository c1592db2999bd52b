import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { DEMO_ASSETS_PATH, PAINTED_PATH } from '../emulator/demo-scenes';
import { buildDemoHistory, DEMO_HISTORY_DAYS, DEMO_PEOPLE, seedDemoHistory } from './demo-history';

const ORIGIN = 'http://127.0.0.1:8080';
const NOW = Date.UTC(2026, 10, 25, 15, 0, 0);
const DAY = 24 * 3600_000;
const TRIGGER = /emulator:|emulated|\(emulator/i;

let database: Database;
// The run's migrated PGlite, emptied: an empty record, as a demo starts from.
beforeAll(async () => {
  database = await resetTestDatabase();
  expect(await seedDemoHistory(database.db, ORIGIN, NOW)).toBe(true);
}, 90_000);

describe('the demo history (DEMO=1, empty database)', () => {
  it('covers the last 30 days, every day of the working week, every kind', async () => {
    const { rows } = await sql<{ first: Date; last: Date; days: number; kinds: string[] }>`
      select min(created_at) as first, max(created_at) as last,
        count(distinct date_trunc('day', created_at))::int as days,
        array_agg(distinct kind order by kind) as kinds
      from tasks`.execute(database.db);
    const { first, last, days, kinds } = rows[0]!;
    expect(NOW - first.getTime()).toBeGreaterThan((DEMO_HISTORY_DAYS - 1.5) * DAY);
    expect(NOW - first.getTime()).toBeLessThanOrEqual(DEMO_HISTORY_DAYS * DAY);
    expect(NOW - last.getTime()).toBeLessThan(DAY / 4);
    expect(days).toBeGreaterThanOrEqual(20);
    expect(kinds).toEqual(['image_generate', 'image_to_video', 'video_translate']);
    // The last 24 hours have something to show too.
    const recent = await sql<{ n: number }>`
      select count(*)::int as n from tasks where created_at > ${new Date(NOW - DAY)}`.execute(database.db);
    expect(recent.rows[0]!.n).toBeGreaterThan(0);
  });

  it('is made by a team of people in the users table, with their roles; the viewer made nothing', async () => {
    const users = await database.db.selectFrom('users').select(['id', 'display_name', 'role']).execute();
    for (const person of Object.values(DEMO_PEOPLE))
      expect(users).toContainEqual({ id: person.id, display_name: person.name, role: person.role });
    const { rows } = await sql<{ creator: string; creator_id: string; role: string; n: number }>`
      select t.creator, t.creator_id, u.role, count(*)::int as n
      from tasks t join users u on u.id = t.creator_id and u.display_name = t.creator
      group by 1, 2, 3 order by n desc`.execute(database.db);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(await taskCount());
    expect(rows.filter((row) => row.role === 'creator').length).toBeGreaterThanOrEqual(2);
    expect(rows.map((row) => row.role)).toContain('admin');
    expect(rows.map((row) => row.role)).not.toContain('viewer');
  });

  it('succeeds about nine times in ten, failures say why in the service’s words, never a trigger word', async () => {
    const { rows } = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from tasks group by status`.execute(database.db);
    const count = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    expect(Object.keys(count).sort()).toEqual(['FAILED', 'SUCCEEDED']);
    const rate = count.SUCCEEDED! / (count.SUCCEEDED! + count.FAILED!);
    expect(rate).toBeGreaterThan(0.8);
    expect(rate).toBeLessThan(0.95);
    const failed = await database.db
      .selectFrom('tasks')
      .select(['result', 'finished_at'])
      .where('status', '=', 'FAILED')
      .execute();
    const reasons = new Set(failed.map((task) => String(task.result.error_message)));
    expect(reasons.size).toBeGreaterThanOrEqual(5);
    for (const reason of reasons) expect(reason).toMatch(/^[A-Z].{15,}\.$/);
    const texts = await sql<{ text: string }>`
      select coalesce(prompt, '') || ' ' || coalesce(name, '') || ' ' || params::text || ' ' || result::text as text
      from tasks
      union all select coalesce(title, '') || ' ' || params::text from requests`.execute(database.db);
    for (const { text } of texts.rows) expect(text).not.toMatch(TRIGGER);
  });

  it('finishes every task after a plausible time for its kind, results on the demo media', async () => {
    const { rows } = await sql<{ kind: string; p50: number; max: number }>`
      select kind, percentile_cont(0.5) within group (order by extract(epoch from finished_at - created_at)) as p50,
        max(extract(epoch from finished_at - created_at))::float as max
      from tasks group by kind order by kind`.execute(database.db);
    const p50 = Object.fromEntries(rows.map((row) => [row.kind, Number(row.p50)]));
    expect(p50.image_generate).toBeGreaterThan(5);
    expect(p50.image_generate).toBeLessThan(60);
    expect(p50.image_to_video).toBeGreaterThan(60);
    expect(p50.video_translate).toBeGreaterThan(p50.image_to_video!);
    const succeeded = await database.db
      .selectFrom('tasks')
      .select(['kind', 'result'])
      .where('status', '=', 'SUCCEEDED')
      .execute();
    for (const { kind, result } of succeeded) {
      const url = String(kind === 'image_generate' ? result.image_url : result.video_url);
      if (kind === 'image_generate')
        expect(url.startsWith(`${ORIGIN}${PAINTED_PATH}/`) && url.endsWith('.png'), url).toBe(true);
      else expect(url.startsWith(`${ORIGIN}${DEMO_ASSETS_PATH}/`), url).toBe(true);
      if (kind === 'image_to_video') expect(String(result.thumbnail_url)).toMatch(/\.jpg$/);
    }
  });

  it('gives the images of one request different pictures', async () => {
    const tasks = await database.db
      .selectFrom('tasks')
      .select(['request_id', 'result'])
      .where('kind', '=', 'image_generate')
      .where('status', '=', 'SUCCEEDED')
      .execute();
    const byRequest = new Map<string, string[]>();
    for (const task of tasks)
      byRequest.set(task.request_id!, [
        ...(byRequest.get(task.request_id!) ?? []),
        String(task.result.image_url),
      ]);
    const several = [...byRequest.values()].filter((urls) => urls.length > 1);
    expect(several.length).toBeGreaterThan(5);
    for (const urls of several) expect(new Set(urls).size, urls.join(' ')).toBe(urls.length);
  });

  it('queues a kept copy of every result, older than 7 days too, so no tile shows "Result expired"', async () => {
    const succeeded = await database.db
      .selectFrom('tasks')
      .select(['id', 'kind', 'finished_at'])
      .where('status', '=', 'SUCCEEDED')
      .execute();
    const copies = await database.db
      .selectFrom('result_copies')
      .select(['task_id', 'role', 'state'])
      .execute();
    const main = new Set(
      copies.filter((c) => c.role === 'image' || c.role === 'video').map((c) => c.task_id),
    );
    const old = succeeded.filter((task) => task.finished_at!.getTime() < NOW - 8 * 24 * 3600_000);
    expect(old.length).toBeGreaterThan(100);
    for (const task of succeeded) expect(main.has(task.id), task.id).toBe(true);
    expect(copies.every((c) => c.state === 'queued')).toBe(true);
  });

  it('groups tasks into requests: one submission, its tasks, one per image or language', async () => {
    const requests = await database.db.selectFrom('requests').selectAll().execute();
    const tasks = await database.db.selectFrom('tasks').select(['id', 'request_id', 'language']).execute();
    expect(requests.length).toBeGreaterThan(100);
    expect(requests.some((request) => request.task_ids.length > 1)).toBe(true);
    const byRequest = new Map<string | null, typeof tasks>();
    for (const task of tasks)
      byRequest.set(task.request_id, [...(byRequest.get(task.request_id) ?? []), task]);
    for (const request of requests) {
      expect(
        byRequest
          .get(request.id)
          ?.map((task) => task.id)
          .sort(),
      ).toEqual([...request.task_ids].sort());
      expect(request.title).toBeTruthy();
    }
    expect(tasks.every((task) => task.request_id !== null)).toBe(true);
    const translations = requests.filter((request) => request.kind === 'video_translate');
    expect(translations.some((request) => request.task_ids.length >= 3)).toBe(true);
  });

  it("has the team's reviews on its newest results: decisions and comments, changes asked on some", async () => {
    const decisions = await database.db.selectFrom('review_decisions').selectAll().execute();
    const comments = await database.db.selectFrom('review_comments').selectAll().execute();
    expect(decisions.filter((row) => row.decision === 'changes_requested').length).toBeGreaterThanOrEqual(2);
    expect(decisions.filter((row) => row.decision === 'approved').length).toBeGreaterThanOrEqual(2);
    expect(comments.length).toBeGreaterThanOrEqual(5);
    // By the demo's people, on succeeded results, after they finished and before now.
    const ids = new Set<string>(Object.values(DEMO_PEOPLE).map((person) => person.id));
    expect([...decisions, ...comments].every((row) => ids.has(row.user_id))).toBe(true);
    const reviewed = await database.db
      .selectFrom('tasks')
      .select(['id', 'status', 'finished_at'])
      .where('id', 'in', [...new Set(comments.map((row) => row.task_id))])
      .execute();
    expect(reviewed.every((task) => task.status === 'SUCCEEDED')).toBe(true);
    for (const comment of comments) {
      const task = reviewed.find((each) => each.id === comment.task_id)!;
      expect(comment.created_at.getTime()).toBeGreaterThan(task.finished_at!.getTime());
      expect(comment.created_at.getTime()).toBeLessThan(NOW);
    }
  });

  it('is the same history on every run, and is not seeded into a database that holds tasks', async () => {
    expect(buildDemoHistory(ORIGIN, NOW)).toEqual(buildDemoHistory(ORIGIN, NOW));
    const before = await taskCount();
    expect(await seedDemoHistory(database.db, ORIGIN, NOW)).toBe(false);
    expect(await taskCount()).toBe(before);
  });
});

async function taskCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(database.db);
  return rows[0]!.n;
}

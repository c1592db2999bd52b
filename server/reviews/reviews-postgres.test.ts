// Comments and decisions across two console instances on one real PostgreSQL database (as behind a
// load balancer): a decision made on one reaches the other's open task and board streams at once,
// and the rules hold across them (one decision per person, the comments' bound).
import { describe, expect, it } from 'vitest';
import { REVIEW_COMMENTS_MAX } from '../../src/api/reviews';
import type { NodeApp } from '../app/node-app';
import { asPerson, person } from '../testing/identity';
import { usePostgresInstances } from '../testing/postgres-instances';

const ORIGIN = 'http://127.0.0.1:5173';
const { freshDatabase, instance } = usePostgresInstances('reviews-pg-secret-0123456789');

const review = (app: NodeApp, task: string, body: unknown, user = 'Vi') =>
  app.app.request(
    `${ORIGIN}/__console/reviews/${task}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    asPerson(user, 'viewer'),
  );

/** An open event stream of `app`, its text growing as it reads. */
async function openStream(app: NodeApp, path: string, signal: AbortSignal) {
  const response = await app.app.request(`${ORIGIN}${path}`, { signal }, asPerson('Cy'));
  const reader = response.body!.getReader();
  const out = { text: '' };
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      out.text += new TextDecoder().decode(value);
    }
  })();
  return out;
}

async function seed(app: NodeApp) {
  const { db } = await app.database;
  await db
    .insertInto('tasks')
    .values({ id: 't-pg', kind: 'image_generate', source: 'created', status: 'SUCCEEDED', prompt: 'Harbour' })
    .execute();
  await db.insertInto('boards').values({ id: 'b-pg', name: 'Picks' }).execute();
  await db.insertInto('board_items').values({ board_id: 'b-pg', task_id: 't-pg', position: 0 }).execute();
}

describe('reviews on two instances', () => {
  it("a viewer's decision on A reaches B's open task and board streams at once, and B reads it", async () => {
    const url = freshDatabase();
    const a = instance(url);
    const b = instance(url);
    await Promise.all([a.database, b.database]);
    await seed(a);
    const controller = new AbortController();
    const tasks = await openStream(b, '/__console/tasks/events', controller.signal);
    const boards = await openStream(b, '/__console/boards/events', controller.signal);
    await expect.poll(() => tasks.text.includes('ready') && boards.text.includes('ready')).toBe(true);

    const started = Date.now();
    expect((await review(a, 't-pg', { decision: 'changes_requested', comment: 'Warmer sky' })).status).toBe(
      200,
    );
    await expect.poll(() => tasks.text).toContain('"changesRequested":1');
    await expect.poll(() => boards.text).toContain('"id":"b-pg"');
    expect(Date.now() - started).toBeLessThan(2000);
    const read = (await (
      await b.app.request(`${ORIGIN}/__console/reviews/t-pg`, {}, asPerson('Cy'))
    ).json()) as {
      data: { decisions: { name: string; decision: string }[]; comments: { body: string }[] };
    };
    expect(read.data.decisions).toMatchObject([{ name: 'Vi', decision: 'changes_requested' }]);
    expect(read.data.comments).toMatchObject([{ body: 'Warmer sky' }]);
    controller.abort();
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('keeps one decision per person and the comments bound when both instances are asked at once', async () => {
    const url = freshDatabase();
    const a = instance(url);
    const b = instance(url);
    await Promise.all([a.database, b.database]);
    await seed(a);
    const { db } = await a.database;
    await db
      .insertInto('review_comments')
      .values(
        Array.from({ length: REVIEW_COMMENTS_MAX - 1 }, (_, n) => ({
          id: `c-${n}`,
          task_id: 't-pg',
          user_id: 'user-bo',
          user_name: 'Bo',
          body: `note ${n}`,
        })),
      )
      .execute();
    const answers = await Promise.all([
      review(a, 't-pg', { decision: 'approved', comment: 'From A' }),
      review(b, 't-pg', { decision: 'changes_requested', comment: 'From B' }),
    ]);
    // Room for one more comment: exactly one of the two lands, the other is refused whole.
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const decisions = await db
      .selectFrom('review_decisions')
      .selectAll()
      .where('user_id', '=', person('Vi').userId)
      .execute();
    expect(decisions).toHaveLength(1);
    const { n } = await db
      .selectFrom('review_comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(REVIEW_COMMENTS_MAX);
    // Decisions alone from both at once: still one row for the person, the later one's.
    await Promise.all([
      review(a, 't-pg', { decision: 'approved' }),
      review(b, 't-pg', { decision: 'changes_requested' }),
    ]);
    expect(
      await db
        .selectFrom('review_decisions')
        .select('decision')
        .where('user_id', '=', person('Vi').userId)
        .execute(),
    ).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  }, 60_000);
});

// Comments and decisions on results: roles (viewers review too; a comment is deleted by its author
// or an admin), bounds (exactly at the limit and one past), one decision per person (the latest
// wins), the audit log, the "changes requested" view, and the live announcements to open pages.
import { describe, expect, it } from 'vitest';
import { REVIEW_COMMENT_MAX, REVIEW_COMMENTS_MAX } from '../../src/api/reviews';
import type { Role } from '../../src/api/roles';
import { accessRule } from '../identity/access';
import { person } from '../testing/identity';
import { useTestNodeApp } from '../testing/test-node-app';
import { jsonRoutesAs, seedSucceededTasks, type Any } from '../testing/json-routes';

const server = useTestNodeApp('reviews-test');

const { get, send } = jsonRoutesAs(server);
const review = (task: string | undefined, body: unknown, user = 'Vi', role: Role = 'viewer') =>
  send('POST', `/__console/reviews/${task}`, body, user, role);

async function seedTasks(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, n) => `r-${n}`);
  return seedSucceededTasks(server.database.db, ids);
}

const auditActions = async () =>
  (
    await server.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'target'])
      .where('action', 'like', 'review.%')
      .orderBy('id')
      .execute()
  ).map((row) => `${row.action} ${row.actor_name} ${row.target}`);

describe('reviews', () => {
  it('a viewer decides with a comment; one decision per person, the latest wins; who and when are shown', async () => {
    const [a] = await seedTasks(1);
    const first = await review(a, { decision: 'approved', comment: '  Lovely light  ' });
    expect(first.status).toBe(200);
    expect(first.body.data.decisions).toEqual([
      { userId: person('Vi').userId, name: 'Vi', decision: 'approved', at: expect.any(Number) },
    ]);
    expect(first.body.data.comments).toMatchObject([
      { name: 'Vi', body: 'Lovely light', decision: 'approved' },
    ]);
    // The same person again: still one decision, now the new one.
    await review(a, { decision: 'changes_requested', comment: 'Actually, crop tighter' });
    await review(a, { decision: 'approved' }, 'Bo', 'creator');
    const read = await get(`/__console/reviews/${a}`, 'Cy', 'viewer');
    expect(read.body.data.decisions.map((d: Any) => `${d.name} ${d.decision}`)).toEqual([
      'Bo approved',
      'Vi changes_requested',
    ]);
    expect(read.body.data.comments.map((c: Any) => c.body)).toEqual([
      'Lovely light',
      'Actually, crop tighter',
    ]);
    // The task's view carries the counts for the card's badge.
    const task = (await get(`/__console/tasks/${a}`)).body.data.task;
    expect(task.review).toEqual({ approved: 1, changesRequested: 1, comments: 2, at: expect.any(Number) });
    // Clearing my decision leaves my comments.
    await review(a, { decision: null });
    const after = (await get(`/__console/reviews/${a}`)).body.data;
    expect(after.decisions.map((d: Any) => d.name)).toEqual(['Bo']);
    expect(after.comments).toHaveLength(2);
    expect(await auditActions()).toEqual([
      `review.decide Vi ${a}`,
      `review.comment Vi ${a}`,
      `review.decide Vi ${a}`,
      `review.comment Vi ${a}`,
      `review.decide Bo ${a}`,
      `review.clear Vi ${a}`,
    ]);
    expect((await get(`/__console/tasks/${a}`)).body.data.task.review).toMatchObject({
      approved: 1,
      changesRequested: 0,
    });
  });

  it('a result nobody reviewed has no review in its view', async () => {
    const [a] = await seedTasks(1);
    expect((await get(`/__console/tasks/${a}`)).body.data.task).not.toHaveProperty('review');
    expect((await get(`/__console/reviews/${a}`)).body.data).toEqual({ decisions: [], comments: [] });
  });

  it(`takes a comment of exactly ${REVIEW_COMMENT_MAX} characters, not one more; bad bodies are 400s that say why`, async () => {
    const [a] = await seedTasks(1);
    // Characters, not UTF-16 units: an emoji is one.
    expect((await review(a, { comment: '😀'.repeat(REVIEW_COMMENT_MAX) })).status).toBe(200);
    const long = await review(a, { comment: 'x'.repeat(REVIEW_COMMENT_MAX + 1) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      field: 'comment',
      msg: `A comment is at most ${REVIEW_COMMENT_MAX} characters`,
    });
    const empty = await review(a, { comment: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Write a comment or choose a decision');
    expect((await review(a, { decision: 'maybe' })).body).toMatchObject({ field: 'decision' });
    expect((await review(a, { comment: 42 })).status).toBe(400);
    expect((await review(a, [1, 2])).status).toBe(400);
    const notJson = await server.requestAs(
      'Vi',
      `/__console/reviews/${a}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"comment":' },
      'viewer',
    );
    expect(notJson.status).toBe(400);
    expect((await review('no-such-task', { comment: 'Hi' })).status).toBe(404);
    expect((await get(`/__console/reviews/${a}`)).body.data.comments).toHaveLength(1);
  });

  it(`keeps at most ${REVIEW_COMMENTS_MAX} comments a result: exactly that many, not one more`, async () => {
    const [a] = await seedTasks(1);
    await server.database.db
      .insertInto('review_comments')
      .values(
        Array.from({ length: REVIEW_COMMENTS_MAX - 1 }, (_, n) => ({
          id: `c-${n}`,
          task_id: a!,
          user_id: 'user-bo',
          user_name: 'Bo',
          body: `note ${n}`,
        })),
      )
      .execute();
    expect((await review(a, { comment: 'The last one' })).status).toBe(200);
    const past = await review(a, { comment: 'One more', decision: 'approved' });
    expect(past.status).toBe(400);
    expect(past.body.field).toBe('comment');
    // Refused whole: the decision sent with it did not land either.
    expect((await get(`/__console/reviews/${a}`)).body.data.decisions).toEqual([]);
    // A decision alone still goes through on a full result.
    expect((await review(a, { decision: 'approved' })).status).toBe(200);
  });

  it('deletes a comment for its author or an admin, nobody else', async () => {
    const [a] = await seedTasks(1);
    await review(a, { comment: 'Mine' }, 'Vi', 'viewer');
    const made = await review(a, { comment: 'Bo here' }, 'Bo', 'creator');
    const [vi, bo] = made.body.data.comments as { id: string }[];
    const remove = (id: string, user: string, role: Role) =>
      send('DELETE', `/__console/reviews/${a}/comments/${id}`, {}, user, role);
    const refused = await remove(bo!.id, 'Vi', 'viewer');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Only its author or an admin can delete a comment');
    expect((await remove(bo!.id, 'Cy', 'creator')).status).toBe(403);
    expect((await remove(vi!.id, 'Vi', 'viewer')).status).toBe(200);
    expect((await remove(bo!.id, 'Ad', 'admin')).status).toBe(200);
    expect((await remove(bo!.id, 'Ad', 'admin')).status).toBe(404);
    // A comment is found under its own task only.
    await review(a, { comment: 'Again' }, 'Vi', 'viewer');
    const again = (await get(`/__console/reviews/${a}`)).body.data.comments[0].id as string;
    expect(
      (await send('DELETE', `/__console/reviews/other/comments/${again}`, {}, 'Ad', 'admin')).status,
    ).toBe(404);
    expect((await get(`/__console/reviews/${a}`)).body.data.comments.map((c: Any) => c.body)).toEqual([
      'Again',
    ]);
    expect(await auditActions()).toEqual([
      `review.comment Vi ${a}`,
      `review.comment Bo ${a}`,
      `review.delete-comment Vi ${a}`,
      `review.delete-comment Ad ${a}`,
      `review.comment Vi ${a}`,
    ]);
  });

  it('every route needs a signed-in person, and viewers may use all of them', () => {
    expect(accessRule('GET', '/__console/reviews/t-1').need).toBe('viewer');
    expect(accessRule('POST', '/__console/reviews/t-1').need).toBe('viewer');
    expect(accessRule('DELETE', '/__console/reviews/t-1/comments/c-1').need).toBe('viewer');
    // Anything else under it falls to the default rule: admins only.
    expect(accessRule('PUT', '/__console/reviews/t-1').need).toBe('admin');
    expect(accessRule('DELETE', '/__console/reviews/t-1').need).toBe('admin');
  });

  it('the "changes requested" view lists the results someone asked changes on, with its count', async () => {
    const [a, b, c] = await seedTasks(3);
    await review(a, { decision: 'changes_requested', comment: 'Too dark' });
    await review(b, { decision: 'approved' });
    await review(c, { decision: 'changes_requested' }, 'Bo', 'creator');
    const list = async () => {
      const page = (await get('/__console/tasks?tab=all&review=changes_requested')).body.data;
      return { ids: page.items.map((t: Any) => t.id), all: page.counts.all };
    };
    expect(await list()).toEqual({ ids: [c, a], all: 2 });
    // Changing one's mind takes it out.
    await review(c, { decision: 'approved' }, 'Bo', 'creator');
    expect(await list()).toEqual({ ids: [a], all: 1 });
    // Without the parameter, everything.
    expect((await get('/__console/tasks?tab=all')).body.data.items).toHaveLength(3);
  });

  it("announces a change to the task's stream and to the boards holding it", async () => {
    const [a] = await seedTasks(1);
    const made = await send('POST', '/__console/boards', { name: 'Picks', ids: [a] });
    const boardId = made.body.data.board.id as string;
    const controller = new AbortController();
    const read = async (path: string) => {
      const response = await server.requestAs('Bo', path, { signal: controller.signal }, 'viewer');
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
    };
    const tasks = await read('/__console/tasks/events');
    const boards = await read('/__console/boards/events');
    await expect.poll(() => tasks.text + boards.text).toMatch(/ready[\s\S]*ready/);
    await review(a, { decision: 'changes_requested', comment: 'Warmer, please' });
    await expect.poll(() => tasks.text).toContain('"changesRequested":1');
    await expect.poll(() => boards.text).toContain(`"id":"${boardId}"`);
    controller.abort();
  });
});

// A result's review in the database: every person's current decision and the comments. Each change
// is one transaction under a lock on the task, so the count of its comments is checked against
// REVIEW_COMMENTS_MAX by one instance at a time, and the change, its audit row and its announcement
// commit together.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { REVIEW_COMMENTS_MAX, type ReviewChange, type ReviewView } from '../../src/api/reviews';
import type { Db } from '../db/database';
import type { Identity } from '../identity/request-identity';
import { writeAudit } from '../identity/audit';

/** Tells every instance's pages that the task's review changed; runs inside the change's transaction. */
export type AnnounceReview = (trx: Db, taskId: string) => Promise<void>;

type Who = Pick<Identity, 'userId' | 'name' | 'role'>;

export async function readReview(db: Db, taskId: string): Promise<ReviewView> {
  const [decisions, comments] = await Promise.all([
    db
      .selectFrom('review_decisions')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('decided_at', 'desc')
      .orderBy('user_id')
      .execute(),
    db
      .selectFrom('review_comments')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(REVIEW_COMMENTS_MAX)
      .execute(),
  ]);
  return {
    decisions: decisions.map((row) => ({
      userId: row.user_id,
      name: row.user_name,
      decision: row.decision,
      at: row.decided_at.getTime(),
    })),
    comments: comments.map((row) => ({
      id: row.id,
      userId: row.user_id,
      name: row.user_name,
      body: row.body,
      decision: row.decision,
      at: row.created_at.getTime(),
    })),
  };
}

async function audit(trx: Db, who: Who, action: string, taskId: string, detail: object) {
  await writeAudit(trx, { actor: who, action, target: taskId, detail: detail as Record<string, unknown> });
}

const lockTask = (trx: Db, taskId: string) =>
  sql`select pg_advisory_xact_lock(hashtext(${`reviews:${taskId}`}))`.execute(trx);

/**
 * Applies a person's change to a result's review: their decision set or cleared (the latest wins),
 * a comment added. 'no-task' when the record has no such task, 'full' past REVIEW_COMMENTS_MAX.
 */
export async function changeReview(
  db: Db,
  who: Who,
  taskId: string,
  change: ReviewChange,
  announce: AnnounceReview,
): Promise<'no-task' | 'full' | 'done'> {
  return db.transaction().execute(async (trx) => {
    const task = await trx.selectFrom('tasks').select('id').where('id', '=', taskId).executeTakeFirst();
    if (!task) return 'no-task';
    await lockTask(trx, taskId);
    if (change.comment !== undefined) {
      const { n } = await trx
        .selectFrom('review_comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= REVIEW_COMMENTS_MAX) return 'full';
    }
    if (change.decision === null) {
      const cleared = await trx
        .deleteFrom('review_decisions')
        .where('task_id', '=', taskId)
        .where('user_id', '=', who.userId)
        .executeTakeFirst();
      if (cleared.numDeletedRows > 0n) await audit(trx, who, 'review.clear', taskId, {});
    } else if (change.decision) {
      const decision = change.decision;
      await trx
        .insertInto('review_decisions')
        .values({ task_id: taskId, user_id: who.userId, user_name: who.name, decision })
        .onConflict((oc) =>
          oc
            .columns(['task_id', 'user_id'])
            .doUpdateSet({ decision, user_name: who.name, decided_at: sql`now()` }),
        )
        .execute();
      await audit(trx, who, 'review.decide', taskId, { decision });
    }
    if (change.comment !== undefined) {
      const id = `rc-${randomUUID()}`;
      await trx
        .insertInto('review_comments')
        .values({
          id,
          task_id: taskId,
          user_id: who.userId,
          user_name: who.name,
          body: change.comment,
          decision: change.decision ?? null,
        })
        .execute();
      await audit(trx, who, 'review.comment', taskId, { commentId: id, decision: change.decision ?? null });
    }
    await announce(trx, taskId);
    return 'done';
  });
}

/**
 * Deletes a comment: its author's own, or any for an admin. 'none' when the task has no such
 * comment, 'not-yours' when it is someone else's and the asker is no admin.
 */
export async function deleteComment(
  db: Db,
  who: Who,
  taskId: string,
  commentId: string,
  announce: AnnounceReview,
): Promise<'none' | 'not-yours' | 'done'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('review_comments')
      .select(['user_id', 'user_name'])
      .where('id', '=', commentId)
      .where('task_id', '=', taskId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return 'none';
    if (row.user_id !== who.userId && who.role !== 'admin') return 'not-yours';
    await trx.deleteFrom('review_comments').where('id', '=', commentId).execute();
    await audit(trx, who, 'review.delete-comment', taskId, { commentId, author: row.user_name });
    await announce(trx, taskId);
    return 'done';
  });
}

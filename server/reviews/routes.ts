// Comments and decisions on results. Everyone signed in, viewers too, reads a result's review, sets
// or clears their own decision and comments (server/identity/access.ts); a comment is deleted by
// its author or by an admin. Every change commits with its audit row (`review.*`) and an
// announcement (`announce`: the task's and its boards' channels), so every instance's open pages
// read the result again: its card's badge and an open panel change without a reload.
import { Hono } from 'hono';
import { checkReviewChange } from '../../src/api/reviews';
import type { Database } from '../db/database';
import { identityOf } from '../identity/request-identity';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import { changeReview, deleteComment, readReview, type AnnounceReview } from './store';
import { NO_STORE } from '../http/no-store';
import { refusal } from '../http/refusal';

/** Ids are at most 200 characters, as the record's (server/boards/body.ts). */
const idOk = (id: string) => id.length > 0 && id.length <= 200;

export function createReviewRoutes(database: Promise<Database>, announce: AnnounceReview): Hono {
  const app = new Hono();
  const storable = refuseUnstorableText();
  app.onError(databaseInputErrors('reviews'));

  app.get('/__console/reviews/:task', storable, async (c) => {
    const taskId = c.req.param('task');
    if (!idOk(taskId)) return refusal(c, 404, 'No such task');
    const { db } = await database;
    return c.json({ code: 0, msg: 'ok', data: await readReview(db, taskId) }, 200, NO_STORE);
  });

  app.post('/__console/reviews/:task', storable, async (c) => {
    const who = identityOf(c);
    if (!who) return refusal(c, 401, 'Sign in to review results');
    const taskId = c.req.param('task');
    if (!idOk(taskId)) return refusal(c, 404, 'No such task');
    const body = await c.req.json<{ decision?: unknown; comment?: unknown }>().catch(() => undefined);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refusal(c, 400, 'Send {"decision": "approved", "changes_requested" or null, "comment": text}');
    const change = checkReviewChange(body);
    if ('field' in change) return refusal(c, 400, change.msg, { field: change.field });
    const { db } = await database;
    const outcome = await changeReview(db, who, taskId, change, announce);
    if (outcome === 'no-task') return refusal(c, 404, 'The team’s record has no such task');
    if (outcome === 'full')
      return refusal(c, 400, 'This result has as many comments as it can keep: delete some first', {
        field: 'comment',
      });
    return c.json({ code: 0, msg: 'ok', data: await readReview(db, taskId) }, 200, NO_STORE);
  });

  app.delete('/__console/reviews/:task/comments/:comment', storable, async (c) => {
    const who = identityOf(c);
    if (!who) return refusal(c, 401, 'Sign in to review results');
    const taskId = c.req.param('task');
    const commentId = c.req.param('comment');
    if (!idOk(taskId) || !idOk(commentId)) return refusal(c, 404, 'No such comment');
    const { db } = await database;
    const outcome = await deleteComment(db, who, taskId, commentId, announce);
    if (outcome === 'none') return refusal(c, 404, 'No such comment');
    if (outcome === 'not-yours') return refusal(c, 403, 'Only its author or an admin can delete a comment');
    return c.json({ code: 0, msg: 'ok', data: await readReview(db, taskId) }, 200, NO_STORE);
  });

  return app;
}

// `POST /__console/tasks/<id>/check?kind=<kind>`: support's "Check again", and a lookup of an id the
// record does not have yet. The server asks the service now, under the team's rate and the
// service's brake, and answers with the task as the record then holds it (the status answer is the
// truth; the raw answer and the timeline are on the task as always). `kind` is needed only for an id
// the record does not have; the record's own kind wins otherwise.
import { Hono } from 'hono';
import { TASK_TYPES, type TaskType } from '../../src/api/core/rules';
import type { Database } from '../db/database';
import { isTaskId } from '../proxy/proxy-routes';
import { getTask } from '../tasks/list';
import type { Follower } from './follower';
import { NO_STORE } from '../http/no-store';

export function createFollowRoutes(database: Promise<Database>, follower: Follower): Hono {
  const app = new Hono();
  app.post('/__console/tasks/:id/check', async (c) => {
    const id = c.req.param('id');
    if (!isTaskId(id)) return c.json({ code: 400, msg: 'That is not a task id' }, 400, NO_STORE);
    const { db } = await database;
    const known = await db.selectFrom('tasks').select('kind').where('id', '=', id).executeTakeFirst();
    const asked = c.req.query('kind');
    const kind = (known?.kind ?? asked) as TaskType | undefined;
    if (!kind || !(TASK_TYPES as readonly string[]).includes(kind))
      return c.json(
        {
          code: 400,
          msg: `kind must be one of ${TASK_TYPES.join(', ')} for a task this console has no record of`,
        },
        400,
        NO_STORE,
      );
    const checked = await follower.checkNow(id, kind);
    if (!checked.asked) {
      const seconds = Math.max(1, Math.ceil(checked.retryAfterMs / 1000));
      return c.json({ code: 429, msg: `The service asked for a pause: try again in ${seconds} s` }, 429, {
        ...NO_STORE,
        'retry-after': String(seconds),
      });
    }
    const found = await getTask(db, id);
    if (found) return c.json({ code: 0, msg: 'ok', data: found }, 200, NO_STORE);
    // Not in the record: the service did not know it, or could not be asked.
    const { outcome } = checked;
    const error = 'error' in outcome ? outcome.error : undefined;
    const status = error?.kind === 'not_found' || error?.kind === 'unavailable' ? 404 : 502;
    return c.json(
      { code: error?.code ?? status, msg: error?.msg ?? 'The service gave no answer', error },
      status,
      NO_STORE,
    );
  });
  // For the admin's screen: the figures /healthz shows, with the task the last error was about.
  app.get('/__console/follow', async (c) => {
    const stats = await follower.stats();
    return c.json({ code: 0, msg: 'ok', data: stats }, 200, NO_STORE);
  });
  return app;
}

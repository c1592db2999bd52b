// Task changes as they commit, from any instance on the same database: NOTIFY on TASKS_CHANNEL
// carries the task id, one LISTEN per process hears it, one query reads the task, and every open
// stream of this process gets it. `GET /__console/tasks/events` is that stream (Server-Sent Events).
import type { Hono } from 'hono';
import type { Database } from '../db/database';
import { createListenFeed, type FeedAudience, type ListenFeed } from '../db/listen-feed';
import { announcedIds } from './announce';
import { addCopies, toTaskView, type TaskView } from './task-view';
import { TASKS_CHANNEL } from './recorder';
import { streamUntilEnd } from '../http/sse-lifetime';
import { boundedSSE, type StreamLimits } from '../http/stream-limits';

type TaskFeed = ListenFeed<TaskView>;

export function createTaskFeed(database: Promise<Database>): TaskFeed {
  // Ids announced in the same burst are read once each.
  let pending = new Set<string>();
  let scheduled = false;
  const deliver = async (audience: FeedAudience<TaskView>) => {
    scheduled = false;
    const ids = pending;
    pending = new Set();
    const { db } = await database;
    // One query for the whole burst (a group of callbacks names up to hundreds of tasks).
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute()
      .catch(() => []);
    const tasks = await addCopies(db, rows.map(toTaskView)).catch(() => rows.map(toTaskView));
    for (const task of tasks) audience.tell(task);
  };
  return createListenFeed<TaskView>(database, TASKS_CHANNEL, (payload, audience) => {
    if (!audience.size) return;
    for (const id of announcedIds(payload)) pending.add(id);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(() => void deliver(audience).catch(() => undefined));
    }
  });
}

export function mountTaskEvents(
  app: Hono,
  feed: TaskFeed,
  closeStreams: Set<() => void>,
  streams: StreamLimits,
) {
  app.get('/__console/tasks/events', (c) =>
    boundedSSE(c, streams, 'task', async (out) => {
      // Not awaited: a change reaches every stream at once. A stream whose client does not read
      // piles nothing up: past its pending bound it is dropped (server/http/stream-limits.ts).
      const unsubscribe = feed.subscribe(
        (task) => void out.send({ event: 'task', data: JSON.stringify(task) }),
      );
      // A page that reconnects reloads its list; the stream only carries what changes from now on.
      await streamUntilEnd(out, closeStreams, unsubscribe);
    }),
  );
}

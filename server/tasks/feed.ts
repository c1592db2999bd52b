// Task changes as they commit, from any instance on the same database: NOTIFY on TASKS_CHANNEL
// carries the task id, one LISTEN per process hears it, one query reads the task, and every open
// stream of this process gets it. `GET /__console/tasks/events` is that stream (Server-Sent Events).
import type { Hono } from 'hono';
import type { Database } from '../db/database';
import { announcedIds } from './announce';
import { addCopies, toTaskView, type TaskView } from './task-view';
import { TASKS_CHANNEL } from './recorder';
import { holdOpen } from '../http/sse-lifetime';
import { boundedSSE, type StreamLimits } from '../http/stream-limits';

interface TaskFeed {
  subscribe(listener: (task: TaskView) => void): () => void;
  close(): Promise<void>;
}

export function createTaskFeed(database: Promise<Database>): TaskFeed {
  const listeners = new Set<(task: TaskView) => void>();
  // Ids announced in the same burst are read once each.
  let pending = new Set<string>();
  let scheduled = false;
  const deliver = async () => {
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
    for (const task of tasks) for (const listener of listeners) listener(task);
  };
  const unlisten = database
    .then((db) =>
      db.listen(TASKS_CHANNEL, (payload) => {
        if (!listeners.size) return;
        for (const id of announcedIds(payload)) pending.add(id);
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(() => void deliver().catch(() => undefined));
        }
      }),
    )
    .catch(() => async () => {});
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await (
        await unlisten
      )();
    },
  };
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
      const open = holdOpen(out, closeStreams);
      try {
        // A page that reconnects reloads its list; the stream only carries what changes from now on.
        await out.send({ event: 'ready', data: '{}', retry: 2000 });
        await open;
      } finally {
        unsubscribe();
      }
    }),
  );
}

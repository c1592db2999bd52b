// Callbacks move their tasks on, a whole group at once, inside the group's transaction (see
// server/callbacks/group-commit.ts), in one statement: applying callbacks one by one cost five
// statements each and held intake to ~150/s. The rule is applyStatus's (./recorder.ts): fields
// merge into `result`, a callback names the kind, the first language and the last name win, and
// callbacks carry terminal statuses only, so the browser's rule never has to keep an older one.
import { sql } from 'kysely';
import type { StoredCallback } from '../callbacks/store';
import type { Db } from '../db/database';
import { TASKS_CHANNEL } from './recorder';
import { notifyPayloads } from './announce';

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

interface Folded {
  id: string;
  kind: string;
  status: string;
  result: Record<string, unknown>;
  name?: string;
  language?: string;
}

/** Several callbacks of one task in a group become one row (ON CONFLICT may touch a row once). */
function fold(entries: StoredCallback[]) {
  const tasks = new Map<string, Folded>();
  const events: { ord: number; task_id: string; status: string; first: boolean }[] = [];
  entries.forEach(({ body }, ord) => {
    const data = body.data as Record<string, unknown> & { task_id: string; status: string };
    const fields = Object.fromEntries(
      Object.entries(data).filter(([, value]) => value !== undefined && value !== null),
    );
    const task = tasks.get(data.task_id);
    if (!task) {
      tasks.set(data.task_id, {
        id: data.task_id,
        kind: body.task_type,
        status: data.status,
        result: fields,
        name: text(fields.name),
        language: text(fields.language),
      });
      events.push({ ord, task_id: data.task_id, status: data.status, first: true });
      return;
    }
    if (data.status !== task.status)
      events.push({ ord, task_id: data.task_id, status: data.status, first: false });
    Object.assign(task, {
      kind: body.task_type,
      status: data.status,
      result: { ...task.result, ...fields },
      name: text(fields.name) ?? task.name,
      language: task.language ?? text(fields.language),
    });
  });
  return { tasks: [...tasks.values()], events };
}

export async function recordCallbacks(trx: Db, entries: StoredCallback[]): Promise<void> {
  if (!entries.length) return;
  const { tasks, events } = fold(entries);
  const notices = notifyPayloads(tasks.map((task) => task.id).sort()).map(
    (payload) => sql`pg_notify(${TASKS_CHANNEL}, ${payload})`,
  );
  // `old` is the state before this statement: a task's first callback of the group makes a
  // timeline event when the task is new or its status changes. Rows are written in id order, as
  // every writer of several tasks does, so two groups cannot deadlock.
  await sql`
    with t as (
      select * from jsonb_to_recordset(${JSON.stringify(tasks)}::jsonb)
        as t(id text, kind text, status text, result jsonb, name text, language text)
    ), old as (
      select id, status from tasks where id in (select id from t)
    ), up as (
      insert into tasks as k (id, kind, source, status, result, name, language, last_source,
        last_checked_at, updated_at, finished_at)
      select id, kind, 'callback', status, result, name, language, 'callback', now(), now(), now()
      from t order by id
      on conflict (id) do update set
        kind = excluded.kind,
        status = excluded.status,
        result = k.result || excluded.result,
        name = coalesce(excluded.name, k.name),
        language = coalesce(k.language, excluded.language),
        last_error = null,
        last_source = 'callback',
        last_checked_at = now(),
        updated_at = now(),
        finished_at = case when k.status in ('SUCCEEDED', 'FAILED') then k.finished_at else now() end
    ), events as (
      insert into task_events (task_id, source, status)
      select e.task_id, 'callback', e.status
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
        as e(ord int, task_id text, status text, first boolean)
      left join old o on o.id = e.task_id
      where not e.first or o.status is distinct from e.status
      order by e.ord
    )
    select ${sql.join(notices)}`.execute(trx);
}

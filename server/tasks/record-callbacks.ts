// Callbacks move their tasks on, a whole group at once, inside the group's transaction (see
// server/callbacks/store.ts). The rule is applyStatus's (./recorder.ts), applied in memory to the
// rows read once: then one upsert, one insert of timeline events and one NOTIFY serve the group,
// where applying callbacks one by one cost five statements each and capped intake at ~150/s.
import { sql } from 'kysely';
import { isTerminalStatus } from '../../src/api/status';
import type { StoredCallback } from '../callbacks/store';
import type { Db } from '../db/database';
import { announceMany } from './announce';
import type { TaskRow } from './recorder';

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

interface Pending {
  row: Omit<TaskRow, 'phase' | 'search'>;
  added: boolean;
}

function fresh(id: string, kind: string, now: Date): Pending {
  return {
    added: true,
    row: {
      id,
      kind,
      source: 'callback',
      params: null,
      batch: null,
      prompt: null,
      name: null,
      language: null,
      creator: null,
      status: '',
      result: {},
      last_error: null,
      last_source: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
      last_checked_at: null,
    },
  };
}

export async function recordCallbacks(trx: Db, entries: StoredCallback[]): Promise<void> {
  if (!entries.length) return;
  const now = new Date();
  const ids = [...new Set(entries.map((entry) => entry.body.data.task_id))].sort();
  // Locked in id order, as every writer of several tasks does, so two groups cannot deadlock.
  const rows = await trx
    .selectFrom('tasks')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const tasks = new Map<string, Pending>(
    // Generated columns are left out: they cannot be written.
    rows.map(({ phase: _phase, search: _search, ...row }) => [row.id, { row, added: false }]),
  );
  const events: { task_id: string; source: 'callback'; status: string }[] = [];
  for (const { body } of entries) {
    const { task_id: id, status: incoming, ...rest } = body.data;
    let task = tasks.get(id);
    if (!task) tasks.set(id, (task = fresh(id, body.task_type, now)));
    const old = task.row;
    // Callbacks carry terminal statuses only, so the browser's rule never has to keep an old one.
    const fields: Record<string, unknown> = { status: incoming };
    for (const [key, value] of Object.entries(rest))
      if (value !== undefined && value !== null) fields[key] = value;
    task.row = {
      ...old,
      kind: body.task_type,
      status: incoming,
      result: { ...old.result, ...fields },
      language: old.language ?? text(fields.language),
      name: text(fields.name) ?? old.name,
      last_error: null,
      last_source: 'callback',
      last_checked_at: now,
      updated_at: now,
      finished_at: !isTerminalStatus(old.status) && isTerminalStatus(incoming) ? now : old.finished_at,
    };
    if (task.added || incoming !== old.status)
      events.push({ task_id: id, source: 'callback', status: incoming });
    task.added = false;
  }
  const values = [...tasks.values()].map(({ row }) => ({
    ...row,
    params: row.params && JSON.stringify(row.params),
    batch: row.batch && JSON.stringify(row.batch),
    result: JSON.stringify(row.result),
    last_error: null,
  }));
  await trx
    .insertInto('tasks')
    .values(values)
    // The merges are repeated in SQL for a task another writer added since the read above: it keeps
    // what it has and takes the callback. For a task read above they change nothing.
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        kind: eb.ref('excluded.kind'),
        status: eb.ref('excluded.status'),
        result: sql`tasks.result || excluded.result`,
        language: sql`coalesce(tasks.language, excluded.language)`,
        name: sql`coalesce(excluded.name, tasks.name)`,
        last_error: null,
        last_source: eb.ref('excluded.last_source'),
        last_checked_at: eb.ref('excluded.last_checked_at'),
        updated_at: eb.ref('excluded.updated_at'),
        finished_at: sql`coalesce(tasks.finished_at, excluded.finished_at)`,
      })),
    )
    .execute();
  if (events.length) await trx.insertInto('task_events').values(events).execute();
  await announceMany(trx, ids);
}

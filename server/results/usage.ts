// What the team's store holds and what is waiting, for admins (`GET /__console/storage`): kept
// files and bytes in total, per kind of task, per person and per file role, and the queue by state.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { ResultCopyState } from '../db/schema';

interface UsageLine {
  files: number;
  bytes: number;
}

interface StorageUsage {
  store: string;
  kept: UsageLine;
  byKind: (UsageLine & { kind: string })[];
  byPerson: (UsageLine & { creator: string | null })[];
  byRole: (UsageLine & { role: string })[];
  /** Files per state: queued and copying are waiting; failed and expired could not be kept. */
  states: Record<ResultCopyState, number>;
}

export async function storageUsage(db: Db, store: string): Promise<StorageUsage> {
  const { rows } = await sql<{
    kind: string;
    creator: string | null;
    role: string;
    state: ResultCopyState;
    files: string;
    bytes: string;
  }>`
    select t.kind, t.creator, c.role, c.state, count(*) as files, coalesce(sum(c.size), 0) as bytes
    from result_copies c join tasks t on t.id = c.task_id
    group by t.kind, t.creator, c.role, c.state`.execute(db);
  const states: Record<ResultCopyState, number> = { queued: 0, copying: 0, kept: 0, failed: 0, expired: 0 };
  const kept: UsageLine = { files: 0, bytes: 0 };
  const group = <K extends string>(name: K) => {
    const map = new Map<string | null, UsageLine>();
    return {
      add(key: string | null, line: UsageLine) {
        const entry = map.get(key) ?? { files: 0, bytes: 0 };
        entry.files += line.files;
        entry.bytes += line.bytes;
        map.set(key, entry);
      },
      list: () =>
        [...map.entries()]
          .map(([key, line]) => ({ [name]: key, ...line }) as UsageLine & Record<K, string | null>)
          .sort((a, b) => b.bytes - a.bytes || b.files - a.files),
    };
  };
  const byKind = group('kind');
  const byPerson = group('creator');
  const byRole = group('role');
  for (const row of rows) {
    const files = Number(row.files);
    states[row.state] = (states[row.state] ?? 0) + files;
    if (row.state !== 'kept') continue;
    const line = { files, bytes: Number(row.bytes) };
    kept.files += line.files;
    kept.bytes += line.bytes;
    byKind.add(row.kind, line);
    byPerson.add(row.creator, line);
    byRole.add(row.role, line);
  }
  return {
    store,
    kept,
    byKind: byKind.list() as StorageUsage['byKind'],
    byPerson: byPerson.list() as StorageUsage['byPerson'],
    byRole: byRole.list() as StorageUsage['byRole'],
    states,
  };
}

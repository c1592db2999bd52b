// The row of one kept result file, for whoever serves or zips it (results, a task's download, bulk).
import type { Db } from '../db/database';
import type { ResultCopyRow } from './copy-rows';

/** The copy job's row of `taskId`'s `role` file number `index`, when it is kept (stored and servable). */
export async function keptRow(
  db: Db,
  taskId: string,
  role: string,
  index: number,
): Promise<ResultCopyRow | undefined> {
  return db
    .selectFrom('result_copies')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('role', '=', role)
    .where('idx', '=', index)
    .where('state', '=', 'kept')
    .executeTakeFirst();
}

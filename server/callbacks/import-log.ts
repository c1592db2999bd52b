// Earlier versions kept callbacks in DATA_DIR/callbacks.jsonl. At start that file is read as a
// stream (a log of any size never becomes one string) and copied into the database once: keys make
// a repeated import a no-op, and the file is then renamed so later starts skip it.
import { createReadStream, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import type { CallbackBody } from '../../src/api/schemas';
import type { Db } from '../db/database';
import { CALLBACK_ID_LOCK, LOG_FILE } from './store';

export const IMPORTED_SUFFIX = '.imported';
const BATCH = 500;

interface LogLine {
  receivedAt: string;
  key: string;
  body: CallbackBody;
}

function parse(text: string): LogLine | undefined {
  try {
    const line = JSON.parse(text) as LogLine;
    return line?.body?.data && typeof line.key === 'string' && typeof line.receivedAt === 'string'
      ? line
      : undefined;
  } catch {
    return undefined; // a half-written last line: never acknowledged, so the sender retried it
  }
}

/**
 * Copies DATA_DIR/callbacks.jsonl into the database; resolves to the number of callbacks added.
 * Into an empty table the line numbers become the ids, which the old file log used as SSE event
 * ids, so a browser resumes where it was. Otherwise (a database another instance already filled)
 * they are appended with new ids.
 */
export async function importCallbackLog(db: Db, dataDir: string): Promise<number> {
  const file = join(dataDir, LOG_FILE);
  if (!existsSync(file)) return 0;
  const added = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CALLBACK_ID_LOCK})`.execute(trx);
    const keepIds = !(await trx.selectFrom('callbacks').select('id').limit(1).executeTakeFirst());
    let count = 0;
    let batch: {
      id?: number;
      key: string;
      task_id: string;
      status: string;
      received_at: string;
      body: string;
    }[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const rows = await trx
        .insertInto('callbacks')
        .values(batch)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      count += rows.length;
      batch = [];
    };
    let lineNumber = 0;
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const text of lines) {
      lineNumber++;
      const line = text.trim() ? parse(text) : undefined;
      if (!line) continue;
      batch.push({
        ...(keepIds ? { id: lineNumber } : {}),
        key: line.key,
        task_id: line.body.data.task_id,
        status: line.body.data.status,
        received_at: line.receivedAt,
        body: JSON.stringify(line.body),
      });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    // Explicit ids leave the identity behind; new callbacks continue after the highest one.
    await sql`select setval(pg_get_serial_sequence('callbacks', 'id'), greatest((select max(id) from callbacks), 1), (select count(*) > 0 from callbacks))`.execute(
      trx,
    );
    return count;
  });
  renameSync(file, `${file}${IMPORTED_SUFFIX}`);
  return added;
}

// Earlier versions kept callbacks in DATA_DIR/callbacks.jsonl. At start that file is read as a
// stream, line by line, and copied into the database once, in batches bounded by rows and bytes (a
// log of 600 callbacks of 1 MB once made every start die out of memory): keys make a repeated import
// a no-op, and the file is then renamed so later starts skip it. A file that cannot be imported (a
// damaged line, a line longer than any callback, a body the database refuses) is renamed aside with a
// message saying so, nothing of it is kept, and the server starts without it.
import { createReadStream, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { CallbackBody } from '../../src/api/schemas';
import type { Db } from '../db/database';
import { CALLBACK_ID_LOCK, LOG_FILE } from './store';

export const IMPORTED_SUFFIX = '.imported';
/** Where a file that could not be imported goes (with a time stamp if one is there already). */
export const FAILED_SUFFIX = '.failed';
/** Rows and bytes (of body JSON) of one INSERT: 500 bodies of 1 MB were one 500 MB statement. */
const IMPORT_BATCH_ROWS = 200;
export const IMPORT_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * A line holds one callback (at most 1 MB as received) with its key and time; JSON escaping can
 * make it longer, up to six bytes for one. Anything longer is not a line this console wrote.
 */
const IMPORT_LINE_MAX_BYTES = 8 * 1024 * 1024;

interface LogLine {
  receivedAt: string;
  key: string;
  body: CallbackBody;
}

class ImportError extends Error {}

function parse(text: string): LogLine | undefined {
  try {
    const line = JSON.parse(text) as LogLine;
    return line?.body?.data && typeof line.key === 'string' && typeof line.receivedAt === 'string'
      ? line
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file's lines, one at a time, as text. Unlike readline, a line is never held beyond `maxBytes`:
 * past it the read stops with an ImportError instead of growing a string without end.
 */
async function* linesOf(file: string, maxBytes: number): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let length = 0;
  let lineNumber = 1;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      if (length + end - start > maxBytes)
        throw new ImportError(`line ${lineNumber} is longer than ${maxBytes} bytes`);
      parts.push(chunk.subarray(start, end));
      yield Buffer.concat(parts).toString('utf8');
      parts = [];
      length = 0;
      lineNumber++;
      start = end + 1;
    }
    length += chunk.length - start;
    if (length > maxBytes) throw new ImportError(`line ${lineNumber} is longer than ${maxBytes} bytes`);
    parts.push(chunk.subarray(start));
  }
  if (length) yield Buffer.concat(parts).toString('utf8');
}

function moveAside(file: string): string {
  let target = `${file}${FAILED_SUFFIX}`;
  if (existsSync(target))
    target = `${file}${FAILED_SUFFIX}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, target);
  return target;
}

export interface ImportOptions {
  batchRows?: number;
  batchBytes?: number;
  lineMaxBytes?: number;
}

/**
 * Copies DATA_DIR/callbacks.jsonl into the database; resolves to the number of callbacks added.
 * Into an empty table the line numbers become the ids, which the old file log used as SSE event
 * ids, so a browser resumes where it was. Otherwise (a database another instance already filled)
 * they are appended with new ids. A file that cannot be imported is renamed `callbacks.jsonl.failed`
 * and 0 is returned: the console starts, and says in its log what to do.
 */
export async function importCallbackLog(
  db: Db,
  dataDir: string,
  options: ImportOptions = {},
): Promise<number> {
  const file = join(dataDir, LOG_FILE);
  if (!existsSync(file)) return 0;
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  const batchBytes = options.batchBytes ?? IMPORT_BATCH_BYTES;
  let lineNumber = 0;
  /** The first line of the batch being inserted, for the message when the database refuses it. */
  let batchFirst = 0;
  let added: number;
  try {
    added = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${CALLBACK_ID_LOCK})`.execute(trx);
      const keepIds = !(await trx.selectFrom('callbacks').select('id').limit(1).executeTakeFirst());
      let count = 0;
      let bytes = 0;
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
        bytes = 0;
      };
      // A line that does not parse is allowed only last: a half-written line was never acknowledged,
      // so its sender retried it. Anywhere else the file is damaged, and guessing would lose data.
      let damaged: number | undefined;
      for await (const text of linesOf(file, options.lineMaxBytes ?? IMPORT_LINE_MAX_BYTES)) {
        lineNumber++;
        if (!text.trim()) continue;
        if (damaged !== undefined) throw new ImportError(`line ${damaged} is not a stored callback`);
        const line = parse(text);
        if (!line) {
          damaged = lineNumber;
          continue;
        }
        const body = JSON.stringify(line.body);
        if (batch.length && (batch.length >= batchRows || bytes + body.length > batchBytes)) await flush();
        if (!batch.length) batchFirst = lineNumber;
        batch.push({
          ...(keepIds ? { id: lineNumber } : {}),
          key: line.key,
          task_id: line.body.data.task_id,
          status: line.body.data.status,
          received_at: line.receivedAt,
          body,
        });
        bytes += body.length;
      }
      await flush();
      // Explicit ids leave the identity behind; new callbacks continue after the highest one.
      await sql`select setval(pg_get_serial_sequence('callbacks', 'id'), greatest((select max(id) from callbacks), 1), (select count(*) > 0 from callbacks))`.execute(
        trx,
      );
      return count;
    });
  } catch (error) {
    // Before the first line the database itself failed (unreachable, say): not the file's fault.
    if (!(error instanceof ImportError) && lineNumber === 0) throw error;
    // The transaction is rolled back: nothing of the file is kept, and the next start must not
    // trip over it again (every start died on it before).
    const reason =
      error instanceof ImportError
        ? error.message
        : `the database refused a callback of lines ${batchFirst}-${lineNumber}: ${String((error as Error).message).split('\n')[0]}`;
    const target = moveAside(file);
    console.error(
      `[db] could not import the old callback log ${file} (${reason}); nothing of it was imported. ` +
        `It was moved to ${target} and the console starts without it: repair it and rename it back to ${LOG_FILE} to import it at the next start.`,
    );
    return 0;
  }
  renameSync(file, `${file}${IMPORTED_SUFFIX}`);
  return added;
}

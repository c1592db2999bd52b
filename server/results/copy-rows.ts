// The copy job's SQL on result_copies: claiming due rows, renewing a claim's lease, and writing an
// attempt's outcome. Every write after the claim is fenced by the claim's attempt number, so a
// worker whose lease was taken over (by this or another instance) can no longer write the row.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ResultCopiesTable } from '../db/schema';
import { LINK_LIFETIME_MS } from './queue';

export type ResultCopyRow = Selectable<ResultCopiesTable>;

/** What was stored for one row's file. */
export interface KeptFile {
  key: string;
  size: number;
  sha256: string;
  contentType: string;
}

/**
 * Claims up to `limit` rows that are due (queued and past their wait, or left `copying` by a claim
 * whose lease ran out), each leased for `leaseMs`; `skip locked` lets instances share the queue.
 */
export async function claimDueCopies(db: Db, limit: number, leaseMs: number): Promise<ResultCopyRow[]> {
  const rows = await sql<ResultCopyRow>`
    update result_copies set state = 'copying', attempts = attempts + 1, updated_at = now(),
      lease_until = now() + ${leaseMs} * interval '1 millisecond'
    where id in (
      select id from result_copies
      where (state = 'queued' and next_attempt_at <= now()) or (state = 'copying' and lease_until < now())
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked)
    returning *`.execute(db);
  return rows.rows;
}

/** Links the service no longer keeps: their rows say so instead of being fetched. */
export async function expireStaleCopies(db: Db): Promise<void> {
  const cutoff = new Date(Date.now() - LINK_LIFETIME_MS);
  await sql`
    update result_copies c set state = 'expired', updated_at = now(), lease_until = null,
      error = coalesce(c.error || '; ', '') || 'the service''s link expired before it could be copied'
    from tasks t
    where t.id = c.task_id and c.state = 'queued' and coalesce(t.finished_at, t.created_at) <= ${cutoff}`.execute(
    db,
  );
}

/** Writes the outcome only while this claim still holds the row (its attempt number). */
const fenced = (row: ResultCopyRow) =>
  sql`id = ${row.id} and state = 'copying' and attempts = ${row.attempts}`;

/** Holds the row `leaseMs` longer; false when the claim no longer holds it. */
export async function renewCopyLease(db: Db, row: ResultCopyRow, leaseMs: number): Promise<boolean> {
  const { numAffectedRows } = await sql`
    update result_copies set lease_until = now() + ${leaseMs} * interval '1 millisecond'
    where ${fenced(row)}`.execute(db);
  return Boolean(numAffectedRows);
}

/** Marks the row kept; false when the claim no longer held it (the file's row was not written). */
export async function markCopyKept(db: Db, row: ResultCopyRow, kept: KeptFile): Promise<boolean> {
  const { numAffectedRows } = await sql`
    update result_copies set state = 'kept', store_key = ${kept.key}, size = ${kept.size},
      sha256 = ${kept.sha256}, content_type = ${kept.contentType}, error = null, lease_until = null,
      kept_at = now(), updated_at = now()
    where ${fenced(row)}`.execute(db);
  return Boolean(numAffectedRows);
}

/**
 * A failed attempt: the row waits `nextInMs` and is queued again, or is given up (`final`).
 * `givenBack`: the attempt is not counted (the console was stopping), so the next start takes it as it was.
 */
export async function markCopyFailed(
  db: Db,
  row: ResultCopyRow,
  failure: { message: string; final: boolean; nextInMs: number; givenBack: boolean },
): Promise<void> {
  await sql`
    update result_copies set state = ${failure.final ? 'failed' : 'queued'}, error = ${failure.message},
      lease_until = null, updated_at = now(),
      attempts = ${failure.givenBack ? sql`attempts - 1` : sql`attempts`},
      next_attempt_at = now() + ${failure.nextInMs} * interval '1 millisecond'
    where ${fenced(row)}`.execute(db);
}

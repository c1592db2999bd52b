// The database's tables as Kysely sees them. One schema for PGlite and PostgreSQL: the migrations
// in ./migrations.ts create exactly this.
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { CallbackBody } from '../../src/api/schemas';

/** Read as a Date, written as a Date or an ISO string, filled by the database when omitted. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CallbacksTable {
  /** Event id of the callback stream: assigned in commit order, so SSE resume never skips one. */
  id: Generated<number>;
  /** Idempotency key (task id, status and a hash of the whole body). */
  key: string;
  task_id: string;
  status: string;
  received_at: Timestamp;
  body: JSONColumnType<CallbackBody>;
}

export interface SignedOutSessionsTable {
  id: string;
  /** Epoch milliseconds: the cookie is worthless afterwards, so the row can go. */
  expires_at: number;
}

export interface Schema {
  callbacks: CallbacksTable;
  signed_out_sessions: SignedOutSessionsTable;
}

// The audit log in the database every instance shares: who changed what (sign-ins, roles,
// removals, invitations, boards, settings), newest first, filtered by action and by text.
import { escapeLike } from '../db/escape-like';
import type { Db } from '../db/database';
import type { Identity } from './request-identity';

export interface AuditEntry {
  actor?: Pick<Identity, 'userId' | 'name'> | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
}

export interface AuditFilter {
  action?: string;
  /** Contains, case-insensitive, in the actor's name, the target or the action. */
  q?: string;
  before?: number;
  limit?: number;
}

export interface AuditView {
  id: number;
  at: number;
  actorId: string | null;
  actorName: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

/** Entries per page: 100 unless asked, 1 to 500. */
export const AUDIT_PAGE_MAX = 500;

export interface AuditLog {
  audit(entry: AuditEntry): Promise<void>;
  listAudit(filter?: AuditFilter): Promise<AuditView[]>;
}

/** Writes one entry, on the database or inside the transaction of the change it records. */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actor?.userId ?? null,
      actor_name: entry.actor?.name ?? null,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

export function createAuditLog(db: () => Promise<Db>): AuditLog {
  return {
    async audit(entry) {
      await writeAudit(await db(), entry);
    },
    async listAudit(filter = {}) {
      let query = (await db()).selectFrom('audit_log').selectAll().orderBy('id', 'desc');
      if (filter.action) query = query.where('action', '=', filter.action);
      if (filter.before) query = query.where('id', '<', filter.before);
      if (filter.q) {
        const like = `%${escapeLike(filter.q.toLowerCase())}%`;
        query = query.where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['actor_name']), 'like', like),
            eb(eb.fn('lower', ['target']), 'like', like),
            eb(eb.fn('lower', ['action']), 'like', like),
          ]),
        );
      }
      const rows = await query.limit(Math.min(Math.max(filter.limit ?? 100, 1), AUDIT_PAGE_MAX)).execute();
      return rows.map((row) => ({
        id: row.id,
        at: (row.at as Date).getTime(),
        actorId: row.actor_id,
        actorName: row.actor_name,
        action: row.action,
        target: row.target,
        detail: row.detail,
      }));
    },
  };
}

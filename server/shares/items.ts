// What a share link shows: the live link a token names, and its results, each with the kept files
// a visitor may load. Only succeeded tasks whose image or video is kept in the team's store are
// shown (never the service's own links); each is addressed by a key made from the link and the
// task, so a visitor's page names no task id of the record.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database';
import type { Selectable } from 'kysely';
import type { SharesTable } from '../db/schema';
import { taskTitle } from '../tasks/request-fields';
import { shareTokenHash } from './tokens';
import { boardTaskIds } from '../boards/board-rows';

export type ShareRow = Selectable<SharesTable>;

/** The roles a visitor's page loads: the result itself and a video's poster. */
export const SHARED_ROLES = ['image', 'video', 'thumbnail'] as const;
export type SharedRole = (typeof SHARED_ROLES)[number];

export interface SharedItem {
  /** The item's address on the link (sha256 of the link's id and the task's), never the task id. */
  key: string;
  taskId: string;
  kind: string;
  title: string;
  creator: string | null;
  createdAt: Date;
  language: string | null;
  /** The roles kept in the team's store. */
  kept: SharedRole[];
}

export const itemKey = (shareId: string, taskId: string) =>
  createHash('sha256').update(`${shareId}\n${taskId}`).digest('hex').slice(0, 24);

/** The live link of `token` (not revoked, not expired at `now`), or undefined: all look the same. */
export async function liveShareOf(db: Db, token: string, now: Date): Promise<ShareRow | undefined> {
  return db
    .selectFrom('shares')
    .selectAll()
    .where('token_hash', '=', shareTokenHash(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The shared task ids in the order the board or the request has them. */
export async function sharedTaskIds(db: Db, share: ShareRow): Promise<string[]> {
  if (share.board_id) return boardTaskIds(db, share.board_id);
  const request = await db
    .selectFrom('requests')
    .select('task_ids')
    .where('id', '=', share.request_id!)
    .executeTakeFirst();
  return request?.task_ids ?? [];
}

/** The link's results a visitor sees: succeeded, with an image or a video kept. */
export async function sharedItems(db: Db, share: ShareRow): Promise<SharedItem[]> {
  const ids = await sharedTaskIds(db, share);
  if (!ids.length) return [];
  const [tasks, copies] = await Promise.all([
    db
      .selectFrom('tasks')
      .select(['id', 'kind', 'prompt', 'name', 'params', 'files', 'creator', 'created_at', 'language'])
      .where('id', 'in', ids)
      .where('status', '=', 'SUCCEEDED')
      .execute(),
    db
      .selectFrom('result_copies')
      .select(['task_id', 'role'])
      .where('task_id', 'in', ids)
      .where('idx', '=', 0)
      .where('state', '=', 'kept')
      .where('role', 'in', [...SHARED_ROLES])
      .execute(),
  ]);
  const kept = new Map<string, SharedRole[]>();
  for (const copy of copies)
    kept.set(copy.task_id, [...(kept.get(copy.task_id) ?? []), copy.role as SharedRole]);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  return ids.flatMap((id): SharedItem[] => {
    const task = byId.get(id);
    const roles = kept.get(id) ?? [];
    if (!task || !(roles.includes('image') || roles.includes('video'))) return [];
    return [
      {
        key: itemKey(share.id, id),
        taskId: id,
        kind: task.kind,
        title: taskTitle(task) ?? 'Untitled',
        creator: task.creator,
        createdAt: task.created_at,
        language: task.language,
        kept: roles,
      },
    ];
  });
}

/**
 * The task a link's item key names, when it is one of the link's and succeeded (its kept files are
 * then looked up by role); undefined otherwise. One read of the link's ids, one of the task.
 */
export async function sharedTaskOfKey(db: Db, share: ShareRow, key: string): Promise<string | undefined> {
  const taskId = (await sharedTaskIds(db, share)).find((id) => itemKey(share.id, id) === key);
  if (!taskId) return undefined;
  const task = await db
    .selectFrom('tasks')
    .select('id')
    .where('id', '=', taskId)
    .where('status', '=', 'SUCCEEDED')
    .executeTakeFirst();
  return task?.id;
}

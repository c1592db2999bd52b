// Where a task's result files live: kept in the team's storage (served by the console from
// /__console/results/…, server/results) or still only on the service, whose links stop working
// after about 7 days. The team's record says so per file (`copies` of a task from the server).
import { isRecord } from '@/api/core/is-record';

export const RESULT_ROLES = ['image', 'video', 'thumbnail', 'caption'] as const;
export type ResultRole = (typeof RESULT_ROLES)[number];

export interface ResultCopies {
  /** Kept files by role: same-origin paths. */
  kept: Partial<Record<ResultRole, string>>;
  /** Files whose copy failed or whose link expired before it could be copied. */
  lost: ResultRole[];
  /** Files waiting to be copied. */
  pending: ResultRole[];
  /** Kept copies removed since: by the team's retention (`days`, RESULTS_KEEP_DAYS) or by an admin. */
  removed?: Partial<Record<ResultRole, RemovedCopy>>;
}

export interface RemovedCopy {
  /** The team's retention in days; absent when an admin removed the copy. */
  days?: number;
  /** When it was removed (ms). */
  at?: number;
}

const KEPT_PATH = /^\/__console\/results\/[^/?#]+\/(image|video|thumbnail|caption)\/\d+$/;
const isResultRole = (value: unknown): value is ResultRole =>
  (RESULT_ROLES as readonly unknown[]).includes(value);
const roles = (value: unknown): ResultRole[] => (Array.isArray(value) ? value.filter(isResultRole) : []);

/** The server's `copies`, checked by hand: only the console's own result paths are taken. */
export function parseCopies(value: unknown): ResultCopies | undefined {
  if (!isRecord(value)) return undefined;
  const kept: ResultCopies['kept'] = {};
  if (isRecord(value.kept))
    for (const role of RESULT_ROLES) {
      const path = value.kept[role];
      if (typeof path === 'string' && KEPT_PATH.test(path)) kept[role] = path;
    }
  const removed: NonNullable<ResultCopies['removed']> = {};
  if (isRecord(value.removed))
    for (const role of RESULT_ROLES) {
      const entry = value.removed[role];
      if (!isRecord(entry)) continue;
      removed[role] = {
        ...(wholeNumber(entry.days) && { days: entry.days }),
        ...(wholeNumber(entry.at) && { at: entry.at }),
      };
    }
  return {
    kept,
    lost: roles(value.lost),
    pending: roles(value.pending),
    ...(Object.keys(removed).length > 0 && { removed }),
  };
}

const wholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** The file a task's result is: the image of an image task, the video of the others. */
const mainRole = (kind: string): ResultRole => (kind === 'image_generate' ? 'image' : 'video');

/** The kept file's address on this origin, or undefined when that file is not kept. */
export function keptUrl(copies: ResultCopies | undefined, role: ResultRole): string | undefined {
  const path = copies?.kept[role];
  return path && typeof location !== 'undefined' ? new URL(path, location.origin).href : undefined;
}

/** True when the task's result (its image or video) is in the team's storage. */
export function isResultKept(record: { kind: string; copies?: ResultCopies }): boolean {
  return Boolean(record.copies?.kept[mainRole(record.kind)]);
}

/** True when the result could not be copied (failed, or its link expired first). */
export function isResultLost(record: { kind: string; copies?: ResultCopies }): boolean {
  return Boolean(record.copies?.lost.includes(mainRole(record.kind)));
}

/** The task's result (its image or video) was kept, then removed from the team's storage. */
export function resultRemoved(record: { kind: string; copies?: ResultCopies }): RemovedCopy | undefined {
  return record.copies?.removed?.[mainRole(record.kind)];
}

/** What a removed copy's card says: the team's retention, or an admin. */
export const removedLabel = (removed: RemovedCopy) =>
  removed.days
    ? `Removed after ${removed.days} ${removed.days === 1 ? 'day' : 'days'} (team’s retention)`
    : 'Removed by an admin';

// Callbacks arriving together share one transaction (group commit, server/db/group-commit-queue.ts):
// one disk flush acknowledges them all, which is what makes thousands a second possible with every
// reply sent after its commit. This module sizes the groups; ./group-commit.ts writes one.
import type { CallbackBody } from '../../src/api/schemas';
import { GroupCommitQueue } from '../db/group-commit-queue';
import type { AppendResult } from './log-entry';

/** At most this many callbacks share one transaction, and about this many bytes of them. */
const GROUP_MAX = 200;
const GROUP_MAX_BYTES = 4 * 1024 * 1024;
/**
 * Groups committing at once. The id lock still orders their commits, but while one group waits for
 * its COMMIT the next one's statements travel: with one at a time, half the senders waited for a
 * group they were not in.
 */
const GROUPS_IN_FLIGHT = 2;

/** A callback on its way to the log. */
export interface QueuedCallback {
  body: CallbackBody;
  /** The body as JSON, made once: its size bounds a group, and it is what is stored. */
  text: string;
}

/** How many of the queue's first callbacks make the next group (always at least one). */
function groupSize(queue: readonly { text: string }[]): number {
  let bytes = 0;
  let count = 0;
  while (count < Math.min(queue.length, GROUP_MAX)) {
    bytes += queue[count]!.text.length;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: the queue takes at least one anyway (Math.max(1, size)); the guard says so here.
    if (count > 0 && bytes > GROUP_MAX_BYTES) break;
    count++;
  }
  return count;
}

/** `commit` stores one group in one transaction, answering for each callback in order. */
export function callbackCommitQueue(
  commit: (group: QueuedCallback[]) => Promise<AppendResult[]>,
): GroupCommitQueue<QueuedCallback, AppendResult> {
  return new GroupCommitQueue<QueuedCallback, AppendResult>({
    commit,
    groupSize,
    inFlight: GROUPS_IN_FLIGHT,
    gather: true,
  });
}

// Callbacks arriving together share one transaction (group commit): one disk flush acknowledges
// them all, which is what makes thousands a second possible with every reply sent after its commit.
// This queue forms the groups; ./group-commit.ts writes one.
import type { CallbackBody } from '../../src/api/schemas';
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

/** A callback waiting for its group, with the promise its sender awaits. */
interface Queued {
  body: CallbackBody;
  /** The body as JSON, made once: its size bounds a group, and it is what is stored. */
  text: string;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** How many of the queue's first callbacks make the next group (always at least one). */
function groupSize(queue: readonly { text: string }[]): number {
  let bytes = 0;
  let count = 0;
  while (count < Math.min(queue.length, GROUP_MAX)) {
    bytes += queue[count]!.text.length;
    if (count > 0 && bytes > GROUP_MAX_BYTES) break;
    count++;
  }
  return count;
}

export class CommitQueue {
  private readonly pending: Queued[] = [];
  private writing: Promise<void> | undefined;
  private draining = false;

  /** `commit` stores one group in one transaction, answering for each callback in order. */
  constructor(
    private readonly commit: (items: { body: CallbackBody; text: string }[]) => Promise<AppendResult[]>,
  ) {}

  /** Resolves once the body's group has committed. */
  append(body: CallbackBody): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ body, text: JSON.stringify(body), resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.writing = this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      // Let the requests already received reach the queue first. PGlite runs its queries on this
      // thread, answering within microtasks: without this turn of the event loop every group would
      // be one callback (measured: ~100/s), as the next request is read only after the commit.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.length && running.size < GROUPS_IN_FLIGHT) {
        const group = this.commitBatch(this.pending.splice(0, groupSize(this.pending)));
        running.add(group);
        void group.finally(() => running.delete(group));
      }
      // Cleared in the same step that finds nothing queued or committing: an append arriving after
      // that starts a new drain, never waits on one that is already ending.
      if (!running.size) {
        this.draining = false;
        return;
      }
      // Wait for a group to finish before forming the next: what arrives meanwhile joins it.
      await Promise.race(running);
    }
  }

  /** Settles every caller of the batch; never rejects. */
  private async commitBatch(batch: Queued[]): Promise<void> {
    try {
      const results = await this.commit(batch);
      batch.forEach((item, i) => item.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One bad callback must not fail the others: each alone, in its own transaction.
      for (const item of batch)
        await this.commit([item]).then(([result]) => item.resolve(result!), item.reject);
    }
  }

  /** Resolves when the groups under way have settled. */
  settled(): Promise<void> {
    return this.writing?.catch(() => undefined) ?? Promise.resolve();
  }
}

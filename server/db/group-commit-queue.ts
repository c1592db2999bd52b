// Group commit: writes that arrive together share one transaction, so one disk flush acknowledges
// them all, and each writer is answered only once the transaction holding its item has committed.
// The callback inbox (server/callbacks/commit-queue.ts) and the recorder's changed status answers
// (server/tasks/recorder.ts) queue their writes here.

export interface GroupCommitOptions<T, R> {
  /** Writes one group in one transaction, answering for each item in order. */
  commit(group: T[]): Promise<R[]>;
  /** How many of the queue's first items make the next group (at least one); all of them without it. */
  groupSize?(queue: readonly T[]): number;
  /** The order a group is written in: ids in order, so two writers of several rows cannot deadlock. */
  order?(a: T, b: T): number;
  /** Groups committing at once; 1 without it. */
  inFlight?: number;
  /**
   * Wait one turn of the event loop before forming each group, so the requests already received
   * reach the queue first. PGlite runs its queries on this thread, answering within microtasks:
   * without the turn a burst of requests makes groups of one, as the next request is read only
   * after the commit. Without it the first item is written at once.
   */
  gather?: boolean;
}

interface Queued<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class GroupCommitQueue<T, R> {
  private readonly pending: Queued<T, R>[] = [];
  private writing: Promise<void> | undefined;
  private draining = false;

  constructor(private readonly options: GroupCommitOptions<T, R>) {}

  /** Resolves with the item's answer once its group has committed. */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.writing = this.drain();
      }
    });
  }

  /** Resolves when the groups under way have settled. */
  settled(): Promise<void> {
    return this.writing?.catch(() => undefined) ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    const { gather, inFlight = 1, groupSize } = this.options;
    const running = new Set<Promise<void>>();
    for (;;) {
      if (gather) await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.length && running.size < inFlight) {
        const size = groupSize ? groupSize(this.pending.map((queued) => queued.item)) : this.pending.length;
        const group = this.commitGroup(this.pending.splice(0, Math.max(1, size)));
        running.add(group);
        void group.finally(() => running.delete(group));
      }
      // Cleared in the same step that finds nothing queued or committing: an item added after that
      // starts a new drain, never waits on one that is already ending.
      if (!running.size) {
        this.draining = false;
        return;
      }
      // Wait for a group to finish before forming the next: what arrives meanwhile joins it.
      await Promise.race(running);
    }
  }

  /** Settles every writer of the group; never rejects. */
  private async commitGroup(group: Queued<T, R>[]): Promise<void> {
    const { commit, order } = this.options;
    if (order) group.sort((a, b) => order(a.item, b.item));
    try {
      const results = await commit(group.map((queued) => queued.item));
      group.forEach((queued, i) => queued.resolve(results[i]!));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // One bad item must not fail the others: each alone, in its own transaction.
      for (const queued of group)
        await commit([queued.item]).then(([result]) => queued.resolve(result!), queued.reject);
    }
  }
}

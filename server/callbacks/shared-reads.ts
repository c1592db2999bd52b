/**
 * Reads of the callback log shared by the event streams that ask the same question at once (streams
 * at the same position, woken by the same callback), without ever answering a stream with a read that
 * began before the news that woke it: a read started before a callback committed cannot see it, so
 * a stream handed that read would report "caught up" and miss the callback until the next one.
 */
export class SharedReads<T> {
  private generation = 0;
  private readonly inFlight = new Map<string, Promise<T>>();

  /** Something changed: reads asked for from now on start afresh. */
  changed(): void {
    // Stryker disable next-line UpdateOperator: counting down makes new keys just as well; only a change matters.
    this.generation++;
  }

  /** The read in flight for `key` since the last change, or a new one made by `start`. */
  read(key: string, start: () => Promise<T>): Promise<T> {
    const shared = `${this.generation}:${key}`;
    let read = this.inFlight.get(shared);
    if (!read) {
      read = start().finally(() => this.inFlight.delete(shared));
      this.inFlight.set(shared, read);
    }
    return read;
  }
}

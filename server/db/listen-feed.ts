// A process's one LISTEN on a channel, shared by every open event stream of that process: each
// NOTIFY any instance sends on it is turned into events and told to every subscriber. The channel
// decides how a payload becomes events (at once, or read from the record in a batch).
import type { Database } from './database';

export interface ListenFeed<Event> {
  subscribe(listener: (event: Event) => void): () => void;
  close(): Promise<void>;
}

/** Who a feed tells: how many listen now, and telling each of them one event. */
export interface FeedAudience<Event> {
  readonly size: number;
  tell(event: Event): void;
}

/**
 * Listens on `channel` once the database is open; `hear` is called with each payload and tells the
 * audience, now or later. A database that fails to open leaves a feed that never tells anything.
 */
export function createListenFeed<Event>(
  database: Promise<Database>,
  channel: string,
  hear: (payload: string, audience: FeedAudience<Event>) => void,
): ListenFeed<Event> {
  const listeners = new Set<(event: Event) => void>();
  const audience: FeedAudience<Event> = {
    get size() {
      return listeners.size;
    },
    tell(event) {
      for (const listener of listeners) listener(event);
    },
  };
  const unlisten = database
    .then((db) => db.listen(channel, (payload) => hear(payload, audience)))
    .catch(() => async () => {});
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await (
        await unlisten
      )();
    },
  };
}

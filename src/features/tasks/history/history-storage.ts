// The history's IndexedDB side (idb-keyval, one key per task, in the store media-console/tasks):
// one getAll to load, writes coalesced into batches, and a BroadcastChannel that tells the other
// tabs which ids changed.
import { createStore, delMany, get, setMany, values } from 'idb-keyval';
import type { TaskRecord } from './task-record';

const DB_NAME = 'media-console';
const STORE_NAME = 'tasks';
let cachedDb: ReturnType<typeof createStore> | undefined;
const db = () => (cachedDb ??= createStore(DB_NAME, STORE_NAME));
const channel =
  typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel('media-console:history');

/** Every stored value, unchecked (records carry their own id, so the keys are not read separately). */
export const readAllStored = (): Promise<unknown[]> => values(db());

/** `listener` gets the records another tab wrote (undefined for one it removed). */
export function onOtherTabWrites(
  listener: (changes: [id: string, record: TaskRecord | undefined][]) => void,
) {
  channel?.addEventListener('message', (event: MessageEvent<{ ids?: string[] }>) => {
    const ids = event.data.ids ?? [];
    void Promise.all(ids.map((id) => get<TaskRecord>(id, db()))).then((records) =>
      listener(records.map((record, i) => [ids[i]!, record])),
    );
  });
}

// Writes are coalesced: a burst of poll answers becomes one IndexedDB transaction.
let pendingWrites = new Map<string, TaskRecord | null>();
let flushing: Promise<void> | undefined;

/** Writes records and removes ids in the next batch; `onError` hears of a batch that failed. */
export function persist(
  records: readonly TaskRecord[],
  removed: readonly string[],
  onError: (error: Error) => void,
): Promise<void> {
  for (const record of records) pendingWrites.set(record.id, record);
  for (const id of removed) pendingWrites.set(id, null);
  flushing ??= Promise.resolve().then(async () => {
    const batch = pendingWrites;
    pendingWrites = new Map();
    flushing = undefined;
    const puts: [string, TaskRecord][] = [];
    const dels: string[] = [];
    for (const [id, record] of batch) {
      if (record) puts.push([id, record]);
      else dels.push(id);
    }
    try {
      if (puts.length) await setMany(puts, db());
      if (dels.length) await delMany(dels, db());
      channel?.postMessage({ ids: [...batch.keys()] });
    } catch (error) {
      onError(error as Error);
    }
  });
  return flushing;
}

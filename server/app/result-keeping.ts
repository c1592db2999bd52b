// Result files kept in the team's store (server/results): the store (local or S3), and the copy job
// that copies each finished task's files into it through the outbound guard.
import { sql } from 'kysely';
import type { ServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createCopyJob, type CopyJob } from '../results/copy-job';
import { openResultStore } from '../results/open-store';
import type { ResultStore } from '../results/store';
import { TASKS_CHANNEL } from '../tasks/recorder';

export interface ResultKeeping {
  resultStore: Promise<ResultStore>;
  results: CopyJob;
  /** Tells every instance's Tasks screen that the task's view changed (a file kept or removed). */
  announceTask(taskId: string): void;
}

export function createResultKeeping(
  config: ServerConfig,
  database: Promise<Database>,
  resultFetch: typeof fetch,
  givenStore: ResultStore | undefined,
): ResultKeeping {
  // A kept or removed file changes the task's view: the Tasks screen hears of it like any change.
  const announceTask = (taskId: string) => {
    void database
      .then(({ db }) => sql`select pg_notify(${TASKS_CHANNEL}, ${taskId})`.execute(db))
      .catch(() => undefined);
  };
  const resultStore = givenStore
    ? Promise.resolve(givenStore)
    : openResultStore(config.results, config.dataDir);
  resultStore.catch((error: Error) => console.error(`[results] store: ${error.message}`));
  const results = createCopyJob({
    database,
    store: resultStore,
    fetch: resultFetch,
    maxBytes: config.results?.maxBytes ?? 5000 * 1024 * 1024,
    keepDays: config.results?.keepDays,
    onKept: announceTask,
  });
  return { resultStore, results, announceTask };
}

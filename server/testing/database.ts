// One PGlite per module registry, in memory, loaded from the run's migrated template
// (./pglite-template.ts), emptied before each test: opening it takes about half a second, emptying it
// a few milliseconds. The
// `server` Vitest project shares one registry per worker (isolate: false), so the test files a
// worker runs share this database in turn; a file of the `-isolated` project gets one of its own.
import { sql } from 'kysely';
import { Blob as NodeBlob } from 'node:buffer';
import { MEMORY_URL, openDatabase, type Database } from '../db/database';
import { keptCopyOfTemplate, templateDump } from './pglite-template';

let shared: Promise<Database> | undefined;

export function testDatabase(): Promise<Database> {
  shared ??= openInNode();
  return shared;
}

/** jsdom (component tests) swaps in a Blob without arrayBuffer(); PGlite unpacks extensions with it. */
async function openInNode(): Promise<Database> {
  const pageBlob = globalThis.Blob;
  globalThis.Blob = NodeBlob as typeof Blob;
  try {
    const dump = templateDump();
    if (dump) return await openDatabase({ dataDir: '', databaseUrl: MEMORY_URL, loadDataDir: dump });
    // Without the run's dump (a runner that skipped Vitest's global set-up): a copy on disk, which
    // the files of the registry use in turn, so no file's clean-up may take it.
    return await openDatabase({ dataDir: keptCopyOfTemplate() });
  } finally {
    globalThis.Blob = pageBlob;
  }
}

/** Every table back to empty, identities back to 1. */
export async function resetTestDatabase(): Promise<Database> {
  const database = await testDatabase();
  await sql`truncate callbacks, signed_out_sessions, tasks, task_events, requests, sessions, api_tokens, one_time_links, audit_log, users, spending_limits, limit_holds, result_copies, hidden_tasks, starred_tasks, board_items, boards, task_follows, webhooks, webhook_deliveries, shares, share_guesses, review_decisions, review_comments, sign_in_failures, callback_senders, upload_tallies restart identity`.execute(
    database.db,
  );
  await sql`update follow_brake set not_before = 'epoch', window_start = 'epoch', window_used = 0,
    last_error = null, last_error_at = null`.execute(database.db);
  return database;
}

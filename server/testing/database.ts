// One PGlite per module registry, a copy of the run's migrated template (./pglite-template.ts),
// emptied before each test: opening it takes about a second, emptying it a few milliseconds. The
// `server` Vitest project shares one registry per worker (isolate: false), so the test files a
// worker runs share this database in turn; a file of the `-isolated` project gets one of its own.
import { sql } from 'kysely';
import { Blob as NodeBlob } from 'node:buffer';
import { openDatabase, type Database } from '../db/database';
import { copyOfTemplate, keptCopyOfTemplate } from './pglite-template';

let shared: Promise<Database> | undefined;

/** Set by vitest.config.ts for the projects whose files share one module registry per worker. */
const FILES_SHARE_A_REGISTRY = 'TEST_FILES_SHARE_A_REGISTRY';

export function testDatabase(): Promise<Database> {
  shared ??= openInNode();
  return shared;
}

/** jsdom (component tests) swaps in a Blob without arrayBuffer(); PGlite unpacks extensions with it. */
async function openInNode(): Promise<Database> {
  const pageBlob = globalThis.Blob;
  globalThis.Blob = NodeBlob as typeof Blob;
  try {
    // In a registry the worker's files share (vitest.config.ts) it goes with the run's folder, not
    // with the file that opened it; an isolated file's goes with that file.
    const dataDir = process.env[FILES_SHARE_A_REGISTRY] === '1' ? keptCopyOfTemplate() : copyOfTemplate();
    return await openDatabase({ dataDir });
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

// The recorder writes a status answer only when it changes the record: a transaction per poll
// would hold the proxy to a small part of the service's rate. An answer recorded before costs no
// write; its check time is written later, batched; an answer that changes the record is committed
// before it is acknowledged, so a killed process loses none that it acknowledged.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../db/database';
import { copyOfTemplate } from '../testing/pglite-template';
import { resetTestDatabase } from '../testing/database';
import { createTaskRecorder } from './recorder';

/** The database, with every statement sent through it counted by kind. */
function counted(database: Database) {
  const kinds: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      kinds.push(node.kind);
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  const writes = () => kinds.filter((kind) => kind !== 'SelectQueryNode').length;
  return { database: { ...database, db: database.db.withPlugin(plugin) }, kinds, writes };
}

const RUNNING = { task_id: 'img-1', status: 'RUNNING' };
const DONE = { task_id: 'img-1', status: 'SUCCEEDED', image_url: 'https://media.example/img-1.png' };

describe('status answers', () => {
  let database: Database;
  beforeEach(async () => {
    database = await resetTestDatabase();
  });

  const taskRow = () =>
    database.db.selectFrom('tasks').selectAll().where('id', '=', 'img-1').executeTakeFirstOrThrow();
  const events = () =>
    database.db
      .selectFrom('task_events')
      .select('status')
      .where('task_id', '=', 'img-1')
      .orderBy('id')
      .execute();

  it('an answer recorded before costs no write; its check time is written later, in one statement', async () => {
    const { database: spied, writes } = counted(database);
    const recorder = createTaskRecorder(Promise.resolve(spied));
    expect(await recorder.status('image_generate', 'img-1', RUNNING)).toBe(true);
    const first = await taskRow();
    const written = writes();
    expect(written).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) expect(await recorder.status('image_generate', 'img-1', RUNNING)).toBe(false);
    expect(writes()).toBe(written);
    expect((await taskRow()).updated_at).toEqual(first.updated_at);

    await recorder.flush();
    expect(writes()).toBe(written + 1);
    const after = await taskRow();
    expect(after.last_checked_at!.getTime()).toBeGreaterThanOrEqual(first.last_checked_at!.getTime());
    expect(after.updated_at).toEqual(first.updated_at);
    expect(after.status).toBe('RUNNING');
    // Nothing pending: a second flush writes nothing.
    await recorder.flush();
    expect(writes()).toBe(written + 1);
  });

  it('unchanged(): true only for the text last recorded for the task, not while a write is on; it keeps the check time', async () => {
    const { database: spied, writes } = counted(database);
    const recorder = createTaskRecorder(Promise.resolve(spied));
    const text = JSON.stringify(RUNNING);
    // Nothing recorded yet: the caller must go through status().
    expect(recorder.unchanged('image_generate', 'img-1', text)).toBe(false);
    const writing = recorder.status('image_generate', 'img-1', RUNNING, text);
    // Being written: not yet the recorded answer.
    expect(recorder.unchanged('image_generate', 'img-1', text)).toBe(false);
    await writing;
    const written = writes();

    expect(recorder.unchanged('image_generate', 'img-1', text)).toBe(true);
    // Word for word: the same JSON spaced differently, another kind or another task is not it.
    expect(recorder.unchanged('image_generate', 'img-1', JSON.stringify(RUNNING, null, 1))).toBe(false);
    expect(recorder.unchanged('image_to_video', 'img-1', text)).toBe(false);
    expect(recorder.unchanged('image_generate', 'img-2', text)).toBe(false);
    expect(writes()).toBe(written);

    const before = (await taskRow()).last_checked_at!;
    // The next check must be dated later than the last: wait for the clock to move on.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(before.getTime()), { interval: 1 });
    expect(recorder.unchanged('image_generate', 'img-1', text)).toBe(true);
    await recorder.flush();
    expect(writes()).toBe(written + 1);
    expect((await taskRow()).last_checked_at!.getTime()).toBeGreaterThan(before.getTime());

    // A recorded, B being written: A again is a change (it must be written after B), not unchanged.
    const other = JSON.stringify(DONE);
    const writingOther = recorder.status('image_generate', 'img-1', DONE, other);
    expect(recorder.unchanged('image_generate', 'img-1', text)).toBe(false);
    await writingOther;
    expect(recorder.unchanged('image_generate', 'img-1', other)).toBe(true);
  });

  it('an answer that changes the record is written before it is acknowledged', async () => {
    const recorder = createTaskRecorder(Promise.resolve(database));
    await recorder.status('image_generate', 'img-1', RUNNING);
    expect(await recorder.status('image_generate', 'img-1', DONE)).toBe(true);
    const row = await taskRow();
    expect(row.status).toBe('SUCCEEDED');
    expect(row.result).toMatchObject({ image_url: DONE.image_url });
    expect((await events()).map((event) => event.status)).toEqual(['RUNNING', 'SUCCEEDED']);
    // Back to an answer recorded earlier: a change again (the merge keeps the terminal status).
    expect(await recorder.status('image_generate', 'img-1', RUNNING)).toBe(true);
    expect((await taskRow()).status).toBe('SUCCEEDED');
  });

  it('identical answers arriving together are written once, and each waits for that write', async () => {
    const { database: spied, kinds } = counted(database);
    const recorder = createTaskRecorder(Promise.resolve(spied));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => recorder.status('image_generate', 'img-1', RUNNING)),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'InsertQueryNode').length).toBe(3); // the task, its event, its follow row
    expect((await taskRow()).status).toBe('RUNNING');
  });

  it('after a failed status request the same answer is written again, clearing the error', async () => {
    const recorder = createTaskRecorder(Promise.resolve(database));
    await recorder.status('image_generate', 'img-1', RUNNING);
    await recorder.error('img-1', { kind: 'status', httpStatus: 503, msg: 'busy' });
    expect((await taskRow()).last_error).toMatchObject({ httpStatus: 503 });
    expect(await recorder.status('image_generate', 'img-1', RUNNING)).toBe(true);
    expect((await taskRow()).last_error).toBeNull();
  });

  it('a check time waiting to be written does not clear an error that came after it', async () => {
    const recorder = createTaskRecorder(Promise.resolve(database));
    await recorder.status('image_generate', 'img-1', RUNNING);
    await recorder.status('image_generate', 'img-1', RUNNING);
    await recorder.error('img-1', { kind: 'status', httpStatus: 503, msg: 'busy' });
    await recorder.flush();
    expect((await taskRow()).last_error).toMatchObject({ httpStatus: 503 });
  });
});

describe('changed answers in batches (group commit)', () => {
  let database: Database;
  beforeEach(async () => {
    database = await resetTestDatabase();
  });

  const statusOf = async (id: string) =>
    (await database.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirst())?.status;
  const answer = (id: string) => ({ task_id: id, status: 'SUCCEEDED' });

  it('answers arriving together share a transaction, and each is acknowledged once it is committed', async () => {
    const transactions = vi.spyOn(database.db, 'transaction');
    const recorder = createTaskRecorder(Promise.resolve(database));
    const ids = ['b-1', 'b-2', 'b-3', 'b-4', 'b-5'];
    const seenAtAnswer = await Promise.all(
      ids.map(async (id) => {
        expect(await recorder.status('image_generate', id, answer(id))).toBe(true);
        // Durable before the answer: already in the database when the poll would be answered.
        return statusOf(id);
      }),
    );
    expect(seenAtAnswer).toEqual(ids.map(() => 'SUCCEEDED'));
    // The first at once, the four that came while it was written in one more.
    expect(transactions).toHaveBeenCalledTimes(2);
    transactions.mockRestore();
  });

  it('an answer that cannot be written fails alone; the others of its batch are written', async () => {
    const recorder = createTaskRecorder(Promise.resolve(database));
    const first = recorder.status('image_generate', 'b-0', answer('b-0'));
    // `kind` is required by the record: this one makes its batch's transaction fail.
    const broken = recorder.status(null as never, 'b-bad', answer('b-bad'));
    const others = ['b-6', 'b-7'].map((id) => recorder.status('image_generate', id, answer(id)));
    expect(await first).toBe(true);
    await expect(broken).rejects.toThrow();
    expect(await Promise.all(others)).toEqual([true, true]);
    expect(await statusOf('b-6')).toBe('SUCCEEDED');
    expect(await statusOf('b-7')).toBe('SUCCEEDED');
    expect(await statusOf('b-bad')).toBeUndefined();
  });
});

describe('a killed process', () => {
  let child: ReturnType<typeof spawn> | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it('loses no answer it acknowledged (SIGKILL mid-write)', async () => {
    const dataDir = copyOfTemplate();
    const script = fileURLToPath(new URL('../testing/record-and-die.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: string[] = [];
    const lines = createInterface({ input: child.stdout! });
    const exited = once(child, 'exit');
    for await (const line of lines) {
      if (line.startsWith('acked ')) acked.push(line.slice(6));
      // Killed while it writes on: the next answer is on its way to the database.
      if (acked.length === 30) {
        child.kill('SIGKILL');
        break;
      }
    }
    await exited;
    expect(acked).toHaveLength(30);
    const reopened = await openDatabase({ dataDir });
    try {
      const rows = await reopened.db
        .selectFrom('tasks')
        .select(['id', 'status'])
        .where('id', 'in', acked)
        .execute();
      expect(rows).toHaveLength(acked.length);
      expect(rows.every((row) => row.status === 'SUCCEEDED')).toBe(true);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});

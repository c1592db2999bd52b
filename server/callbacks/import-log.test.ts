import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { resetTestDatabase, testDatabase } from '../testing/database';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import {
  FAILED_SUFFIX,
  IMPORT_BATCH_BYTES,
  IMPORTED_SUFFIX,
  importCallbackLog,
  type ImportOptions,
} from './import-log';
import { callbackKey } from './log-entry';
import { CallbackStore, LOG_FILE } from './store';
import type { CallbackBody } from '../../src/api/schemas';
import { copyTemplateInto } from '../testing/pglite-template';
import { testNodeApp } from '../testing/test-node-app';

const server = testNodeApp('import-log');
const { dataDir } = server;
const line = (body: unknown) =>
  JSON.stringify({ receivedAt: '2026-01-02T03:04:05.000Z', key: callbackKey(body as CallbackBody), body });

beforeEach(async () => {
  await resetTestDatabase();
});
afterEach(() => server.close());
afterAll(server.remove);

describe('importCallbackLog', () => {
  it('copies the file log once, keeping line numbers as ids, then sets the file aside', async () => {
    const { db } = await testDatabase();
    writeFileSync(
      join(dataDir, LOG_FILE),
      [
        line(videoTranslateCallback),
        '',
        line(imageToVideoCallback),
        line(videoTranslateCallback),
        '{"bro',
      ].join('\n'),
    );
    expect(await importCallbackLog(db, dataDir)).toBe(2);
    const store = new CallbackStore(testDatabase());
    // Line numbers were the SSE event ids: a browser that saw id 3 resumes after it.
    expect(
      (await store.since(0)).map((entry) => [entry.id, entry.body.data.task_id, entry.receivedAt]),
    ).toEqual([
      [1, 'vt-1001', '2026-01-02T03:04:05.000Z'],
      [3, 'i2v-2002', '2026-01-02T03:04:05.000Z'],
    ]);
    expect(existsSync(join(dataDir, LOG_FILE))).toBe(false);
    expect(existsSync(join(dataDir, LOG_FILE + IMPORTED_SUFFIX))).toBe(true);
    // New callbacks continue after the highest imported id; an imported one stays a duplicate.
    expect((await store.append(imageGenerateCallback as CallbackBody)).entry.id).toBe(4);
    expect(await store.append(videoTranslateCallback as CallbackBody)).toMatchObject({
      duplicate: true,
      entry: { id: 1 },
    });
    await store.close();
  });

  it('is idempotent: importing the same file again adds nothing', async () => {
    const { db } = await testDatabase();
    const text = [line(videoTranslateCallback), line(imageToVideoCallback)].join('\n') + '\n';
    writeFileSync(join(dataDir, LOG_FILE), text);
    expect(await importCallbackLog(db, dataDir)).toBe(2);
    writeFileSync(join(dataDir, LOG_FILE), text);
    expect(await importCallbackLog(db, dataDir)).toBe(0);
    expect(await importCallbackLog(db, dataDir)).toBe(0); // no file: nothing to do
  });

  it('appends with new ids into a database another instance already filled', async () => {
    const { db } = await testDatabase();
    const store = new CallbackStore(testDatabase());
    await store.append(imageGenerateCallback as CallbackBody);
    writeFileSync(
      join(dataDir, LOG_FILE),
      [line(videoTranslateCallback), line(imageGenerateCallback)].join('\n'),
    );
    expect(await importCallbackLog(db, dataDir)).toBe(1);
    expect((await store.since(0)).map((entry) => [entry.id, entry.body.task_type])).toEqual([
      [1, 'image_generate'],
      [2, 'video_translate'],
    ]);
    await store.close();
  });

  it('reads a log too large to hold as one string as a stream', async () => {
    const { db } = await testDatabase();
    // 2,000 callbacks of ~5 KB each: ~10 MB on disk.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      line({
        ...imageToVideoCallback,
        data: { ...imageToVideoCallback.data, task_id: `i2v-${i}` },
        pad: 'x'.repeat(5000),
      }),
    );
    writeFileSync(join(dataDir, LOG_FILE), lines.join('\n'));
    // V8 refuses strings beyond ~512 MB; the same failure, scaled down: no 4 MB string.
    const toString = Buffer.prototype.toString;
    const spy = vi.spyOn(Buffer.prototype, 'toString').mockImplementation(function (this: Buffer, ...args) {
      if (this.length > 4 * 1024 * 1024)
        throw new Error('Cannot create a string longer than 4 MB (simulated)');
      return toString.apply(this, args as Parameters<Buffer['toString']>);
    });
    try {
      expect(await importCallbackLog(db, dataDir)).toBe(2000);
    } finally {
      spy.mockRestore();
    }
  });
});

/** Strings in a query's tree: the body texts of an INSERT. */
function stringBytes(node: unknown): number {
  if (typeof node === 'string') return node.length;
  if (!node || typeof node !== 'object') return 0;
  return Object.values(node).reduce<number>((sum, value) => sum + stringBytes(value), 0);
}

/** Rows and bytes of every INSERT the import sends. */
function insertSpy() {
  const inserts: { rows: number; bytes: number }[] = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const insert = node as RootOperationNode & { values?: { values?: unknown[] } };
      if (insert.kind === 'InsertQueryNode')
        inserts.push({ rows: insert.values?.values?.length ?? 0, bytes: stringBytes(insert.values) });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, inserts };
}

const padded = (i: number, size: number) =>
  line({
    ...imageToVideoCallback,
    data: { ...imageToVideoCallback.data, task_id: `i2v-${i}` },
    pad: 'x'.repeat(size),
  });

describe('importCallbackLog within bounds', () => {
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => errors.mockRestore());

  const failedFiles = () => readdirSync(dataDir).filter((name) => name.includes(FAILED_SUFFIX));
  const importWith = async (lines: string[], options?: ImportOptions) => {
    const { db } = await testDatabase();
    const spy = insertSpy();
    writeFileSync(join(dataDir, LOG_FILE), lines.join('\n') + '\n');
    const added = await importCallbackLog(db.withPlugin(spy.plugin), dataDir, options);
    return { added, inserts: spy.inserts };
  };
  const bodyLength = (text: string) => JSON.stringify((JSON.parse(text) as { body: unknown }).body).length;

  it('inserts 1 MB callbacks in batches of at most IMPORT_BATCH_BYTES, never 500 at once', async () => {
    // 12 callbacks of ~1 MB: as one statement they would make one of 12 MB (600 of them: 600 MB).
    const lines = Array.from({ length: 12 }, (_, i) => padded(i, 1024 * 1024 - 2000));
    const { added, inserts } = await importWith(lines);
    expect(added).toBe(12);
    expect(inserts.length).toBeGreaterThanOrEqual(3);
    for (const insert of inserts) expect(insert.bytes).toBeLessThanOrEqual(IMPORT_BATCH_BYTES + 64 * 1024);
  });

  it('fills a batch exactly to its byte bound, and one byte less splits it', async () => {
    const lines = Array.from({ length: 4 }, (_, i) => padded(i, 20_000));
    const size = bodyLength(lines[0]!);
    expect(lines.every((text) => bodyLength(text) === size)).toBe(true);
    const atBound = await importWith(lines, { batchBytes: 2 * size });
    expect(atBound.inserts.map((insert) => insert.rows)).toEqual([2, 2]);
    await resetTestDatabase();
    const pastBound = await importWith(lines, { batchBytes: 2 * size - 1 });
    expect(pastBound.inserts.map((insert) => insert.rows)).toEqual([1, 1, 1, 1]);
  });

  it('inserts at most 200 callbacks at once by default', async () => {
    const lines = Array.from({ length: 201 }, (_, i) =>
      line({ ...imageGenerateCallback, data: { ...imageGenerateCallback.data, task_id: `i2is-${i}` } }),
    );
    const { added, inserts } = await importWith(lines);
    expect(added).toBe(201);
    expect(inserts.map((insert) => insert.rows)).toEqual([200, 1]);
  });

  it('takes a line without its key, time or callback data as damaged', async () => {
    const { body, key, receivedAt } = JSON.parse(line(videoTranslateCallback)) as Record<string, unknown>;
    const damaged = [
      JSON.stringify({ body, receivedAt }),
      JSON.stringify({ body, key: 1, receivedAt }),
      JSON.stringify({ body, key }),
      JSON.stringify({ body: { ...(body as object), data: null }, key, receivedAt }),
      'null',
    ];
    for (const text of damaged) {
      errors.mockClear();
      expect((await importWith([text, line(imageToVideoCallback)])).added, text).toBe(0);
      expect(String(errors.mock.calls[0]![0]), text).toContain('line 1 is not a stored callback');
    }
  });

  it('throws when the database fails before the first line, leaving the file where it is', async () => {
    writeFileSync(join(dataDir, LOG_FILE), line(videoTranslateCallback));
    const refusing = {
      transaction: () => ({ execute: () => Promise.reject(new Error('database unreachable')) }),
    } as unknown as Parameters<typeof importCallbackLog>[0];
    await expect(importCallbackLog(refusing, dataDir)).rejects.toThrow('database unreachable');
    expect(existsSync(join(dataDir, LOG_FILE))).toBe(true);
    rmSync(join(dataDir, LOG_FILE));
  });

  it('imports a line exactly at the line limit; one byte longer moves the file aside', async () => {
    const text = padded(1, 5000);
    const length = Buffer.byteLength(text);
    expect(await importWith([text], { lineMaxBytes: length }).then((r) => r.added)).toBe(1);
    await resetTestDatabase();
    expect(await importWith([text], { lineMaxBytes: length - 1 }).then((r) => r.added)).toBe(0);
    expect(existsSync(join(dataDir, LOG_FILE))).toBe(false);
    expect(failedFiles()).toEqual([LOG_FILE + FAILED_SUFFIX]);
    expect(String(errors.mock.calls[0]![0])).toMatch(/line 1 is longer than \d+ bytes.*moved to .*\.failed/);
    expect(await (await testDatabase()).db.selectFrom('callbacks').selectAll().execute()).toEqual([]);
  });

  it('stops reading a line without end at the limit instead of growing one string', async () => {
    const { db } = await testDatabase();
    // 24 MB and no newline, with the default 8 MB limit: never one 24 MB string.
    writeFileSync(join(dataDir, LOG_FILE), Buffer.alloc(24 * 1024 * 1024, 'x'));
    const toString = Buffer.prototype.toString;
    const spy = vi.spyOn(Buffer.prototype, 'toString').mockImplementation(function (this: Buffer, ...args) {
      if (this.length > 9 * 1024 * 1024) throw new Error('a string of more than 9 MB (simulated refusal)');
      return toString.apply(this, args as Parameters<Buffer['toString']>);
    });
    try {
      expect(await importCallbackLog(db, dataDir)).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(failedFiles()).toEqual([LOG_FILE + FAILED_SUFFIX]);
    expect(String(errors.mock.calls[0]![0])).toContain('line 1 is longer than 8388608 bytes');
  });

  it('moves a file with a damaged line in the middle aside, keeping nothing of it', async () => {
    const { added } = await importWith([line(videoTranslateCallback), '{"bro', line(imageToVideoCallback)]);
    expect(added).toBe(0);
    expect(failedFiles()).toEqual([LOG_FILE + FAILED_SUFFIX]);
    expect(String(errors.mock.calls[0]![0])).toContain('line 2 is not a stored callback');
    expect(await (await testDatabase()).db.selectFrom('callbacks').selectAll().execute()).toEqual([]);
  });

  it('moves a file the database refuses aside (a NUL in a body), and a second one beside it', async () => {
    const nul = line({
      ...videoTranslateCallback,
      data: { ...videoTranslateCallback.data, error_message: 'a\u0000b' },
    });
    expect((await importWith([line(imageToVideoCallback), nul])).added).toBe(0);
    expect(String(errors.mock.calls[0]![0])).toMatch(/the database refused a callback of lines 1-2/);
    expect((await importWith([nul])).added).toBe(0);
    expect(failedFiles()).toHaveLength(2);
  });

  it('lets the server start when the old log cannot be imported', async () => {
    writeFileSync(join(dataDir, LOG_FILE), ['{"bro', line(videoTranslateCallback)].join('\n'));
    copyTemplateInto(dataDir);
    // Its own database, opened from DATA_DIR as `npm start` does, which imports the old log.
    const nodeApp = await server.open({ options: { database: undefined } });
    await expect(nodeApp.database).resolves.toBeDefined();
    expect(failedFiles()).toEqual([LOG_FILE + FAILED_SUFFIX]);
  }, 60_000);
});

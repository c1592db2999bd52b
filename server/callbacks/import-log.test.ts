import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { IMPORTED_SUFFIX, importCallbackLog } from './import-log';
import { callbackKey, CallbackStore, LOG_FILE } from './store';
import type { CallbackBody } from '../../src/api/schemas';

let dataDir: string;
const line = (body: unknown) =>
  JSON.stringify({ receivedAt: '2026-01-02T03:04:05.000Z', key: callbackKey(body as CallbackBody), body });

beforeEach(async () => {
  await resetTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'import-log-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

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

// A file refused part-way (too large, over a quota, the disk full) stops being written at once: that
// must never throw where nothing catches it. A write still in flight when the refusal destroys the
// part file fails; unhandled, that is an uncaught exception: in a server, a crash.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { asset } from './media';
import { UploadStore } from './upload-store';

const LIMIT = 100_000;
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A file whose first bytes are a PNG's, arriving in three parts; the last passes LIMIT. */
async function* growingPastTheLimit() {
  const head = new Uint8Array(4096);
  head.set(asset('reference.png').subarray(0, 64));
  yield Buffer.from(head); // its type is known: the part file opens and the head is written
  await new Promise((resolve) => setTimeout(resolve, 50)); // the part file is open
  yield Buffer.alloc(16_000); // written, and still being written when the next part arrives
  yield Buffer.alloc(LIMIT); // past the limit: refused, the part file destroyed under that write
}

it('refuses a file that grows past the limit during a write of it: no uncaught error, no part file left', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'upload-store-'));
  folders.push(dataDir);
  const store = new UploadStore(dataDir, LIMIT, Date.now);
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await store.save(Readable.from(growingPastTheLimit()), 'big.png');
      expect(outcome).toMatchObject({ ok: false, status: 413 });
    }
    // Each answer comes once its part file is closed, after the writes in flight have failed: any
    // that came loose is recorded by now.
    expect(uncaught).toEqual([]);
    expect(readdirSync(join(dataDir, 'uploads'))).toEqual([]);
  } finally {
    process.off('uncaughtException', record);
  }
});

/** A PNG's first bytes, then at once more than LIMIT: refused while its part file may still be opening. */
async function* pastTheLimitAtOnce() {
  const head = new Uint8Array(4096);
  head.set(asset('reference.png').subarray(0, 64));
  yield Buffer.from(head);
  yield Buffer.alloc(LIMIT);
}

it('refuses a file past the limit while its part file is still opening: no part file left', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'upload-store-'));
  folders.push(dataDir);
  const store = new UploadStore(dataDir, LIMIT, Date.now);
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await store.save(Readable.from(pastTheLimitAtOnce()), 'big.png');
    expect(outcome).toMatchObject({ ok: false, status: 413 });
    expect(readdirSync(join(dataDir, 'uploads'))).toEqual([]);
  }
});

// The embedded store: DATA_DIR/results. A file is written to results/.partial under a random name
// and renamed into place once complete, so a crash mid-copy never leaves a half file under a key.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type ResultStore } from './store';

export const RESULTS_FOLDER = 'results';
const PARTIAL = '.partial';

export async function createDiskStore(dataDir: string): Promise<ResultStore> {
  const root = join(dataDir, RESULTS_FOLDER);
  const partial = join(root, PARTIAL);
  await mkdir(partial, { recursive: true });
  // What a crash left half written: the job copies those files again from the start.
  for (const name of await readdir(partial)) await rm(join(partial, name), { force: true });
  const pathOf = (key: string) => {
    assertKey(key);
    return join(root, ...key.split('/'));
  };
  return {
    kind: 'disk',
    async put(key, body) {
      const target = pathOf(key);
      const temporary = join(partial, randomUUID());
      try {
        await pipeline(body, createWriteStream(temporary, { flags: 'wx' }));
        await mkdir(dirname(target), { recursive: true });
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async get(key, range) {
      const path = pathOf(key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch {
        return undefined;
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      if (end < start) return { body: Readable.from([]), length: 0 };
      return { body: createReadStream(path, { start, end }), length: end - start + 1 };
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

// How the callbacks waiting to be stored are cut into groups (one transaction each): at most 200,
// and about 4 MB of bodies, but never none; two groups commit at once.
import { describe, expect, it } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { callbackCommitQueue, type QueuedCallback } from './commit-queue';
import type { AppendResult } from './log-entry';

const MB = 1024 * 1024;

/** Adds every text at once; the sizes of the groups committed, in order, and the most at once. */
async function groups(texts: string[]) {
  const sizes: number[] = [];
  let open = 0;
  let mostAtOnce = 0;
  const queue = callbackCommitQueue(async (group: QueuedCallback[]) => {
    sizes.push(group.length);
    mostAtOnce = Math.max(mostAtOnce, ++open);
    await new Promise((resolve) => setImmediate(resolve));
    open--;
    return group.map((item, id) => ({ entry: { id, receivedAt: '', body: item.body }, duplicate: false }));
  });
  const body = {} as CallbackBody;
  const results: AppendResult[] = await Promise.all(texts.map((text) => queue.add({ body, text })));
  expect(results).toHaveLength(texts.length);
  return { sizes, mostAtOnce };
}

describe('callbackCommitQueue', () => {
  it('groups at most 200 callbacks, two groups committing at once', async () => {
    expect(await groups(Array.from({ length: 401 }, () => '{}'))).toEqual({
      sizes: [200, 200, 1],
      mostAtOnce: 2,
    });
  });

  it('fills a group to exactly 4 MB of bodies; one byte more starts the next, and a larger body goes alone', async () => {
    const mb = 'x'.repeat(MB);
    expect((await groups([mb, mb, mb, mb])).sizes).toEqual([4]);
    expect((await groups([mb, mb, mb, `${mb}x`])).sizes).toEqual([3, 1]);
    expect((await groups(['x'.repeat(4 * MB + 1), '{}'])).sizes).toEqual([1, 1]);
  });
});

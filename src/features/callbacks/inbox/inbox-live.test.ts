import { describe, expect, it } from 'vitest';
import { prependToLog } from './inbox-live';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/parse-callback';

const entry = (id: number) => ({
  id,
  receivedAt: '2026-11-21T05:00:00.000Z',
  body: CALLBACK_EXAMPLES.image_generate,
});
const log = (ids: number[][]) => ({
  pages: ids.map((page) => ({ total: 3, lastId: 3, items: page.map(entry) })),
  pageParams: ids.map((_, i) => (i === 0 ? undefined : ids[i - 1]!.at(-1))),
});

describe('prependToLog', () => {
  it('puts a live callback first and counts it', () => {
    const next = prependToLog(log([[3, 2], [1]]), entry(4));
    expect(next?.pages[0]).toMatchObject({ total: 4, lastId: 4 });
    expect(next?.pages.map((page) => page.items.map((item) => item.id))).toEqual([[4, 3, 2], [1]]);
  });

  it('ignores a callback already listed (catch-up after a reconnect) and an unloaded log', () => {
    const data = log([[3, 2], [1]]);
    expect(prependToLog(data, entry(1))).toBe(data);
    expect(prependToLog(undefined, entry(1))).toBeUndefined();
  });
});

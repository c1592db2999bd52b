// The one LISTEN a process shares: every subscriber is told, a subscriber that left is not, and
// closing stops listening. A stand-in database records the LISTEN, so no PostgreSQL is needed.
import { describe, expect, it, vi } from 'vitest';
import type { Database } from './database';
import { createListenFeed } from './listen-feed';

function standInDatabase() {
  const heard = new Map<string, (payload: string) => void>();
  const unlisten = vi.fn(async () => {});
  const database = {
    listen: vi.fn(async (channel: string, onPayload: (payload: string) => void) => {
      heard.set(channel, onPayload);
      return unlisten;
    }),
  } as unknown as Database;
  /** Delivers a NOTIFY's payload as the database would. */
  const notify = (channel: string, payload: string) => heard.get(channel)?.(payload);
  return { database, notify, unlisten };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('createListenFeed', () => {
  it('tells every subscriber what the channel hears, and none that left', async () => {
    const { database, notify } = standInDatabase();
    const feed = createListenFeed<string>(Promise.resolve(database), 'chan', (payload, audience) => {
      if (payload !== 'ignored') audience.tell(`event:${payload}`);
    });
    await settled();
    const first: string[] = [];
    const second: string[] = [];
    feed.subscribe((event) => first.push(event));
    const leave = feed.subscribe((event) => second.push(event));
    notify('chan', 'a');
    notify('chan', 'ignored');
    notify('other', 'b');
    leave();
    notify('chan', 'c');
    expect(first).toEqual(['event:a', 'event:c']);
    expect(second).toEqual(['event:a']);
  });

  it('says how many listen, so a channel can skip work nobody waits for', async () => {
    const { database, notify } = standInDatabase();
    const sizes: number[] = [];
    const feed = createListenFeed<string>(Promise.resolve(database), 'chan', (_payload, audience) => {
      sizes.push(audience.size);
    });
    await settled();
    notify('chan', 'x');
    const leave = feed.subscribe(() => {});
    feed.subscribe(() => {});
    notify('chan', 'x');
    leave();
    notify('chan', 'x');
    expect(sizes).toEqual([0, 2, 1]);
  });

  it('stops listening and forgets its subscribers on close', async () => {
    const { database, notify, unlisten } = standInDatabase();
    const told: string[] = [];
    const feed = createListenFeed<string>(Promise.resolve(database), 'chan', (payload, audience) =>
      audience.tell(payload),
    );
    feed.subscribe((event) => told.push(event));
    await feed.close();
    expect(unlisten).toHaveBeenCalledTimes(1);
    notify('chan', 'late');
    expect(told).toEqual([]);
  });

  it('closes cleanly when the database never opened', async () => {
    const feed = createListenFeed<string>(Promise.reject(new Error('no database')), 'chan', () => {});
    await expect(feed.close()).resolves.toBeUndefined();
  });
});

// @vitest-environment jsdom
// One event stream per browser: the tab holding the lock streams, the others hear it from that tab.
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callbackKeys } from './inbox-api';
import { startInboxLive } from './inbox-live';
import { FakeEventSource } from '@/testing/fake-event-source';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/parse-callback';
import { emptyHistory } from '@/testing/history';

/** Web Locks with exclusive locks only: the first request holds it, the others wait in order. */
function fakeLocks() {
  let held = false;
  const waiting: (() => void)[] = [];
  return {
    request(_name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>) {
      return new Promise<void>((resolve, reject) => {
        const grant = () => {
          held = true;
          void callback().then(() => {
            held = false;
            waiting.shift()?.();
            resolve();
          });
        };
        if (!held) return grant();
        waiting.push(grant);
        options.signal?.addEventListener('abort', () => {
          waiting.splice(waiting.indexOf(grant), 1);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    },
  };
}

const PATH = '/callbacks/tabs-test-secret-0123456';

function tab() {
  const client = new QueryClient();
  client.setQueryData(callbackKeys.log(PATH), {
    pages: [{ total: 0, lastId: 0, items: [] }],
    pageParams: [undefined],
  });
  const stop = startInboxLive(PATH, client);
  const ids = () =>
    (
      client.getQueryData(callbackKeys.log(PATH)) as { pages: { items: { id: number }[] }[] }
    ).pages[0]!.items.map((item) => item.id);
  return { stop, ids };
}

beforeEach(async () => {
  await emptyHistory();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  Object.defineProperty(navigator, 'locks', { value: fakeLocks(), configurable: true });
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'locks');
});

describe('startInboxLive across tabs', () => {
  it('opens one stream for several tabs and shares its callbacks', async () => {
    const first = tab();
    const second = tab();
    await vi.waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThanOrEqual(1));
    const stream = FakeEventSource.instances[0]!;
    stream.emit('ready', { lastId: 0 });
    stream.emit('callback', {
      id: 1,
      receivedAt: '2026-11-21T05:00:00.000Z',
      body: CALLBACK_EXAMPLES.image_generate,
    });
    await vi.waitFor(() => expect(second.ids()).toEqual([1]));
    expect(first.ids()).toEqual([1]);
    // Both tabs are served by now, and by one stream.
    expect(FakeEventSource.instances).toHaveLength(1);
    // Applied and remembered before the hand-over, so the next tab resumes after it.
    await vi.waitFor(() =>
      expect(localStorage.getItem('media-console:callbacks:position')).toContain('"id":1'),
    );

    // The streaming tab closes: the next one takes over where the browser stopped.
    first.stop();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(stream.closed).toBe(true);
    expect(FakeEventSource.instances[1]!.url).toBe(`${PATH}/events?since=1`);
    second.stop();
  });
});

// @vitest-environment jsdom
// The request notifier against the real Node side (requests and tasks in PGlite in memory), its event
// stream a test double fed with the server's own task answers: one notification per finished request
// of the person's, none for anyone else's or one still running, and one listening tab per browser.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { asPerson, person } from '../../../../server/testing/identity';
import { testNodeApp } from '../../../../server/testing/test-node-app';
import { FakeEventSource } from '@/testing/fake-event-source';
import { startRequestFinishNotifier } from './request-finish-notifier';

const server = testNodeApp('request-notifier');
const ANA = person('Ana');
const shown: { title: string; body?: string; tag?: string }[] = [];

class FakeNotification {
  static permission = 'granted';
  onclick: (() => void) | null = null;
  constructor(title: string, options: { body?: string; tag?: string } = {}) {
    shown.push({ title, ...options });
  }
  close() {}
}

beforeEach(async () => {
  await server.open();
  shown.length = 0;
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => server.request(input, init, asPerson('Ana')));
  // A tab in the background: nobody is looking at the page.
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

async function create(user: string, prompt: string, count: number): Promise<string[]> {
  const res = await server.postJsonAs(user, '/v1/image_generate', { prompt, generate_count: count });
  return ((await res.json()) as { data: { task_ids: string[] } }).data.task_ids;
}

/** The task's status moves on through the server (a poll), and the stream pushes its answer. */
async function finish(id: string, status: 'SUCCEEDED' | 'FAILED') {
  const { db } = server.database;
  await db.updateTable('tasks').set({ status, finished_at: new Date() }).where('id', '=', id).execute();
  const body = (await (await server.request(`/__console/tasks/${id}`)).json()) as { data: { task: unknown } };
  for (const source of FakeEventSource.instances) if (!source.closed) source.emit('task', body.data.task);
}

describe('the request notifier', () => {
  it('tells once per request of mine, when its last task has ended', async () => {
    const decisions: [string, boolean][] = [];
    const stop = startRequestFinishNotifier(ANA.userId, { decided: (...d) => decisions.push(d) });
    const [a, b] = await create('Ana', 'Calm ocean at sunset', 2);
    await finish(a!, 'SUCCEEDED');
    // Its sibling still runs: looked at, not told.
    await waitFor(() => expect(decisions).toEqual([[`req-${a}`, false]]));
    expect(shown).toEqual([]);
    await finish(b!, 'FAILED');
    await waitFor(() => expect(decisions).toHaveLength(2));
    expect(decisions[1]).toEqual([`req-${a}`, true]);
    expect(shown[0]).toEqual({
      title: '1 of 2 images ready, 1 failed',
      body: 'Calm ocean at sunset',
      tag: `request:req-${a}`,
    });
    // The same change pushed again (another instance, a reconnect) is not even looked at again.
    await finish(b!, 'FAILED');
    await finish(a!, 'SUCCEEDED');
    expect(decisions).toHaveLength(2);
    expect(shown).toHaveLength(1);
    stop();
    expect(FakeEventSource.instances.every((source) => source.closed)).toBe(true);
  });

  it("says nothing of someone else's requests, nor while the person is looking at the tab", async () => {
    const decisions: [string, boolean][] = [];
    const stop = startRequestFinishNotifier(ANA.userId, { decided: (...d) => decisions.push(d) });
    const [bens] = await create('Ben', 'A fox', 1);
    await finish(bens!, 'SUCCEEDED');
    // Not Ana's: not even looked at.
    expect(decisions).toEqual([]);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const [mine] = await create('Ana', 'A hare', 1);
    await finish(mine!, 'SUCCEEDED');
    await waitFor(() => expect(decisions).toEqual([[`req-${mine}`, true]]));
    // Finished, but she is looking at the page, which shows it.
    expect(shown).toEqual([]);
    stop();
  });

  it('listens in one tab per browser: the next tab takes over when it closes', async () => {
    // A Web Locks stand-in: one holder at a time, the next waiting in line.
    const queue: (() => void)[] = [];
    let held = false;
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: (_name: string, options: { signal: AbortSignal }, run: () => Promise<void>) =>
          new Promise<void>((resolve) => {
            const start = () => {
              held = true;
              void run().then(() => {
                held = false;
                queue.shift()?.();
                resolve();
              });
            };
            options.signal.addEventListener('abort', () => {
              const index = queue.indexOf(start);
              if (index >= 0) queue.splice(index, 1);
            });
            if (held) queue.push(start);
            else start();
          }),
      },
    });
    const first = startRequestFinishNotifier(ANA.userId);
    const second = startRequestFinishNotifier(ANA.userId);
    expect(FakeEventSource.instances).toHaveLength(1);
    first();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(FakeEventSource.instances[1]!.closed).toBe(false);
    second();
  });
});

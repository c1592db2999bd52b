// @vitest-environment jsdom
// The in-flight cap of status requests: 4 unless the user chose another value (1–16) under Settings,
// and the poller's shared semaphore starts from that setting.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, saveConcurrency, storedConcurrency } from './poll-settings';

const KEY = 'media-console:poll-concurrency';

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  vi.resetModules();
});

describe('poll concurrency setting', () => {
  it('defaults to 4', () => {
    expect(DEFAULT_CONCURRENCY).toBe(4);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(storedConcurrency()).toBe(4);
  });

  it.each(['0', '-1', '17', '2.5', 'abc', ''])('falls back to 4 for a stored %j', (value) => {
    localStorage.setItem(KEY, value);
    expect(storedConcurrency()).toBe(4);
  });

  it('falls back to 4 where there is no localStorage', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(storedConcurrency()).toBe(4);
  });

  it('keeps a chosen value from 1 to 16', () => {
    saveConcurrency(1);
    expect(storedConcurrency()).toBe(1);
    saveConcurrency(MAX_CONCURRENCY);
    expect(storedConcurrency()).toBe(16);
  });
});

describe('the poller', () => {
  it('starts its shared semaphore at 4 when nothing is set', async () => {
    const { pollSemaphore } = await import('./task-polling');
    expect(pollSemaphore.limit).toBe(4);
  });

  it('starts its shared semaphore at the stored value when one is set', async () => {
    localStorage.setItem(KEY, '7');
    const { pollSemaphore } = await import('./task-polling');
    expect(pollSemaphore.limit).toBe(7);
  });

  it('sends at most 4 status requests at once with its default dependencies', async () => {
    // A fresh poller and history, built while nothing is stored.
    const history = await import('@/features/tasks/history/history');
    const { taskStatusQuery } = await import('./task-polling');

    let inFlight = 0;
    let peak = 0;
    const requested: string[] = [];
    const pending: (() => void)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL) => {
        requested.push(String(input));
        inFlight++;
        peak = Math.max(peak, inFlight);
        return new Promise<Response>((resolve) => {
          pending.push(() => {
            inFlight--;
            resolve(
              new Response(
                JSON.stringify({ code: 0, msg: 'ok', data: { task_id: 'x', status: 'PROCESSING' } }),
                {
                  status: 200,
                  headers: { 'content-type': 'application/json' },
                },
              ),
            );
          });
        });
      }),
    );

    const ids = Array.from({ length: 10 }, (_, i) => `i2v-default-cap-${i}`);
    await history.recordCreatedTasks(
      'image_to_video',
      {},
      ids.map((task_id) => ({ task_id })),
    );
    const client = new QueryClient();
    const stops = ids.map((id) =>
      new QueryObserver(client, taskStatusQuery('image_to_video', id)).subscribe(() => {}),
    );
    try {
      await vi.waitFor(() => expect(requested).toHaveLength(4));
      // Give the other six every chance to start: they must wait for a free slot.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(requested).toHaveLength(4);
      expect(peak).toBe(4);
      expect(requested[0]).toMatch(/^\/v1\/image_to_video\/i2v-default-cap-\d$/);

      pending.shift()!();
      await vi.waitFor(() => expect(requested).toHaveLength(5));
      expect(peak).toBe(4);
    } finally {
      stops.forEach((stop) => stop());
      pending.splice(0).forEach((release) => release());
      client.clear();
    }
  });
});

import type { TaskType } from '@/api/schemas';
import { environmentManager, focusManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/errors';
import type { TaskStatusData } from '@/api/endpoints';
import { applyTaskUpdate, getTask, recordCreatedTasks } from '@/features/tasks/history/history';
import { createSemaphore } from './semaphore';
import { needsPolling, taskStatusQuery, type PollerDeps } from './task-polling';
import { describeTask } from '@/features/tasks/shared/task-view';
import { emptyHistory } from '@/testing/history';

/** A fake backend: each task answers a scripted list of statuses over time. */
function fakeBackend(
  script: Record<string, { at: number; status: string; extra?: Record<string, unknown> }[]>,
  start: number,
) {
  const calls: { id: string; at: number }[] = [];
  let inFlight = 0;
  let peak = 0;
  const fetchStatus: PollerDeps['fetchStatus'] = async (_kind, id) => {
    calls.push({ id, at: Date.now() - start });
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the network
    inFlight--;
    const steps = script[id];
    if (!steps)
      throw new ApiError({ kind: 'not_found', httpStatus: 404, code: 100003, msg: `task ${id} not found` });
    const elapsed = Date.now() - start;
    const step = [...steps].reverse().find((s) => s.at <= elapsed) ?? steps[0]!;
    return { task_id: id, status: step.status, ...step.extra } as TaskStatusData;
  };
  return { fetchStatus, calls, peak: () => peak };
}

// Node has no window, so TanStack Query would treat it as a server and schedule no intervals.
environmentManager.setIsServer(() => false);

let client: QueryClient;
const unsubscribers: (() => void)[] = [];

function poll(kind: TaskType, id: string, deps: PollerDeps) {
  const observer = new QueryObserver(client, taskStatusQuery(kind, id, { deps }));
  unsubscribers.push(observer.subscribe(() => {}));
}

async function advance(ms: number) {
  // Step so IndexedDB (real setImmediate) settles between timer ticks.
  for (let t = 0; t < ms; t += 250) {
    await vi.advanceTimersByTimeAsync(250);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  await emptyHistory();
  client = new QueryClient();
});

afterEach(() => {
  focusManager.setFocused(undefined);
  unsubscribers.splice(0).forEach((stop) => stop());
  client.clear();
  vi.useRealTimers();
});

const depsWith = (fetchStatus: PollerDeps['fetchStatus'], limit = 4): PollerDeps => ({
  semaphore: createSemaphore(limit),
  fetchStatus,
  now: () => Date.now(),
  isHidden: () => false,
  unavailableKinds: new Set(),
});

describe('polling', () => {
  it('follows the schedule and sends nothing after a terminal status', async () => {
    const start = Date.now();
    const backend = fakeBackend(
      {
        'i2v-1': [
          { at: 0, status: 'PENDING' },
          { at: 5_000, status: 'PROCESSING' },
          { at: 9_000, status: 'SUCCEEDED', extra: { video_url: 'https://v' } },
        ],
      },
      start,
    );
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-1' }]);
    poll('image_to_video', 'i2v-1', depsWith(backend.fetchStatus));
    await advance(12_000);
    const record = await getTask('i2v-1');
    expect(record?.status).toBe('SUCCEEDED');
    const requests = backend.calls.length;
    // 0, ~2, ~4, ~6, ~8, ~10 s: six requests for a 9 s task at a 2 s interval (no duplicates).
    expect(requests).toBeGreaterThanOrEqual(5);
    expect(requests).toBeLessThanOrEqual(6);
    await advance(120_000);
    expect(backend.calls.length).toBe(requests);
  });

  it('sends no further status requests once a callback reports a terminal status', async () => {
    // The service would keep answering PROCESSING: only the callback can stop the polling.
    const backend = fakeBackend({ 'i2v-cb': [{ at: 0, status: 'PROCESSING' }] }, Date.now());
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-cb' }]);
    poll('image_to_video', 'i2v-cb', depsWith(backend.fetchStatus));
    await advance(5_000);
    expect((await getTask('i2v-cb'))!.status).toBe('PROCESSING');
    expect(backend.calls.length).toBeGreaterThanOrEqual(2); // it was polling every ~2 s

    await applyTaskUpdate(
      'i2v-cb',
      'image_to_video',
      { status: 'SUCCEEDED', video_url: 'https://cdn.test/cb.mp4' },
      'callback',
    );
    const requests = backend.calls.length;
    await advance(120_000); // 60 times the 2 s interval
    expect(backend.calls.length).toBe(requests);
    expect(await getTask('i2v-cb')).toMatchObject({
      status: 'SUCCEEDED',
      lastSource: 'callback',
      result: { video_url: 'https://cdn.test/cb.mp4' },
    });
  });

  it('shows an unknown status verbatim as in progress and keeps polling', async () => {
    const backend = fakeBackend({ 'i2v-2': [{ at: 0, status: 'QUEUED_FOR_REVIEW' }] }, Date.now());
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-2' }]);
    poll('image_to_video', 'i2v-2', depsWith(backend.fetchStatus));
    await advance(10_000);
    const record = (await getTask('i2v-2'))!;
    expect(describeTask(record)).toMatchObject({
      label: 'QUEUED_FOR_REVIEW',
      tone: 'running',
      tab: 'running',
    });
    expect(needsPolling(record)).toBe(true);
    expect(backend.calls.length).toBeGreaterThanOrEqual(4);
  });

  it('keeps at most the in-flight cap of requests across all tasks', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `i2v-cap-${i}`);
    const backend = fakeBackend(
      Object.fromEntries(ids.map((id) => [id, [{ at: 0, status: 'PROCESSING' }]])),
      Date.now(),
    );
    await recordCreatedTasks(
      'image_to_video',
      {},
      ids.map((task_id) => ({ task_id })),
    );
    const deps = depsWith(backend.fetchStatus, 4);
    ids.forEach((id) => poll('image_to_video', id, deps));
    await advance(6_000);
    expect(backend.peak()).toBe(4);
    expect(new Set(backend.calls.map((c) => c.id)).size).toBe(40);
  });

  it('shows not found with the service code and stops polling', async () => {
    const backend = fakeBackend({}, Date.now());
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-nope' }]);
    poll('image_to_video', 'i2v-nope', depsWith(backend.fetchStatus));
    await advance(30_000);
    const record = (await getTask('i2v-nope'))!;
    expect(backend.calls).toHaveLength(1);
    expect(record.lastError).toMatchObject({
      kind: 'not_found',
      code: 100003,
      msg: 'task i2v-nope not found',
    });
    // In progress by its status, as on the server: the card says "Not found".
    expect(describeTask(record)).toMatchObject({ tone: 'not_found', label: 'Not found', tab: 'running' });
    expect(needsPolling(record)).toBe(false);
  });

  it('keeps the last state, marks it stale and backs off on network errors', async () => {
    let online = true;
    const start = Date.now();
    const backend = fakeBackend(
      { 'i2v-3': [{ at: 0, status: 'PROCESSING', extra: { thumbnail_url: 'https://t' } }] },
      start,
    );
    const flaky: PollerDeps['fetchStatus'] = (kind, id, signal) =>
      online
        ? backend.fetchStatus(kind, id, signal)
        : Promise.reject(new ApiError({ kind: 'network', msg: 'The service could not be reached' }));
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-3' }]);
    poll('image_to_video', 'i2v-3', depsWith(flaky));
    await advance(1_000);
    online = false;
    const before = backend.calls.length;
    await advance(30_000);
    const record = (await getTask('i2v-3'))!;
    expect(record.status).toBe('PROCESSING');
    expect(record.result?.thumbnail_url).toBe('https://t');
    expect(describeTask(record).stale).toBe(true);
    expect(backend.calls.length).toBe(before);
    online = true;
    await advance(70_000);
    expect(describeTask((await getTask('i2v-3'))!).stale).toBe(false);
  });

  it('waits 30 s after a 429', async () => {
    let limited = 1;
    const backend = fakeBackend({ 'i2v-4': [{ at: 0, status: 'PENDING' }] }, Date.now());
    const times: number[] = [];
    const start = Date.now();
    const rateLimited: PollerDeps['fetchStatus'] = (kind, id, signal) => {
      times.push(Date.now() - start);
      if (limited-- > 0)
        return Promise.reject(
          new ApiError({ kind: 'rate_limit', httpStatus: 429, msg: 'Rate limit exceeded' }),
        );
      return backend.fetchStatus(kind, id, signal);
    };
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-4' }]);
    poll('image_to_video', 'i2v-4', depsWith(rateLimited));
    await advance(40_000);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(30_000);
  });

  it('comes back after Retry-After, not 30 s: two 429s with Retry-After: 3 cost 6 s, not 90 s', async () => {
    let limited = 2;
    const backend = fakeBackend({ 'i2v-6': [{ at: 0, status: 'PROCESSING' }] }, Date.now());
    const times: number[] = [];
    const start = Date.now();
    const rateLimited: PollerDeps['fetchStatus'] = (kind, id, signal) => {
      times.push(Date.now() - start);
      if (limited-- > 0)
        return Promise.reject(
          new ApiError({
            kind: 'rate_limit',
            httpStatus: 429,
            msg: 'Too Many Requests',
            retryAfterMs: 3_000,
          }),
        );
      return backend.fetchStatus(kind, id, signal);
    };
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-6' }]);
    poll('image_to_video', 'i2v-6', depsWith(rateLimited));
    await advance(8_000);
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(3_000);
    expect(times[1]! - times[0]!).toBeLessThan(4_000);
    expect(times[2]! - times[1]!).toBeLessThan(4_000);
    const record = (await getTask('i2v-6'))!;
    expect(record.status).toBe('PROCESSING');
    expect(describeTask(record).stale).toBe(false);
  });

  it('shows "waiting for callback" when the kind has no status endpoint, asking only once', async () => {
    const calls: string[] = [];
    const missing: PollerDeps['fetchStatus'] = async (_kind, id) => {
      calls.push(id);
      throw new ApiError({ kind: 'unavailable', httpStatus: 404, msg: '404 Not Found' });
    };
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'i2is-1' }, { task_id: 'i2is-2' }]);
    const deps = depsWith(missing, 1);
    poll('image_generate', 'i2is-1', deps);
    poll('image_generate', 'i2is-2', deps);
    await advance(60_000);
    expect(calls).toHaveLength(1);
    const record = (await getTask('i2is-2'))!;
    expect(describeTask(record)).toMatchObject({
      tone: 'waiting',
      label: 'Waiting for callback',
      tab: 'running',
    });
  });

  it('keeps polling while hidden when notifications asked for it, about every 30 s', async () => {
    const backend = fakeBackend({ 'i2v-7': [{ at: 0, status: 'PROCESSING' }] }, Date.now());
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-7' }]);
    const deps = { ...depsWith(backend.fetchStatus), isHidden: () => true };
    const observer = new QueryObserver(
      client,
      taskStatusQuery('image_to_video', 'i2v-7', { deps, background: true }),
    );
    unsubscribers.push(observer.subscribe(() => {}));
    await advance(1_000);
    focusManager.setFocused(false);
    const before = backend.calls.length;
    await advance(95_000);
    const hiddenCalls = backend.calls.length - before;
    expect(hiddenCalls).toBeGreaterThanOrEqual(3);
    expect(hiddenCalls).toBeLessThanOrEqual(4);
  });

  it('pauses while the tab is hidden and resumes on return', async () => {
    const backend = fakeBackend({ 'i2v-5': [{ at: 0, status: 'PROCESSING' }] }, Date.now());
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-5' }]);
    poll('image_to_video', 'i2v-5', depsWith(backend.fetchStatus));
    await advance(1_000);
    focusManager.setFocused(false);
    const before = backend.calls.length;
    await advance(60_000);
    expect(backend.calls.length).toBe(before);
    focusManager.setFocused(true);
    await advance(10_000);
    expect(backend.calls.length).toBeGreaterThan(before);
  });
});

import { clear, createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from './task-record';

// Each test starts as a page does: the history module fresh, reading what IndexedDB holds. A page
// that reloads closes its BroadcastChannel; the modules left behind here would keep theirs and
// answer every write of the new one, so these tests run without the channel (tabs.spec covers it).
vi.stubGlobal('BroadcastChannel', undefined);
let h: typeof import('./history');
let transfer: typeof import('./history-transfer');

/** Simulates a page load: the modules evaluated again, so the history is read from IndexedDB. */
async function reload() {
  vi.resetModules();
  h = await import('./history');
  transfer = await import('./history-transfer');
  await h.loadHistory();
}

beforeEach(async () => {
  await clear(createStore('media-console', 'tasks'));
  await reload();
});

describe('task history', () => {
  it('keeps created tasks across a reload, newest first', async () => {
    await h.recordCreatedTasks('image_generate', { prompt: 'a' }, [{ task_id: 'i2is-1' }]);
    // The two must be created at different milliseconds: wait for the clock to move on.
    const first = Date.now();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(first), { interval: 1 });
    await h.recordCreatedTasks('video_translate', { video_url: 'https://x' }, [
      { task_id: 'vt-1', language: 'English' },
    ]);
    await reload();
    const tasks = await h.listTasks();
    expect(tasks.map((t) => t.id)).toEqual(['vt-1', 'i2is-1']);
    expect(tasks[0]).toMatchObject({
      kind: 'video_translate',
      language: 'English',
      source: 'created',
      status: '',
    });
  });

  it('merges status answers and never lets a running status replace a terminal one', async () => {
    await h.recordCreatedTasks('image_to_video', { prompt: 'p' }, [{ task_id: 'i2v-1' }]);
    await h.applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'PROCESSING', thumbnail_url: 'https://t' },
      'poll',
    );
    await h.applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'SUCCEEDED', video_url: 'https://v', error_message: '' },
      'callback',
    );
    const late = await h.applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'PROCESSING' },
      'poll',
    );
    expect(late.status).toBe('SUCCEEDED');
    expect(late.result).toMatchObject({ thumbnail_url: 'https://t', video_url: 'https://v' });
    expect(late.finishedAt).toBeTypeOf('number');
    await reload();
    expect((await h.getTask('i2v-1'))?.status).toBe('SUCCEEDED');
  });

  it('creates a record for a task it did not know (a callback for another browser)', async () => {
    const record = await h.applyTaskUpdate(
      'vt-9',
      'video_translate',
      { task_id: 'vt-9', status: 'SUCCEEDED', language: 'Korean' },
      'callback',
    );
    expect(record).toMatchObject({
      id: 'vt-9',
      kind: 'video_translate',
      source: 'callback',
      language: 'Korean',
    });
  });

  it('keeps the last known state when a status request fails', async () => {
    await h.recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-2' }]);
    await h.applyTaskUpdate(
      'i2v-2',
      'image_to_video',
      { status: 'PROCESSING', thumbnail_url: 'https://t' },
      'poll',
    );
    await h.recordTaskError('i2v-2', { kind: 'network', httpStatus: 0, msg: 'offline' });
    await reload();
    const record = await h.getTask('i2v-2');
    expect(record?.status).toBe('PROCESSING');
    expect(record?.result?.thumbnail_url).toBe('https://t');
    expect(record?.lastError).toMatchObject({ kind: 'network', msg: 'offline' });
  });

  it('tells listeners once when a task finishes, from any source', async () => {
    const finished: string[] = [];
    const stop = h.onTaskFinished((record, source) =>
      finished.push(`${record.id}:${record.status}:${source}`),
    );
    await h.recordCreatedTasks('image_generate', {}, [{ task_id: 'i2is-5' }]);
    await h.applyTaskUpdate('i2is-5', 'image_generate', { status: 'GENERATING' }, 'poll');
    await h.applyTaskUpdate('i2is-5', 'image_generate', { status: 'FAILED', error_message: 'x' }, 'callback');
    await h.applyTaskUpdate('i2is-5', 'image_generate', { status: 'FAILED', error_message: 'x' }, 'poll');
    stop();
    expect(finished).toEqual(['i2is-5:FAILED:callback']);
  });

  it('notifies subscribers with a new snapshot on every change', async () => {
    let calls = 0;
    const unsubscribe = h.subscribeHistory(() => calls++);
    await h.recordCreatedTasks('image_generate', {}, [{ task_id: 'i2is-6' }]);
    const before = h.historySnapshot();
    await h.updateTask('i2is-6', { status: 'GENERATING' });
    expect(h.historySnapshot()).not.toBe(before);
    expect(h.historySnapshot().tasks[0]?.status).toBe('GENERATING');
    expect(calls).toBeGreaterThanOrEqual(2);
    unsubscribe();
  });

  it('removes tasks for good', async () => {
    await h.recordCreatedTasks('image_generate', {}, [{ task_id: 'a' }, { task_id: 'b' }]);
    await h.removeTasks(['a']);
    await reload();
    expect((await h.listTasks()).map((t) => t.id)).toEqual(['b']);
  });
});

describe('export and import', () => {
  it('round-trips the history through JSON', async () => {
    await h.recordCreatedTasks('image_generate', { prompt: 'cat' }, [{ task_id: 'i2is-1' }]);
    await h.applyTaskUpdate(
      'i2is-1',
      'image_generate',
      { status: 'SUCCEEDED', image_url: 'https://i' },
      'poll',
    );
    const json = await transfer.exportHistory();
    await clear(createStore('media-console', 'tasks'));
    await reload();
    expect(await h.listTasks()).toEqual([]);
    const outcome = await transfer.importHistory(json);
    expect(outcome).toMatchObject({ added: 1, updated: 0, rejected: 0 });
    await reload();
    expect(await h.getTask('i2is-1')).toMatchObject({
      status: 'SUCCEEDED',
      params: { prompt: 'cat' },
      result: { image_url: 'https://i' },
    });
  });

  it('keeps the names of uploaded files, and drops a malformed list rather than the record', async () => {
    const files = [
      { field: 'reference_images[0]', url: 'https://cdn.example/u/1.png', name: 'moodboard.png' },
    ];
    await h.recordCreatedTasks(
      'image_generate',
      { prompt: 'cat', reference_images: ['https://cdn.example/u/1.png'] },
      [{ task_id: 'i2is-f' }, { task_id: 'i2is-g' }],
      { files },
    );
    const exported = JSON.parse(await transfer.exportHistory()) as {
      tasks: { id: string; files?: unknown }[];
    };
    exported.tasks.find((task) => task.id === 'i2is-g')!.files = 'not a list';
    await clear(createStore('media-console', 'tasks'));
    await reload();
    expect(await transfer.importHistory(JSON.stringify(exported))).toMatchObject({ added: 2, rejected: 0 });
    await reload();
    expect((await h.getTask('i2is-f'))?.files).toEqual(files);
    expect((await h.getTask('i2is-g'))?.files).toBeUndefined();
  });

  it('keeps the newer copy of a task on import', async () => {
    await h.recordCreatedTasks('image_generate', {}, [{ task_id: 'x' }]);
    const current = (await h.getTask('x'))!;
    const older = { ...current, status: 'GENERATING', updatedAt: current.updatedAt - 1000 };
    const newer = { ...current, status: 'SUCCEEDED', updatedAt: current.updatedAt + 1000 };
    expect(await h.mergeTasks([older])).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
    expect(await h.mergeTasks([newer])).toMatchObject({ updated: 1 });
    expect((await h.getTask('x'))?.status).toBe('SUCCEEDED');
  });

  it('skips invalid entries and explains why, and refuses files that are not exports', () => {
    const parsed = transfer.parseHistory(
      JSON.stringify({
        tasks: [
          { id: 'a', kind: 'image_generate', createdAt: 1 },
          { id: 'b', kind: 'nope', createdAt: 1 },
        ],
      }),
    );
    expect(parsed.tasks.map((t) => t.id)).toEqual(['a']);
    expect(parsed.rejected).toBe(1);
    expect(parsed.problems[0]).toContain('kind');
    expect(() => transfer.parseHistory('not json')).toThrow('not JSON');
    expect(() => transfer.parseHistory('{"foo":1}')).toThrow('not a task history export');
  });

  it('holds 10,000 tasks: import, reload and list stay fast', async () => {
    const now = Date.now();
    const tasks: TaskRecord[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: `i2v-bench-${i}`,
      kind: 'image_to_video',
      source: 'lookup',
      createdAt: now - i * 1000,
      updatedAt: now,
      status: i % 3 ? 'SUCCEEDED' : 'FAILED',
      result: { video_url: `https://cdn.example.com/${i}.mp4`, error_message: i % 3 ? '' : 'boom' },
    }));
    const started = performance.now();
    await h.mergeTasks(tasks);
    await reload();
    const listed = await h.listTasks();
    const elapsed = performance.now() - started;
    expect(listed).toHaveLength(10_000);
    expect(listed[0]?.id).toBe('i2v-bench-0');
    // Generous for a shared CI machine with the fake IndexedDB; a browser is much faster.
    expect(elapsed).toBeLessThan(10_000);
  });
});

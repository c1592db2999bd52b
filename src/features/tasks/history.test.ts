import { clear, createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyTaskUpdate,
  getTask,
  historySnapshot,
  listTasks,
  loadHistory,
  mergeTasks,
  onTaskFinished,
  recordCreatedTasks,
  recordTaskError,
  removeTasks,
  resetHistoryMemoryForTests,
  subscribeHistory,
  updateTask,
  type TaskRecord,
} from './history';
import { exportHistory, importHistory, parseHistory } from './history-transfer';

beforeEach(async () => {
  await clear(createStore('media-console', 'tasks'));
  resetHistoryMemoryForTests();
});

/** Simulates a page reload: forget memory, read IndexedDB again. */
async function reload() {
  resetHistoryMemoryForTests();
  await loadHistory();
}

describe('task history', () => {
  it('keeps created tasks across a reload, newest first', async () => {
    await recordCreatedTasks('image_generate', { prompt: 'a' }, [{ task_id: 'i2is-1' }]);
    await new Promise((resolve) => setTimeout(resolve, 2));
    await recordCreatedTasks('video_translate', { video_url: 'https://x' }, [
      { task_id: 'vt-1', language: 'English' },
    ]);
    await reload();
    const tasks = await listTasks();
    expect(tasks.map((t) => t.id)).toEqual(['vt-1', 'i2is-1']);
    expect(tasks[0]).toMatchObject({
      kind: 'video_translate',
      language: 'English',
      source: 'created',
      status: '',
    });
  });

  it('merges status answers and never lets a running status replace a terminal one', async () => {
    await recordCreatedTasks('image_to_video', { prompt: 'p' }, [{ task_id: 'i2v-1' }]);
    await applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'PROCESSING', thumbnail_url: 'https://t' },
      'poll',
    );
    await applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'SUCCEEDED', video_url: 'https://v', error_message: '' },
      'callback',
    );
    const late = await applyTaskUpdate(
      'i2v-1',
      'image_to_video',
      { task_id: 'i2v-1', status: 'PROCESSING' },
      'poll',
    );
    expect(late.status).toBe('SUCCEEDED');
    expect(late.result).toMatchObject({ thumbnail_url: 'https://t', video_url: 'https://v' });
    expect(late.finishedAt).toBeTypeOf('number');
    await reload();
    expect((await getTask('i2v-1'))?.status).toBe('SUCCEEDED');
  });

  it('creates a record for a task it did not know (a callback for another browser)', async () => {
    const record = await applyTaskUpdate(
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
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'i2v-2' }]);
    await applyTaskUpdate(
      'i2v-2',
      'image_to_video',
      { status: 'PROCESSING', thumbnail_url: 'https://t' },
      'poll',
    );
    await recordTaskError('i2v-2', { kind: 'network', httpStatus: 0, msg: 'offline' });
    await reload();
    const record = await getTask('i2v-2');
    expect(record?.status).toBe('PROCESSING');
    expect(record?.result?.thumbnail_url).toBe('https://t');
    expect(record?.lastError).toMatchObject({ kind: 'network', msg: 'offline' });
  });

  it('tells listeners once when a task finishes, from any source', async () => {
    const finished: string[] = [];
    const stop = onTaskFinished((record, source) => finished.push(`${record.id}:${record.status}:${source}`));
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'i2is-5' }]);
    await applyTaskUpdate('i2is-5', 'image_generate', { status: 'GENERATING' }, 'poll');
    await applyTaskUpdate('i2is-5', 'image_generate', { status: 'FAILED', error_message: 'x' }, 'callback');
    await applyTaskUpdate('i2is-5', 'image_generate', { status: 'FAILED', error_message: 'x' }, 'poll');
    stop();
    expect(finished).toEqual(['i2is-5:FAILED:callback']);
  });

  it('notifies subscribers with a new snapshot on every change', async () => {
    let calls = 0;
    const unsubscribe = subscribeHistory(() => calls++);
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'i2is-6' }]);
    const before = historySnapshot();
    await updateTask('i2is-6', { status: 'GENERATING' });
    expect(historySnapshot()).not.toBe(before);
    expect(historySnapshot().tasks[0]?.status).toBe('GENERATING');
    expect(calls).toBeGreaterThanOrEqual(2);
    unsubscribe();
  });

  it('removes tasks for good', async () => {
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'a' }, { task_id: 'b' }]);
    await removeTasks(['a']);
    await reload();
    expect((await listTasks()).map((t) => t.id)).toEqual(['b']);
  });
});

describe('export and import', () => {
  it('round-trips the history through JSON', async () => {
    await recordCreatedTasks('image_generate', { prompt: 'cat' }, [{ task_id: 'i2is-1' }]);
    await applyTaskUpdate(
      'i2is-1',
      'image_generate',
      { status: 'SUCCEEDED', image_url: 'https://i' },
      'poll',
    );
    const json = await exportHistory();
    await clear(createStore('media-console', 'tasks'));
    await reload();
    expect(await listTasks()).toEqual([]);
    const outcome = await importHistory(json);
    expect(outcome).toMatchObject({ added: 1, updated: 0, rejected: 0 });
    await reload();
    expect(await getTask('i2is-1')).toMatchObject({
      status: 'SUCCEEDED',
      params: { prompt: 'cat' },
      result: { image_url: 'https://i' },
    });
  });

  it('keeps the names of uploaded files, and drops a malformed list rather than the record', async () => {
    const files = [
      { field: 'reference_images[0]', url: 'https://cdn.example/u/1.png', name: 'moodboard.png' },
    ];
    await recordCreatedTasks(
      'image_generate',
      { prompt: 'cat', reference_images: ['https://cdn.example/u/1.png'] },
      [{ task_id: 'i2is-f' }, { task_id: 'i2is-g' }],
      { files },
    );
    const exported = JSON.parse(await exportHistory()) as { tasks: { id: string; files?: unknown }[] };
    exported.tasks.find((task) => task.id === 'i2is-g')!.files = 'not a list';
    await clear(createStore('media-console', 'tasks'));
    await reload();
    expect(await importHistory(JSON.stringify(exported))).toMatchObject({ added: 2, rejected: 0 });
    await reload();
    expect((await getTask('i2is-f'))?.files).toEqual(files);
    expect((await getTask('i2is-g'))?.files).toBeUndefined();
  });

  it('keeps the newer copy of a task on import', async () => {
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'x' }]);
    const current = (await getTask('x'))!;
    const older = { ...current, status: 'GENERATING', updatedAt: current.updatedAt - 1000 };
    const newer = { ...current, status: 'SUCCEEDED', updatedAt: current.updatedAt + 1000 };
    expect(await mergeTasks([older])).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
    expect(await mergeTasks([newer])).toMatchObject({ updated: 1 });
    expect((await getTask('x'))?.status).toBe('SUCCEEDED');
  });

  it('skips invalid entries and explains why, and refuses files that are not exports', () => {
    const parsed = parseHistory(
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
    expect(() => parseHistory('not json')).toThrow('not JSON');
    expect(() => parseHistory('{"foo":1}')).toThrow('not a task history export');
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
    await mergeTasks(tasks);
    await reload();
    const listed = await listTasks();
    const elapsed = performance.now() - started;
    expect(listed).toHaveLength(10_000);
    expect(listed[0]?.id).toBe('i2v-bench-0');
    // Generous for a shared CI machine with the fake IndexedDB; a browser is much faster.
    expect(elapsed).toBeLessThan(10_000);
  });
});

// The offline view (filterTasks): kind filter, tab counts and search over this browser's history.
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { describeTask, filterTasks, requestedRatio, resultAspectRatio } from './task-view';
import type { TaskViewQuery } from '@/api/task-view/task-view-rule';

function task(partial: Partial<TaskRecord> & Pick<TaskRecord, 'id' | 'kind' | 'status'>): TaskRecord {
  return { source: 'created', createdAt: 1, updatedAt: 1, ...partial };
}

// Newest first, as the history hands them to the gallery.
const TASKS: readonly TaskRecord[] = [
  task({
    id: 'i2is-1001',
    kind: 'image_generate',
    status: 'SUCCEEDED',
    params: { prompt: 'A red fox in the snow' },
  }),
  task({
    id: 'i2v-1002',
    kind: 'image_to_video',
    status: 'PROCESSING',
    params: { prompt: 'Slow zoom on mountains' },
  }),
  task({
    id: 'vt-1003',
    kind: 'video_translate',
    status: 'FAILED',
    language: 'Japanese',
    result: { task_id: 'vt-1003', status: 'FAILED', name: 'Holiday tour' },
  }),
  task({
    id: 'vt-1004',
    kind: 'video_translate',
    status: 'SUCCEEDED',
    language: 'French',
    params: { name: 'Quarterly update' },
  }),
  task({
    id: 'i2v-1005',
    kind: 'image_to_video',
    status: '',
    source: 'lookup',
    lastError: { kind: 'not_found', httpStatus: 404, code: 100003, msg: 'task not found', at: 1 },
  }),
  task({
    id: 'i2is-1006',
    kind: 'image_generate',
    status: 'GENERATING',
    params: { prompt: 'A calm lake at dawn' },
  }),
];

const ids = (records: readonly TaskRecord[]) => records.map((record) => record.id);
const run = ({ search, ...filters }: Partial<TaskViewQuery> & { search?: string }, me?: string) =>
  filterTasks(TASKS, { tab: 'all', q: search, ...filters }, me);

describe('filterTasks', () => {
  it('shows everything, in order, with a count per tab', () => {
    const { counts, shown } = run({});
    expect(ids(shown)).toEqual(ids(TASKS));
    // The status alone decides, as on the server: not found ('' for a status) is still in progress.
    expect(counts).toEqual({ all: 6, running: 3, succeeded: 2, failed: 1 });
  });

  it('shows one tab while the counts still cover every tab', () => {
    expect(ids(run({ tab: 'running' }).shown)).toEqual(['i2v-1002', 'i2v-1005', 'i2is-1006']);
    expect(ids(run({ tab: 'succeeded' }).shown)).toEqual(['i2is-1001', 'vt-1004']);
    expect(ids(run({ tab: 'failed' }).shown)).toEqual(['vt-1003']);
    expect(run({ tab: 'failed' }).counts).toEqual({ all: 6, running: 3, succeeded: 2, failed: 1 });
  });

  it('filters by kind, and counts only that kind', () => {
    const translations = run({ kind: 'video_translate' });
    expect(ids(translations.shown)).toEqual(['vt-1003', 'vt-1004']);
    expect(translations.counts).toEqual({ all: 2, running: 0, succeeded: 1, failed: 1 });

    const videos = run({ kind: 'image_to_video' });
    expect(ids(videos.shown)).toEqual(['i2v-1002', 'i2v-1005']);
    expect(videos.counts).toEqual({ all: 2, running: 2, succeeded: 0, failed: 0 });

    expect(ids(run({ kind: 'image_generate', tab: 'running' }).shown)).toEqual(['i2is-1006']);
  });

  it.each([
    ['a whole task id', 'i2v-1005', ['i2v-1005']],
    ['part of a task id, in any case', 'I2IS-', ['i2is-1001', 'i2is-1006']],
    ['the prompt', 'red fox', ['i2is-1001']],
    ['the name from the result', 'holiday tour', ['vt-1003']],
    ['the name from the request', 'QUARTERLY', ['vt-1004']],
    ['the language', 'french', ['vt-1004']],
    ['the other language', 'Japanese', ['vt-1003']],
    ['a query with spaces around it', '  calm lake ', ['i2is-1006']],
  ])('finds tasks by %s', (_what, search, expected) => {
    const { shown, counts } = run({ search });
    expect(ids(shown)).toEqual(expected);
    expect(counts.all).toBe(expected.length);
  });

  it('counts the tabs over the search results', () => {
    expect(run({ search: 'i2v-' }).counts).toEqual({ all: 2, running: 2, succeeded: 0, failed: 0 });
  });

  it('finds nothing for a miss, with every count at zero', () => {
    const { shown, counts } = run({ search: 'no task looks like this' });
    expect(shown).toEqual([]);
    expect(counts).toEqual({ all: 0, running: 0, succeeded: 0, failed: 0 });
  });

  it('applies kind and search together', () => {
    expect(ids(run({ search: 'fox', kind: 'image_to_video' }).shown)).toEqual([]);
    expect(ids(run({ search: 'fox', kind: 'image_generate' }).shown)).toEqual(['i2is-1001']);
  });
});

describe("the offline view's creator", () => {
  it('takes the tasks this browser created as made by its name: Mine and a search by name find them', () => {
    // i2v-1005 was looked up, not created here: its creator is unknown offline.
    const mine = run({ creator: 'Ada' }, 'Ada');
    expect(ids(mine.shown)).toEqual(['i2is-1001', 'i2v-1002', 'vt-1003', 'vt-1004', 'i2is-1006']);
    expect(ids(run({ search: 'ada' }, 'Ada').shown)).toEqual(ids(mine.shown));
    expect(ids(run({ creator: 'Grace' }, 'Ada').shown)).toEqual([]);
  });

  it('does not search the status (the tabs are for that)', () => {
    expect(ids(run({ search: 'succeeded' }).shown)).toEqual([]);
    expect(ids(run({ search: 'processing' }).shown)).toEqual([]);
  });
});

describe('the shape a result will have', () => {
  const image = (params?: unknown, result?: Record<string, unknown>) =>
    task({ id: 'i2is-1', kind: 'image_generate', status: 'SUCCEEDED', params, result });

  it.each([
    ['the ratio an image task asked for', image({ prompt: 'x', image_ratio: '4:3' }), '4:3'],
    ['the documented default (9:16) when its request left it out', image({ prompt: 'x' }), '9:16'],
    [
      'nothing for a ratio the interface does not allow',
      image({ prompt: 'x', image_ratio: '7:5' }),
      undefined,
    ],
    ['nothing for a task whose request is unknown (looked up by id)', image(undefined), undefined],
    [
      'the aspect ratio an image-to-video task asked for',
      task({ id: 'v', kind: 'image_to_video', status: 'PENDING', params: { aspect_ratio: '9:16' } }),
      '9:16',
    ],
    [
      "the provider's default (16:9) for an image-to-video request without one",
      task({ id: 'v', kind: 'image_to_video', status: 'PENDING', params: { prompt: 'x' } }),
      '16:9',
    ],
    [
      'nothing for a translation, which keeps its video’s shape',
      task({ id: 't', kind: 'video_translate', status: 'PENDING', params: { name: 'x' } }),
      undefined,
    ],
  ])('%s', (_, record, ratio) => {
    expect(requestedRatio(record)).toBe(ratio);
  });

  it("prefers the result's own size to the ratio asked for", () => {
    const record = image({ prompt: 'x', image_ratio: '1:1' }, { width: 1200, height: 900 });
    expect(resultAspectRatio(record, describeTask(record))).toBe('1200 / 900');
    const asked = image({ prompt: 'x', image_ratio: '3:2' });
    expect(resultAspectRatio(asked, describeTask(asked))).toBe('3 / 2');
  });
});

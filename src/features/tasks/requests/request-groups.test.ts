// The "By request" grouping: one entry per request where its first matching task falls, with all
// its tasks (the record's, laid over by fresher loaded copies); tasks of no request and one-task
// requests stay single; the feed's pushes reach a request's tasks that the filters leave out.
import { describe, expect, it } from 'vitest';
import { groupByRequest, requestProgress, requestsOfPages } from './request-groups';
import { mergeIntoRequests } from '@/features/tasks/team/team-merge';
import { mergePushedTask } from '@/features/tasks/team/team-merge';
import type { TaskPage, TeamRequest, TeamTask } from '@/features/tasks/team/team-tasks';

const task = (id: string, fields: Partial<TeamTask> = {}): TeamTask => ({
  id,
  kind: 'image_generate',
  source: 'created',
  status: 'PROCESSING',
  result: {},
  createdAt: 1000,
  updatedAt: 1000,
  ...fields,
});

const request = (id: string, tasks: TeamTask[], fields: Partial<TeamRequest> = {}): TeamRequest => ({
  id,
  kind: tasks[0]!.kind,
  createdAt: tasks[0]!.createdAt,
  title: 'red bicycle',
  creator: 'Ana',
  tasks,
  ...fields,
});

const imageIds = ['i2is-a', 'i2is-b', 'i2is-c', 'i2is-d'];
const images = imageIds.map((id) =>
  task(id, { requestId: 'req-i2is-a', batch: imageIds, title: 'red bicycle' }),
);

describe('groupByRequest', () => {
  it('four images of one request are one entry with the four in creation order; a lone task stays one', () => {
    const lookedUp = task('i2is-z', { createdAt: 500 });
    // Newest first, as the server lists them (same created_at: id descending).
    const items = [...images].reverse().concat(lookedUp);
    const entries = groupByRequest(
      items,
      requestsOfPages([{ items, nextCursor: null, requests: [request('req-i2is-a', images)] }]),
    );
    expect(entries.map((entry) => entry.key)).toEqual(['request:req-i2is-a', 'i2is-z']);
    expect(entries[0]!.request!.tasks.map((each) => each.id)).toEqual(imageIds);
    expect(entries[1]!.task).toBe(lookedUp);
  });

  it('a filter that matches one task of a request shows the request whole, once', () => {
    const german = task('vt-2', {
      kind: 'video_translate',
      language: 'German',
      requestId: 'req-vt-1',
      status: 'FAILED',
    });
    const japanese = task('vt-1', {
      kind: 'video_translate',
      language: 'Japanese',
      requestId: 'req-vt-1',
      status: 'SUCCEEDED',
    });
    const known = new Map([['req-vt-1', request('req-vt-1', [japanese, german])]]);
    const entries = groupByRequest([german], known);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.request!.tasks.map((each) => [each.language, each.status])).toEqual([
      ['Japanese', 'SUCCEEDED'],
      ['German', 'FAILED'],
    ]);
  });

  it('a request split across two pages is one card, where its first task is; the fresher copy of a task wins', () => {
    const fresher = { ...images[3]!, status: 'SUCCEEDED', updatedAt: 2000 };
    const pages: TaskPage[] = [
      { items: [fresher, images[2]!], nextCursor: 'x', requests: [request('req-i2is-a', images)] },
      { items: [images[1]!, images[0]!], nextCursor: null, requests: [request('req-i2is-a', images)] },
    ];
    const entries = groupByRequest(
      pages.flatMap((page) => page.items),
      requestsOfPages(pages),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]!.request!.tasks[3]!.status).toBe('SUCCEEDED');
  });

  it('a request the pages do not describe yet (pushed by the feed) is made of the loaded tasks', () => {
    const entries = groupByRequest([images[1]!, images[0]!], new Map());
    expect(entries).toHaveLength(1);
    expect(entries[0]!.request).toMatchObject({
      id: 'req-i2is-a',
      title: 'red bicycle',
      kind: 'image_generate',
    });
    expect(entries[0]!.request!.tasks.map((each) => each.id)).toEqual(['i2is-a', 'i2is-b']);
  });

  it('a request of one task is a task card', () => {
    const one = task('i2is-q', { requestId: 'req-i2is-q' });
    const entries = groupByRequest([one], new Map([['req-i2is-q', request('req-i2is-q', [one])]]));
    expect(entries).toEqual([{ key: 'i2is-q', task: one }]);
  });
});

describe('live: a pushed task reaches its request', () => {
  it('updates a task of a request on a page, even one the filters left out of its items', () => {
    const german = task('vt-2', { kind: 'video_translate', requestId: 'req-vt-1' });
    const japanese = task('vt-1', { kind: 'video_translate', requestId: 'req-vt-1', status: 'FAILED' });
    const page: TaskPage = {
      items: [japanese],
      nextCursor: null,
      requests: [request('req-vt-1', [japanese, german])],
    };
    const done = { ...german, status: 'SUCCEEDED', updatedAt: 3000 };
    const data = mergePushedTask({ pages: [page], pageParams: [undefined] }, done, {
      tab: 'failed',
      group: 'request',
    });
    expect(data.pages[0]!.items).toEqual([japanese]); // it does not match "Failed"
    expect(data.pages[0]!.requests![0]!.tasks[1]!.status).toBe('SUCCEEDED');
  });

  it('an older copy changes nothing; a page without the request is the same object', () => {
    const newer = { ...images[0]!, updatedAt: 5000, status: 'SUCCEEDED' };
    const page: TaskPage = { items: [], nextCursor: null, requests: [request('req-i2is-a', [newer])] };
    expect(mergeIntoRequests(page, images[0]!)).toBe(page);
    const other: TaskPage = { items: [], nextCursor: null, requests: [] };
    expect(mergeIntoRequests(other, newer)).toBe(other);
  });
});

describe('requestProgress', () => {
  it('counts done, failed and the rest as running', () => {
    const tasks = [
      task('a', { status: 'SUCCEEDED' }),
      task('b', { status: 'FAILED' }),
      task('c'),
      task('d', { status: 'QUEUED' }),
    ];
    expect(requestProgress(request('r', tasks))).toEqual({ total: 4, succeeded: 1, failed: 1, running: 2 });
  });
});

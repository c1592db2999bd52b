import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { matchesQuery, mergePushedTask, overlayLocal } from './team-merge';
import type { TaskPage, TeamQuery, TeamTask } from './team-tasks';

const task = (id: string, createdAt: number, extra: Partial<TeamTask> = {}): TeamTask => ({
  id,
  kind: 'image_generate',
  source: 'created',
  status: 'PENDING',
  result: {},
  createdAt,
  updatedAt: createdAt,
  creator: 'Ada',
  ...extra,
});

const pages = (...lists: [TeamTask[], string | null][]) => ({
  pages: lists.map(([items, nextCursor]): TaskPage => ({ items, nextCursor })),
  pageParams: lists.map((_, i) => (i ? `c${i}` : undefined)),
});
const ids = (data: ReturnType<typeof pages>) => data.pages.map((page) => page.items.map((t) => t.id));
const ALL: TeamQuery = { tab: 'all' };

describe('the server filter, applied to a pushed task', () => {
  it('matches kind, creator, tab and a case-insensitive search over id, prompt, name, language and creator', () => {
    const t = task('i2is-abc', 1, { prompt: 'A Cat', language: 'German', creator: 'Grace' });
    expect(matchesQuery(t, { tab: 'running', kind: 'image_generate', creator: 'Grace', q: 'cat' })).toBe(
      true,
    );
    expect(matchesQuery(t, { tab: 'all', q: 'GRACE' })).toBe(true);
    expect(matchesQuery(t, { tab: 'all', q: 'germ' })).toBe(true);
    expect(matchesQuery(t, { tab: 'all', q: 'abc' })).toBe(true);
    expect(matchesQuery(t, { tab: 'all', q: 'dog' })).toBe(false);
    expect(matchesQuery(t, { tab: 'succeeded' })).toBe(false);
    expect(matchesQuery(t, { tab: 'all', creator: 'Ada' })).toBe(false);
    expect(matchesQuery(t, { tab: 'all', kind: 'video_translate' })).toBe(false);
  });
});

describe('a pushed task merged into the loaded pages', () => {
  it('inserts a new task at the top, newest first', () => {
    const data = pages([[task('b', 20), task('a', 10)], 'c1']);
    expect(ids(mergePushedTask(data, task('c', 30), ALL))).toEqual([['c', 'b', 'a']]);
  });

  it('places a task created in the same millisecond as others by its id, as the server orders them', () => {
    const data = pages([[task('c', 20), task('a', 20)], null]);
    expect(ids(mergePushedTask(data, task('b', 20), ALL))).toEqual([['c', 'b', 'a']]);
    expect(ids(mergePushedTask(data, task('d', 20), ALL))).toEqual([['d', 'c', 'a']]);
  });

  it('keeps a task that succeeded on the Succeeded tab when an older PROCESSING copy arrives late', () => {
    const data = pages([[task('a', 10, { status: 'SUCCEEDED', updatedAt: 50 })], null]);
    const late = task('a', 10, { status: 'PROCESSING', updatedAt: 30 });
    const merged = mergePushedTask(data, late, { tab: 'succeeded' });
    expect(ids(merged)).toEqual([['a']]);
    expect(merged.pages[0]!.items[0]!.status).toBe('SUCCEEDED');
  });

  it('updates a known task in place, on whichever page it is', () => {
    const data = pages([[task('c', 30), task('b', 20)], 'c1'], [[task('a', 10)], null]);
    const merged = mergePushedTask(data, task('a', 10, { status: 'SUCCEEDED', updatedAt: 99 }), ALL);
    expect(ids(merged)).toEqual([['c', 'b'], ['a']]);
    expect(merged.pages[1]!.items[0]!.status).toBe('SUCCEEDED');
    expect(merged.pages[0]).toBe(data.pages[0]); // untouched pages keep their identity
  });

  it('takes a task out of a tab it no longer belongs to', () => {
    const data = pages([[task('b', 20), task('a', 10)], null]);
    const done = task('b', 20, { status: 'SUCCEEDED', updatedAt: 50 });
    expect(ids(mergePushedTask(data, done, { tab: 'running' }))).toEqual([['a']]);
  });

  it('ignores a task that does not match the view', () => {
    const data = pages([[task('a', 10)], null]);
    expect(
      ids(mergePushedTask(data, task('z', 50, { creator: 'Grace' }), { tab: 'all', creator: 'Ada' })),
    ).toEqual([['a']]);
  });

  it('never lets an older copy replace a newer one (events out of order)', () => {
    const data = pages([[task('a', 10, { status: 'SUCCEEDED', updatedAt: 90 })], null]);
    const merged = mergePushedTask(data, task('a', 10, { status: 'PROCESSING', updatedAt: 50 }), ALL);
    expect(merged.pages[0]!.items[0]!.status).toBe('SUCCEEDED');
  });

  it('leaves an older task past the loaded pages for its page; appends it when the list is complete', () => {
    const more = pages([[task('b', 20)], 'c1']);
    expect(ids(mergePushedTask(more, task('old', 5), ALL))).toEqual([['b']]);
    const complete = pages([[task('b', 20)], null]);
    expect(ids(mergePushedTask(complete, task('old', 5), ALL))).toEqual([['b', 'old']]);
  });

  it('places a task within what a cut-short search page looked at, found or not; not past it', () => {
    // The search looked at every task down to the one created at 10 ("10.k") and found none.
    const cut = { pages: [{ items: [], nextCursor: '10.k', cutShort: true }], pageParams: [undefined] };
    expect(ids(mergePushedTask(cut, task('new', 30), ALL))).toEqual([['new']]);
    expect(ids(mergePushedTask(cut, task('between', 11), ALL))).toEqual([['between']]);
    expect(ids(mergePushedTask(cut, task('older', 9), ALL))).toEqual([[]]);
    // A page not cut short covers down to its last task only.
    const more = pages([[task('b', 20)], '20.b']);
    expect(ids(mergePushedTask(more, task('between', 15), ALL))).toEqual([['b']]);
  });
});

describe('a pushed task I hid from my view', () => {
  const hidden = new Set(['h']);
  it('is not brought back into a view that leaves hidden tasks out', () => {
    const data = pages([[task('b', 20), task('a', 10)], null]);
    expect(ids(mergePushedTask(data, task('h', 30), ALL, hidden))).toEqual([['b', 'a']]);
    // One that was on screen when hidden leaves with its next change.
    const shown = pages([[task('h', 30), task('a', 10)], null]);
    expect(ids(mergePushedTask(shown, task('h', 30, { updatedAt: 40 }), ALL, hidden))).toEqual([['a']]);
  });

  it('is merged as any other into a view that shows hidden tasks ("Show hidden")', () => {
    const data = pages([[task('b', 20)], null]);
    expect(ids(mergePushedTask(data, task('h', 30), { ...ALL, hidden: 'show' }, hidden))).toEqual([
      ['h', 'b'],
    ]);
    expect(matchesQuery(task('h', 30), ALL, hidden)).toBe(false);
    expect(matchesQuery(task('h', 30), ALL, new Set())).toBe(true);
  });
});

describe("this browser's copy over the server's", () => {
  const local = (extra: Partial<TaskRecord>): TaskRecord => ({
    id: 'a',
    kind: 'image_generate',
    source: 'created',
    status: 'PROCESSING',
    createdAt: 10,
    updatedAt: 60,
    ...extra,
  });

  it("shows the team's record, the truth the server keeps, with this browser's re-run link", () => {
    const server = task('a', 10, { updatedAt: 50, status: 'SUCCEEDED', finishedAt: 25 });
    const shown = overlayLocal(
      server,
      local({
        rerunOf: 'x',
        status: 'PROCESSING',
        updatedAt: 90,
        lastError: { kind: 'network', httpStatus: 0, msg: 'offline', at: 1 },
      }),
    );
    expect(shown).toMatchObject({
      creator: 'Ada',
      rerunOf: 'x',
      status: 'SUCCEEDED',
      createdAt: 10,
      finishedAt: 25,
    });
    expect(shown.lastError).toBeUndefined();
  });

  it("keeps the record's kept files and times over a copy that looks newer", () => {
    const server = task('a', 10, {
      status: 'SUCCEEDED',
      updatedAt: 40,
      copies: { kept: { video: '/r/a' }, lost: [], pending: [] },
    });
    const shown = overlayLocal(
      server,
      local({ status: 'SUCCEEDED', updatedAt: 40, createdAt: 11, finishedAt: 99 }),
    );
    expect(shown.copies).toEqual(server.copies);
    expect(shown).toMatchObject({ createdAt: 10 });
    expect(shown.finishedAt).toBeUndefined();
  });

  it('says "created" for a task this browser made, and keeps a language the record lacks', () => {
    const server = task('t', 10, {
      kind: 'video_translate',
      source: 'lookup',
      language: undefined,
      updatedAt: 90,
    });
    expect(overlayLocal(server, local({ language: 'German' }))).toMatchObject({
      source: 'created',
      language: 'German',
    });
    const lookedUp = local({ source: 'lookup', language: undefined });
    expect(overlayLocal({ ...server, language: 'Korean' }, lookedUp)).toMatchObject({
      source: 'lookup',
      language: 'Korean',
    });
  });

  it('is the server copy alone without a local one', () => {
    const server = task('a', 10);
    expect(overlayLocal(server, undefined)).toBe(server);
  });
});

describe('a pushed task in the Starred view', () => {
  const STARRED: TeamQuery = { tab: 'all', starred: 'only' };
  it('comes in only when I starred it, and leaves with its next change once unstarred', () => {
    const data = pages([[task('s1', 20)], null]);
    expect(ids(mergePushedTask(data, task('s2', 30), STARRED, undefined, new Set(['s1', 's2'])))).toEqual([
      ['s2', 's1'],
    ]);
    expect(ids(mergePushedTask(data, task('other', 30), STARRED, undefined, new Set(['s1'])))).toEqual([
      ['s1'],
    ]);
    expect(
      ids(mergePushedTask(data, task('s1', 20, { updatedAt: 25 }), STARRED, undefined, new Set())),
    ).toEqual([[]]);
    // Stars not read yet: nothing comes in (the server's page is the truth until they are).
    expect(matchesQuery(task('s1', 20), STARRED)).toBe(false);
    // Other views do not look at stars.
    expect(matchesQuery(task('x', 20), ALL, undefined, new Set())).toBe(true);
  });
});

describe('a pushed task in the "changes requested" view', () => {
  const CHANGES: TeamQuery = { tab: 'all', review: 'changes_requested' };
  const asked = (changesRequested: number) => ({ approved: 0, changesRequested, comments: 0, at: 1 });
  it('comes in when someone asked changes on it, and leaves once nobody does', () => {
    const data = pages([[task('c1', 20, { review: asked(1) })], null]);
    expect(ids(mergePushedTask(data, task('c2', 30, { review: asked(2) }), CHANGES))).toEqual([['c2', 'c1']]);
    expect(ids(mergePushedTask(data, task('c3', 30), CHANGES))).toEqual([['c1']]);
    expect(ids(mergePushedTask(data, task('c1', 20, { updatedAt: 25, review: asked(0) }), CHANGES))).toEqual([
      [],
    ]);
    // Other views do not look at reviews.
    expect(matchesQuery(task('x', 20), ALL)).toBe(true);
  });
});

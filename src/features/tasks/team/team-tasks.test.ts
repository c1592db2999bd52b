import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTaskDetail, fetchTaskPage, teamKeys, teamQueryParams, toTeamTask } from './team-tasks';

afterEach(() => vi.unstubAllGlobals());

const good = { id: 'i2is-1', kind: 'image_generate', status: 'SUCCEEDED', createdAt: 5, creator: 'Ada' };

describe("the team's list answers, checked by hand", () => {
  it('keeps a task and its known fields, drops what is not one', () => {
    expect(
      toTeamTask({ ...good, result: { image_url: 'https://x/a.png' }, lastSource: 'poll' }),
    ).toMatchObject({
      id: 'i2is-1',
      kind: 'image_generate',
      creator: 'Ada',
      updatedAt: 5,
      source: 'lookup',
      lastSource: 'poll',
      result: { image_url: 'https://x/a.png' },
    });
    for (const bad of [
      null,
      'x',
      [],
      { ...good, id: '' },
      { ...good, kind: 'sculpture' },
      { ...good, createdAt: 'now' },
    ])
      expect(toTeamTask(bad)).toBeUndefined();
    // Odd field types are left out rather than shown half-read.
    expect(toTeamTask({ ...good, creator: 42, params: 'x', files: [{ field: 'a' }] })).toMatchObject({
      creator: undefined,
      params: undefined,
      files: [],
    });
  });

  it('reads a page, dropping malformed items, and refuses an answer that is not a page', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        Response.json({
          code: 0,
          msg: 'ok',
          data: {
            items: [good, { id: 7 }],
            nextCursor: '5.i2is-1',
            counts: { all: 1, running: 0, succeeded: 1, failed: 0 },
          },
        }),
      ),
    );
    const page = await fetchTaskPage({ tab: 'all' });
    expect(page.items.map((t) => t.id)).toEqual(['i2is-1']);
    expect(page.nextCursor).toBe('5.i2is-1');
    expect(page.counts?.all).toBe(1);
    // A count the server gave up on is null (shown as "?"); a count that is not a number voids them.
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        Response.json({
          code: 0,
          data: {
            items: [],
            nextCursor: null,
            counts: { all: 1000, running: null, succeeded: 1000, failed: 0 },
            countsCapped: true,
          },
        }),
      ),
    );
    const capped = await fetchTaskPage({ tab: 'all', q: 'ana' });
    expect(capped.counts).toEqual({ all: 1000, running: null, succeeded: 1000, failed: 0 });
    expect(capped.countsCapped).toBe(true);
    vi.stubGlobal('fetch', () =>
      Promise.resolve(Response.json({ code: 0, data: { items: [], counts: { all: '1', running: 0 } } })),
    );
    expect((await fetchTaskPage({ tab: 'all' })).counts).toBeUndefined();
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>', { status: 200 })));
    await expect(fetchTaskPage({ tab: 'all' })).rejects.toThrow(/HTTP 200/);
    vi.stubGlobal('fetch', () =>
      Promise.resolve(Response.json({ code: 401, msg: 'Sign in first' }, { status: 401 })),
    );
    await expect(fetchTaskPage({ tab: 'all' })).rejects.toThrow('Sign in first');
  });

  it('a task the record does not know is null, not an error', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(Response.json({ code: 404, msg: 'no record' }, { status: 404 })),
    );
    expect(await fetchTaskDetail('i2is-x')).toBeNull();
  });

  it('sends the filters as the server reads them, and keys lists under one prefix', () => {
    expect(
      teamQueryParams(
        { tab: 'failed', kind: 'image_generate', q: 'a b', creator: 'Ada' },
        { cursor: 'c' },
      ).toString(),
    ).toBe('tab=failed&kind=image_generate&q=a+b&creator=Ada&limit=60&cursor=c');
    expect(teamKeys.list({ tab: 'all' }).slice(0, 2)).toEqual(teamKeys.lists());
  });
});

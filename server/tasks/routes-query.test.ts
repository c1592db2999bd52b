// How GET /__console/tasks and /__console/requests read their query (server/tasks/routes.ts): the
// view handed to the list, the counts and the pick lists, each bound at its limit and one past it,
// and the refusals. The readers are stubs, so each test sees exactly what the route asked of them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BULK_IDS_MAX } from '../../src/api/bulk-rules';
import { SEARCH_MAX_CHARS } from '../../src/api/task-view/task-view-rule';
import { testDatabase } from '../testing/database';
import { asPerson, person } from '../testing/identity';
import * as list from './list';
import * as counts from './list-counts';
import * as choices from './list-filter-choices';
import * as requests from './requests';
import { createTaskRoutes, type TaskRoutes } from './routes';

vi.mock('./list', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./list')>();
  return { ...actual, listTasks: vi.fn(), getTask: vi.fn() };
});
vi.mock('./list-counts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./list-counts')>()),
  countTasks: vi.fn(),
}));
vi.mock('./list-filter-choices', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./list-filter-choices')>()),
  countFailures: vi.fn(),
  listCreators: vi.fn(),
}));
vi.mock('./requests', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./requests')>()),
  listRequests: vi.fn(),
  getRequest: vi.fn(),
  requestsOfTasks: vi.fn(),
}));

const ANA = person('Ana').userId;
const COUNTS = { counts: { all: 0, running: 0, succeeded: 0, failed: 0 }, capped: false, unknown: false };

let routes: TaskRoutes;
beforeAll(() => {
  routes = createTaskRoutes(testDatabase());
});
afterAll(() => routes.close());
afterEach(() => vi.clearAllMocks());

function stubReaders() {
  vi.mocked(list.listTasks).mockResolvedValue({ items: [], nextCursor: null });
  vi.mocked(counts.countTasks).mockResolvedValue(COUNTS);
  vi.mocked(requests.listRequests).mockResolvedValue({ items: [], nextCursor: null });
  vi.mocked(requests.requestsOfTasks).mockResolvedValue([]);
  vi.mocked(choices.countFailures).mockResolvedValue({ codes: [] } as never);
}

const get = (path: string, env: Record<string, unknown> = asPerson('Ana')) =>
  routes.app.request(`http://127.0.0.1${path}`, {}, env);

/** The filter and page the list was asked for by `query`. */
async function asked(query: string, env?: Record<string, unknown>) {
  stubReaders();
  const response = await get(`/__console/tasks?${query}`, env);
  expect(response.status, query).toBe(200);
  const [, filter, page] = vi.mocked(list.listTasks).mock.calls.at(-1)!;
  return { filter, page, data: ((await response.json()) as { data: Record<string, unknown> }).data };
}

describe('GET /__console/tasks: the view read from the query', () => {
  it('is every tab, newest first, without my hidden tasks, for no query', async () => {
    const { filter, page } = await asked('');
    expect(filter).toEqual({ tab: 'all', sort: 'newest', hiddenBy: ANA, asker: ANA });
    expect(page).toEqual({ cursor: undefined, limit: 50 });
    expect(vi.mocked(counts.countTasks).mock.calls[0]![1]).toEqual(filter);
  });

  it('passes each filter on, cut at its bound', async () => {
    const { filter } = await asked(
      `tab=failed&kind=image_to_video&sort=longest&q=${'q'.repeat(SEARCH_MAX_CHARS + 1)}` +
        `&creator=${'c'.repeat(81)}&code=${'1'.repeat(41)}&reason=${'r'.repeat(501)}` +
        `&from=1767225600000&to=999999999999999&starred=only&review=changes_requested&hidden=show`,
    );
    expect(filter).toEqual({
      tab: 'failed',
      kind: 'image_to_video',
      sort: 'longest',
      q: 'q'.repeat(SEARCH_MAX_CHARS),
      creator: 'c'.repeat(80),
      errorCode: '1'.repeat(40),
      errorReason: 'r'.repeat(500),
      from: 1767225600000,
      to: 999999999999999,
      asker: ANA,
      starredBy: ANA,
      changesRequested: true,
    });
  });

  it('reads a time of at most 15 digits that is a date, and nothing else', async () => {
    const times = async (from: string) => (await asked(`from=${encodeURIComponent(from)}`)).filter.from;
    expect(await times('0')).toBe(0);
    expect(await times('8640000000000000'.slice(0, 15))).toBe(864000000000000);
    for (const wrong of ['1234567890123456', '-5', '12a', ' 12', '1.5', ''])
      expect(await times(wrong), wrong).toBeUndefined();
  });

  it('leaves out the person-bound parts for an anonymous asker, and the other values of the flags', async () => {
    const { filter } = await asked('starred=yes&review=other&hidden=no&q=&creator=&kind=', {});
    expect(filter).toEqual({ tab: 'all', sort: 'newest' });
    const starred = await asked('starred=only', {});
    expect(starred.filter).toEqual({ tab: 'all', sort: 'newest', starredBy: '' });
  });

  it('refuses a tab, kind or sort that is none, naming the choices', async () => {
    const refusal = async (query: string) => {
      const response = await get(`/__console/tasks?${query}`);
      expect(response.status).toBe(400);
      return ((await response.json()) as { code: number; msg: string }).msg;
    };
    expect(await refusal('tab=done')).toBe('tab must be one of all, running, succeeded, failed');
    expect(await refusal('kind=song')).toBe(
      'kind must be one of image_generate, video_translate, image_to_video',
    );
    expect(await refusal('sort=oldest')).toBe('sort must be one of newest, longest, failed, starred');
    expect(list.listTasks).not.toHaveBeenCalled();
    const errors = await get('/__console/tasks/errors?sort=oldest');
    expect(errors.status).toBe(400);
    expect(await errors.json()).toEqual({
      code: 400,
      msg: 'sort must be one of newest, longest, failed, starred',
    });
    expect(choices.countFailures).not.toHaveBeenCalled();
  });
});

describe('GET /__console/tasks: the page', () => {
  it('takes a limit from 1 to the most, 50 when it is none, and the cursor as given', async () => {
    const limit = async (query: string) => (await asked(query)).page!.limit;
    expect(await limit('limit=1')).toBe(1);
    expect(await limit('limit=0')).toBe(50);
    expect(await limit('limit=-3')).toBe(1);
    expect(await limit(`limit=${list.PAGE_SIZE_MAX}`)).toBe(list.PAGE_SIZE_MAX);
    expect(await limit(`limit=${list.PAGE_SIZE_MAX + 1}`)).toBe(list.PAGE_SIZE_MAX);
    vi.clearAllMocks();
    const next = await asked('cursor=123.task-1');
    expect(next.page).toEqual({ cursor: '123.task-1', limit: 50 });
    // A next page comes without counts: they are the first page's.
    expect(counts.countTasks).not.toHaveBeenCalled();
    expect(next.data).toEqual({ items: [], nextCursor: null });
    const answer = await get('/__console/tasks');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toMatchObject({ code: 0, msg: 'ok' });
  });

  it('groups by request only for group=request, leaving out my hidden tasks', async () => {
    expect((await asked('group=requests')).data).not.toHaveProperty('requests');
    expect(requests.requestsOfTasks).not.toHaveBeenCalled();
    const { data } = await asked('group=request');
    expect(data.requests).toEqual([]);
    expect(vi.mocked(requests.requestsOfTasks).mock.calls[0]![2]).toBe(ANA);
  });

  it(`selects the ids of the whole view, at most ${BULK_IDS_MAX}, saying whether there were more`, async () => {
    stubReaders();
    const item = (id: string) => ({ id }) as never;
    vi.mocked(list.listTasks).mockResolvedValueOnce({ items: [item('a'), item('b')], nextCursor: null });
    const all = await get('/__console/tasks?select=ids&limit=3');
    expect(all.headers.get('cache-control')).toBe('no-store');
    expect(await all.json()).toEqual({ code: 0, msg: 'ok', data: { ids: ['a', 'b'], capped: false } });
    expect(vi.mocked(list.listTasks).mock.calls[0]![2]).toEqual({ limit: BULK_IDS_MAX });
    expect(counts.countTasks).not.toHaveBeenCalled();
    vi.mocked(list.listTasks).mockResolvedValueOnce({ items: [item('a')], nextCursor: 'more' });
    const capped = await get('/__console/tasks?select=ids');
    expect(((await capped.json()) as { data: unknown }).data).toEqual({ ids: ['a'], capped: true });
  });
});

describe('the other readers', () => {
  it('answers the failure choices and the creators of the view, not stored', async () => {
    stubReaders();
    const errors = await get('/__console/tasks/errors?tab=failed&q=late');
    expect(errors.headers.get('cache-control')).toBe('no-store');
    expect(await errors.json()).toEqual({ code: 0, msg: 'ok', data: { codes: [] } });
    expect(vi.mocked(choices.countFailures).mock.calls[0]![1]).toMatchObject({ tab: 'failed', q: 'late' });
    // An anonymous asker's view: no hidden tasks of theirs to leave out.
    expect((await get('/__console/tasks/errors', {})).status).toBe(200);
    expect(vi.mocked(choices.countFailures).mock.calls[1]![1]).toEqual({ tab: 'all', sort: 'newest' });
    vi.mocked(choices.listCreators).mockResolvedValue(['Ana', 'Bo']);
    const creators = await get('/__console/tasks/creators');
    expect(creators.headers.get('cache-control')).toBe('no-store');
    expect(await creators.json()).toEqual({ code: 0, msg: 'ok', data: { creators: ['Ana', 'Bo'] } });
  });

  it('answers a task or a request by id, and a 404 that is not stored for one it does not know', async () => {
    vi.mocked(list.getTask).mockResolvedValue(undefined);
    const noTask = await get('/__console/tasks/task-9');
    expect(noTask.status).toBe(404);
    expect(noTask.headers.get('cache-control')).toBe('no-store');
    expect(await noTask.json()).toEqual({ code: 404, msg: 'This console has no record of that task' });
    vi.mocked(list.getTask).mockResolvedValue({ task: { id: 'task-9' }, events: [] } as never);
    const found = await get('/__console/tasks/task-9');
    expect(found.headers.get('cache-control')).toBe('no-store');
    expect(await found.json()).toEqual({ code: 0, msg: 'ok', data: { task: { id: 'task-9' }, events: [] } });
    expect(vi.mocked(list.getTask).mock.calls[0]![1]).toBe('task-9');

    vi.mocked(requests.getRequest).mockResolvedValue(undefined);
    const noRequest = await get('/__console/requests/req-9');
    expect(noRequest.status).toBe(404);
    expect(noRequest.headers.get('cache-control')).toBe('no-store');
    expect(await noRequest.json()).toEqual({ code: 404, msg: 'This console has no record of that request' });
    vi.mocked(requests.getRequest).mockResolvedValue({ id: 'req-9' } as never);
    const request = await get('/__console/requests/req-9');
    expect(request.headers.get('cache-control')).toBe('no-store');
    expect(await request.json()).toEqual({ code: 0, msg: 'ok', data: { id: 'req-9' } });
    expect(vi.mocked(requests.getRequest).mock.calls.map((call) => call[1])).toEqual(['req-9', 'req-9']);
  });

  it('lists requests by kind and creator (cut at 80), 1 to the most a page, 20 when none', async () => {
    stubReaders();
    const askedOf = async (query: string) => {
      const response = await get(`/__console/requests?${query}`);
      expect(response.status, query).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const [, filter, page] = vi.mocked(requests.listRequests).mock.calls.at(-1)!;
      return [filter, page] as const;
    };
    expect(await askedOf('')).toEqual([
      { kind: undefined, creator: undefined },
      { cursor: undefined, limit: 20 },
    ]);
    expect(await askedOf(`kind=image_generate&creator=${'c'.repeat(81)}&cursor=abc&limit=0`)).toEqual([
      { kind: 'image_generate', creator: 'c'.repeat(80) },
      { cursor: 'abc', limit: 20 },
    ]);
    expect((await askedOf('limit=-1'))[1]).toEqual({ cursor: undefined, limit: 1 });
    expect((await askedOf(`limit=${requests.REQUESTS_PAGE_MAX}`))[1].limit).toBe(requests.REQUESTS_PAGE_MAX);
    expect((await askedOf(`limit=${requests.REQUESTS_PAGE_MAX + 1}`))[1].limit).toBe(
      requests.REQUESTS_PAGE_MAX,
    );
    const listed = await get('/__console/requests');
    expect(await listed.json()).toEqual({ code: 0, msg: 'ok', data: { items: [], nextCursor: null } });
    const refused = await get('/__console/requests?kind=song');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 400,
      msg: 'kind must be one of image_generate, video_translate, image_to_video',
    });
  });
});

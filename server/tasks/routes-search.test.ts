// What GET /__console/tasks says of a search the time limit cut short: a null count with
// `countsUnknown`, a page with `cutShort`; and nothing of the kind when all is known.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDatabase } from '../testing/database';
import * as list from './list';
import * as counts from './list-counts';
import { createTaskRoutes, type TaskRoutes } from './routes';

vi.mock('./list', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./list')>();
  return { ...actual, listTasks: vi.fn(actual.listTasks) };
});
vi.mock('./list-counts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./list-counts')>();
  return { ...actual, countTasks: vi.fn(actual.countTasks) };
});

let routes: TaskRoutes | undefined;
afterEach(async () => {
  await routes?.close();
  vi.mocked(counts.countTasks).mockReset();
  vi.mocked(list.listTasks).mockReset();
});

async function get(query: string) {
  routes = createTaskRoutes(testDatabase());
  const response = await routes.app.request(`http://127.0.0.1/__console/tasks${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

describe('GET /__console/tasks with a search cut short', () => {
  it('gives the unknown counts as null with countsUnknown, and says the page was cut short', async () => {
    vi.mocked(counts.countTasks).mockResolvedValue({
      counts: { all: 1000, running: null, succeeded: 1000, failed: null },
      capped: true,
      unknown: true,
    });
    vi.mocked(list.listTasks).mockResolvedValue({
      items: [],
      nextCursor: '1767225600000.task-1',
      cutShort: true,
    });
    expect(await get('?tab=failed&q=ana')).toEqual({
      items: [],
      nextCursor: '1767225600000.task-1',
      cutShort: true,
      counts: { all: 1000, running: null, succeeded: 1000, failed: null },
      countsCapped: true,
      countsUnknown: true,
    });
  });

  it('says neither when every count is known and the page complete', async () => {
    vi.mocked(counts.countTasks).mockResolvedValue({
      counts: { all: 3, running: 0, succeeded: 3, failed: 0 },
      capped: false,
      unknown: false,
    });
    vi.mocked(list.listTasks).mockResolvedValue({ items: [], nextCursor: null });
    expect(await get('?q=ana')).toEqual({
      items: [],
      nextCursor: null,
      counts: { all: 3, running: 0, succeeded: 3, failed: 0 },
    });
  });
});

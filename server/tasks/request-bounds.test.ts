// Bounds the server holds whatever a client asks: a page of the team's tasks is at most
// PAGE_SIZE_MAX rows, and a creator's name is at most 80 characters with no control characters.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { PAGE_SIZE_MAX } from './list';
import { cleanDisplayName } from '../http/display-text';
import { createTaskRoutes, type TaskRoutes } from './routes';

let routes: TaskRoutes;
beforeAll(async () => {
  const { db } = await resetTestDatabase();
  await sql`insert into tasks (id, kind, source, prompt, status, created_at)
    select 'task-' || g, 'image_generate', 'created', 'a fox', 'SUCCEEDED', now() - make_interval(secs => g)
    from generate_series(1, ${PAGE_SIZE_MAX + 5}) g`.execute(db);
  routes = createTaskRoutes(testDatabase());
});
afterAll(() => routes.close());

const page = async (query: string) => {
  const response = await routes.app.request(`/__console/tasks?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { items: unknown[]; nextCursor: string | null } }).data;
};

describe('GET /__console/tasks page size', () => {
  it(`answers exactly ${PAGE_SIZE_MAX} rows when asked for that many, or for more`, async () => {
    expect((await page(`limit=${PAGE_SIZE_MAX}`)).items).toHaveLength(PAGE_SIZE_MAX);
    for (const limit of [PAGE_SIZE_MAX + 1, 100_000]) {
      const answer = await page(`limit=${limit}`);
      expect(answer.items, `limit=${limit}`).toHaveLength(PAGE_SIZE_MAX);
      expect(answer.nextCursor).not.toBeNull();
    }
  });

  it('answers at least one row for a limit of 0, a negative one or one that is not a number', async () => {
    for (const limit of ['0', '-5', 'many'])
      expect((await page(`limit=${limit}`)).items.length).toBeGreaterThan(0);
  });
});

describe('cleanDisplayName', () => {
  it('keeps 80 characters and cuts the 81st', () => {
    expect(cleanDisplayName('a'.repeat(80))).toBe('a'.repeat(80));
    expect(cleanDisplayName('b'.repeat(81))).toBe('b'.repeat(80));
  });

  it('drops control characters and trims', () => {
    expect(cleanDisplayName(' Ada\u0000\u001f\u007f Lovelace\n ')).toBe('Ada Lovelace');
  });
});

// Bulk actions (server/tasks/bulk.ts): the zip of the chosen tasks' results, the ids of a whole
// view for "Select all matching", and hiding tasks from one's own view.
import { describe, expect, it } from 'vitest';
import { BULK_IDS_MAX, ZIP_NAME_MAX, ZIP_TASKS_MAX } from '../../src/api/bulk-rules';
import { accessRule } from '../identity/access';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import { zipEntries } from '../testing/unzip';
import type { Role } from '../../src/api/roles';
import { NOT_INCLUDED_NAME } from './bulk';

const ORIGIN = TEST_ORIGIN;
const server = useTestNodeApp('bulk-test');

const request = (path: string, init: RequestInit = {}, user = 'Ana', role: Role = 'creator') =>
  server.requestAs(user, path, init, role);

const postJson = (path: string, body: unknown, user = 'Ana', role: Role = 'creator') =>
  server.postJsonAs(user, path, body, role);

/** A finished translation of "All-hands recap" into each language: their task ids. */
async function translated(languages: string[], name = 'All-hands recap'): Promise<string[]> {
  const response = await postJson('/v1/video_translate', {
    video_url: `${ORIGIN}/emulator/samples/video.mp4`,
    target_languages: languages,
    name,
  });
  const ids = ((await response.json()) as { data: { task_id: string }[] }).data.map((t) => t.task_id);
  for (const id of ids) await request(`/v1/video_translate/${id}`); // the status answer is recorded
  return ids;
}

/** The zip's entries by name, each with its bytes. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Map([...(await zipEntries(bytes))].map(([name, entry]) => [name, entry.bytes]));
}

describe('POST /__console/tasks/zip', () => {
  it('is a valid zip of the files, named by title, byte-identical to the single downloads', async () => {
    const ids = await translated(['Japanese', 'German']);
    const response = await postJson('/__console/tasks/zip', { ids }, 'Vi', 'viewer');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    // Both from one request: the zip is named after it.
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''All-hands%20recap.zip");
    const files = await unzip(Buffer.from(await response.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual([
      'German - All-hands recap.mp4',
      'Japanese - All-hands recap.mp4',
    ]);
    const single = await request(`/__console/tasks/${ids[0]}/download/result`);
    const singleBytes = Buffer.from(await single.arrayBuffer());
    expect(singleBytes.length).toBeGreaterThan(1000);
    expect(files.get('Japanese - All-hands recap.mp4')!.equals(singleBytes)).toBe(true);
  });

  it('names two files of one name apart, and says which tasks had no file or no record', async () => {
    const [first] = await translated(['French']);
    const [second] = await translated(['French']);
    const unfinished = await postJson('/v1/video_translate', {
      video_url: `${ORIGIN}/emulator/samples/video.mp4`,
      target_languages: ['Spanish'],
      name: 'Later',
    });
    const waiting = ((await unfinished.json()) as { data: { task_id: string }[] }).data[0]!.task_id;
    const response = await postJson('/__console/tasks/zip', {
      ids: [first, second, waiting, 'no-such-task'],
    });
    // From three requests and no view named: the count.
    expect(response.headers.get('content-disposition')).toContain('filename="Tasks (3).zip"');
    const files = await unzip(Buffer.from(await response.arrayBuffer()));
    expect([...files.keys()]).toEqual([
      'French - All-hands recap.mp4',
      'French - All-hands recap (2).mp4',
      NOT_INCLUDED_NAME,
    ]);
    const note = files.get(NOT_INCLUDED_NAME)!.toString();
    expect(note).toContain(`${waiting}: no result file`);
    expect(note).toContain('no-such-task: this console has no record of it');
  });

  it(`holds at most ${ZIP_TASKS_MAX} tasks, refuses a body without ids, 404s for unknown tasks`, async () => {
    const tooMany = Array.from({ length: ZIP_TASKS_MAX + 1 }, (_, i) => `t${i}`);
    const capped = await postJson('/__console/tasks/zip', { ids: tooMany });
    expect(capped.status).toBe(400);
    expect(((await capped.json()) as { msg: string }).msg).toContain(`at most ${ZIP_TASKS_MAX} tasks`);
    expect((await postJson('/__console/tasks/zip', { ids: [] })).status).toBe(400);
    expect((await postJson('/__console/tasks/zip', { nope: 1 })).status).toBe(400);
    expect((await postJson('/__console/tasks/zip', { ids: ['nobody'] })).status).toBe(404);
  });

  it(`is named after the view across requests, a name of at most ${ZIP_NAME_MAX} characters made safe`, async () => {
    const [first] = await translated(['Korean'], 'One');
    const [second] = await translated(['Korean'], 'Two');
    const named = (name: unknown) => postJson('/__console/tasks/zip', { ids: [first, second], name });
    const disposition = async (name: unknown) => {
      const response = await named(name);
      await response.arrayBuffer();
      return response.headers.get('content-disposition');
    };
    expect(await disposition('Failed tasks, 2026-11-28')).toContain(
      'filename="Failed tasks, 2026-11-28.zip"',
    );
    expect(await disposition('../a/b: "c"')).toContain('filename="a b c.zip"');
    const longest = `Failed ${'x'.repeat(ZIP_NAME_MAX - 7)}`;
    const atLimit = await named(longest);
    expect(atLimit.status).toBe(200);
    expect(atLimit.headers.get('content-disposition')).toContain(`filename="${longest.slice(0, 80)}.zip"`);
    await atLimit.arrayBuffer();
    const tooLong = await named(`${longest}x`);
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { msg: string }).msg).toContain(`at most ${ZIP_NAME_MAX} characters`);
    expect((await named(42)).status).toBe(400);
    // Nothing left of it once made safe: the count.
    expect(await disposition('///')).toContain('filename="Tasks (2).zip"');
    // One request's tasks keep its name whatever the view is called.
    expect(
      await (async () => {
        const response = await postJson('/__console/tasks/zip', { ids: [first], name: 'Failed tasks' });
        await response.arrayBuffer();
        return response.headers.get('content-disposition');
      })(),
    ).toContain('filename="One.zip"');
  });

  it(`takes exactly ${ZIP_TASKS_MAX} ids (counted once each) and ids of exactly 200 characters`, async () => {
    const exactly = Array.from({ length: ZIP_TASKS_MAX }, (_, i) => `t${i}`);
    // Past the count check, none of them is known: 404, not the cap's 400.
    expect((await postJson('/__console/tasks/zip', { ids: exactly })).status).toBe(404);
    expect((await postJson('/__console/tasks/zip', { ids: [...exactly, 't0'] })).status).toBe(404);
    expect((await postJson('/__console/tasks/zip', { ids: ['x'.repeat(200)] })).status).toBe(404);
    expect((await postJson('/__console/tasks/zip', { ids: ['x'.repeat(201)] })).status).toBe(400);
  });

  it('follows the single downloads’ access: any signed-in role, viewers included', () => {
    expect(accessRule('POST', '/__console/tasks/zip').need).toBe('viewer');
    expect(accessRule('GET', '/__console/tasks/x/download/result').need).toBe('viewer');
    expect(accessRule('POST', '/__console/tasks/hidden').need).toBe('viewer');
    expect(accessRule('POST', '/__console/tasks/other').need).toBe('admin');
  });
});

describe('select all matching', () => {
  it('lists the ids of the whole view, beyond one page', async () => {
    const ids = await translated(['Japanese', 'German', 'French']);
    const response = await request('/__console/tasks?tab=succeeded&select=ids');
    const { data } = (await response.json()) as { data: { ids: string[]; capped: boolean } };
    expect(data.ids.sort()).toEqual([...ids].sort());
    expect(data.capped).toBe(false);
    const none = await request('/__console/tasks?tab=failed&select=ids');
    expect(((await none.json()) as { data: { ids: string[] } }).data.ids).toEqual([]);
  });
});

describe('hidden tasks', () => {
  it('are per person: hiding is mine alone, and unhiding brings them back', async () => {
    const [a, b] = await translated(['Japanese', 'German']);
    const hiddenOf = async (user: string) =>
      ((await (await request('/__console/tasks/hidden', {}, user)).json()) as { data: { ids: string[] } })
        .data.ids;
    expect((await postJson('/__console/tasks/hidden', { ids: [a, b], hidden: true }, 'Ana')).status).toBe(
      200,
    );
    expect((await hiddenOf('Ana')).sort()).toEqual([a, b].sort());
    expect(await hiddenOf('Bo')).toEqual([]);
    // Twice is the same as once.
    expect((await postJson('/__console/tasks/hidden', { ids: [a], hidden: true }, 'Ana')).status).toBe(200);
    await postJson('/__console/tasks/hidden', { ids: [a], hidden: false }, 'Ana');
    expect(await hiddenOf('Ana')).toEqual([b]);
    expect((await postJson('/__console/tasks/hidden', { ids: [a] }, 'Ana')).status).toBe(400);
  });

  it("unhiding touches only the asker's own hides, never another person's", async () => {
    const [a] = await translated(['Japanese']);
    const hiddenOf = async (user: string) =>
      ((await (await request('/__console/tasks/hidden', {}, user)).json()) as { data: { ids: string[] } })
        .data.ids;
    await postJson('/__console/tasks/hidden', { ids: [a], hidden: true }, 'Ana');
    await postJson('/__console/tasks/hidden', { ids: [a], hidden: true }, 'Bo');
    expect((await postJson('/__console/tasks/hidden', { ids: [a], hidden: false }, 'Bo')).status).toBe(200);
    expect(await hiddenOf('Bo')).toEqual([]);
    expect(await hiddenOf('Ana')).toEqual([a]);
  });

  it(`takes exactly ${BULK_IDS_MAX} ids at once and refuses one more`, async () => {
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `gone-${i}`);
    const exactly = await postJson('/__console/tasks/hidden', { ids: ids(BULK_IDS_MAX), hidden: false });
    expect(exactly.status).toBe(200);
    const past = await postJson('/__console/tasks/hidden', { ids: ids(BULK_IDS_MAX + 1), hidden: false });
    expect(past.status).toBe(400);
    expect(((await past.json()) as { msg: string }).msg).toBe(`At most ${BULK_IDS_MAX} tasks at once`);
  });
});

describe('the list leaves out the tasks I hid (unless I ask to see them)', () => {
  interface Page {
    items: { id: string }[];
    nextCursor: string | null;
    counts?: Record<string, number>;
  }
  const list = async (query: string, user = 'Ana') =>
    ((await (await request(`/__console/tasks?${query}`, {}, user)).json()) as { data: Page }).data;
  /** Every page of the view, `limit` at a time: the ids, and how many pages it took. */
  async function walk(query: string, limit: number, user = 'Ana') {
    const ids: string[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const page: Page = await list(
        `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        user,
      );
      pages++;
      expect(page.items.length).toBeGreaterThan(0);
      ids.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    return { ids, pages };
  }
  const hide = (ids: string[], hidden = true, user = 'Ana') =>
    postJson('/__console/tasks/hidden', { ids, hidden }, user);

  it('counts and pages without them: no page of hidden rows, and the tab counts drop', async () => {
    const ids = await translated(['Japanese', 'German', 'French', 'Spanish', 'Italian']);
    // Newest first by id within one request: the four that come first on the list are hidden.
    const order = (await list('limit=10')).items.map((item) => item.id);
    const [kept, ...hidden] = [...order].reverse();
    expect((await hide(hidden)).status).toBe(200);

    const first = await list('limit=2');
    expect(first.items.map((item) => item.id)).toEqual([kept]);
    expect(first.nextCursor).toBeNull();
    expect(first.counts).toMatchObject({ all: 1, succeeded: 1, running: 0, failed: 0 });
    expect(await walk('tab=succeeded', 1)).toEqual({ ids: [kept], pages: 1 });
    // Each path of the list: another order, a search, a period (counted from the rows), a kind.
    for (const query of [
      'sort=longest',
      'q=recap',
      `from=${Date.now() - 3_600_000}`,
      'kind=video_translate',
    ]) {
      const page = await list(`${query}&limit=50`);
      expect(
        page.items.map((item) => item.id),
        query,
      ).toEqual([kept]);
      expect(page.counts?.all, query).toBe(1);
    }
    // "Select all matching" takes only what I see.
    const all = (await (await request('/__console/tasks?select=ids')).json()) as { data: { ids: string[] } };
    expect(all.data.ids).toEqual([kept]);

    // Show hidden: everything, paged in order.
    const shown = await walk('hidden=show', 2);
    expect(shown.ids).toEqual(order);
    expect((await list('hidden=show&limit=1')).counts?.all).toBe(ids.length);

    // Unhide brings them back into the pages and the counts.
    await hide(hidden.slice(0, 2), false);
    const after = await list('limit=50');
    expect(after.items).toHaveLength(3);
    expect(after.counts).toMatchObject({ all: 3, succeeded: 3 });
  });

  it("another person's hides do not change my view", async () => {
    const ids = await translated(['Japanese', 'German', 'French']);
    await hide(ids.slice(0, 2), true, 'Bo');
    await hide(ids.slice(2), true, 'Ana');
    const mine = await list('limit=50');
    expect(mine.items.map((item) => item.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(mine.counts?.all).toBe(2);
    const bos = await list('limit=50', 'Bo');
    expect(bos.items.map((item) => item.id)).toEqual([ids[2]]);
    expect(bos.counts?.all).toBe(1);
    expect((await list('limit=50', 'Cy')).counts?.all).toBe(3);
  });

  it("by request: a request's card leaves out the tasks I hid, not another's; hidden=show brings them back", async () => {
    type Grouped = Page & { requests: { id: string; tasks: { id: string }[] }[] };
    const grouped = async (query: string, user = 'Ana') =>
      (
        (await (await request(`/__console/tasks?group=request&${query}`, {}, user)).json()) as {
          data: Grouped;
        }
      ).data;
    const ids = await translated(['Japanese', 'German', 'French']);
    await hide(ids.slice(0, 1), true, 'Ana');
    await hide(ids.slice(1, 2), true, 'Bo');
    const mine = await grouped('limit=50');
    expect(mine.requests).toHaveLength(1);
    expect(mine.requests[0]!.tasks.map((task) => task.id)).toEqual(ids.slice(1));
    expect(mine.counts?.all).toBe(2);
    const bos = await grouped('limit=50', 'Bo');
    expect(bos.requests[0]!.tasks.map((task) => task.id)).toEqual([ids[0], ids[2]]);
    // A search that matches only a task I hid brings no card, with or without its request's others.
    expect((await grouped('q=japanese')).requests).toEqual([]);
    // Show hidden: the request whole again, and counted.
    const shown = await grouped('hidden=show&limit=50');
    expect(shown.requests[0]!.tasks.map((task) => task.id)).toEqual(ids);
    expect(shown.counts?.all).toBe(3);
    // Everything of the request hidden: no card at all.
    await hide(ids, true, 'Ana');
    expect(await grouped('limit=50')).toMatchObject({ items: [], requests: [], counts: { all: 0 } });
  });

  it('the failure list counts only the failures I see', async () => {
    const created = await postJson('/v1/image_generate', { prompt: 'emulator:fail one', generate_count: 2 });
    const failedIds = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
    for (const id of failedIds) await request(`/v1/image_generate/${id}`);
    const errors = async () =>
      (
        (await (await request('/__console/tasks/errors')).json()) as { data: { codes: { count: number }[] } }
      ).data.codes.reduce((sum, code) => sum + code.count, 0);
    expect(await errors()).toBe(2);
    await hide(failedIds.slice(0, 1));
    expect(await errors()).toBe(1);
    expect((await list('tab=failed&limit=50')).counts).toMatchObject({ failed: 1, all: 1 });
  });
});

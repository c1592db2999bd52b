// Stars and boards: per-person stars, the Starred view and order; boards with their roles,
// bounds (exactly at the limit and one past), audit log, order, cover, zip, and live across instances.
import yauzl from 'yauzl';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  BOARD_DESCRIPTION_MAX,
  BOARD_ITEMS_MAX,
  BOARD_NAME_MAX,
  BOARDS_MAX,
  BOARD_HEADER,
  PARENT_REQUEST_HEADER,
  STARS_MAX,
} from '../../src/api/boards';
import type { Role } from '../../src/api/roles';
import { accessRule } from '../identity/access';
import { useTestNodeApp } from '../testing/test-node-app';
import { jsonRoutesAs, seedSucceededTasks } from '../testing/json-routes';
import { person } from '../testing/identity';
import { createBoardsFeed, parseBoardsPayload, type BoardsEvent } from './live';

const server = useTestNodeApp('boards-test');

const { get, send } = jsonRoutesAs(server);

/** `count` succeeded image tasks in the record, newest last: their ids. */
async function seedTasks(count: number, prefix = 't'): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(4, '0')}`);
  return seedSucceededTasks(server.database.db, ids);
}

const listIds = async (query: string, user = 'Ana') =>
  ((await get(`/__console/tasks?${query}`, user)).body.data.items as { id: string }[]).map((t) => t.id);

describe('stars', () => {
  it('are per person, and make the Starred view and the "starred first" order', async () => {
    const [a, b, c] = await seedTasks(3);
    expect((await send('POST', '/__console/stars', { ids: [a, c], starred: true })).status).toBe(200);
    expect((await get('/__console/stars')).body.data.ids.sort()).toEqual([a, c]);
    expect((await get('/__console/stars', 'Bo')).body.data.ids).toEqual([]);
    expect(await listIds('tab=all&starred=only')).toEqual([c, a]);
    expect((await get('/__console/tasks?tab=all&starred=only')).body.data.counts.all).toBe(2);
    expect(await listIds('tab=all&starred=only', 'Bo')).toEqual([]);
    expect(await listIds('tab=all&sort=starred')).toEqual([c, a, b]);
    expect(await listIds('tab=all&sort=starred', 'Bo')).toEqual([c, b, a]);
    // Paged one at a time, the starred order goes on where it stopped.
    const first = (await get('/__console/tasks?tab=all&sort=starred&limit=1')).body.data;
    const second = (await get(`/__console/tasks?tab=all&sort=starred&limit=2&cursor=${first.nextCursor}`))
      .body.data;
    expect([...first.items, ...second.items].map((t: { id: string }) => t.id)).toEqual([c, a, b]);
    expect((await send('POST', '/__console/stars', { ids: [c], starred: false })).status).toBe(200);
    expect(await listIds('tab=all&starred=only')).toEqual([a]);
  });

  it('viewers star too; a bad body is a 400 that says what to send', async () => {
    const [a] = await seedTasks(1);
    expect((await send('POST', '/__console/stars', { ids: [a], starred: true }, 'Vi', 'viewer')).status).toBe(
      200,
    );
    expect(accessRule('POST', '/__console/stars').need).toBe('viewer');
    const bad = await send('POST', '/__console/stars', { ids: [a], starred: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('"starred": true or false');
    expect((await send('POST', '/__console/stars', { ids: [], starred: true })).status).toBe(400);
  });

  it(`hold at most ${STARS_MAX} per person: exactly that many, not one more`, async () => {
    const ids = Array.from({ length: STARS_MAX }, (_, n) => `s-${n}`);
    await server.database.db
      .insertInto('starred_tasks')
      .values(ids.slice(0, STARS_MAX - 1).map((task_id) => ({ user_id: person('Ana').userId, task_id })))
      .execute();
    expect((await send('POST', '/__console/stars', { ids: [ids.at(-1)], starred: true })).status).toBe(200);
    // Starring one already starred again is not one more.
    expect((await send('POST', '/__console/stars', { ids: [ids[0]], starred: true })).status).toBe(200);
    const past = await send('POST', '/__console/stars', { ids: ['one-more'], starred: true });
    expect(past.status).toBe(400);
    expect(past.body.msg).toContain(`at most ${STARS_MAX}`);
    expect((await get('/__console/stars')).body.data.ids).toHaveLength(STARS_MAX);
  });
});

describe('boards', () => {
  it('a creator makes one, fills it, orders it, picks a cover; viewers read it and cannot change it', async () => {
    const ids = await seedTasks(5);
    const made = await send('POST', '/__console/boards', {
      name: '  Moodboard  ',
      description: 'Best of the week',
    });
    expect(made.status).toBe(201);
    const board = made.body.data.board;
    expect(board).toMatchObject({
      name: 'Moodboard',
      description: 'Best of the week',
      itemCount: 0,
      createdBy: 'Ana',
    });
    expect((await send('POST', `/__console/boards/${board.id}/items`, { ids: ids.slice(0, 3) })).status).toBe(
      200,
    );
    // Adding again what it holds changes nothing; new ones go last.
    expect(
      (await send('POST', `/__console/boards/${board.id}/items`, { ids: [ids[1], ids[3]] })).status,
    ).toBe(200);
    const read = async (user = 'Ana', role: Role = 'creator') =>
      (await get(`/__console/boards/${board.id}`, user, role)).body.data;
    expect((await read()).items.map((t: { id: string }) => t.id)).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    expect((await read()).board.coverTaskId).toBe(ids[0]);
    const order = [ids[3], ids[0], ids[2], ids[1]];
    expect((await send('PUT', `/__console/boards/${board.id}/order`, { ids: order })).status).toBe(200);
    expect((await read('Vi', 'viewer')).items.map((t: { id: string }) => t.id)).toEqual(order);
    // An order that is not exactly the board's results is refused.
    expect((await send('PUT', `/__console/boards/${board.id}/order`, { ids: order.slice(1) })).status).toBe(
      409,
    );
    expect((await send('PATCH', `/__console/boards/${board.id}`, { coverTaskId: ids[2] })).status).toBe(200);
    expect((await read()).board.coverTaskId).toBe(ids[2]);
    expect((await send('PATCH', `/__console/boards/${board.id}`, { coverTaskId: ids[4] })).status).toBe(400);
    expect((await send('POST', `/__console/boards/${board.id}/items/remove`, { ids: [ids[2]] })).status).toBe(
      200,
    );
    const after = await read();
    expect(after.items.map((t: { id: string }) => t.id)).toEqual([ids[3], ids[0], ids[1]]);
    expect(after.board.coverTaskId).toBe(ids[3]); // the removed cover falls back to the first result
    // Viewers: every change is refused by the server.
    for (const [method, path, body] of [
      ['POST', '/__console/boards', { name: 'Mine' }],
      ['POST', `/__console/boards/${board.id}/items`, { ids: [ids[4]] }],
      ['POST', `/__console/boards/${board.id}/items/remove`, { ids: [ids[0]] }],
      ['PUT', `/__console/boards/${board.id}/order`, { ids: order }],
      ['PATCH', `/__console/boards/${board.id}`, { name: 'x' }],
      ['DELETE', `/__console/boards/${board.id}`, {}],
    ] as const)
      expect((await send(method, path, body, 'Vi', 'viewer')).status, `${method} ${path}`).toBe(403);
    expect((await get('/__console/boards', 'Vi', 'viewer')).body.data.boards).toHaveLength(1);
    // New ones go after the last whatever their ids: the board's positions decide, never the ids.
    const [early] = await seedTasks(1, 'a');
    expect((await send('POST', `/__console/boards/${board.id}/items`, { ids: [early] })).status).toBe(200);
    expect((await read()).items.map((t: { id: string }) => t.id)).toEqual([ids[3], ids[0], ids[1], early]);
  });

  it('every change is in the audit log, by whom', async () => {
    const [a] = await seedTasks(1);
    const { id } = (await send('POST', '/__console/boards', { name: 'Audit me' })).body.data.board;
    await send('POST', `/__console/boards/${id}/items`, { ids: [a] });
    await send('PATCH', `/__console/boards/${id}`, { name: 'Renamed' });
    await send('POST', `/__console/boards/${id}/items/remove`, { ids: [a] });
    await send('DELETE', `/__console/boards/${id}`, {}, 'Ada', 'admin');
    const rows = await server.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'target'])
      .where('action', 'like', 'board.%')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'board.create', actor_name: 'Ana', target: id },
      { action: 'board.add', actor_name: 'Ana', target: id },
      { action: 'board.change', actor_name: 'Ana', target: id },
      { action: 'board.remove', actor_name: 'Ana', target: id },
      { action: 'board.delete', actor_name: 'Ada', target: id },
    ]);
  });

  it("a creator deletes their own board, not another's; an admin deletes any", async () => {
    const mine = (await send('POST', '/__console/boards', { name: 'Ana’s' })).body.data.board.id;
    const other = (await send('POST', '/__console/boards', { name: 'Bo’s' }, 'Bo')).body.data.board.id;
    const refused = await send('DELETE', `/__console/boards/${other}`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('Only admins');
    expect((await send('DELETE', `/__console/boards/${mine}`, {})).status).toBe(200);
    expect((await send('DELETE', `/__console/boards/${other}`, {}, 'Ada', 'admin')).status).toBe(200);
    expect((await get(`/__console/boards/${other}`)).status).toBe(404);
    expect((await get('/__console/boards')).body.data.boards).toEqual([]);
  });

  it('names and descriptions: at the bound, one past it, empty, not text', async () => {
    const exact = 'n'.repeat(BOARD_NAME_MAX);
    expect((await send('POST', '/__console/boards', { name: exact })).status).toBe(201);
    const long = await send('POST', '/__console/boards', { name: `${exact}n` });
    expect([long.status, long.body.field]).toEqual([400, 'name']);
    expect(long.body.msg).toContain(`at most ${BOARD_NAME_MAX}`);
    expect((await send('POST', '/__console/boards', { name: '   ' })).body.field).toBe('name');
    expect((await send('POST', '/__console/boards', { name: 42 })).status).toBe(400);
    // An empty list of results is an empty board; a list that is not one is a 400.
    expect((await send('POST', '/__console/boards', { name: 'E', ids: [] })).body.data.board.itemCount).toBe(
      0,
    );
    expect((await send('POST', '/__console/boards', { name: 'E', ids: 'a' })).body.field).toBe('ids');
    const described = { name: 'D', description: 'd'.repeat(BOARD_DESCRIPTION_MAX) };
    expect((await send('POST', '/__console/boards', described)).status).toBe(201);
    const tooLong = await send('POST', '/__console/boards', {
      ...described,
      description: `${described.description}d`,
    });
    expect([tooLong.status, tooLong.body.field]).toEqual([400, 'description']);
    expect(
      (await server.requestAs('Ana', '/__console/boards', { method: 'POST', body: 'not json' })).status,
    ).toBe(415);
  });

  it(`the team keeps at most ${BOARDS_MAX} boards: the last one fits, one more is refused`, async () => {
    await server.database.db
      .insertInto('boards')
      .values(Array.from({ length: BOARDS_MAX - 1 }, (_, n) => ({ id: `b-seed-${n}`, name: `Board ${n}` })))
      .execute();
    expect((await send('POST', '/__console/boards', { name: 'The last one' })).status).toBe(201);
    const past = await send('POST', '/__console/boards', { name: 'One too many' });
    expect(past.status).toBe(409);
    expect(past.body.msg).toContain(`${BOARDS_MAX} boards`);
  });

  it(`a board holds at most ${BOARD_ITEMS_MAX} results: the last fits, one more is refused`, async () => {
    const ids = await seedTasks(BOARD_ITEMS_MAX + 1);
    const { id } = (
      await send('POST', '/__console/boards', { name: 'Full', ids: ids.slice(0, BOARD_ITEMS_MAX - 1) })
    ).body.data.board;
    expect(
      (await send('POST', `/__console/boards/${id}/items`, { ids: [ids[BOARD_ITEMS_MAX - 1]] })).status,
    ).toBe(200);
    const past = await send('POST', `/__console/boards/${id}/items`, { ids: [ids[BOARD_ITEMS_MAX]] });
    expect(past.status).toBe(409);
    expect(past.body.msg).toContain(`at most ${BOARD_ITEMS_MAX}`);
    expect((await get(`/__console/boards/${id}`)).body.data.items).toHaveLength(BOARD_ITEMS_MAX);
    expect(
      (await send('POST', '/__console/boards', { name: 'Too full', ids: ids.slice(0, BOARD_ITEMS_MAX + 1) }))
        .status,
    ).toBe(400);
    // An unknown task is refused by name, and nothing of the request is added.
    const unknown = await send('POST', '/__console/boards', { name: 'U' });
    const refused = await send('POST', `/__console/boards/${unknown.body.data.board.id}/items`, {
      ids: ['nope'],
    });
    expect([refused.status, refused.body.msg]).toEqual([400, 'This console has no record of nope']);
  });

  it('are listed most recently changed first: a change of a board puts it on top', async () => {
    const [task] = await seedTasks(1);
    const older = (await send('POST', '/__console/boards', { name: 'Older' })).body.data.board.id;
    await send('POST', '/__console/boards', { name: 'Newer' });
    const names = async () =>
      (await get('/__console/boards')).body.data.boards.map((b: { name: string }) => b.name);
    expect(await names()).toEqual(['Newer', 'Older']);
    expect((await send('POST', `/__console/boards/${older}/items`, { ids: [task] })).status).toBe(200);
    expect(await names()).toEqual(['Older', 'Newer']);
  });

  it('are found by a search of their name or description', async () => {
    await send('POST', '/__console/boards', { name: 'Ocean shots', description: 'calm water' });
    await send('POST', '/__console/boards', { name: 'Launch video' });
    const names = async (q: string) =>
      (await get(`/__console/boards?q=${encodeURIComponent(q)}`)).body.data.boards.map(
        (b: { name: string }) => b.name,
      );
    expect(await names('ocean')).toEqual(['Ocean shots']);
    expect(await names('WATER')).toEqual(['Ocean shots']);
    expect(await names('%')).toEqual([]);
    expect((await names('')).sort()).toEqual(['Launch video', 'Ocean shots']);
  });

  it('downloads as one zip named after the board', async () => {
    const [a] = await seedTasks(1);
    const { id } = (await send('POST', '/__console/boards', { name: 'Moodboard: week 3/4', ids: [a] })).body
      .data.board;
    const response = await server.requestAs('Vi', `/__console/boards/${id}/zip`, {}, 'viewer');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''Moodboard%20week%203%204.zip",
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const names = await new Promise<string[]>((resolve, reject) =>
      yauzl.fromBuffer(bytes, { lazyEntries: false }, (error, zip) => {
        if (error) return reject(error);
        const found: string[] = [];
        zip.on('entry', (entry: yauzl.Entry) => found.push(entry.fileName));
        zip.on('end', () => resolve(found));
      }),
    );
    expect(names).toContain('Not included.txt'); // a task with no result file says so
    const empty = (await send('POST', '/__console/boards', { name: 'Empty' })).body.data.board.id;
    expect((await server.requestAs('Ana', `/__console/boards/${empty}/zip`)).status).toBe(404);
  });

  it('changes are announced to every instance, stars only to their owner', async () => {
    const other = await server.make();
    const feed = createBoardsFeed(Promise.resolve(server.database));
    const heard: BoardsEvent[] = [];
    feed.subscribe((event) => heard.push(event));
    try {
      // The LISTEN is up once a NOTIFY sent after it arrives (sent again until one does).
      await expect
        .poll(async () => {
          await sql`select pg_notify('console_boards', 'b:warm-up')`.execute(server.database.db);
          return heard.length;
        })
        .toBeGreaterThan(0);
      const made = await other.app.request(
        'http://127.0.0.1:5173/__console/boards',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Live' }),
        },
        { consoleIdentity: person('Bo') },
      );
      const { id } = ((await made.json()) as { data: { board: { id: string } } }).data.board;
      await expect.poll(() => heard.some((event) => event.type === 'board' && event.id === id)).toBe(true);
    } finally {
      await feed.close();
      await other.close();
    }
    // A stream is told of every board, and of its own person's stars only.
    const [a] = await seedTasks(1);
    const controller = new AbortController();
    const stream = await server.requestAs('Bo', '/__console/boards/events', { signal: controller.signal });
    const reader = stream.body!.getReader();
    let text = '';
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    await expect.poll(() => text).toContain('event: ready');
    await send('POST', '/__console/stars', { ids: [a], starred: true }, 'Ana');
    await send('POST', '/__console/boards', { name: 'Seen' }, 'Ana');
    await expect.poll(() => text).toContain('event: board');
    expect(text).not.toContain('event: stars');
    await send('POST', '/__console/stars', { ids: [a], starred: true }, 'Bo');
    await expect.poll(() => text).toContain('event: stars');
    controller.abort();
    expect(parseBoardsPayload('s:user-ana')).toEqual({ type: 'stars', userId: 'user-ana' });
    expect(parseBoardsPayload('x:1')).toBeUndefined();
  });

  it('a creation that names a board lands on it, and "More like this" is linked to the request it repeats', async () => {
    const { id: boardId } = (await send('POST', '/__console/boards', { name: 'Landing' })).body.data.board;
    const create = (headers: Record<string, string>) =>
      server.requestAs('Ana', '/v1/video_translate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          video_url: 'http://127.0.0.1:5173/emulator/samples/video.mp4',
          target_languages: ['Japanese', 'German'],
          name: 'Recap',
        }),
      });
    const first = (await (await create({ [BOARD_HEADER]: boardId })).json()) as {
      data: { task_id: string }[];
    };
    const firstIds = first.data.map((task) => task.task_id);
    const board = (await get(`/__console/boards/${boardId}`)).body.data;
    expect(board.items.map((task: { id: string }) => task.id)).toEqual(firstIds);
    const requestId = (await get(`/__console/tasks/${firstIds[0]}`)).body.data.task.requestId as string;
    const again = (await (await create({ [PARENT_REQUEST_HEADER]: requestId })).json()) as {
      data: { task_id: string }[];
    };
    const againRequest = (await get(`/__console/tasks/${again.data[0]!.task_id}`)).body.data.task.requestId;
    expect((await get(`/__console/requests/${againRequest}`)).body.data.parentRequestId).toBe(requestId);
    const parent = (await get(`/__console/requests/${requestId}`)).body.data;
    expect(parent.madeAgain).toMatchObject([{ id: againRequest, taskCount: 2, creator: 'Ana' }]);
    // A board full meanwhile takes what fits (none here) and the creation still succeeds.
    await server.database.db
      .insertInto('board_items')
      .values(
        Array.from({ length: BOARD_ITEMS_MAX - 2 }, (_, n) => ({
          board_id: boardId,
          task_id: `filler-${n}`,
          position: 10 + n,
        })),
      )
      .execute();
    expect((await create({ [BOARD_HEADER]: boardId })).status).toBe(200);
    const full = await server.database.db
      .selectFrom('board_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('board_id', '=', boardId)
      .executeTakeFirstOrThrow();
    expect(Number(full.n)).toBe(BOARD_ITEMS_MAX);
    await server.database.db.deleteFrom('board_items').where('task_id', 'like', 'filler-%').execute();
    // A board or a parent that is none changes nothing of the creation.
    expect((await create({ [BOARD_HEADER]: 'b-none', [PARENT_REQUEST_HEADER]: 'req-none' })).status).toBe(
      200,
    );
    expect((await get(`/__console/boards/${boardId}`)).body.data.items).toHaveLength(2);
  });
});

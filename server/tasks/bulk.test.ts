// Bulk actions (server/tasks/bulk.ts): the zip of the chosen tasks' results, the ids of a whole
// view for "Select all matching", and hiding tasks from one's own view.
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { ZIP_TASKS_MAX } from '../../src/api/bulk-rules';
import { accessRule } from '../identity/access';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
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
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      }),
    );
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

describe('POST /__console/tasks/zip', () => {
  it('is a valid zip of the files, named by title, byte-identical to the single downloads', async () => {
    const ids = await translated(['Japanese', 'German']);
    const response = await postJson('/__console/tasks/zip', { ids }, 'Vi', 'viewer');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('Tasks (2).zip');
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
});

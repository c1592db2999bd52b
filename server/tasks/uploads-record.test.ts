// Uploads in the team record: each upload answer passing through /v1/figure-resource/upload/file
// names its URL, and a creation request that uses such URLs carries the files' names (from the
// traffic, never the browser's word alone). The upload body itself is never read by the recorder.
import { asPerson } from '../testing/identity';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import type { TaskView } from './task-view';
import { recordTraffic } from './record-traffic';
import type { TaskRecorder } from './recorder';

const ORIGIN = TEST_ORIGIN;
const PNG = readFileSync('server/emulator/assets/reference.png');
const server = useTestNodeApp('uploads-test');

async function upload(name: string, bytes: Uint8Array<ArrayBuffer> = new Uint8Array(PNG), user = 'Ana') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await server.nodeApp.app.request(
    `${ORIGIN}/v1/figure-resource/upload/file`,
    {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
      body: form,
    },
    asPerson(user),
  );
  return (await response.json()) as { code: number; result?: { url: string } };
}

async function createImage(body: Record<string, unknown>) {
  const response = await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
}

async function detail(id: string) {
  const response = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks/${id}`);
  return ((await response.json()) as { data: { task: TaskView } }).data.task;
}

describe('uploads in the team record', () => {
  it('names the uploaded files of a creation request by field, in the detail and the list', async () => {
    const first = await upload('moodboard.png');
    const second = await upload('palette.png');
    expect(first.code).toBe(0);
    const other = `${ORIGIN}/emulator/samples/reference.png`;
    const id = await createImage({
      prompt: 'a lighthouse',
      reference_images: [other, first.result!.url, second.result!.url],
    });
    const files = [
      { field: 'reference_images[1]', url: first.result!.url, name: 'moodboard.png' },
      { field: 'reference_images[2]', url: second.result!.url, name: 'palette.png' },
    ];
    expect((await detail(id)).files).toEqual(files);
    const list = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks`);
    const items = ((await list.json()) as { data: { items: TaskView[] } }).data.items;
    expect(items.find((item) => item.id === id)?.files).toEqual(files);
  });

  it('records nothing for a refused upload, and no files for URLs that are not uploads', async () => {
    const refused = await upload('notes.png', new TextEncoder().encode('not an image at all'));
    expect(refused.code).not.toBe(0);
    const id = await createImage({
      prompt: 'a cat',
      reference_images: [`${ORIGIN}/emulator/samples/reference.png`],
    });
    expect((await detail(id)).files).toBeUndefined();
  });
});

describe('uploaded file names', () => {
  it("reads a browser's UTF-8 file name as UTF-8, not Latin-1", async () => {
    const name = 'Zoë — 東京 ✓.png';
    const answer = (await upload(name)) as { code: number; result?: { url: string; fileName: string } };
    expect(answer.result?.fileName).toBe(name);
    const id = await createImage({ prompt: 'a lighthouse', reference_images: [answer.result!.url] });
    expect((await detail(id)).files).toEqual([
      { field: 'reference_images[0]', url: answer.result!.url, name },
    ]);
  });

  it('strips bidirectional controls and control characters from the name it gives back and records', async () => {
    // U+202E reverses what follows on screen: "invoice\u202Egnp.png" reads "invoicegnp.png" backwards.
    const answer = (await upload('invoice\u202Egnp\u2066\u200f\u0085.png')) as {
      result?: { url: string; fileName: string };
    };
    expect(answer.result?.fileName).toBe('invoicegnp.png');
    const id = await createImage({ prompt: 'a cat', reference_images: [answer.result!.url] });
    expect((await detail(id)).files?.[0]?.name).toBe('invoicegnp.png');
  });
});

describe('recordTraffic on the upload path', () => {
  it('reads only the answer: the upload body is never pulled by the recorder', async () => {
    const uploaded = vi.fn<TaskRecorder['uploaded']>(async () => undefined);
    const recorder = {
      created: vi.fn(),
      status: vi.fn(),
      error: vi.fn(),
      uploaded,
    } as unknown as TaskRecorder;
    const app = new Hono();
    app.use('/v1/*', recordTraffic(recorder, '/callbacks/secret'));
    // The route answers without reading the body, as a streaming proxy that has not started would.
    app.post('/v1/figure-resource/upload/file', (c) =>
      c.json({
        code: 0,
        success: true,
        result: { url: 'https://cdn.example.com/u/1.png', fileName: 'a\u0007\u202egnp.exe\u202c.png' },
      }),
    );
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new Uint8Array(1024));
          controller.close();
        },
        // Pulled only when someone reads it (the default would pull one chunk at once).
      },
      { highWaterMark: 0 },
    );
    const response = await app.request(
      '/v1/figure-resource/upload/file',
      {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body,
        duplex: 'half',
      } as RequestInit,
      asPerson('Bo'),
    );
    expect(response.status).toBe(200);
    // The service's name too loses control and bidirectional control characters.
    expect(uploaded).toHaveBeenCalledWith('https://cdn.example.com/u/1.png', 'agnp.exe.png', {
      id: 'user-bo',
      name: 'Bo',
    });
    expect(pulled).toBe(false);
  });
});

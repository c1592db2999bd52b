import { describe, expect, it } from 'vitest';
import { asset } from './media';
import {
  cleanupAfterEach,
  emulatorsClosedAfterEach,
  getJson,
  localServer,
  postJson,
  type LocalServer,
} from '../testing/emulator';

const PNG = asset('reference.png');
const onCleanup = cleanupAfterEach();
const make = emulatorsClosedAfterEach(onCleanup);

async function imageServer(): Promise<LocalServer> {
  const server = await localServer((req, res) => {
    if (req.url === '/missing.png') {
      res.writeHead(404).end('nope');
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  onCleanup(() => server.close());
  return server;
}

describe('POST /v1/image_generate', () => {
  it('creates one task per image with unguessable i2is- ids', async () => {
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'A red fox',
      generate_count: 3,
    });
    expect(status).toBe(200);
    expect(body.code).toBe(0);
    expect(body.msg).toBe('ok');
    const ids = body.data.task_ids as string[];
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^i2is-[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it.each([1, 8])('accepts generate_count %d (a bound)', async (count) => {
    const { body } = await postJson(make(), '/v1/image_generate', { prompt: 'x', generate_count: count });
    expect(body.data.task_ids).toHaveLength(count);
  });

  it.each([
    [0, 'generate_count should be [1,8], current: 0'],
    [9, 'generate_count should be [1,8], current: 9'],
  ])('refuses generate_count %d with HTTP 400 code 100002', async (count, msg) => {
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'x',
      generate_count: count,
    });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 100002, msg });
  });

  it('refuses a missing prompt and a prompt over 1000 characters with 100001; accepts 1000', async () => {
    const emulator = make();
    expect(await postJson(emulator, '/v1/image_generate', {})).toEqual({
      status: 400,
      body: { code: 100001, msg: 'prompt: is required' },
    });
    expect((await postJson(emulator, '/v1/image_generate', { prompt: 'p'.repeat(1001) })).body).toEqual({
      code: 100001,
      msg: 'prompt: must be at most 1000 characters, current length: 1001',
    });
    expect((await postJson(emulator, '/v1/image_generate', { prompt: 'p'.repeat(1000) })).status).toBe(200);
  });

  it('refuses an enum value outside the enum with 100001', async () => {
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'x',
      image_quality: '3K',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 100001, msg: 'image_quality: must be one of 1K, 2K, 4K, current: 3K' });
  });

  it('applies the defaults std / 1 / 2K / 9:16', async () => {
    const emulator = make();
    const { body } = await postJson(emulator, '/v1/image_generate', { prompt: 'Defaults' });
    expect(body.data.task_ids).toHaveLength(1);
    emulator.clock.now += 60_000;
    const { body: task } = await getJson(emulator, `/v1/image_generate/${body.data.task_ids[0]}`);
    const png = Buffer.from(
      await (await emulator.service.request(new URL(task.data.image_url).pathname)).arrayBuffer(),
    );
    // 2K is painted 1536 px on the long side (painted-image.ts), 9:16 upright.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([864, 1536]);
  });

  it('accepts an http(s) callback_url and refuses another scheme', async () => {
    const emulator = make();
    expect(
      (await postJson(emulator, '/v1/image_generate', { prompt: 'x', callback_url: 'https://hooks.test/cb' }))
        .status,
    ).toBe(200);
    expect(
      (await postJson(emulator, '/v1/image_generate', { prompt: 'x', callback_url: 'file:///etc/passwd' }))
        .body.code,
    ).toBe(100001);
  });

  it('answers 530003 (HTTP 200) when the prompt contains emulator:reject', async () => {
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'please emulator:reject this',
    });
    expect(status).toBe(200);
    expect(body.code).toBe(530003);
    expect(body.msg).toMatch(/^create task failed: /);
    expect(body.data).toBeUndefined();
  });
});

describe('reference images', () => {
  it('downloads every reference image before creating the tasks', async () => {
    const server = await imageServer();
    const urls = [1, 2, 3].map((n) => `${server.url}/ref-${n}.png`);
    const { body } = await postJson(make(), '/v1/image_generate', { prompt: 'x', reference_images: urls });
    expect(body.code).toBe(0);
    expect(server.requests.map((request) => request.path).sort()).toEqual([
      '/ref-1.png',
      '/ref-2.png',
      '/ref-3.png',
    ]);
  });

  it('silently drops reference images beyond 5 (6 given, 5 downloaded, no error)', async () => {
    const server = await imageServer();
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${server.url}/ref-${n}.png`);
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'x',
      reference_images: urls,
    });
    expect(status).toBe(200);
    expect(body.code).toBe(0);
    expect(server.requests).toHaveLength(5);
    expect(server.requests.some((request) => request.path === '/ref-6.png')).toBe(false);
  });

  it('answers HTTP 200 code 530002 naming the URL and the reason when one download fails', async () => {
    const server = await imageServer();
    const bad = `${server.url}/missing.png`;
    const { status, body } = await postJson(make(), '/v1/image_generate', {
      prompt: 'x',
      reference_images: [`${server.url}/ok.png`, bad],
    });
    expect(status).toBe(200);
    expect(body).toEqual({ code: 530002, msg: `download reference image failed: ${bad}: HTTP 404` });
  });

  it('downloads the built-in samples through the given fetch', async () => {
    const emulator = make();
    const fetchSample: typeof fetch = async (input) =>
      emulator.service.request(new URL(String(input)).pathname);
    const withSamples = make({ fetch: fetchSample });
    const { body } = await postJson(withSamples, '/v1/image_generate', {
      prompt: 'x',
      reference_images: [
        'http://localhost/emulator/samples/reference.png',
        'http://localhost/emulator/samples/reference.webp',
      ],
    });
    expect(body.code).toBe(0);
  });
});

describe('GET /v1/image_generate/{id}', () => {
  it('is GENERATING, then SUCCEEDED with image and thumbnail links on the request origin', async () => {
    const emulator = make();
    const response = await emulator.service.request('http://console.test:5173/v1/image_generate', {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A fox' }),
    });
    const id = ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    expect((await getJson(emulator, `/v1/image_generate/${id}`)).body.data).toEqual({
      task_id: id,
      status: 'GENERATING',
      image_url: '',
      thumbnail_url: '',
      error_message: '',
    });
    emulator.clock.now += 10_000;
    expect((await getJson(emulator, `/v1/image_generate/${id}`)).body.data).toEqual({
      task_id: id,
      status: 'SUCCEEDED',
      image_url: `http://console.test:5173/emulator/media/images/${id}.png`,
      thumbnail_url: `http://console.test:5173/emulator/media/images/${id}.thumb.png`,
      error_message: '',
    });
  });

  it('ends FAILED with an error_message when the prompt contains emulator:fail', async () => {
    const emulator = make();
    const { body } = await postJson(emulator, '/v1/image_generate', { prompt: 'emulator:fail' });
    emulator.clock.now += 10_000;
    const { data } = (await getJson(emulator, `/v1/image_generate/${body.data.task_ids[0]}`)).body;
    expect(data.status).toBe('FAILED');
    expect(data.image_url).toBe('');
    expect(data.error_message).toBe(
      'Emulated failure: the model could not process this request (emulator:fail)',
    );
  });

  it('answers HTTP 404 code 100003 for an unknown id', async () => {
    expect(await getJson(make(), '/v1/image_generate/i2is-unknown')).toEqual({
      status: 404,
      body: { code: 100003, msg: 'task not found: i2is-unknown' },
    });
  });

  it('answers the unknown-path 404 when the endpoint is disabled', async () => {
    const emulator = make({ disabled: ['image_generate_query'] });
    const { body } = await postJson(emulator, '/v1/image_generate', { prompt: 'x' });
    expect(await getJson(emulator, `/v1/image_generate/${body.data.task_ids[0]}`)).toEqual({
      status: 404,
      body: { code: 404, msg: 'Not Found' },
    });
  });
});

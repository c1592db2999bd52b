import { describe, expect, it } from 'vitest';
import { imageToVideoTaskSchema } from '../../src/api/schemas';
import { emulatorsClosedAfterEach, getJson, postJson, testEmulator } from '../testing/emulator';

const make = emulatorsClosedAfterEach();

const base = { image_url: 'https://images.test/start.png', prompt: 'Slow zoom' };

async function create(emulator: ReturnType<typeof testEmulator>, body: object): Promise<string[]> {
  const { body: envelope } = await postJson(emulator, '/v1/image_to_video', body);
  expect(envelope.code).toBe(0);
  return envelope.data.task_ids as string[];
}

describe('POST /v1/image_to_video', () => {
  it('returns one i2v- task id by default', async () => {
    const ids = await create(make(), base);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^i2v-[0-9a-f]{32}$/);
  });

  it.each([1, 4])('accepts generate_count %d', async (count) => {
    expect(await create(make(), { ...base, generate_count: count })).toHaveLength(count);
  });

  it.each([0, 5])('refuses generate_count %d with 100002', async (count) => {
    expect(await postJson(make(), '/v1/image_to_video', { ...base, generate_count: count })).toEqual({
      status: 400,
      body: { code: 100002, msg: `generate_count should be [1,4], current: ${count}` },
    });
  });

  it('refuses a missing image_url and an unknown aspect_ratio with 100001', async () => {
    const emulator = make();
    expect((await postJson(emulator, '/v1/image_to_video', { prompt: 'x' })).body).toEqual({
      code: 100001,
      msg: 'image_url: is required',
    });
    expect((await postJson(emulator, '/v1/image_to_video', { ...base, aspect_ratio: '1:1' })).body).toEqual({
      code: 100001,
      msg: 'aspect_ratio: must be one of 16:9, 9:16, current: 1:1',
    });
  });

  it('answers the unknown-path 404 when disabled', async () => {
    expect(await postJson(make({ disabled: ['image_to_video_create'] }), '/v1/image_to_video', base)).toEqual(
      {
        status: 404,
        body: { code: 404, msg: 'Not Found' },
      },
    );
  });
});

describe('GET /v1/image_to_video/{id} (section 2.6)', () => {
  it('has every field of section 2.6 while running and once SUCCEEDED', async () => {
    const emulator = make();
    const [id] = await create(emulator, base);
    const running = (await getJson(emulator, `/v1/image_to_video/${id}`)).body.data;
    expect(running).toEqual({
      task_id: id,
      status: 'PENDING',
      video_url: '',
      thumbnail_url: '',
      error_message: '',
      duration: 4,
      width: 720,
      height: 1280,
    });
    emulator.clock.now += 4_000;
    expect((await getJson(emulator, `/v1/image_to_video/${id}`)).body.data.status).toBe('PROCESSING');
    emulator.clock.now += 20_000;
    const done = (await getJson(emulator, `/v1/image_to_video/${id}`)).body.data;
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      video_url: `http://localhost/emulator/media/videos/${id}.mp4`,
      thumbnail_url: `http://localhost/emulator/media/thumbnails/${id}.jpg`,
      error_message: '',
    });
    expect(imageToVideoTaskSchema.safeParse(done).success).toBe(true);
    expect(Number.isInteger(done.duration)).toBe(true);
  });

  it.each([
    [{ aspect_ratio: '16:9' }, 1280, 720],
    [{ aspect_ratio: '9:16', aspect_resolution: '1080p' }, 1080, 1920],
    [{ aspect_ratio: '16:9', aspect_resolution: '4k', duration: 8 }, 3840, 2160],
  ])('reports pixels for %j', async (extra, width, height) => {
    const emulator = make();
    const [id] = await create(emulator, { ...base, ...extra });
    const { data } = (await getJson(emulator, `/v1/image_to_video/${id}`)).body;
    expect([data.width, data.height]).toEqual([width, height]);
    expect(data.duration).toBe('duration' in extra ? extra.duration : 4);
  });

  it('ends FAILED with an error_message for emulator:fail', async () => {
    const emulator = make();
    const [id] = await create(emulator, { ...base, prompt: 'emulator:fail' });
    emulator.clock.now += 60_000;
    const { data } = (await getJson(emulator, `/v1/image_to_video/${id}`)).body;
    expect(data).toMatchObject({
      status: 'FAILED',
      video_url: '',
      error_message: expect.stringContaining('emulator:fail'),
    });
  });

  it('answers HTTP 404 code 100003 for an unknown id', async () => {
    expect(await getJson(make(), '/v1/image_to_video/i2v-0000')).toEqual({
      status: 404,
      body: { code: 100003, msg: 'task not found: i2v-0000' },
    });
  });

  it('answers 404/100003 for the id of another kind of task', async () => {
    const emulator = make();
    const { body } = await postJson(emulator, '/v1/video_translate', {
      target_languages: ['English'],
      video_url: 'https://v.test/a.mp4',
    });
    const id = body.data[0].task_id as string;
    expect(await getJson(emulator, `/v1/image_to_video/${id}`)).toEqual({
      status: 404,
      body: { code: 100003, msg: `task not found: ${id}` },
    });
  });

  it('answers 530003 on creation for emulator:reject', async () => {
    const { status, body } = await postJson(make(), '/v1/image_to_video', {
      ...base,
      prompt: 'emulator:reject',
    });
    expect([status, body.code]).toEqual([200, 530003]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  callbackBodySchema,
  imageGenerateCallbackSchema,
  imageToVideoCallbackSchema,
  videoTranslateCallbackSchema,
} from '../../src/api/schemas';
import {
  cleanupAfterEach,
  emulatorsClosedAfterEach,
  localServer,
  postJson,
  testEmulator,
  waitFor,
  type LocalServer,
} from '../testing/emulator';
import { asset } from './media';

const onCleanup = cleanupAfterEach();
const make = emulatorsClosedAfterEach(onCleanup);

/** Receives callbacks (POST) and serves a PNG to GET, so image-to-video tasks can download their frames. */
async function server(): Promise<LocalServer> {
  const s = await localServer((req, res) => {
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'image/png' }).end(asset('reference.png'));
    else res.writeHead(200).end();
  });
  onCleanup(() => s.close());
  return s;
}

describe('seedTask', () => {
  it('stores a task with defaults and returns its id', () => {
    const emulator = make();
    expect(emulator.seedTask({ kind: 'image_generate' })).toMatch(/^i2is-/);
    expect(emulator.seedTask({ kind: 'video_translate' })).toMatch(/^vt-/);
    expect(emulator.seedTask({ kind: 'image_to_video' })).toMatch(/^i2v-/);
  });

  it('calls back a seeded task with a callbackUrl when it finishes', async () => {
    const s = await server();
    const emulator = make({ now: Date.now, timeScale: 0.001 });
    const id = emulator.seedTask({ kind: 'image_generate', callbackUrl: `${s.url}/cb` });
    await waitFor(() => s.requests.length === 1);
    expect(JSON.parse(s.requests[0]!.body)).toMatchObject({
      task_type: 'image_generate',
      data: { task_id: id },
    });
  });
});

describe('completion callbacks of emulated tasks', () => {
  const fastEmulator = () => make({ timeScale: 0.002, now: Date.now, callbackRetryDelayMs: 5 });

  it('image_generate: one callback per task with task_type image_generate and image_url', async () => {
    const s = await server();
    const emulator = fastEmulator();
    const { body } = await postJson(emulator, '/v1/image_generate', {
      prompt: 'x',
      generate_count: 2,
      callback_url: `${s.url}/cb`,
    });
    await waitFor(() => s.requests.length === 2);
    const bodies = s.requests.map((request) => JSON.parse(request.body) as unknown);
    for (const received of bodies) {
      expect(imageGenerateCallbackSchema.safeParse(received).success).toBe(true);
      expect(received).toMatchObject({
        code: 0,
        msg: 'ok',
        task_type: 'image_generate',
        data: { status: 'SUCCEEDED', error_message: '' },
      });
    }
    const ids = bodies.map((received) => (received as { data: { task_id: string } }).data.task_id).sort();
    expect(ids).toEqual([...(body.data.task_ids as string[])].sort());
    expect((bodies[0] as { data: Record<string, unknown> }).data).toEqual({
      task_id: expect.any(String),
      status: 'SUCCEEDED',
      image_url: expect.stringMatching(/^http:\/\/localhost\/emulator\/media\/images\/i2is-\w+\.png$/),
      error_message: '',
    });
  });

  it('video_translate: the section 6.2 body with name, language, video_url and caption_url', async () => {
    const s = await server();
    const emulator = fastEmulator();
    await postJson(emulator, '/v1/video_translate', {
      target_languages: ['French'],
      video_url: 'https://v.test/a.mp4',
      name: 'Tour',
      enable_caption: true,
      callback_url: `${s.url}/cb`,
    });
    await waitFor(() => s.requests.length === 1);
    const received = JSON.parse(s.requests[0]!.body) as unknown;
    expect(videoTranslateCallbackSchema.safeParse(received).success).toBe(true);
    expect(received).toMatchObject({
      task_type: 'video_translate',
      data: {
        name: 'French-Tour',
        language: 'French',
        status: 'SUCCEEDED',
        caption_url: expect.stringMatching(/\.ass$/),
      },
    });
    expect(Object.keys((received as { data: object }).data).sort()).toEqual(
      ['caption_url', 'error_message', 'language', 'name', 'status', 'task_id', 'video_url'].sort(),
    );
  });

  it('image_to_video: FAILED callback with an error_message and empty links', async () => {
    const s = await server();
    const emulator = fastEmulator();
    await postJson(emulator, '/v1/image_to_video', {
      image_url: `${s.url}/a.png`,
      aspect_resolution: '720p',
      prompt: 'emulator:fail',
      callback_url: `${s.url}/cb`,
    });
    await waitFor(() => s.requests.filter((r) => r.method === 'POST').length === 1);
    const received = JSON.parse(s.requests.find((r) => r.method === 'POST')!.body) as unknown;
    expect(imageToVideoCallbackSchema.safeParse(received).success).toBe(true);
    expect(callbackBodySchema.safeParse(received).success).toBe(true);
    expect((received as { data: object }).data).toEqual({
      task_id: expect.stringMatching(/^i2v-/),
      status: 'FAILED',
      video_url: '',
      thumbnail_url: '',
      error_message: expect.stringContaining('emulator:fail'),
    });
  });

  it('image_to_video: SUCCEEDED callback with video_url and thumbnail_url, one per task', async () => {
    const s = await server();
    const emulator = fastEmulator();
    await postJson(emulator, '/v1/image_to_video', {
      model: 'KL',
      reference_images: [`${s.url}/a.png`, `${s.url}/b.png`],
      prompt: 'Calm scene',
      generate_count: 2,
      callback_url: `${s.url}/cb`,
    });
    const posts = () => s.requests.filter((r) => r.method === 'POST');
    await waitFor(() => posts().length === 2);
    for (const post of posts()) {
      const received = JSON.parse(post.body) as { task_type: string; data: object };
      expect(received.task_type).toBe('image_to_video');
      expect(received.data).toEqual({
        task_id: expect.stringMatching(/^i2v-/),
        status: 'SUCCEEDED',
        video_url: expect.stringMatching(/\/emulator\/media\/videos\/i2v-\w+\.mp4$/),
        thumbnail_url: expect.stringMatching(/\/emulator\/media\/thumbnails\/i2v-\w+\.jpg$/),
        error_message: '',
      });
    }
  });

  it('no callback for a task that never finishes, nor without a callback_url', async () => {
    const s = await server();
    const emulator = fastEmulator();
    await postJson(emulator, '/v1/image_generate', {
      prompt: 'emulator:status=QUEUED',
      callback_url: `${s.url}/cb`,
    });
    await postJson(emulator, '/v1/image_generate', { prompt: 'x' });
    // Control: a task made after them that does finish with a callback_url. Its callback is due
    // no sooner than theirs would have been, so once it is in, theirs would be too.
    const control = await postJson(emulator, '/v1/image_generate', {
      prompt: 'x',
      callback_url: `${s.url}/cb`,
    });
    const controlId = (control.body as { data: { task_ids: string[] } }).data.task_ids[0]!;
    await waitFor(() => s.requests.length >= 1);
    expect(s.requests).toHaveLength(1);
    expect(JSON.parse(s.requests[0]!.body)).toMatchObject({ data: { task_id: controlId } });
  });

  it('close() cancels callbacks that are not due yet', async () => {
    const s = await server();
    const emulator = testEmulator({ timeScale: 0.02, now: Date.now });
    await postJson(emulator, '/v1/image_generate', { prompt: 'x', callback_url: `${s.url}/cb` });
    await emulator.close();
    // Control: the same task on an emulator left open, made after the closed one's: once its
    // callback is in, the closed one's was due too.
    const open = await server();
    const other = make({ timeScale: 0.02, now: Date.now });
    await postJson(other, '/v1/image_generate', { prompt: 'x', callback_url: `${open.url}/cb` });
    await waitFor(() => open.requests.length === 1);
    expect(s.requests).toHaveLength(0);
  });
});

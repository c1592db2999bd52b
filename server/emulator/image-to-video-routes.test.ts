import { describe, expect, it } from 'vitest';
import { imageToVideoTaskSchema } from '../../src/api/schemas';
import { emulatorsClosedAfterEach, getJson, postJson, testEmulator } from '../testing/emulator';
import { asset } from './media';

const make = emulatorsClosedAfterEach();
const PNG = asset('reference.png');

/** Every download the emulator makes, answered with a PNG (404 for URLs containing "missing"). */
function imagesEmulator(options: Parameters<typeof make>[0] = {}) {
  const fetched: string[] = [];
  const fetchImage: typeof fetch = async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    fetched.push(url);
    if (url.includes('missing')) return new Response('nope', { status: 404 });
    return new Response(PNG as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'image/png' } });
  };
  return Object.assign(make({ fetch: fetchImage, ...options }), { fetched });
}

const img = (name: string) => `https://images.test/${name}.png`;
const refs = (count: number) => Array.from({ length: count }, (_, index) => img(`ref-${index}`));
const startFrame = {
  prompt: 'Slow zoom',
  image_url: img('start'),
  aspect_ratio: '16:9',
  aspect_resolution: '720p',
};
const referenceV = { prompt: 'Slow zoom', reference_images: refs(2), aspect_resolution: '720p' };
const multiKL = { model: 'KL', prompt: 'Slow zoom', reference_images: refs(2) };

async function post(emulator: ReturnType<typeof testEmulator>, body: object) {
  return postJson(emulator, '/v1/image_to_video', body);
}

async function create(emulator: ReturnType<typeof testEmulator>, body: object): Promise<string[]> {
  const { body: envelope } = await post(emulator, body);
  expect(envelope).toMatchObject({ code: 0, msg: 'ok' });
  return envelope.data.task_ids as string[];
}

/** Asserts the refusal: HTTP 400, the code, and a msg that names the field first. */
async function refused(body: object, code: number, msg: string) {
  expect(await post(imagesEmulator(), body)).toEqual({ status: 400, body: { code, msg } });
}

describe('POST /v1/image_to_video: the rules of each model and mode, both sides of each bound', () => {
  it('returns one i2v- task id by default', async () => {
    const ids = await create(imagesEmulator(), startFrame);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^i2v-[0-9a-f]{32}$/);
  });

  it.each([
    ['V start frame', startFrame],
    ['V reference', referenceV],
    ['KL', multiKL],
  ])('prompt (%s): required, 1000 characters pass, 1001 do not', async (_name, body) => {
    await refused({ ...body, prompt: undefined }, 100001, 'prompt: is required');
    await refused({ ...body, prompt: '  ' }, 100001, 'prompt: must not be empty');
    expect(await create(imagesEmulator(), { ...body, prompt: 'p'.repeat(1000) })).toHaveLength(1);
    await refused(
      { ...body, prompt: 'p'.repeat(1001) },
      100001,
      'prompt: must be at most 1000 characters, current length: 1001',
    );
  });

  it('image_url: required for model V with a start frame, not allowed for KL', async () => {
    await refused(
      { prompt: 'x', aspect_resolution: '720p' },
      100001,
      'image_url: is required for model V (a start frame), unless reference_images are given',
    );
    await refused({ ...multiKL, image_url: img('s') }, 100001, 'image_url: is not supported by model KL');
    await refused(
      { ...startFrame, image_url: 'ftp://x/a.png' },
      100001,
      expect.stringMatching(/^image_url: /) as never,
    );
  });

  it('end_image_url: optional with a start frame, refused without one and for KL', async () => {
    expect(await create(imagesEmulator(), { ...startFrame, end_image_url: img('end') })).toHaveLength(1);
    await refused(
      { ...referenceV, end_image_url: img('end') },
      100001,
      'end_image_url: is not supported by model V with reference images: an end frame needs a start frame',
    );
    await refused(
      { ...multiKL, end_image_url: img('end') },
      100001,
      'end_image_url: is not supported by model KL: an end frame needs a start frame',
    );
  });

  it('reference_images: model V takes 1 to 3, never with a start frame', async () => {
    for (const count of [1, 3]) {
      expect(await create(imagesEmulator(), { ...referenceV, reference_images: refs(count) })).toHaveLength(
        1,
      );
    }
    for (const count of [0, 4]) {
      await refused(
        { ...referenceV, reference_images: refs(count) },
        100001,
        `reference_images: must have 1 to 3 images for model V with reference images, current: ${count}`,
      );
    }
    await refused(
      { ...startFrame, reference_images: refs(1) },
      100001,
      'reference_images: cannot be combined with image_url for model V: choose a start frame or reference images',
    );
  });

  it('reference_images: model KL requires 1 to 7', async () => {
    for (const count of [1, 7]) {
      expect(await create(imagesEmulator(), { ...multiKL, reference_images: refs(count) })).toHaveLength(1);
    }
    for (const count of [0, 8]) {
      await refused(
        { ...multiKL, reference_images: refs(count) },
        100001,
        `reference_images: must have 1 to 7 images for model KL, current: ${count}`,
      );
    }
    await refused({ model: 'KL', prompt: 'x' }, 100001, 'reference_images: is required for model KL');
  });

  it('aspect_ratio: 16:9 and 9:16 only', async () => {
    for (const ratio of ['16:9', '9:16']) {
      expect(await create(imagesEmulator(), { ...startFrame, aspect_ratio: ratio })).toHaveLength(1);
      expect(await create(imagesEmulator(), { ...multiKL, aspect_ratio: ratio })).toHaveLength(1);
    }
    await refused(
      { ...startFrame, aspect_ratio: '1:1' },
      100001,
      'aspect_ratio: must be one of 16:9, 9:16, current: 1:1',
    );
  });

  it('aspect_resolution: V takes 720p, 1080p, 4k (required); KL 720p, 1080p', async () => {
    for (const resolution of ['720p', '1080p', '4k']) {
      expect(await create(imagesEmulator(), { ...startFrame, aspect_resolution: resolution })).toHaveLength(
        1,
      );
    }
    await refused(
      { ...startFrame, aspect_resolution: undefined },
      100001,
      'aspect_resolution: is required for model V',
    );
    for (const resolution of ['720p', '1080p']) {
      expect(await create(imagesEmulator(), { ...multiKL, aspect_resolution: resolution })).toHaveLength(1);
    }
    await refused(
      { ...multiKL, aspect_resolution: '4k' },
      100001,
      'aspect_resolution: must be 720p or 1080p for model KL, current: 4k',
    );
  });

  it.each([
    ['model V with a start frame', startFrame, [4, 6, 8], [3, 5, 9, 10], '4, 6 or 8'],
    ['model V with reference images', referenceV, [8], [4, 6, 9], '8'],
    ['model KL', multiKL, [5, 10], [4, 6, 8, 11], '5 or 10'],
  ])('duration for %s', async (label, body, good, bad, words) => {
    for (const duration of good) {
      const emulator = imagesEmulator();
      const [id] = await create(emulator, { ...body, duration });
      expect((await getJson(emulator, `/v1/image_to_video/${id}`)).body.data.duration).toBe(duration);
    }
    for (const duration of bad) {
      await refused(
        { ...body, duration },
        100001,
        `duration: must be ${words} for ${label}, current: ${duration}`,
      );
    }
    await refused({ ...body, duration: 4.5 }, 100001, 'duration: must be an integer, current: 4.5');
  });

  it('generate_audio: optional for model V (false by default), not supported by KL', async () => {
    for (const audio of [true, false]) {
      expect(await create(imagesEmulator(), { ...startFrame, generate_audio: audio })).toHaveLength(1);
      expect(await create(imagesEmulator(), { ...referenceV, generate_audio: audio })).toHaveLength(1);
    }
    expect(await create(imagesEmulator(), { ...multiKL, generate_audio: false })).toHaveLength(1);
    await refused(
      { ...multiKL, generate_audio: true },
      100001,
      'generate_audio: is not supported by model KL',
    );
    await refused(
      { ...startFrame, generate_audio: 'yes' },
      100001,
      'generate_audio: must be a boolean, current: yes',
    );
  });

  it.each([
    ['V', startFrame],
    ['KL', multiKL],
  ])('generate_count for %s: 1 and 4 make that many tasks; 0 and 5 are 100002', async (_model, body) => {
    for (const count of [1, 4])
      expect(await create(imagesEmulator(), { ...body, generate_count: count })).toHaveLength(count);
    for (const count of [0, 5]) {
      await refused(
        { ...body, generate_count: count },
        100002,
        `generate_count should be [1,4], current: ${count}`,
      );
    }
  });

  it('callback_url: optional, http(s) only', async () => {
    expect(
      await create(imagesEmulator(), { ...startFrame, callback_url: 'https://hooks.test/cb' }),
    ).toHaveLength(1);
    await refused(
      { ...startFrame, callback_url: 'mailto:a@b.c' },
      100001,
      'callback_url: must be an http:// or https:// URL, current: mailto:a@b.c',
    );
  });

  it('model: V or KL', async () => {
    await refused({ ...startFrame, model: 'X' }, 100001, 'model: must be one of V, KL, current: X');
  });
});

describe('POST /v1/image_to_video: downloads every image first', () => {
  it('downloads the start frame, the end frame and every reference image', async () => {
    const withFrames = imagesEmulator();
    await create(withFrames, { ...startFrame, end_image_url: img('end') });
    expect(withFrames.fetched).toEqual([img('start'), img('end')]);
    const withRefs = imagesEmulator();
    await create(withRefs, { ...multiKL, reference_images: refs(3) });
    expect(withRefs.fetched).toEqual(refs(3));
  });

  it.each([
    ['image_url', { ...startFrame, image_url: img('missing-start') }, img('missing-start')],
    ['end_image_url', { ...startFrame, end_image_url: img('missing-end') }, img('missing-end')],
    ['reference_images', { ...multiKL, reference_images: [img('a'), img('missing')] }, img('missing')],
  ])('answers 530002 when %s cannot be downloaded, and creates nothing', async (_field, body, url) => {
    const emulator = imagesEmulator();
    expect(await post(emulator, body)).toEqual({
      status: 200,
      body: { code: 530002, msg: `download reference image failed: ${url}: HTTP 404` },
    });
  });
});

describe('POST /v1/image_to_video: other answers', () => {
  it('answers the unknown-path 404 when disabled', async () => {
    expect(await post(imagesEmulator({ disabled: ['image_to_video_create'] }), startFrame)).toEqual({
      status: 404,
      body: { code: 404, msg: 'Not Found' },
    });
  });

  it('answers 530003 on creation for emulator:reject', async () => {
    const { status, body } = await post(imagesEmulator(), { ...startFrame, prompt: 'emulator:reject' });
    expect([status, body.code]).toEqual([200, 530003]);
  });
});

describe('GET /v1/image_to_video/{id} (section 2.6)', () => {
  it('goes PENDING → PROCESSING → SUCCEEDED with every field of section 2.6', async () => {
    const emulator = imagesEmulator();
    const [id] = await create(emulator, { ...startFrame, aspect_ratio: '9:16', duration: 6 });
    const running = (await getJson(emulator, `/v1/image_to_video/${id}`)).body.data;
    expect(running).toEqual({
      task_id: id,
      status: 'PENDING',
      video_url: '',
      thumbnail_url: '',
      error_message: '',
      duration: 6,
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
  });

  it.each([
    [{ ...startFrame, aspect_ratio: '16:9' }, 1280, 720, 8],
    [{ ...startFrame, aspect_ratio: '9:16', aspect_resolution: '1080p' }, 1080, 1920, 8],
    [{ ...startFrame, aspect_ratio: '16:9', aspect_resolution: '4k', duration: 4 }, 3840, 2160, 4],
    [{ ...multiKL, aspect_ratio: '9:16' }, 720, 1280, 5],
    [{ ...multiKL, aspect_resolution: '1080p', duration: 10 }, 1920, 1080, 10],
  ])('reports the requested size and duration for %j', async (body, width, height, duration) => {
    const emulator = imagesEmulator();
    const [id] = await create(emulator, body);
    const { data } = (await getJson(emulator, `/v1/image_to_video/${id}`)).body;
    expect([data.width, data.height, data.duration]).toEqual([width, height, duration]);
  });

  it('ends FAILED with an error_message for emulator:fail', async () => {
    const emulator = imagesEmulator();
    const [id] = await create(emulator, { ...startFrame, prompt: 'emulator:fail' });
    emulator.clock.now += 60_000;
    const { data } = (await getJson(emulator, `/v1/image_to_video/${id}`)).body;
    expect(data).toMatchObject({
      status: 'FAILED',
      video_url: '',
      error_message: expect.stringContaining('emulator:fail'),
    });
  });

  it('moves to the status a prompt names with emulator:status=WORD and stays', async () => {
    const emulator = imagesEmulator();
    const [id] = await create(emulator, { ...startFrame, prompt: 'x emulator:status=QUEUED' });
    emulator.clock.now += 600_000;
    expect((await getJson(emulator, `/v1/image_to_video/${id}`)).body.data.status).toBe('QUEUED');
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
});

describe('the served video', () => {
  /** Whether an MP4 holds a track of this handler type ('soun' audio, 'vide' video). */
  const hasTrack = (bytes: Uint8Array, handler: 'soun' | 'vide') =>
    Buffer.from(bytes).includes(Buffer.from(`hdlr\0\0\0\0\0\0\0\0${handler}`, 'latin1'));
  /** Width and height of the first video track, from its tkhd box (16.16 fixed point). */
  const videoSize = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes);
    const tkhd = buffer.indexOf('tkhd');
    const version = buffer[tkhd + 4]!;
    const end = tkhd + 4 + (version === 1 ? 96 : 84);
    return [buffer.readUInt32BE(end - 8) >> 16, buffer.readUInt32BE(end - 4) >> 16];
  };

  it.each([
    [{ ...startFrame, aspect_ratio: '9:16', generate_audio: true }, [720, 1280], true],
    [{ ...startFrame, aspect_ratio: '16:9', generate_audio: true }, [1280, 720], true],
    [{ ...startFrame, aspect_ratio: '9:16', generate_audio: false }, [720, 1280], false],
    [{ ...multiKL, aspect_ratio: '16:9' }, [1280, 720], false],
  ])('matches the orientation and has audio only when asked: %j', async (body, size, audio) => {
    const emulator = imagesEmulator();
    const [id] = await create(emulator, body);
    emulator.clock.now += 60_000;
    const video = await emulator.service.request(`/emulator/media/videos/${id}.mp4`);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await video.arrayBuffer());
    expect(videoSize(bytes)).toEqual(size);
    expect(hasTrack(bytes, 'vide')).toBe(true);
    expect(hasTrack(bytes, 'soun')).toBe(audio);
    const thumbnail = await emulator.service.request(`/emulator/media/thumbnails/${id}.jpg`);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });
});

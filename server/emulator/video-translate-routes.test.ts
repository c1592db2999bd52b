import { describe, expect, it } from 'vitest';
import { translatedVideoName } from '../../src/api/schemas';
import { emulatorsClosedAfterEach, getJson, postJson, testEmulator } from '../testing/emulator';
import { TARGET_LANGUAGES } from '../../src/api/schemas';

const make = emulatorsClosedAfterEach();

const base = { target_languages: ['English'], video_url: 'https://videos.test/tour.mp4' };

async function create(emulator: ReturnType<typeof testEmulator>, body: object) {
  const { body: envelope } = await postJson(emulator, '/v1/video_translate', body);
  expect(envelope.code).toBe(0);
  return envelope.data as { task_id: string; language: string }[];
}

describe('POST /v1/video_translate', () => {
  it('creates one vt- task per target language, in order', async () => {
    const data = await create(make(), { ...base, target_languages: ['English', 'French', 'Japanese'] });
    expect(data.map((item) => item.language)).toEqual(['English', 'French', 'Japanese']);
    for (const item of data) expect(item.task_id).toMatch(/^vt-[0-9a-f]{32}$/);
  });

  it('names the translated video <language>-<name>', async () => {
    const emulator = make();
    const [task] = await create(emulator, { ...base, name: 'Product tour' });
    const { data } = (await getJson(emulator, `/v1/video_translate/${task!.task_id}`)).body;
    expect(data.name).toBe('English-Product tour');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
  ])('names it <language>-videoTranslate-<unix seconds at creation> when name is %s', async (_, name) => {
    const emulator = make();
    const [task] = await create(emulator, { ...base, target_languages: ['German'], name });
    emulator.clock.now += 5_000;
    const { data } = (await getJson(emulator, `/v1/video_translate/${task!.task_id}`)).body;
    const seconds = Math.floor(Date.UTC(2026, 0, 1) / 1000);
    expect(data.name).toBe(`German-videoTranslate-${seconds}`);
    expect(data.name).toBe(translatedVideoName('German', undefined, seconds));
  });

  it('speaker_num: 0 is accepted, -1 is 100002 with the exact bounds message', async () => {
    const emulator = make();
    await create(emulator, { ...base, speaker_num: 0 });
    expect(await postJson(emulator, '/v1/video_translate', { ...base, speaker_num: -1 })).toEqual({
      status: 400,
      body: { code: 100002, msg: 'speaker_num should be [0,2147483647], current: -1' },
    });
  });

  it('name: 99 characters are accepted, 100 are 100001', async () => {
    const emulator = make();
    await create(emulator, { ...base, name: 'n'.repeat(99) });
    expect(await postJson(emulator, '/v1/video_translate', { ...base, name: 'n'.repeat(100) })).toEqual({
      status: 400,
      body: { code: 100001, msg: 'name: must be fewer than 100 characters, current length: 100' },
    });
  });

  it.each([[['English', 7]], [['English', null]], [['English', ['French']]], [['English', '  ']]])(
    'refuses the target languages %j (every item a non-empty string) with 100001',
    async (languages) => {
      const answer = await postJson(make(), '/v1/video_translate', { ...base, target_languages: languages });
      expect(answer).toMatchObject({ status: 400, body: { code: 100001 } });
      expect(answer.body.msg).toMatch(/^target_languages/);
    },
  );

  it.each([
    [{ video_url: base.video_url }, 'target_languages: is required'],
    [{ ...base, target_languages: [] }, 'target_languages: must have at least 1 item, current: 0'],
    [{ target_languages: ['English'] }, 'video_url: is required'],
    [
      { ...base, video_url: 'ftp://videos.test/a.mp4' },
      'video_url: must be an http:// or https:// URL, current: ftp://videos.test/a.mp4',
    ],
    [{ ...base, enable_caption: 'yes' }, 'enable_caption: must be a boolean, current: yes'],
  ])('refuses %j with 100001', async (body, msg) => {
    expect(await postJson(make(), '/v1/video_translate', body)).toEqual({
      status: 400,
      body: { code: 100001, msg },
    });
  });

  it('answers 530003 when the name contains emulator:reject', async () => {
    const { status, body } = await postJson(make(), '/v1/video_translate', {
      ...base,
      name: 'emulator:reject',
    });
    expect(status).toBe(200);
    expect(body.code).toBe(530003);
    expect(body.msg).toMatch(/^create task failed: /);
  });
});

describe('GET /v1/video_translate/{id}', () => {
  it('goes PENDING -> PROCESSING -> SUCCEEDED with video and caption links', async () => {
    const emulator = make();
    const [task] = await create(emulator, { ...base, name: 'Tour', enable_caption: true });
    const id = task!.task_id;
    const status = async () => (await getJson(emulator, `/v1/video_translate/${id}`)).body.data;
    expect(await status()).toEqual({
      task_id: id,
      name: 'English-Tour',
      language: 'English',
      status: 'PENDING',
      video_url: '',
      caption_url: '',
      error_message: '',
    });
    emulator.clock.now += 5_000;
    expect((await status()).status).toBe('PROCESSING');
    emulator.clock.now += 30_000;
    expect(await status()).toEqual({
      task_id: id,
      name: 'English-Tour',
      language: 'English',
      status: 'SUCCEEDED',
      video_url: `http://localhost/emulator/media/videos/${id}.mp4`,
      caption_url: `http://localhost/emulator/media/captions/${id}.ass`,
      error_message: '',
    });
  });

  it('has no caption file unless enable_caption (provider default false)', async () => {
    const emulator = make();
    const [task] = await create(emulator, base);
    emulator.clock.now += 60_000;
    const { data } = (await getJson(emulator, `/v1/video_translate/${task!.task_id}`)).body;
    expect(data.status).toBe('SUCCEEDED');
    expect(data.caption_url).toBe('');
  });

  it.each([
    ['name', { ...base, name: 'demo emulator:fail' }],
    ['video_url', { ...base, video_url: 'https://videos.test/emulator:fail.mp4' }],
  ])('fails with an error_message when %s contains emulator:fail', async (_, body) => {
    const emulator = make();
    const [task] = await create(emulator, body);
    emulator.clock.now += 60_000;
    const { data } = (await getJson(emulator, `/v1/video_translate/${task!.task_id}`)).body;
    expect(data.status).toBe('FAILED');
    expect(data.video_url).toBe('');
    expect(data.error_message).toContain('Emulated failure');
  });

  it('answers 404/100003 for an unknown id and for an image task id', async () => {
    const emulator = make();
    const { body } = await postJson(emulator, '/v1/image_generate', { prompt: 'x' });
    const imageId = body.data.task_ids[0] as string;
    expect(await getJson(emulator, `/v1/video_translate/${imageId}`)).toEqual({
      status: 404,
      body: { code: 100003, msg: `task not found: ${imageId}` },
    });
    expect((await getJson(emulator, '/v1/video_translate/vt-nope')).status).toBe(404);
  });

  it('answers the unknown-path 404 when disabled', async () => {
    const emulator = make({ disabled: ['video_translate_query'] });
    const [task] = await create(emulator, base);
    expect(await getJson(emulator, `/v1/video_translate/${task!.task_id}`)).toEqual({
      status: 404,
      body: { code: 404, msg: 'Not Found' },
    });
  });
});

describe('GET /v1/video_translate/target_languages', () => {
  it('lists common language names', async () => {
    const { status, body } = await getJson(make(), '/v1/video_translate/target_languages');
    expect(status).toBe(200);
    expect(body).toEqual({ code: 0, msg: 'ok', data: [...TARGET_LANGUAGES] });
    expect(body.data).toContain('English');
    expect(body.data.length).toBeGreaterThanOrEqual(12);
  });

  it('answers the unknown-path 404 when disabled, even with the task query enabled', async () => {
    expect(
      await getJson(make({ disabled: ['target_languages'] }), '/v1/video_translate/target_languages'),
    ).toEqual({
      status: 404,
      body: { code: 404, msg: 'Not Found' },
    });
  });
});

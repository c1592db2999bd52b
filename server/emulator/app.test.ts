import { describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, createEmulator } from './app';
import { AUTH, JSON_HEADERS, emulatorsClosedAfterEach } from '../testing/emulator';

const make = emulatorsClosedAfterEach();

/** A valid image_generate body of exactly `size` bytes (the prompt is padded with spaces). */
function bodyOfSize(size: number): string {
  const base = JSON.stringify({ prompt: 'x', padding: '' });
  return base.replace('"padding":""', `"padding":"${'a'.repeat(size - base.length)}"`);
}

describe('health', () => {
  it('GET /emulator/health answers 200 {ok: true} without auth', async () => {
    const response = await make().service.request('/emulator/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('JSON bodies only', () => {
  it('refuses a POST without application/json with HTTP 400 code 100001', async () => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: '{"prompt":"x"}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 100001,
      msg: 'body: Content-Type must be application/json, current: text/plain',
    });
  });

  it('refuses a POST with no content type at all', async () => {
    const response = await make().service.request('/v1/image_generate', { method: 'POST', headers: AUTH });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 100001,
      msg: expect.stringContaining('current: none'),
    });
  });

  it('accepts application/json with a charset', async () => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'Application/JSON; charset=utf-8' },
      body: '{"prompt":"x"}',
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['unparseable JSON', '{"prompt": '],
    ['an empty body', ''],
  ])('refuses %s with HTTP 400 code 100001', async (_, body) => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: JSON_HEADERS,
      body,
    });
    expect(response.status).toBe(400);
    const json = (await response.json()) as { code: number; msg: string };
    expect(json.code).toBe(100001);
    expect(json.msg).toMatch(/^body: must be valid JSON: /);
  });

  it('refuses JSON that is not an object', async () => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '[1]',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 100001,
      msg: 'body: must be an object, current: [1]',
    });
  });
});

describe('body size limit (1 MB)', () => {
  it('accepts a body of exactly 1 MB', async () => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: bodyOfSize(BODY_LIMIT_BYTES),
    });
    expect(response.status).toBe(200);
  });

  it('refuses 1 MB + 1 byte with HTTP 413 {code: 413}', async () => {
    const response = await make().service.request('/v1/image_generate', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: bodyOfSize(BODY_LIMIT_BYTES + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 413, msg: 'Request body too large: the limit is 1 MB' });
  });
});

describe('unknown paths', () => {
  it.each(['/v1/unknown', '/v1/image_generate/a/b', '/emulator/nothing', '/emulator/media/images/x.png'])(
    '%s answers HTTP 404 {code: 404, msg: "Not Found"}',
    async (path) => {
      const response = await make().service.request(path, { headers: AUTH });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 404, msg: 'Not Found' });
    },
  );

  it('a GET on a creation path is an unknown path too', async () => {
    const response = await make().service.request('/v1/image_generate', { headers: AUTH });
    expect(response.status).toBe(404);
  });
});

describe('createEmulator', () => {
  it('reads its defaults from the environment', () => {
    const previous = { ...process.env };
    process.env.EMULATOR_TIME_SCALE = '0.5';
    process.env.EMULATOR_DISABLE = 'target_languages';
    try {
      const emulator = createEmulator();
      expect(emulator.settings()).toEqual({ timeScale: 0.5, disabled: ['target_languages'] });
      void emulator.close();
    } finally {
      process.env = previous;
    }
  });

  it('seedTask stores a task that status queries return, finished when created long ago', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_to_video',
      createdAt: emulator.clock.now - 60_000,
      origin: 'http://demo.test',
    });
    const response = await emulator.service.request(`/v1/image_to_video/${id}`, { headers: AUTH });
    expect(await response.json()).toMatchObject({
      code: 0,
      data: {
        task_id: id,
        status: 'SUCCEEDED',
        video_url: `http://demo.test/emulator/media/videos/${id}.mp4`,
      },
    });
  });

  it('seedTask with outcome fail gives a FAILED task with an error_message', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_generate',
      createdAt: emulator.clock.now - 60_000,
      outcome: 'fail',
    });
    const response = await emulator.service.request(`/v1/image_generate/${id}`, { headers: AUTH });
    expect(await response.json()).toMatchObject({
      data: { status: 'FAILED', error_message: expect.stringContaining('emulator:fail') },
    });
  });
});

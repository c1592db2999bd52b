import { describe, expect, it } from 'vitest';
import { SettingsState } from './settings';
import { AUTH, emulatorsClosedAfterEach, getJson, postJson, testEmulator } from '../testing/emulator';

const make = emulatorsClosedAfterEach();

async function post(emulator: ReturnType<typeof testEmulator>, body: unknown) {
  const response = await emulator.service.request('/emulator/settings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET/POST /emulator/settings (no auth)', () => {
  it('shows the current settings', async () => {
    const response = await make({ timeScale: 0.5 }).service.request('/emulator/settings');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ timeScale: 0.5, disabled: [] });
  });

  it('changes only the fields given', async () => {
    const emulator = make();
    expect((await post(emulator, { disabled: ['target_languages'] })).body).toEqual({
      timeScale: 1,
      disabled: ['target_languages'],
    });
    expect((await post(emulator, { timeScale: 0.05 })).body).toEqual({
      timeScale: 0.05,
      disabled: ['target_languages'],
    });
  });

  it('refuses unknown endpoint names, a negative time scale and a bad status with 100001', async () => {
    const emulator = make();
    for (const body of [
      { disabled: ['everything'] },
      { timeScale: -1 },
      { failNextStatusQueries: { status: 502, count: 1 } },
      { failNextStatusQueries: { status: 429, count: 1, retryAfter: '3\r\nx-evil: 1' } },
    ]) {
      const { status, body: answer } = await post(emulator, body);
      expect(status).toBe(400);
      expect(answer.code).toBe(100001);
    }
    expect(emulator.settings()).toEqual({ timeScale: 1, disabled: [] });
  });

  it('a new time scale applies to tasks created afterwards', async () => {
    const emulator = make();
    const slow = (await postJson(emulator, '/v1/image_generate', { prompt: 'x' })).body.data.task_ids[0];
    await post(emulator, { timeScale: 0.01 });
    const fast = (await postJson(emulator, '/v1/image_generate', { prompt: 'x' })).body.data.task_ids[0];
    emulator.clock.now += 200;
    expect((await getJson(emulator, `/v1/image_generate/${fast}`)).body.data.status).toBe('SUCCEEDED');
    expect((await getJson(emulator, `/v1/image_generate/${slow}`)).body.data.status).toBe('GENERATING');
  });

  it('disabling an endpoint at runtime makes it answer the unknown-path 404', async () => {
    const emulator = make();
    expect((await getJson(emulator, '/v1/video_translate/target_languages')).status).toBe(200);
    await post(emulator, { disabled: ['target_languages'] });
    expect(await getJson(emulator, '/v1/video_translate/target_languages')).toEqual({
      status: 404,
      body: { code: 404, msg: 'Not Found' },
    });
    await post(emulator, { disabled: [] });
    expect((await getJson(emulator, '/v1/video_translate/target_languages')).status).toBe(200);
  });
});

describe('failNextStatusQueries', () => {
  it.each([
    [429, 'Rate limit exceeded'],
    [500, 'Internal Server Error'],
  ] as const)('makes exactly the next N status queries answer %d', async (status, msg) => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'image_to_video' });
    await post(emulator, { failNextStatusQueries: { status, count: 2 } });
    expect(emulator.settings().failNextStatusQueries).toEqual({ status, count: 2 });
    // Creation is not a status query and is not affected.
    expect((await postJson(emulator, '/v1/image_generate', { prompt: 'x' })).status).toBe(200);
    expect(await getJson(emulator, `/v1/image_to_video/${id}`)).toEqual({
      status,
      body: { code: status, msg },
    });
    expect(await getJson(emulator, `/v1/image_generate/i2is-unknown`)).toEqual({
      status,
      body: { code: status, msg },
    });
    expect((await getJson(emulator, `/v1/image_to_video/${id}`)).status).toBe(200);
    expect(emulator.settings().failNextStatusQueries).toBeUndefined();
  });

  it('sends the planned Retry-After with each planned 429 or 503, and none afterwards', async () => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'image_to_video' });
    const query = () => emulator.service.request(`/v1/image_to_video/${id}`, { headers: AUTH });
    await post(emulator, { failNextStatusQueries: { status: 503, count: 1, retryAfter: '3' } });
    const unavailable = await query();
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('3');
    expect(await unavailable.json()).toEqual({ code: 503, msg: 'Service Unavailable' });
    const date = new Date(Date.now() + 5_000).toUTCString();
    await post(emulator, { failNextStatusQueries: { status: 429, count: 1, retryAfter: date } });
    expect((await query()).headers.get('retry-after')).toBe(date);
    const recovered = await query();
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('retry-after')).toBeNull();
  });

  it('with a taskId, fails only that task and keeps the count for it', async () => {
    const emulator = make();
    const target = emulator.seedTask({ kind: 'image_to_video' });
    const other = emulator.seedTask({ kind: 'image_to_video' });
    await post(emulator, { failNextStatusQueries: { status: 429, count: 1, taskId: target } });
    expect((await getJson(emulator, `/v1/image_to_video/${other}`)).status).toBe(200);
    expect((await getJson(emulator, `/v1/image_to_video/${other}`)).status).toBe(200);
    expect(emulator.settings().failNextStatusQueries).toEqual({ status: 429, count: 1, taskId: target });
    expect((await getJson(emulator, `/v1/image_to_video/${target}`)).status).toBe(429);
    expect((await getJson(emulator, `/v1/image_to_video/${target}`)).status).toBe(200);
    expect(emulator.settings().failNextStatusQueries).toBeUndefined();
  });

  it('null or count 0 clears planned failures', async () => {
    const emulator = make();
    await post(emulator, { failNextStatusQueries: { status: 500, count: 5 } });
    await post(emulator, { failNextStatusQueries: null });
    expect(emulator.settings().failNextStatusQueries).toBeUndefined();
    await post(emulator, { failNextStatusQueries: { status: 500, count: 5 } });
    await post(emulator, { failNextStatusQueries: { status: 500, count: 0 } });
    expect(emulator.settings().failNextStatusQueries).toBeUndefined();
    expect(
      (
        await emulator.service.request(
          `/v1/image_to_video/${emulator.seedTask({ kind: 'image_to_video' })}`,
          { headers: AUTH },
        )
      ).status,
    ).toBe(200);
  });
});

describe('SettingsState', () => {
  it('hands out copies, so callers cannot change it behind its back', () => {
    const state = new SettingsState({ timeScale: 1, disabled: [] });
    state.get().disabled.push('target_languages');
    expect(state.isDisabled('target_languages')).toBe(false);
  });
});

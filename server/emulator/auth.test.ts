import { describe, expect, it } from 'vitest';
import { bearerToken } from './auth';
import { emulatorsClosedAfterEach } from '../testing/emulator';

const makeEmulator = emulatorsClosedAfterEach();
const make = (token?: string) => makeEmulator({ token });

const languages = '/v1/video_translate/target_languages';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, case-insensitively', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
  });
  it('has no token for a missing, empty or other-scheme header', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer    ')).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
  });
});

describe('/v1 authentication (service)', () => {
  it.each([
    ['missing', {}],
    ['empty', { authorization: 'Bearer ' }],
    ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers HTTP 401 "Authentication failed" when the token is %s', async (_, headers) => {
    const response = await make().service.request(languages, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, msg: 'Authentication failed' });
  });

  it('accepts any non-empty token when EMULATOR_TOKEN is unset', async () => {
    const response = await make().service.request(languages, {
      headers: { authorization: 'Bearer anything' },
    });
    expect(response.status).toBe(200);
  });

  it('accepts only EMULATOR_TOKEN when it is set', async () => {
    const emulator = make('s3cret');
    const wrong = await emulator.service.request(languages, { headers: { authorization: 'Bearer s3cret2' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ code: 401, msg: 'Authentication failed' });
    const right = await emulator.service.request(languages, { headers: { authorization: 'Bearer s3cret' } });
    expect(right.status).toBe(200);
  });

  it('checks the token before anything else, even on unknown /v1 paths', async () => {
    const response = await make().service.request('/v1/nothing-here');
    expect(response.status).toBe(401);
  });

  it('needs no token for /emulator/* (browsers load media directly)', async () => {
    const emulator = make('s3cret');
    expect((await emulator.service.request('/emulator/health')).status).toBe(200);
    expect((await emulator.service.request('/emulator/settings')).status).toBe(200);
    expect((await emulator.service.request('/emulator/samples/reference.png')).status).toBe(200);
  });
});

describe('/v1 inside the console (app)', () => {
  it('lets token-less browser requests through, as the proxy supplies the token for a real backend', async () => {
    const emulator = make('s3cret');
    const response = await emulator.app.request(languages);
    expect(response.status).toBe(200);
  });
});

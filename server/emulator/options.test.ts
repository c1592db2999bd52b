import { describe, expect, it } from 'vitest';
import { parseDisabled, parseTimeScale, resolveOptions } from './options';

describe('parseTimeScale', () => {
  it('reads non-negative numbers and ignores anything else', () => {
    expect(parseTimeScale('0.05')).toBe(0.05);
    expect(parseTimeScale('0')).toBe(0);
    expect(parseTimeScale('-1')).toBeUndefined();
    expect(parseTimeScale('fast')).toBeUndefined();
    expect(parseTimeScale('')).toBeUndefined();
    expect(parseTimeScale(undefined)).toBeUndefined();
  });
});

describe('parseDisabled', () => {
  it('keeps the known endpoint names of a comma list', () => {
    expect(parseDisabled('target_languages, image_to_video_create,unknown')).toEqual([
      'target_languages',
      'image_to_video_create',
    ]);
    expect(parseDisabled(undefined)).toEqual([]);
  });
});

describe('resolveOptions', () => {
  it('defaults: demo pace, any token, everything enabled', () => {
    const options = resolveOptions({}, {});
    expect(options.timeScale).toBe(1);
    expect(options.token).toBeUndefined();
    expect(options.disabled).toEqual([]);
    expect(options.downloadTimeoutMs).toBe(10_000);
  });

  it('reads EMULATOR_TIME_SCALE, EMULATOR_TOKEN and EMULATOR_DISABLE', () => {
    const options = resolveOptions(
      {},
      { EMULATOR_TIME_SCALE: '0.05', EMULATOR_TOKEN: ' tok ', EMULATOR_DISABLE: 'video_translate_query' },
    );
    expect(options).toMatchObject({ timeScale: 0.05, token: 'tok', disabled: ['video_translate_query'] });
  });

  it('an empty EMULATOR_TOKEN means any token', () => {
    expect(resolveOptions({}, { EMULATOR_TOKEN: '  ' }).token).toBeUndefined();
  });

  it('explicit options win over the environment, including an explicit undefined token', () => {
    const env = { EMULATOR_TIME_SCALE: '2', EMULATOR_TOKEN: 'tok' };
    expect(resolveOptions({ timeScale: 0.1, token: undefined }, env)).toMatchObject({
      timeScale: 0.1,
      token: undefined,
    });
  });
});

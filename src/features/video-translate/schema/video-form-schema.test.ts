import { describe, expect, it } from 'vitest';
import {
  VIDEO_FORM_DEFAULTS,
  VIDEO_FORM_FIELDS,
  toVideoRequest,
} from '@/features/video-translate/video-form-model';
import { videoFormSchema } from './video-form-schema';

const valid = {
  ...VIDEO_FORM_DEFAULTS,
  target_languages: ['Japanese'],
  video_url: 'https://example.com/a.mp4',
};
const ok = (patch: Partial<typeof valid>) => videoFormSchema.safeParse({ ...valid, ...patch }).success;

describe('videoFormSchema', () => {
  it.each([
    [-1, false],
    [0, true],
    [3, true],
    [1.5, false],
    [Number.NaN, false],
  ])('speaker_num %d → %s', (speaker_num, expected) => expect(ok({ speaker_num })).toBe(expected));

  it('name: 99 characters pass, 100 do not; empty is allowed', () => {
    expect(ok({ name: 'n'.repeat(99) })).toBe(true);
    expect(ok({ name: 'n'.repeat(100) })).toBe(false);
    expect(ok({ name: '' })).toBe(true);
  });

  it('target_languages: at least one, none blank', () => {
    expect(ok({ target_languages: [] })).toBe(false);
    expect(ok({ target_languages: ['  '] })).toBe(false);
    expect(ok({ target_languages: ['English', 'Klingon'] })).toBe(true);
  });

  it('video_url and callback_url: http(s) only; callback may be empty', () => {
    expect(ok({ video_url: 'ftp://example.com/a.mp4' })).toBe(false);
    expect(ok({ video_url: '' })).toBe(false);
    expect(ok({ callback_url: '' })).toBe(true);
    expect(ok({ callback_url: 'http://127.0.0.1:5173/callbacks/x' })).toBe(true);
    expect(ok({ callback_url: 'javascript:alert(1)' })).toBe(false);
  });
});

describe('toVideoRequest', () => {
  it('leaves out empty optional text fields and keeps every boolean explicit', () => {
    expect(toVideoRequest(videoFormSchema.parse(valid))).toEqual({
      target_languages: ['Japanese'],
      video_url: 'https://example.com/a.mp4',
      speaker_num: 1,
      translate_audio_only: true,
      enable_dynamic_duration: true,
      enable_caption: false,
    });
    expect(
      toVideoRequest(videoFormSchema.parse({ ...valid, name: 'x', callback_url: 'https://h.example/cb' })),
    ).toMatchObject({
      name: 'x',
      callback_url: 'https://h.example/cb',
    });
  });
});

describe('VIDEO_FORM_FIELDS', () => {
  it('are the fields of the form, in request order', () => {
    expect([...VIDEO_FORM_FIELDS]).toEqual(Object.keys(videoFormSchema.shape));
  });
});

import { describe, expect, it } from 'vitest';
import { parseBoundsMessage } from '../../src/api/errors';
import { imageGenerateRequestSchema, videoTranslateRequestSchema } from '../../src/api/schemas';
import { IMAGE_GENERATE_RULES } from './image-generate-routes';
import { fieldPath, validationFailure } from './validation';
import { VIDEO_TRANSLATE_RULES } from './video-translate-routes';

function imageFailure(body: unknown) {
  const parsed = imageGenerateRequestSchema.safeParse(body);
  if (parsed.success) throw new Error('expected a failure');
  return validationFailure(body, parsed.error.issues, IMAGE_GENERATE_RULES);
}

function translateFailure(body: unknown) {
  const parsed = videoTranslateRequestSchema.safeParse(body);
  if (parsed.success) throw new Error('expected a failure');
  return validationFailure(body, parsed.error.issues, VIDEO_TRANSLATE_RULES);
}

const video = { target_languages: ['English'], video_url: 'https://example.com/v.mp4' };

describe('fieldPath', () => {
  it('writes array indexes in brackets', () => {
    expect(fieldPath(['reference_images', 2])).toBe('reference_images[2]');
    expect(fieldPath(['a', 'b'])).toBe('a.b');
    expect(fieldPath([])).toBe('');
  });
});

describe('100001 messages: field first, then the rule', () => {
  it.each([
    [{}, 'prompt: is required'],
    [{ prompt: 5 }, 'prompt: must be a string, current: 5'],
    [{ prompt: '   ' }, 'prompt: must not be empty'],
    [{ prompt: 'x'.repeat(1001) }, 'prompt: must be at most 1000 characters, current length: 1001'],
    [{ prompt: 'x', image_quality: '3K' }, 'image_quality: must be one of 1K, 2K, 4K, current: 3K'],
    [{ prompt: 'x', module: 'max' }, 'module: must be one of std, pro, current: max'],
    [
      { prompt: 'x', image_ratio: '2:1' },
      'image_ratio: must be one of 1:1, 3:2, 2:3, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9, current: 2:1',
    ],
    [{ prompt: 'x', generate_count: 1.5 }, 'generate_count: must be an integer, current: 1.5'],
    [{ prompt: 'x', generate_count: '2' }, 'generate_count: must be a number, current: 2'],
    [{ prompt: 'x', generate_count: Infinity }, 'generate_count: must be an integer, current: Infinity'],
    [
      { prompt: 'x', reference_images: 'https://a.test/x.png' },
      'reference_images: must be an array, current: https://a.test/x.png',
    ],
    [
      { prompt: 'x', reference_images: ['ftp://a.test/x.png'] },
      'reference_images[0]: must be an http:// or https:// URL, current: ftp://a.test/x.png',
    ],
    [
      { prompt: 'x', callback_url: 'javascript:alert(1)' },
      'callback_url: must be an http:// or https:// URL, current: javascript:alert(1)',
    ],
  ])('%j -> %s', (body, msg) => {
    expect(imageFailure(body)).toEqual({ code: 100001, msg });
  });

  it('accepts a prompt of exactly 1000 characters', () => {
    expect(imageGenerateRequestSchema.safeParse({ prompt: 'x'.repeat(1000) }).success).toBe(true);
  });

  it('lists every field error, the first field of the body first', () => {
    expect(imageFailure({ image_quality: '3K', prompt: 7 }).msg).toBe(
      'prompt: must be a string, current: 7; image_quality: must be one of 1K, 2K, 4K, current: 3K',
    );
  });

  it('prefers a field error to a bounds error', () => {
    expect(imageFailure({ generate_count: 9 })).toEqual({ code: 100001, msg: 'prompt: is required' });
  });

  it('words the name limit as the interface does ("fewer than 100")', () => {
    expect(translateFailure({ ...video, name: 'n'.repeat(100) })).toEqual({
      code: 100001,
      msg: 'name: must be fewer than 100 characters, current length: 100',
    });
    expect(videoTranslateRequestSchema.safeParse({ ...video, name: 'n'.repeat(99) }).success).toBe(true);
  });

  it('explains an empty or missing target language list', () => {
    expect(translateFailure({ ...video, target_languages: [] }).msg).toBe(
      'target_languages: must have at least 1 item, current: 0',
    );
    expect(translateFailure({ video_url: video.video_url }).msg).toBe('target_languages: is required');
    expect(translateFailure({ ...video, target_languages: [''] }).msg).toBe(
      'target_languages[0]: must not be empty',
    );
  });

  it('truncates long current values', () => {
    const msg = imageFailure({ prompt: 'x', image_ratio: 'r'.repeat(200) }).msg;
    expect(msg.length).toBeLessThan(200);
    expect(msg.endsWith('...')).toBe(true);
  });
});

describe('100002 messages: exactly `<field> should be [<min>,<max>], current: <value>`', () => {
  it.each([
    [0, 'generate_count should be [1,8], current: 0'],
    [9, 'generate_count should be [1,8], current: 9'],
    [-3, 'generate_count should be [1,8], current: -3'],
    [1e20, 'generate_count should be [1,8], current: 100000000000000000000'],
  ])('generate_count %d', (count, msg) => {
    expect(imageFailure({ prompt: 'x', generate_count: count })).toEqual({ code: 100002, msg });
  });

  it('speaker_num below 0 and above the int32 maximum', () => {
    expect(translateFailure({ ...video, speaker_num: -1 })).toEqual({
      code: 100002,
      msg: 'speaker_num should be [0,2147483647], current: -1',
    });
    expect(translateFailure({ ...video, speaker_num: 2147483648 }).msg).toBe(
      'speaker_num should be [0,2147483647], current: 2147483648',
    );
  });

  it('is what the client parses back into field and bounds', () => {
    expect(parseBoundsMessage(imageFailure({ prompt: 'x', generate_count: 9 }).msg)).toEqual({
      field: 'generate_count',
      min: '1',
      max: '8',
      current: '9',
    });
  });
});

describe('rules of the schema’s own (custom issues)', () => {
  it('name the field, then the schema’s words', () => {
    expect(
      validationFailure({}, [
        { code: 'custom', path: ['duration'], message: 'must be 5 or 10 for model KL' },
      ]),
    ).toEqual({ code: 100001, msg: 'duration: must be 5 or 10 for model KL' });
    expect(validationFailure({ a: 1 }, [{ code: 'custom', path: ['a'] }]).msg).toBe(
      'a: is invalid, current: 1',
    );
  });
});

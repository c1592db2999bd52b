// Every bound of every request schema, tested on both sides, plus the lenient response schemas and
// the three callback forms. If a rule of api-spec.md changes in schemas.ts, one of these fails.
import { describe, expect, it } from 'vitest';
import {
  BOUNDS,
  IMAGE_GENERATE_DEFAULTS,
  IMAGE_QUALITIES,
  IMAGE_RATIOS,
  MODULES,
  callbackBodySchema,
  envelopeSchema,
  imageGenerateCallbackSchema,
  imageGenerateRequestSchema,
  imageGenerateResultSchema,
  imageGenerateTaskSchema,
  imageToVideoCallbackSchema,
  imageToVideoTaskSchema,
  translatedVideoName,
  videoTranslateCallbackSchema,
  videoTranslateRequestSchema,
  videoTranslateResultSchema,
  videoTranslateTaskSchema,
} from './schemas';
import {
  IMAGE_TO_VIDEO_MODE_RULES,
  imageToVideoModeOf,
  imageToVideoRequestSchema,
} from './image-to-video-request';

const url = (n: number) => `https://example.com/ref-${n}.png`;
const image = (extra: Record<string, unknown> = {}) =>
  imageGenerateRequestSchema.safeParse({ prompt: 'a red fox', ...extra });
const translate = (extra: Record<string, unknown> = {}) =>
  videoTranslateRequestSchema.safeParse({
    target_languages: ['English'],
    video_url: 'https://example.com/v.mp4',
    ...extra,
  });
const i2v = (extra: Record<string, unknown> = {}) =>
  imageToVideoRequestSchema.safeParse({ image_url: 'https://example.com/start.png', ...extra });
/** The paths of the issues of a failed parse, for asserting which field was refused. */
const issuePaths = (result: { success: boolean; error?: { issues: readonly { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('image generation request', () => {
  it('applies the documented defaults std / 1 / 2K / 9:16', () => {
    const result = image();
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      prompt: 'a red fox',
      module: 'std',
      generate_count: 1,
      image_quality: '2K',
      image_ratio: '9:16',
    });
    expect(IMAGE_GENERATE_DEFAULTS).toEqual({
      module: 'std',
      generate_count: 1,
      image_quality: '2K',
      image_ratio: '9:16',
    });
  });

  it('accepts a prompt of exactly 1000 characters and refuses 1001', () => {
    expect(BOUNDS.promptMaxLength).toBe(1000);
    expect(image({ prompt: 'x'.repeat(1000) }).success).toBe(true);
    const tooLong = image({ prompt: 'x'.repeat(1001) });
    expect(tooLong.success).toBe(false);
    expect(issuePaths(tooLong)).toEqual(['prompt']);
  });

  it('refuses a missing, empty, blank or non-string prompt', () => {
    for (const prompt of [undefined, '', '   ', 42]) {
      const result = imageGenerateRequestSchema.safeParse({ prompt });
      expect(result.success, `prompt ${JSON.stringify(prompt)}`).toBe(false);
      expect(issuePaths(result)).toContain('prompt');
    }
  });

  it('keeps 5 reference images and silently truncates 6 to the first 5', () => {
    const five = [1, 2, 3, 4, 5].map(url);
    expect(image({ reference_images: five }).data?.reference_images).toEqual(five);
    const six = image({ reference_images: [...five, url(6)] });
    expect(six.success).toBe(true);
    expect(six.data?.reference_images).toEqual(five);
    expect(image({ reference_images: [] }).data?.reference_images).toEqual([]);
  });

  it('refuses a reference image that is not an http(s) URL', () => {
    for (const bad of [
      'ftp://example.com/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'not a url',
      '/relative.png',
    ]) {
      const result = image({ reference_images: [url(1), bad] });
      expect(result.success, bad).toBe(false);
      expect(issuePaths(result)).toEqual(['reference_images.1']);
    }
    expect(image({ reference_images: ['http://example.com/a.png'] }).success).toBe(true);
  });

  it('accepts generate_count 1 and 8, refuses 0, 9 and non-integers', () => {
    expect(image({ generate_count: 1 }).data?.generate_count).toBe(1);
    expect(image({ generate_count: 8 }).data?.generate_count).toBe(8);
    for (const bad of [0, 9, -1, 1.5, '2', null]) {
      const result = image({ generate_count: bad });
      expect(result.success, `generate_count ${String(bad)}`).toBe(false);
      expect(issuePaths(result)).toEqual(['generate_count']);
    }
  });

  it.each([
    ['module', MODULES, 'ultra', 'STD'],
    ['image_quality', IMAGE_QUALITIES, '8K', '2k'],
    ['image_ratio', IMAGE_RATIOS, '1:2', '16/9'],
  ] as const)('%s accepts each documented value and refuses another', (field, values, refused, nearMiss) => {
    for (const value of values) expect(image({ [field]: value }).data?.[field]).toBe(value);
    const result = image({ [field]: refused });
    expect(result.success).toBe(false);
    expect(issuePaths(result)).toEqual([field]);
    // Enums are exact on the wire: no case folding, no alternative spellings.
    expect(image({ [field]: nearMiss }).success).toBe(false);
  });

  it('lists exactly the documented enum values', () => {
    expect(MODULES).toEqual(['std', 'pro']);
    expect(IMAGE_QUALITIES).toEqual(['1K', '2K', '4K']);
    expect(IMAGE_RATIOS).toEqual(['1:1', '3:2', '2:3', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']);
  });

  it('accepts an http(s) callback_url only', () => {
    expect(image({ callback_url: 'https://hooks.example.com/cb' }).success).toBe(true);
    expect(image({ callback_url: 'ftp://hooks.example.com/cb' }).success).toBe(false);
  });
});

describe('video translation request', () => {
  it('accepts the minimal body and leaves optional fields absent', () => {
    const result = translate();
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ target_languages: ['English'], video_url: 'https://example.com/v.mp4' });
  });

  it('refuses an empty target_languages list and empty language names', () => {
    expect(issuePaths(translate({ target_languages: [] }))).toEqual(['target_languages']);
    expect(translate({ target_languages: ['English', ' '] }).success).toBe(false);
    expect(translate({ target_languages: ['English', 'Japanese', 'Korean'] }).success).toBe(true);
  });

  it('accepts speaker_num 0 (detect) and refuses -1 and non-integers', () => {
    expect(translate({ speaker_num: 0 }).data?.speaker_num).toBe(0);
    expect(translate({ speaker_num: 3 }).success).toBe(true);
    for (const bad of [-1, 1.5, '2'])
      expect(issuePaths(translate({ speaker_num: bad })), String(bad)).toEqual(['speaker_num']);
  });

  it('accepts a name of 99 characters and refuses 100 ("fewer than 100")', () => {
    expect(BOUNDS.videoNameMaxLength).toBe(99);
    expect(translate({ name: 'n'.repeat(99) }).success).toBe(true);
    expect(issuePaths(translate({ name: 'n'.repeat(100) }))).toEqual(['name']);
    expect(translate({ name: '' }).success).toBe(true);
  });

  it('accepts http(s) video URLs only', () => {
    expect(translate({ video_url: 'http://example.com/v.mp4' }).success).toBe(true);
    for (const bad of [
      'ftp://example.com/v.mp4',
      'file:///etc/passwd',
      'javascript:alert(1)',
      '',
      'example.com/v.mp4',
    ]) {
      expect(issuePaths(translate({ video_url: bad })), bad).toEqual(['video_url']);
    }
    expect(issuePaths(translate({ video_url: undefined }))).toEqual(['video_url']);
  });

  it('types the boolean switches and the callback URL', () => {
    expect(
      translate({ translate_audio_only: false, enable_dynamic_duration: true, enable_caption: true }).success,
    ).toBe(true);
    expect(issuePaths(translate({ enable_caption: 'yes' }))).toEqual(['enable_caption']);
    expect(issuePaths(translate({ callback_url: 'mailto:a@b.c' }))).toEqual(['callback_url']);
  });
});

describe('image-to-video request (provider): each (model, mode) row, both sides of every bound', () => {
  const refs = (count: number) => Array.from({ length: count }, (_, index) => url(index));
  const startFrame = { prompt: 'Slow zoom', aspect_resolution: '720p' };
  const referenceV = { prompt: 'Slow zoom', reference_images: refs(2), aspect_resolution: '720p' };
  const multiKL = { model: 'KL', prompt: 'Slow zoom', reference_images: refs(2) };
  const parse = (body: Record<string, unknown>) => imageToVideoRequestSchema.safeParse(body);
  /** The single refused field and its message, or 'ok'. */
  const verdict = (body: Record<string, unknown>) => {
    const result = parse(body);
    if (result.success) return 'ok';
    return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join(' | ');
  };

  it('fills the defaults: model V, 16:9, one task', () => {
    expect(i2v(startFrame).data).toEqual({
      model: 'V',
      prompt: 'Slow zoom',
      image_url: 'https://example.com/start.png',
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
      generate_count: 1,
    });
  });

  it('tells the mode from the model and the images', () => {
    expect(imageToVideoModeOf({ image_url: 'x' })).toBe('start_frame');
    expect(imageToVideoModeOf({ model: 'V', reference_images: [] })).toBe('reference');
    expect(imageToVideoModeOf({ model: 'V' })).toBe('start_frame');
    expect(imageToVideoModeOf({ model: 'KL', image_url: 'x' })).toBe('multi_reference');
  });

  it.each([
    ['V start frame', { ...startFrame, image_url: url(9) }],
    ['V reference', referenceV],
    ['KL', multiKL],
  ])('prompt (%s): required, at most 1000 characters', (_name, body) => {
    expect(verdict({ ...body, prompt: 'p'.repeat(1000) })).toBe('ok');
    expect(issuePaths(parse({ ...body, prompt: 'p'.repeat(1001) }))).toEqual(['prompt']);
    expect(issuePaths(parse({ ...body, prompt: '' }))).toEqual(['prompt']);
    expect(issuePaths(parse({ ...body, prompt: undefined }))).toEqual(['prompt']);
  });

  it('image_url: required for V with a start frame, http(s) only, not allowed for KL', () => {
    expect(verdict(startFrame)).toMatch(/^image_url: is required for model V/);
    expect(issuePaths(i2v({ ...startFrame, image_url: 'ftp://example.com/a.png' }))).toEqual(['image_url']);
    expect(verdict({ ...multiKL, image_url: url(9) })).toBe('image_url: is not supported by model KL');
  });

  it('end_image_url: optional with a start frame only', () => {
    expect(verdict({ ...startFrame, image_url: url(8), end_image_url: url(9) })).toBe('ok');
    expect(issuePaths(parse({ ...referenceV, end_image_url: url(9) }))).toEqual(['end_image_url']);
    expect(issuePaths(parse({ ...multiKL, end_image_url: url(9) }))).toEqual(['end_image_url']);
  });

  it('reference_images: V 1 to 3 (not with a start frame), KL 1 to 7 (required)', () => {
    for (const count of [1, 3]) expect(verdict({ ...referenceV, reference_images: refs(count) })).toBe('ok');
    for (const count of [0, 4]) {
      expect(verdict({ ...referenceV, reference_images: refs(count) })).toBe(
        `reference_images: must have 1 to 3 images for model V with reference images, current: ${count}`,
      );
    }
    expect(issuePaths(i2v({ ...startFrame, reference_images: refs(1) }))).toEqual(['reference_images']);
    for (const count of [1, 7]) expect(verdict({ ...multiKL, reference_images: refs(count) })).toBe('ok');
    for (const count of [0, 8]) {
      expect(verdict({ ...multiKL, reference_images: refs(count) })).toBe(
        `reference_images: must have 1 to 7 images for model KL, current: ${count}`,
      );
    }
    expect(verdict({ ...multiKL, reference_images: undefined })).toBe(
      'reference_images: is required for model KL',
    );
    expect(issuePaths(parse({ ...multiKL, reference_images: ['nope'] }))).toEqual(['reference_images.0']);
  });

  it('aspect_ratio: 16:9 or 9:16 for both models', () => {
    for (const ratio of ['16:9', '9:16']) {
      expect(i2v({ ...startFrame, aspect_ratio: ratio }).success).toBe(true);
      expect(parse({ ...multiKL, aspect_ratio: ratio }).success).toBe(true);
    }
    expect(issuePaths(i2v({ ...startFrame, aspect_ratio: '1:1' }))).toEqual(['aspect_ratio']);
  });

  it('aspect_resolution: V 720p/1080p/4k and required; KL 720p/1080p', () => {
    for (const resolution of ['720p', '1080p', '4k'])
      expect(i2v({ ...startFrame, aspect_resolution: resolution }).success).toBe(true);
    expect(verdict({ ...referenceV, aspect_resolution: undefined })).toBe(
      'aspect_resolution: is required for model V',
    );
    expect(issuePaths(i2v({ ...startFrame, aspect_resolution: '8k' }))).toEqual(['aspect_resolution']);
    for (const resolution of ['720p', '1080p'])
      expect(parse({ ...multiKL, aspect_resolution: resolution }).success).toBe(true);
    expect(parse({ ...multiKL }).success).toBe(true);
    expect(verdict({ ...multiKL, aspect_resolution: '4k' })).toBe(
      'aspect_resolution: must be 720p or 1080p for model KL, current: 4k',
    );
  });

  it.each([
    [
      'model V with a start frame',
      { ...startFrame, image_url: url(9) },
      [4, 6, 8],
      [3, 5, 7, 9, 10],
      '4, 6 or 8',
    ],
    ['model V with reference images', referenceV, [8], [4, 6, 7, 9], '8'],
    ['model KL', multiKL, [5, 10], [4, 6, 8, 9, 11], '5 or 10'],
  ])('duration for %s', (label, body, good, bad, words) => {
    for (const duration of good) expect(verdict({ ...body, duration })).toBe('ok');
    for (const duration of bad) {
      expect(verdict({ ...body, duration })).toBe(
        `duration: must be ${words} for ${label}, current: ${duration}`,
      );
    }
    expect(issuePaths(parse({ ...body, duration: 4.5 }))).toEqual(['duration']);
  });

  it('generate_audio: optional for V, not supported by KL', () => {
    for (const audio of [true, false]) {
      expect(i2v({ ...startFrame, generate_audio: audio }).success).toBe(true);
      expect(parse({ ...referenceV, generate_audio: audio }).success).toBe(true);
    }
    expect(parse({ ...multiKL, generate_audio: false }).success).toBe(true);
    expect(verdict({ ...multiKL, generate_audio: true })).toBe(
      'generate_audio: is not supported by model KL',
    );
  });

  it.each([
    ['V', { ...startFrame, image_url: url(9) }],
    ['KL', multiKL],
  ])('generate_count for %s: 1 to 4', (_model, body) => {
    for (const count of [1, 4]) expect(parse({ ...body, generate_count: count }).success).toBe(true);
    for (const count of [0, 5, 1.5]) {
      expect(issuePaths(parse({ ...body, generate_count: count }))).toEqual(['generate_count']);
    }
  });

  it('callback_url: optional, http(s) only', () => {
    expect(i2v({ ...startFrame, callback_url: 'https://hooks.example.com/x' }).success).toBe(true);
    expect(issuePaths(i2v({ ...startFrame, callback_url: 'mailto:a@b.c' }))).toEqual(['callback_url']);
  });

  it('every rule of the table is in IMAGE_TO_VIDEO_MODE_RULES', () => {
    expect(IMAGE_TO_VIDEO_MODE_RULES).toMatchObject({
      start_frame: { model: 'V', durations: [4, 6, 8], resolutions: ['720p', '1080p', '4k'], audio: true },
      reference: { model: 'V', references: { min: 1, max: 3 }, durations: [8], audio: true },
      multi_reference: {
        model: 'KL',
        references: { min: 1, max: 7 },
        durations: [5, 10],
        resolutions: ['720p', '1080p'],
        audio: false,
      },
    });
  });
});

describe('response schemas are lenient', () => {
  it('envelope: code required, msg and data optional, extra fields kept', () => {
    expect(envelopeSchema.safeParse({ code: 0 }).success).toBe(true);
    expect(envelopeSchema.safeParse({ code: 0, msg: 'ok', data: null, trace_id: 't1' }).data).toMatchObject({
      trace_id: 't1',
    });
    expect(envelopeSchema.safeParse({ msg: 'ok' }).success).toBe(false);
    expect(envelopeSchema.safeParse({ code: '0' }).success).toBe(false);
  });

  it('image generation result keeps extra fields and requires task_ids', () => {
    expect(imageGenerateResultSchema.safeParse({ task_ids: ['i2is-1', 'i2is-2'], cost: 3 }).data).toEqual({
      task_ids: ['i2is-1', 'i2is-2'],
      cost: 3,
    });
    expect(imageGenerateResultSchema.safeParse({}).success).toBe(false);
    expect(imageGenerateResultSchema.safeParse({ task_ids: [''] }).success).toBe(false);
  });

  it('video translation result: one {task_id, language} per language, extra fields kept', () => {
    const data = [
      { task_id: 'vt-1', language: 'English', eta: 60 },
      { task_id: 'vt-2', language: 'Japanese' },
    ];
    expect(videoTranslateResultSchema.safeParse(data).data).toEqual(data);
    expect(videoTranslateResultSchema.safeParse([{ language: 'English' }]).success).toBe(false);
  });

  it.each([
    ['image-to-video', imageToVideoTaskSchema],
    ['image generation', imageGenerateTaskSchema],
    ['video translation', videoTranslateTaskSchema],
  ] as const)('%s task record: only task_id and status required, nulls and extras fine', (_label, schema) => {
    const minimal = schema.safeParse({ task_id: 't-1', status: 'PROCESSING' });
    expect(minimal.success).toBe(true);
    const full = schema.safeParse({
      task_id: 't-1',
      status: 'SUCCEEDED',
      error_message: null,
      progress: 100,
    });
    expect(full.data).toMatchObject({ progress: 100, error_message: null });
    expect(schema.safeParse({ status: 'SUCCEEDED' }).success).toBe(false);
    expect(schema.safeParse({ task_id: 't-1' }).success).toBe(false);
    expect(schema.safeParse({ task_id: 't-1', status: '' }).success).toBe(false);
  });

  it('image-to-video task carries duration (s), width and height (px)', () => {
    const data = {
      task_id: 'i2v-1',
      status: 'SUCCEEDED',
      video_url: 'https://x/v.mp4',
      thumbnail_url: 'https://x/t.jpg',
      error_message: '',
      duration: 8,
      width: 720,
      height: 1280,
    };
    expect(imageToVideoTaskSchema.safeParse(data).data).toEqual(data);
    expect(imageToVideoTaskSchema.safeParse({ ...data, duration: '8' }).success).toBe(false);
  });
});

describe('callback bodies', () => {
  const videoTranslate = {
    code: 0,
    msg: 'ok',
    task_type: 'video_translate',
    data: {
      task_id: 'vt-1',
      name: 'English-demo',
      language: 'English',
      status: 'SUCCEEDED',
      video_url: 'https://x/v.mp4',
      caption_url: 'https://x/c.ass',
      error_message: '',
    },
  };
  const imageToVideo = {
    code: 0,
    msg: 'ok',
    task_type: 'image_to_video',
    data: {
      task_id: 'i2v-1',
      status: 'SUCCEEDED',
      video_url: 'https://x/v.mp4',
      thumbnail_url: 'https://x/t.jpg',
      error_message: '',
    },
  };
  const imageGenerate = {
    code: 0,
    msg: 'ok',
    task_type: 'image_generate',
    data: { task_id: 'i2is-1', status: 'SUCCEEDED', image_url: 'https://x/i.png', error_message: '' },
  };

  it.each([
    ['video_translate', videoTranslate, videoTranslateCallbackSchema],
    ['image_to_video', imageToVideo, imageToVideoCallbackSchema],
    ['image_generate', imageGenerate, imageGenerateCallbackSchema],
  ] as const)(
    '%s: SUCCEEDED and FAILED accepted, extras kept, wrong types refused',
    (taskType, body, schema) => {
      expect(schema.safeParse(body).success).toBe(true);
      const parsed = callbackBodySchema.safeParse(body);
      expect(parsed.success).toBe(true);
      expect(parsed.data?.task_type).toBe(taskType);

      const failed = { ...body, data: { ...body.data, status: 'FAILED', error_message: 'out of credits' } };
      expect(callbackBodySchema.safeParse(failed).data?.data.status).toBe('FAILED');

      const extra = { ...body, delivered_at: 1700000000, data: { ...body.data, cost: 2 } };
      expect(callbackBodySchema.safeParse(extra).data).toMatchObject({
        delivered_at: 1700000000,
        data: { cost: 2 },
      });

      // Callbacks only carry terminal statuses.
      expect(
        callbackBodySchema.safeParse({ ...body, data: { ...body.data, status: 'PROCESSING' } }).success,
      ).toBe(false);
      expect(callbackBodySchema.safeParse({ ...body, code: '0' }).success).toBe(false);
      expect(callbackBodySchema.safeParse({ ...body, data: { ...body.data, task_id: 42 } }).success).toBe(
        false,
      );
      expect(callbackBodySchema.safeParse({ ...body, data: { ...body.data, task_id: '' } }).success).toBe(
        false,
      );
      expect(callbackBodySchema.safeParse({ ...body, data: 'nope' }).success).toBe(false);
    },
  );

  it('keeps the fields of each form', () => {
    expect(callbackBodySchema.safeParse(imageToVideo).data?.data).toMatchObject({
      video_url: 'https://x/v.mp4',
      thumbnail_url: 'https://x/t.jpg',
    });
    expect(callbackBodySchema.safeParse(imageGenerate).data?.data).toMatchObject({
      image_url: 'https://x/i.png',
    });
    expect(callbackBodySchema.safeParse(videoTranslate).data?.data).toMatchObject({
      caption_url: 'https://x/c.ass',
      name: 'English-demo',
    });
  });

  it('accepts minimal bodies (optional fields missing) and refuses an unknown task_type', () => {
    expect(
      callbackBodySchema.safeParse({
        code: 0,
        task_type: 'image_generate',
        data: { task_id: 'i2is-1', status: 'FAILED' },
      }).success,
    ).toBe(true);
    expect(callbackBodySchema.safeParse({ ...imageGenerate, task_type: 'text_generate' }).success).toBe(
      false,
    );
    expect(
      callbackBodySchema.safeParse({ ...imageGenerate, data: { ...imageGenerate.data, image_url: 42 } })
        .success,
    ).toBe(false);
    expect(
      callbackBodySchema.safeParse({ ...imageToVideo, data: { ...imageToVideo.data, thumbnail_url: false } })
        .success,
    ).toBe(false);
  });
});

describe('translatedVideoName', () => {
  it('is <language>-<name> when a name is given', () => {
    expect(translatedVideoName('English', 'demo', 1700000000)).toBe('English-demo');
  });
  it('is <language>-videoTranslate-<unix seconds> when the name is absent or empty', () => {
    expect(translatedVideoName('Japanese', undefined, 1700000000)).toBe('Japanese-videoTranslate-1700000000');
    expect(translatedVideoName('Japanese', '', 1700000001)).toBe('Japanese-videoTranslate-1700000001');
  });
});

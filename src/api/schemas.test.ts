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
  imageToVideoRequestSchema,
  imageToVideoTaskSchema,
  translatedVideoName,
  videoTranslateCallbackSchema,
  videoTranslateRequestSchema,
  videoTranslateResultSchema,
  videoTranslateTaskSchema,
} from './schemas';

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

describe('image-to-video request (provider)', () => {
  it('requires an http(s) image_url', () => {
    expect(i2v().success).toBe(true);
    expect(issuePaths(imageToVideoRequestSchema.safeParse({}))).toEqual(['image_url']);
    expect(issuePaths(i2v({ image_url: 'ftp://example.com/a.png' }))).toEqual(['image_url']);
  });

  it('bounds generate_count to 1..4, prompt to 1000 and duration to whole seconds', () => {
    expect(i2v({ generate_count: 1 }).success).toBe(true);
    expect(i2v({ generate_count: 4 }).success).toBe(true);
    expect(issuePaths(i2v({ generate_count: 0 }))).toEqual(['generate_count']);
    expect(issuePaths(i2v({ generate_count: 5 }))).toEqual(['generate_count']);
    expect(i2v({ prompt: 'p'.repeat(1000) }).success).toBe(true);
    expect(issuePaths(i2v({ prompt: 'p'.repeat(1001) }))).toEqual(['prompt']);
    expect(i2v({ duration: 8 }).success).toBe(true);
    expect(issuePaths(i2v({ duration: 0 }))).toEqual(['duration']);
    expect(issuePaths(i2v({ duration: 2.5 }))).toEqual(['duration']);
  });

  it('accepts the provider enums and refuses others', () => {
    expect(i2v({ model: 'V', aspect_ratio: '16:9', aspect_resolution: '4k' }).success).toBe(true);
    expect(i2v({ model: 'KL', aspect_ratio: '9:16', aspect_resolution: '720p' }).success).toBe(true);
    expect(issuePaths(i2v({ model: 'X' }))).toEqual(['model']);
    expect(issuePaths(i2v({ aspect_ratio: '1:1' }))).toEqual(['aspect_ratio']);
    expect(issuePaths(i2v({ aspect_resolution: '480p' }))).toEqual(['aspect_resolution']);
    expect(issuePaths(i2v({ end_image_url: 'javascript:alert(1)' }))).toEqual(['end_image_url']);
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

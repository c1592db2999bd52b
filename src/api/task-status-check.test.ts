import { describe, expect, it } from 'vitest';
import { imageGenerateTaskSchema, imageToVideoTaskSchema, videoTranslateTaskSchema } from './schemas';
import { imageGenerateTaskCheck, imageToVideoTaskCheck, videoTranslateTaskCheck } from './task-status-check';

const cases = [
  {
    name: 'image to video',
    check: imageToVideoTaskCheck,
    schema: imageToVideoTaskSchema,
    valid: {
      task_id: 'i2v-1',
      status: 'SUCCEEDED',
      video_url: 'https://example.com/v.mp4',
      thumbnail_url: 'https://example.com/v.jpg',
      error_message: '',
      duration: 8,
      width: 1280,
      height: 720,
    },
  },
  {
    name: 'image generation',
    check: imageGenerateTaskCheck,
    schema: imageGenerateTaskSchema,
    valid: {
      task_id: 'i2is-1',
      status: 'RUNNING',
      image_url: 'https://example.com/i.png',
      thumbnail_url: null,
      error_message: '',
    },
  },
  {
    name: 'translation',
    check: videoTranslateTaskCheck,
    schema: videoTranslateTaskSchema,
    valid: {
      task_id: 'vt-1',
      status: 'FAILED',
      name: 'English-demo',
      language: 'English',
      video_url: null,
      caption_url: null,
      error_message: 'no speech found',
    },
  },
] as const;

const values = [undefined, null, '', 'x', 0, -1, 1.5, Number.NaN, Infinity, true, {}, [], ['x']];

function variants(valid: Record<string, unknown>): unknown[] {
  return [
    valid,
    { ...valid, extra: { trace: 1 } },
    { task_id: valid.task_id, status: valid.status },
    null,
    [],
    'text',
    7,
    [valid],
    // Every documented field (and two the status answers do not have) set to every kind of value.
    ...[...Object.keys(valid), 'duration', 'language'].flatMap((field) =>
      values.map((value) => ({ ...valid, [field]: value })),
    ),
    ...Object.keys(valid).map((field) =>
      Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field)),
    ),
  ];
}

describe('task status checks', () => {
  it.each(cases.map((entry) => [entry.name, entry] as const))(
    'give the zod schema’s verdict on valid and malformed %s answers',
    (_name, { check, schema, valid }) => {
      for (const body of variants(valid)) {
        const hand = check.safeParse(body);
        const zod = schema.safeParse(body);
        expect({ body, ok: hand.success }).toEqual({ body, ok: zod.success });
        if (hand.success) expect(hand.data).toEqual(zod.data);
      }
    },
  );
});

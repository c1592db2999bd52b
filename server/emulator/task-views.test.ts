import { describe, expect, it } from 'vitest';
import {
  callbackBodySchema,
  imageGenerateTaskSchema,
  imageToVideoTaskSchema,
  videoTranslateTaskSchema,
} from '../../src/api/schemas';
import { outcomeFor } from './magic-words';
import {
  callbackBody,
  imageGenerateView,
  imageToVideoView,
  videoSize,
  videoTranslateView,
} from './task-views';
import { terminalAt, type ImageToVideoTaskRecord, type TaskRecord } from './tasks';

const T0 = Date.UTC(2026, 0, 1);
const common = { createdAt: T0, timeScale: 1, origin: 'http://console.test:5173', outcome: outcomeFor('') };
const image = {
  ...common,
  id: 'i2is-1',
  kind: 'image_generate',
  prompt: 'p',
  ratio: '1:1',
  quality: '2K',
  module: 'std',
} as const;
const translation = {
  ...common,
  id: 'vt-1',
  kind: 'video_translate',
  language: 'French',
  name: 'French-Tour',
  videoUrl: 'https://v.test/a.mp4',
  enableCaption: true,
} as const;
const video: ImageToVideoTaskRecord = {
  ...common,
  id: 'i2v-1',
  kind: 'image_to_video',
  prompt: '',
  model: 'V',
  audio: false,
  aspectRatio: '16:9',
  resolution: '720p',
  duration: 4,
};
const done = (task: TaskRecord) => terminalAt(task)!;

describe('status views', () => {
  it('match the lenient response schemas the console validates with', () => {
    for (const now of [T0, T0 + 60_000]) {
      expect(imageGenerateTaskSchema.safeParse(imageGenerateView(image, now)).success).toBe(true);
      expect(videoTranslateTaskSchema.safeParse(videoTranslateView(translation, now)).success).toBe(true);
      expect(imageToVideoTaskSchema.safeParse(imageToVideoView(video, now)).success).toBe(true);
    }
  });

  it('build links on the origin of the creating request, only once SUCCEEDED', () => {
    expect(imageGenerateView(image, done(image) - 1).image_url).toBe('');
    expect(imageGenerateView(image, done(image)).image_url).toBe(
      'http://console.test:5173/emulator/media/images/i2is-1.png',
    );
    expect(videoTranslateView(translation, done(translation)).caption_url).toBe(
      'http://console.test:5173/emulator/media/captions/vt-1.ass',
    );
  });

  it('carry the error message only when FAILED', () => {
    const failing = { ...video, outcome: outcomeFor('emulator:fail') };
    expect(imageToVideoView(failing, done(failing) - 1).error_message).toBe('');
    expect(imageToVideoView(failing, done(failing)).error_message).toContain('Emulated failure');
  });
});

describe('videoSize', () => {
  it.each([
    ['9:16', '720p', 720, 1280],
    ['16:9', '720p', 1280, 720],
    ['9:16', '1080p', 1080, 1920],
    ['16:9', '4k', 3840, 2160],
  ] as const)('%s at %s is %dx%d pixels', (aspectRatio, resolution, width, height) => {
    expect(videoSize({ ...video, aspectRatio, resolution })).toEqual({ width, height });
  });
});

describe('callbackBody', () => {
  it.each([image, translation, video] as TaskRecord[])('is a valid section 6 body for $kind', (task) => {
    const body = callbackBody(task, done(task));
    expect(callbackBodySchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      code: 0,
      msg: 'ok',
      task_type: task.kind,
      data: { task_id: task.id, status: 'SUCCEEDED' },
    });
  });

  it('image_generate carries image_url and no thumbnail; image_to_video carries video and thumbnail', () => {
    expect(Object.keys(callbackBody(image, done(image)).data).sort()).toEqual([
      'error_message',
      'image_url',
      'status',
      'task_id',
    ]);
    expect(Object.keys(callbackBody(video, done(video)).data).sort()).toEqual([
      'error_message',
      'status',
      'task_id',
      'thumbnail_url',
      'video_url',
    ]);
  });
});

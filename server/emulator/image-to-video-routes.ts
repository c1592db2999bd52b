// GET /v1/image_to_video/{id} (sections 2.6, 4.3) and the provider's POST /v1/image_to_video.
import { Hono } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { BOUNDS, imageToVideoRequestSchema } from '../../src/api/schemas';
import type { EmulatorEngine } from './engine';
import { fail, notFound, ok } from './envelope';
import { requestOrigin } from './image-generate-routes';
import { readJsonBody } from './json-body';
import { outcomeFor, wantsReject } from './magic-words';
import { statusQuery } from './status-query';
import { EMULATED_VIDEO_SECONDS, imageToVideoView } from './task-views';
import { validationFailure } from './validation';

export const IMAGE_TO_VIDEO_RULES = {
  bounds: { generate_count: BOUNDS.imageToVideoGenerateCount, duration: { min: 1, max: 60 } },
  fieldOrder: [
    'model',
    'prompt',
    'image_url',
    'end_image_url',
    'reference_images',
    'aspect_ratio',
    'aspect_resolution',
    'duration',
    'generate_audio',
    'generate_count',
    'callback_url',
  ],
};

export function createImageToVideoRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_to_video', async (c) => {
    if (engine.settings.isDisabled('image_to_video_create')) return notFound(c);
    const read = await readJsonBody(c);
    if (!read.ok) return read.response;
    const parsed = imageToVideoRequestSchema.safeParse(read.body);
    if (!parsed.success) {
      const failure = validationFailure(read.body, parsed.error.issues, IMAGE_TO_VIDEO_RULES);
      return fail(c, 400, failure.code, failure.msg);
    }
    const params = parsed.data;
    if (wantsReject(params.prompt)) {
      return fail(
        c,
        200,
        ERROR_CODES.taskCreation,
        'create task failed: the request was rejected on purpose (emulator:reject)',
      );
    }
    const outcome = outcomeFor(params.prompt);
    const origin = requestOrigin(c);
    const taskIds = Array.from({ length: params.generate_count ?? 1 }, () => {
      const task = engine.addTask({
        ...engine.taskBase('image_to_video', origin, outcome, params.callback_url),
        kind: 'image_to_video',
        prompt: params.prompt ?? '',
        aspectRatio: params.aspect_ratio ?? '9:16',
        resolution: params.aspect_resolution ?? '720p',
        duration: params.duration ?? EMULATED_VIDEO_SECONDS,
      });
      return task.id;
    });
    return ok(c, { task_ids: taskIds });
  });

  app.get('/v1/image_to_video/:id', (c) =>
    statusQuery(c, engine, undefined, () => {
      const task = engine.store.get(c.req.param('id'), 'image_to_video');
      return task && imageToVideoView(task, engine.now());
    }),
  );

  return app;
}

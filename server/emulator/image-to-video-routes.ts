// GET /v1/image_to_video/{id} (sections 2.6, 4.3) and the provider's POST /v1/image_to_video.
import { Hono } from 'hono';
import { IMAGE_TO_VIDEO_FIELDS } from '../../src/api/request-fields';
import { BOUNDS, imageToVideoRequestSchema } from '../../src/api/schemas';
import type { EmulatorEngine } from './engine';
import { notFound, ok } from './envelope';
import { requestOrigin } from '../request-origin';
import { readRequest } from './json-body';
import { outcomeFor, rejectedOnPurpose, wantsReject } from './magic-words';
import { statusQuery } from './status-query';
import { EMULATED_VIDEO_SECONDS, imageToVideoView } from './task-views';

export const IMAGE_TO_VIDEO_RULES = {
  bounds: { generate_count: BOUNDS.imageToVideoGenerateCount, duration: { min: 1, max: 60 } },
  fieldOrder: IMAGE_TO_VIDEO_FIELDS,
};

export function createImageToVideoRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_to_video', async (c) => {
    if (engine.settings.isDisabled('image_to_video_create')) return notFound(c);
    const request = await readRequest(c, imageToVideoRequestSchema, IMAGE_TO_VIDEO_RULES);
    if (!request.ok) return request.response;
    const params = request.params;
    if (wantsReject(params.prompt)) return rejectedOnPurpose(c);
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

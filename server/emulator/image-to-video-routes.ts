// GET /v1/image_to_video/{id} (sections 2.6, 4.3) and the provider's POST /v1/image_to_video.
import { Hono } from 'hono';
import { IMAGE_TO_VIDEO_FIELDS } from '../../src/api/request-fields';
import { BOUNDS } from '../../src/api/schemas';
import {
  IMAGE_TO_VIDEO_MODE_RULES,
  imageToVideoModeOf,
  imageToVideoRequestSchema,
} from '../../src/api/image-to-video-request';
import type { EmulatorEngine } from './engine';
import { notFound, ok } from './envelope';
import { createTasks, downloadAll } from './creation';
import { readRequest } from './json-body';
import { statusQuery } from './status-query';
import { imageToVideoView } from './task-views';

const IMAGE_TO_VIDEO_RULES = {
  bounds: { generate_count: BOUNDS.imageToVideoGenerateCount },
  fieldOrder: IMAGE_TO_VIDEO_FIELDS,
};

export function createImageToVideoRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_to_video', async (c) => {
    if (engine.settings.isDisabled('image_to_video_create')) return notFound(c);
    const request = await readRequest(c, imageToVideoRequestSchema, IMAGE_TO_VIDEO_RULES);
    if (!request.ok) return request.response;
    const params = request.params;
    const mode = imageToVideoModeOf(params);
    const download = await downloadAll(c, engine, [
      params.image_url,
      params.end_image_url,
      ...(params.reference_images ?? []),
    ]);
    if (download) return download;
    const created = createTasks(
      c,
      engine,
      { kind: 'image_to_video', texts: [params.prompt], callbackUrl: params.callback_url },
      Array.from({ length: params.generate_count }),
      () => ({
        prompt: params.prompt,
        model: params.model,
        aspectRatio: params.aspect_ratio,
        resolution: params.aspect_resolution ?? '720p',
        duration: params.duration ?? IMAGE_TO_VIDEO_MODE_RULES[mode].defaultDuration,
        audio: params.generate_audio === true,
      }),
    );
    if (created instanceof Response) return created;
    return ok(c, { task_ids: created.map((task) => task.id) });
  });

  app.get('/v1/image_to_video/:id', (c) =>
    statusQuery(c, engine, undefined, () => {
      const task = engine.store.get(c.req.param('id'), 'image_to_video');
      return task && imageToVideoView(task, engine.now());
    }),
  );

  return app;
}

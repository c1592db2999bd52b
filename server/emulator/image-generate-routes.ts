// POST /v1/image_generate (sections 2.2, 2.3, 4.1) and the provider's GET /v1/image_generate/{id}.
import { Hono } from 'hono';
import { IMAGE_GENERATE_FIELDS } from '../../src/api/request-fields';
import { BOUNDS, imageGenerateRequestSchema } from '../../src/api/schemas';
import { createTasks, downloadAll } from './creation';
import type { EmulatorEngine } from './engine';
import { ok } from './envelope';
import { readRequest } from './json-body';
import { statusQuery } from './status-query';
import { imageGenerateView } from './task-views';

export const IMAGE_GENERATE_RULES = {
  bounds: { generate_count: BOUNDS.generateCount },
  fieldOrder: IMAGE_GENERATE_FIELDS,
};

export function createImageGenerateRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_generate', async (c) => {
    const request = await readRequest(c, imageGenerateRequestSchema, IMAGE_GENERATE_RULES);
    if (!request.ok) return request.response;
    const params = request.params;

    const download = await downloadAll(c, engine, params.reference_images ?? []);
    if (download) return download;

    const created = createTasks(
      c,
      engine,
      { kind: 'image_generate', texts: [params.prompt], callbackUrl: params.callback_url },
      Array.from({ length: params.generate_count }),
      () => ({
        prompt: params.prompt,
        ratio: params.image_ratio,
        quality: params.image_quality,
        module: params.module,
      }),
    );
    if (created instanceof Response) return created;
    return ok(c, { task_ids: created.map((task) => task.id) });
  });

  app.get('/v1/image_generate/:id', (c) =>
    statusQuery(c, engine, 'image_generate_query', () => {
      const task = engine.store.get(c.req.param('id'), 'image_generate');
      return task && imageGenerateView(task, engine.now());
    }),
  );

  return app;
}

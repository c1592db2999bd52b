// POST /v1/image_generate (sections 2.2, 2.3, 4.1) and the provider's GET /v1/image_generate/{id}.
import { Hono, type Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { BOUNDS, imageGenerateRequestSchema } from '../../src/api/schemas';
import { downloadReferenceImages, DownloadError } from './downloads';
import type { EmulatorEngine } from './engine';
import { fail, ok } from './envelope';
import { readJsonBody } from './json-body';
import { outcomeFor, wantsReject } from './magic-words';
import { statusQuery } from './status-query';
import { imageGenerateView } from './task-views';
import { validationFailure } from './validation';

export const IMAGE_GENERATE_RULES = {
  bounds: { generate_count: BOUNDS.generateCount },
  fieldOrder: [
    'prompt',
    'reference_images',
    'module',
    'generate_count',
    'image_quality',
    'image_ratio',
    'callback_url',
  ],
};

export const requestOrigin = (c: Context) => new URL(c.req.url).origin;

export function createImageGenerateRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_generate', async (c) => {
    const read = await readJsonBody(c);
    if (!read.ok) return read.response;
    const parsed = imageGenerateRequestSchema.safeParse(read.body);
    if (!parsed.success) {
      const failure = validationFailure(read.body, parsed.error.issues, IMAGE_GENERATE_RULES);
      return fail(c, 400, failure.code, failure.msg);
    }
    const params = parsed.data;

    const controller = engine.scheduler.controller();
    try {
      await downloadReferenceImages(params.reference_images ?? [], {
        fetch: engine.options.fetch,
        timeoutMs: engine.options.downloadTimeoutMs,
        signal: controller.signal,
      });
    } catch (error) {
      const reason = error instanceof DownloadError ? `${error.url}: ${error.reason}` : String(error);
      return fail(c, 200, ERROR_CODES.referenceImage, `download reference image failed: ${reason}`);
    } finally {
      engine.scheduler.release(controller);
    }

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
    const taskIds = Array.from({ length: params.generate_count }, () => {
      const task = engine.addTask({
        ...engine.taskBase('image_generate', origin, outcome, params.callback_url),
        kind: 'image_generate',
        prompt: params.prompt,
        ratio: params.image_ratio,
        quality: params.image_quality,
        module: params.module,
      });
      return task.id;
    });
    return ok(c, { task_ids: taskIds });
  });

  app.get('/v1/image_generate/:id', (c) =>
    statusQuery(c, engine, 'image_generate_query', () => {
      const task = engine.store.get(c.req.param('id'), 'image_generate');
      return task && imageGenerateView(task, engine.now());
    }),
  );

  return app;
}

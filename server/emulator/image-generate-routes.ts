// POST /v1/image_generate (sections 2.2, 2.3, 4.1) and the provider's GET /v1/image_generate/{id}.
import { Hono, type Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { IMAGE_GENERATE_FIELDS } from '../../src/api/request-fields';
import { BOUNDS, imageGenerateRequestSchema } from '../../src/api/schemas';
import { downloadReferenceImages, DownloadError } from './downloads';
import type { EmulatorEngine } from './engine';
import { fail, ok } from './envelope';
import { readRequest } from './json-body';
import { outcomeFor, rejectedOnPurpose, wantsReject } from './magic-words';
import { statusQuery } from './status-query';
import { imageGenerateView } from './task-views';
import { requestOrigin } from '../http/request-origin';

export const IMAGE_GENERATE_RULES = {
  bounds: { generate_count: BOUNDS.generateCount },
  fieldOrder: IMAGE_GENERATE_FIELDS,
};

/**
 * Downloads every image a request names, as the service does before it creates a task; the first
 * that fails answers 530002 (undefined = all downloaded). Shared by every creation route that takes images.
 */
export async function downloadAll(
  c: Context,
  engine: EmulatorEngine,
  urls: readonly string[],
): Promise<Response | undefined> {
  const controller = engine.scheduler.controller();
  const origin = requestOrigin(c);
  try {
    await downloadReferenceImages(urls, {
      fetch: engine.options.fetch,
      timeoutMs: engine.options.downloadTimeoutMs,
      signal: controller.signal,
      // The emulator's own uploads are read from disk: no network, works offline.
      local: (url) => engine.uploads.localImage(url, origin),
    });
    return undefined;
  } catch (error) {
    const reason = error instanceof DownloadError ? `${error.url}: ${error.reason}` : String(error);
    return fail(c, 200, ERROR_CODES.referenceImage, `download reference image failed: ${reason}`);
  } finally {
    engine.scheduler.release(controller);
  }
}

export function createImageGenerateRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/image_generate', async (c) => {
    const request = await readRequest(c, imageGenerateRequestSchema, IMAGE_GENERATE_RULES);
    if (!request.ok) return request.response;
    const params = request.params;

    const download = await downloadAll(c, engine, params.reference_images ?? []);
    if (download) return download;

    if (wantsReject(params.prompt)) return rejectedOnPurpose(c);
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

// POST /v1/video_translate (sections 2.4, 2.5, 4.2) and the provider's extras:
// GET /v1/video_translate/target_languages and GET /v1/video_translate/{id}.
import { Hono } from 'hono';
import { VIDEO_TRANSLATE_FIELDS } from '../../src/api/request-fields';
import {
  BOUNDS,
  TARGET_LANGUAGES,
  translatedVideoName,
  VIDEO_TRANSLATE_DEFAULTS,
  videoTranslateRequestSchema,
} from '../../src/api/schemas';
import type { EmulatorEngine } from './engine';
import { notFound, ok } from './envelope';
import { createTasks } from './creation';
import { readRequest } from './json-body';
import { statusQuery } from './status-query';
import { videoTranslateView } from './task-views';

export const VIDEO_TRANSLATE_RULES = {
  bounds: { speaker_num: BOUNDS.speakerNum },
  fewerThan: ['name'],
  fieldOrder: VIDEO_TRANSLATE_FIELDS,
};

export function createVideoTranslateRoutes(engine: EmulatorEngine): Hono {
  const app = new Hono();

  app.post('/v1/video_translate', async (c) => {
    const request = await readRequest(c, videoTranslateRequestSchema, VIDEO_TRANSLATE_RULES);
    if (!request.ok) return request.response;
    const params = { ...VIDEO_TRANSLATE_DEFAULTS, ...stripUndefined(request.params) };
    const unixSeconds = Math.floor(engine.now() / 1000);
    const created = createTasks(
      c,
      engine,
      { kind: 'video_translate', texts: [params.name, params.video_url], callbackUrl: params.callback_url },
      params.target_languages,
      (language) => ({
        language,
        name: translatedVideoName(language, params.name, unixSeconds),
        videoUrl: params.video_url,
        enableCaption: params.enable_caption,
      }),
    );
    if (created instanceof Response) return created;
    return ok(
      c,
      created.map(({ item: language, id }) => ({ task_id: id, language })),
    );
  });

  // Registered before `/:id`, which would otherwise take "target_languages" for a task id.
  app.get('/v1/video_translate/target_languages', (c) =>
    engine.settings.isDisabled('target_languages') ? notFound(c) : ok(c, TARGET_LANGUAGES),
  );

  app.get('/v1/video_translate/:id', (c) => {
    if (c.req.param('id') === 'target_languages') return notFound(c);
    return statusQuery(c, engine, 'video_translate_query', () => {
      const task = engine.store.get(c.req.param('id'), 'video_translate');
      return task && videoTranslateView(task, engine.now());
    });
  });

  return app;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

// The built-in emulator of the service: a Hono app implementing the interface (api-spec.md) and
// the provider's extras (provider-notes.md) with real validation, real reference image downloads,
// tasks that progress over time, real media and real completion callbacks.
//
// createEmulator() returns two faces of one emulator (same tasks, same settings):
// - `service`: the service as it is on the network; /v1/* requires `Authorization: Bearer <token>`.
//   `npm run emulator` (standalone.ts) serves this one.
// - `app`: the same, mounted inside the console (node-app.ts). The console's Node side stands where
//   the proxy stands when API_BASE_URL is set, and like the proxy it supplies the token itself: the
//   browser never holds one, so its /v1 requests arrive without Authorization and are let through.
//
// Demo seeding API: `emulator.seedTask({kind, params?, createdAt?, outcome?, origin?, callbackUrl?})`
// stores a task and returns its id. `kind` is 'image_generate' | 'video_translate' | 'image_to_video';
// `params` are the task's stored fields (image_generate: prompt, ratio, quality, module;
// video_translate: language, name, videoUrl, enableCaption; image_to_video: prompt, aspectRatio,
// resolution, duration), with sensible defaults; `createdAt` (ms) in the past gives a task that is
// already finished; `outcome` is 'succeed' (default), 'fail', or {type: 'stuck', status: 'QUEUED'}.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requireBearer } from './auth';
import { EmulatorEngine, type SeedTaskInput } from './engine';
import { fail, notFound } from './envelope';
import { createImageGenerateRoutes } from './image-generate-routes';
import { createImageToVideoRoutes } from './image-to-video-routes';
import { createMediaRoutes } from './media';
import { resolveOptions, type EmulatorOptions } from './options';
import { createSettingsRoutes, type RuntimeSettings } from './settings';
import { createUploadRoutes, UPLOAD_ROUTE } from './uploads';
import { createVideoTranslateRoutes } from './video-translate-routes';
import { NO_STORE } from '../http/no-store';

export type { EmulatorOptions } from './options';

/** Request bodies above this size are refused with HTTP 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface Emulator {
  /** Mounted by the console (node-app.ts): /v1/* without a token check, see above. */
  app: Hono;
  /** The service as on the network: /v1/* requires the bearer token. */
  service: Hono;
  seedTask(input: SeedTaskInput): string;
  settings(): RuntimeSettings;
  /** Clears every timer (pending callbacks and retries) and aborts work in flight. */
  close(): Promise<void>;
}

function buildApp(engine: EmulatorEngine, auth: 'required' | 'supplied'): Hono {
  const app = new Hono();
  if (auth === 'required')
    app.use(
      '/v1/*',
      requireBearer(() => engine.options.token),
    );
  const limit = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: (c) =>
      fail(c, 413, 413, `Request body too large: the limit is ${BODY_LIMIT_BYTES / 1024 / 1024} MB`),
  });
  // Uploads have their own limit (UPLOAD_MAX_MB) and are streamed to disk, never buffered.
  app.use('/v1/*', (c, next) => (c.req.path === UPLOAD_ROUTE ? next() : limit(c, next)));
  app.use('/emulator/settings', limit);

  app.get('/emulator/health', (c) => c.json({ ok: true }, 200, NO_STORE));
  app.route('/', createSettingsRoutes(engine.settings));
  app.route(
    '/',
    createMediaRoutes(engine.store, () => engine.now(), engine.options.paintedDir),
  );
  app.route('/', createImageGenerateRoutes(engine));
  app.route('/', createVideoTranslateRoutes(engine));
  app.route('/', createImageToVideoRoutes(engine));
  app.route('/', createUploadRoutes(engine.uploads, engine.settings));

  app.notFound(notFound);
  app.onError((error, c) => {
    engine.options.log(`internal error on ${c.req.method} ${c.req.path}: ${error.message}`);
    return fail(c, 500, 500, 'Internal Server Error');
  });
  return app;
}

export function createEmulator(options: Partial<EmulatorOptions> = {}): Emulator {
  const engine = new EmulatorEngine(resolveOptions(options));
  return {
    app: buildApp(engine, 'supplied'),
    service: buildApp(engine, 'required'),
    seedTask: (input) => engine.seedTask(input),
    settings: () => engine.settings.get(),
    close: async () => engine.close(),
  };
}

// The OpenAPI 3.1 description of the console's API, served at /__console/openapi.json: `/v1` as the
// console serves it (the service's interface behind its proxy, or the built-in emulator), the team's
// record (tasks, requests) and personal API tokens. Every body's schema is made by zod's own
// `z.toJSONSchema` from the zod/mini schemas the code validates with (src/api), never written out a
// second time; OpenAPI 3.1's schemas are JSON Schema 2020-12, which is what it emits. Only the
// document's frame (paths, parameters, security) is written here, one module per area's paths
// (v1-paths.ts, record-paths.ts, …) on the pieces in schema-parts.ts. server/openapi/openapi.test.ts
// validates the document and calls every path it lists.
import { Hono } from 'hono';
import { consoleInfoSchema } from '../../src/api/console-info-schema';
import { recordPaths } from './record-paths';
import { reviewPaths } from './review-paths';
import { GUARDED, jsonSchema, ok } from './schema-parts';
import { sharePaths } from './share-paths';
import { tokenPaths } from './token-paths';
import { v1Paths } from './v1-paths';

export const OPENAPI_PATH = '/__console/openapi.json';

/** GET /__console/openapi.json: the document, made once (at the first request) per process. */
export function createOpenApiRoutes(): Hono {
  const app = new Hono();
  let document: string | undefined;
  app.get(OPENAPI_PATH, (c) => {
    document ??= JSON.stringify(openApiDocument());
    return c.body(document, 200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  });
  return app;
}

/** The console itself: its config and this description. */
function consolePaths() {
  return {
    '/__console/config': {
      get: {
        tags: ['console'],
        operationId: 'console_config',
        summary: 'The backend in use and who the request acts as',
        responses: { '200': ok('The console', jsonSchema(consoleInfoSchema)), ...GUARDED },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        tags: ['console'],
        operationId: 'openapi',
        summary: 'This description',
        responses: {
          '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } },
          ...GUARDED,
        },
      },
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Media Console API',
      version: '1',
      description:
        "The console's API for scripts: the service's interface as the console serves it under `/v1` (the console adds the service's token; never send it), the team's record and personal API tokens. Authenticate with `Authorization: Bearer mct_…`, a personal API token made on the People screen (docs/user-guide.md, \"API tokens\"); it acts as its person, with their role and limits.",
    },
    servers: [{ url: '/' }],
    security: [{ apiToken: [] }, { session: [] }],
    tags: [
      { name: 'v1', description: "The service's interface, through the console" },
      { name: 'record', description: "The team's record of requests and tasks" },
      { name: 'reviews', description: 'Comments and decisions on results' },
      { name: 'tokens', description: 'Personal API tokens' },
      { name: 'shares', description: 'Share links of a board or a request, for people with no account' },
      { name: 'console', description: 'The console itself' },
    ],
    paths: {
      ...v1Paths(),
      ...recordPaths(),
      ...reviewPaths(),
      ...tokenPaths(),
      ...sharePaths(),
      ...consolePaths(),
    },
    components: {
      securitySchemes: {
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A personal API token (`mct_…`), made on the People screen; not the service's API_TOKEN",
        },
        session: { type: 'apiKey', in: 'cookie', name: 'mc_session', description: 'A signed-in browser' },
      },
      schemas: {
        Refusal: {
          type: 'object',
          required: ['code', 'msg'],
          properties: { code: { type: 'integer' }, msg: { type: 'string', description: 'The reason' } },
        },
      },
    },
  };
}

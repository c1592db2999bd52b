// The OpenAPI 3.1 description of the console's API, served at /__console/openapi.json: `/v1` as the
// console serves it (the service's interface behind its proxy, or the built-in emulator), the team's
// record (tasks, requests) and personal API tokens. Every body's schema is made by zod's own
// `z.toJSONSchema` from the zod/mini schemas the code validates with (src/api), never written out a
// second time; OpenAPI 3.1's schemas are JSON Schema 2020-12, which is what it emits. Only the
// document's frame (paths, parameters, security) is written here. server/openapi/openapi.test.ts
// validates the document and calls every path it lists.
import { Hono } from 'hono';
import {
  CreatedToken,
  CreateTokenBody,
  TOKEN_DAYS_MAX,
  TOKEN_DAYS_MIN,
  TokenList,
} from '../../src/api/api-tokens';
import { reviewChangeSchema, reviewViewSchema } from '../../src/api/review-schema';
import { consoleInfoSchema } from '../../src/api/console-info-schema';
import { CreatedShare, CreateShareBody, ShareList } from '../../src/api/share-schemas';
import { SHARE_DAYS_DEFAULT, SHARE_DAYS_MAX, SHARE_DAYS_MIN } from '../../src/api/shares';
import { imageToVideoRequestSchema } from '../../src/api/image-to-video-request';
import {
  requestPageSchema,
  requestWithTasksSchema,
  taskPageSchema,
  taskWithEventsSchema,
} from '../../src/api/record-schema';
import {
  imageGenerateRequestSchema,
  imageGenerateResultSchema,
  imageGenerateTaskSchema,
  imageToVideoTaskSchema,
  uploadAnswerSchema,
  videoTranslateRequestSchema,
  videoTranslateResultSchema,
  videoTranslateTaskSchema,
} from '../../src/api/schemas';
import { z } from '../../src/api/zod';

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

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, as a client may send it or read it: `io: 'input'`, so fields with a
 * default are optional and objects stay open to fields a newer server adds (zod strips unknown
 * fields rather than refusing them). Checks JSON Schema cannot say (a refinement, a transform's
 * result) are left to the server, which answers 400 with the reason.
 */
function jsonSchema(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** The `{code, msg, data}` envelope every answer comes in, with `data` as given. */
function envelope(data?: z.core.$ZodType): JsonSchema {
  return {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'integer', description: '0 on success; otherwise the reason code' },
      msg: { type: 'string' },
      ...(data && { data: jsonSchema(data) }),
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ok = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });
const refusal = (description: string) => ({ description, content: json(ref('Refusal')) });

/** The refusals every route can give: no valid credentials, or a role that does not allow it. */
const GUARDED = {
  '401': refusal('No sign-in, or a personal API token that is unknown, revoked or expired'),
  '403': refusal('The role of the person does not allow it, or the request came from another site'),
};

/** What the proxy answers when the service cannot be asked (never the in-process emulator). */
const UNREACHABLE = {
  '502': refusal('The console could not reach the service'),
  '504': refusal('The service did not answer within 60 seconds'),
};

const pathId = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
const query = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

function creation(kind: string, summary: string, body: z.core.$ZodType, result: z.core.$ZodType) {
  return {
    post: {
      tags: ['v1'],
      operationId: `create_${kind}`,
      summary,
      description:
        "Recorded in the team's record under the person signed in (or the personal token's person) and counted toward their spending limits. A `callback_url` of `console:inbox` is the console's own inbox.",
      requestBody: { required: true, content: json(jsonSchema(body)) },
      responses: {
        '200': ok('Created: `data` lists the new tasks', envelope(result)),
        '400': refusal('The body does not meet the interface (the reason in `msg`)'),
        ...GUARDED,
        '413': refusal('The body is larger than 1 MB'),
        '415': refusal('The body is not JSON'),
        '429': refusal('A spending limit of the person or the team would be passed'),
        ...UNREACHABLE,
      },
    },
  };
}

function status(kind: string, task: z.core.$ZodType) {
  return {
    get: {
      tags: ['v1'],
      operationId: `status_${kind}`,
      summary: "A task's status, as the service answers it (and recorded in the team's record)",
      parameters: [pathId('task_id', 'The task id from the creation')],
      responses: {
        '200': ok('The task', envelope(task)),
        ...GUARDED,
        '404': refusal('The service knows no such task (of this kind)'),
        ...UNREACHABLE,
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
      '/v1/image_generate': creation(
        'image_generate',
        'Create images from a prompt',
        imageGenerateRequestSchema,
        imageGenerateResultSchema,
      ),
      '/v1/image_generate/{task_id}': status('image_generate', imageGenerateTaskSchema),
      '/v1/video_translate': creation(
        'video_translate',
        'Translate a video into one or more languages',
        videoTranslateRequestSchema,
        videoTranslateResultSchema,
      ),
      '/v1/video_translate/{task_id}': status('video_translate', videoTranslateTaskSchema),
      '/v1/video_translate/target_languages': {
        get: {
          tags: ['v1'],
          operationId: 'target_languages',
          summary: 'The languages a video can be translated into',
          responses: { '200': ok('The languages', envelope(z.array(z.string()))), ...GUARDED },
        },
      },
      '/v1/image_to_video': creation(
        'image_to_video',
        'Turn an image into a video',
        imageToVideoRequestSchema,
        imageGenerateResultSchema,
      ),
      '/v1/image_to_video/{task_id}': status('image_to_video', imageToVideoTaskSchema),
      '/v1/figure-resource/upload/file': {
        post: {
          tags: ['v1'],
          operationId: 'upload_file',
          summary: "Upload an image or a video; the answer's `result.url` goes into a creation",
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                },
              },
            },
          },
          responses: {
            '200': ok('Uploaded', jsonSchema(uploadAnswerSchema)),
            ...GUARDED,
            '413': refusal("The file is larger than UPLOAD_MAX_MB, or the day's upload quota is used"),
            '415': refusal('Not multipart/form-data'),
          },
        },
      },
      '/__console/tasks': {
        get: {
          tags: ['record'],
          operationId: 'list_tasks',
          summary: "The team's tasks, a page at a time, newest first",
          parameters: [
            query('tab', 'all, running, succeeded or failed'),
            query('kind', 'image_generate, video_translate or image_to_video'),
            query('q', 'Words in the title, prompt, name or id'),
            query('creator', "Only this creator's tasks (their name)"),
            query('from', 'Created at or after (ISO 8601 date or time)'),
            query('to', 'Created before (ISO 8601 date or time)'),
            query('sort', 'newest (default), oldest, or another order of the Tasks screen'),
            query('limit', 'Tasks per page', { type: 'integer', minimum: 1 }),
            query('cursor', 'The `nextCursor` of the previous page'),
            query('group', "`request`: the page's requests too, each with all its tasks"),
            query('review', '`changes_requested`: only the results someone asked changes on'),
          ],
          responses: {
            '200': ok('A page', envelope(taskPageSchema)),
            '400': refusal('A parameter is not valid'),
            ...GUARDED,
          },
        },
      },
      '/__console/tasks/{id}': {
        get: {
          tags: ['record'],
          operationId: 'get_task',
          summary: 'One task of the record, with its timeline',
          parameters: [pathId('id', 'The task id')],
          responses: {
            '200': ok('The task', envelope(taskWithEventsSchema)),
            ...GUARDED,
            '404': refusal('The record has no such task'),
          },
        },
      },
      '/__console/tasks/{id}/download/{file}': {
        get: {
          tags: ['record'],
          operationId: 'download_result',
          summary: "A task's result file (the team's kept copy, else the service's), named after the request",
          parameters: [
            pathId('id', 'The task id'),
            {
              ...pathId('file', "The result, or a translation's captions"),
              schema: { enum: ['result', 'captions'] },
            },
          ],
          responses: {
            '200': { description: 'The file', content: { 'application/octet-stream': {} } },
            '302': { description: 'The kept copy, at a presigned address of the S3 store' },
            ...GUARDED,
            '404': refusal('No such task, or no such file yet'),
            '502': refusal('The file could not be fetched from the service'),
          },
        },
      },
      '/__console/requests': {
        get: {
          tags: ['record'],
          operationId: 'list_requests',
          summary: "The team's requests (one submission each) with their tasks, newest first",
          parameters: [
            query('kind', 'image_generate, video_translate or image_to_video'),
            query('creator', "Only this creator's requests (their name)"),
            query('limit', 'Requests per page', { type: 'integer', minimum: 1, maximum: 100 }),
            query('cursor', 'The `nextCursor` of the previous page'),
          ],
          responses: {
            '200': ok('A page', envelope(requestPageSchema)),
            '400': refusal('A parameter is not valid'),
            ...GUARDED,
          },
        },
      },
      '/__console/requests/{id}': {
        get: {
          tags: ['record'],
          operationId: 'get_request',
          summary: 'One request with its tasks',
          parameters: [pathId('id', 'The request id')],
          responses: {
            '200': ok('The request', envelope(requestWithTasksSchema)),
            ...GUARDED,
            '404': refusal('The record has no such request'),
          },
        },
      },
      '/__console/reviews/{id}': {
        get: {
          tags: ['reviews'],
          operationId: 'get_review',
          summary: "A result's decisions (one per person, newest first) and comments (oldest first)",
          parameters: [pathId('id', 'The task id')],
          responses: { '200': ok('The review', envelope(reviewViewSchema)), ...GUARDED },
        },
        post: {
          tags: ['reviews'],
          operationId: 'review_result',
          summary:
            'Set or clear your decision (the latest wins) and/or add a comment; viewers too. Answers the review.',
          parameters: [pathId('id', 'The task id')],
          requestBody: { required: true, content: json(jsonSchema(reviewChangeSchema)) },
          responses: {
            '200': ok('The review after the change', envelope(reviewViewSchema)),
            '400': refusal(
              'No comment and no decision, a comment too long, or the result holds the most comments',
            ),
            ...GUARDED,
            '404': refusal('The record has no such task'),
            '413': refusal('The body is larger than a review can be'),
          },
        },
      },
      '/__console/reviews/{id}/comments/{comment}': {
        delete: {
          tags: ['reviews'],
          operationId: 'delete_review_comment',
          summary: 'Delete a comment: your own, or any for an admin. Answers the review.',
          parameters: [pathId('id', 'The task id'), pathId('comment', "The comment's id")],
          responses: {
            '200': ok('The review after the deletion', envelope(reviewViewSchema)),
            ...GUARDED,
            '403': refusal("Another person's comment, and you are no admin"),
            '404': refusal('No such comment on that task'),
          },
        },
      },
      '/__console/tokens': {
        get: {
          tags: ['tokens'],
          operationId: 'list_tokens',
          summary: 'The personal API tokens of the person signed in (revoked and expired ones too)',
          security: [{ session: [] }],
          responses: {
            '200': ok('The tokens, never the tokens themselves', jsonSchema(TokenList)),
            ...GUARDED,
          },
        },
        post: {
          tags: ['tokens'],
          operationId: 'create_token',
          summary: 'Make a personal API token: the answer is the only time it is shown',
          description: `A signed-in person only (not with a token). \`expiresInDays\` from ${TOKEN_DAYS_MIN} to ${TOKEN_DAYS_MAX}.`,
          security: [{ session: [] }],
          requestBody: { required: true, content: json(jsonSchema(CreateTokenBody)) },
          responses: {
            '201': ok('Made', jsonSchema(CreatedToken)),
            '400': refusal('A name or a number of days out of bounds'),
            ...GUARDED,
            '409': refusal('The person holds the most tokens they may'),
            '413': refusal('The body is larger than 4 KB'),
          },
        },
      },
      '/__console/tokens/all': {
        get: {
          tags: ['tokens'],
          operationId: 'list_all_tokens',
          summary: "Everyone's personal API tokens (admins)",
          security: [{ session: [] }],
          responses: { '200': ok('The tokens', jsonSchema(TokenList)), ...GUARDED },
        },
      },
      '/__console/tokens/{id}': {
        delete: {
          tags: ['tokens'],
          operationId: 'revoke_token',
          summary: 'Revoke a token: its next request gets 401 (its own person, or an admin)',
          security: [{ session: [] }],
          parameters: [pathId('id', "The token's id (not the token)")],
          responses: {
            '200': ok('Revoked', { type: 'object', properties: { revoked: { type: 'string' } } }),
            ...GUARDED,
            '404': refusal("No such token (or another person's, for anyone but an admin)"),
            '409': refusal('Already revoked'),
          },
        },
      },
      '/__console/shares': {
        get: {
          tags: ['shares'],
          operationId: 'list_shares',
          summary: "The live share links: one's own; an admin's list holds everyone's",
          parameters: [
            {
              name: 'board',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'Only this board’s',
            },
            {
              name: 'request',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'Only this request’s',
            },
          ],
          responses: { '200': ok('The links, never their tokens', jsonSchema(ShareList)), ...GUARDED },
        },
        post: {
          tags: ['shares'],
          operationId: 'create_share',
          summary: 'Share a board or a request: the answer holds the link, the only time it is shown',
          description: `Creators and admins. Send \`board\` or \`request\` (an id) and \`expiresInDays\`, from ${SHARE_DAYS_MIN} to ${SHARE_DAYS_MAX} (${SHARE_DAYS_DEFAULT} when absent). The link opens a read-only page of the shared results for anyone who has it, with no account.`,
          requestBody: { required: true, content: json(jsonSchema(CreateShareBody)) },
          responses: {
            '201': ok('Made', jsonSchema(CreatedShare)),
            '400': refusal('Neither or both of board and request, or a number of days out of bounds'),
            ...GUARDED,
            '404': refusal('No such board or request'),
            '409': refusal('The team holds the most live links it may'),
            '413': refusal('The body is larger than 4 KB'),
          },
        },
      },
      '/__console/shares/{id}': {
        delete: {
          tags: ['shares'],
          operationId: 'revoke_share',
          summary: 'Revoke a share link: it answers 404 from now on (its maker, or an admin)',
          parameters: [pathId('id', "The link's id (not its token)")],
          responses: {
            '200': ok('Revoked', { type: 'object' }),
            ...GUARDED,
            '404': refusal('No such live link'),
          },
        },
      },
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

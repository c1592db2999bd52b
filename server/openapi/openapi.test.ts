// The OpenAPI description: a valid OpenAPI 3.1 document, served at /__console/openapi.json, whose
// every path and method the app answers with a status the document lists; the record's schemas
// (src/api/record-schema.ts) hold every field of the server's own types and parse real answers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { TaskView } from '../tasks/task-view';
import type { RequestWithTasks } from '../tasks/requests';
import {
  requestPageSchema,
  requestWithTasksSchema,
  taskPageSchema,
  taskWithEventsSchema,
  type RequestWithTasksData,
  type TaskViewData,
} from '../../src/api/record-schema';
import { testNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import { asPerson } from '../testing/identity';
import { OPENAPI_PATH, openApiDocument } from './openapi';

const server = testNodeApp('openapi');
beforeEach(async () => {
  await server.open();
});

type Operation = { responses: Record<string, unknown>; requestBody?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is served at /__console/openapi.json to anyone signed in', async () => {
    const res = await server.requestAs('Vic', OPENAPI_PATH, undefined, 'viewer');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it("carries the code's own rules, made from its zod schemas", () => {
    const doc = openApiDocument() as Document & Record<string, never>;
    const body = (path: string) =>
      (doc.paths[path]!.post!.requestBody as { content: Record<string, { schema: Record<string, unknown> }> })
        .content['application/json']!.schema as {
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };
    // The prompt's bounds and the defaults of src/api/schemas.ts, as JSON Schema.
    expect(body('/v1/image_generate').properties.prompt).toMatchObject({ type: 'string', maxLength: 1000 });
    expect(body('/v1/image_generate').required).toEqual(['prompt']);
    expect(body('/__console/tokens').properties.expiresInDays).toMatchObject({ minimum: 1, maximum: 365 });
    expect(body('/__console/tokens').properties.name).toMatchObject({ maxLength: 100 });
  });
});

/** A path of the document with its parameters filled in from what the test made. */
function fill(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'unknown'));
}

/** A body the operation takes (or a plain one: a refusal with its reason still proves the route). */
function bodyFor(path: string): RequestInit {
  if (path === '/v1/figure-resource/upload/file') {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]),
      'a.png',
    );
    return { body: form };
  }
  const bodies: Record<string, unknown> = {
    '/v1/image_generate': { prompt: 'Calm ocean at sunset', generate_count: 1 },
    '/v1/video_translate': {
      target_languages: ['Japanese'],
      video_url: `${TEST_ORIGIN}/emulator/samples/video.mp4`,
    },
    '/v1/image_to_video': {
      prompt: 'Slow zoom',
      image_url: `${TEST_ORIGIN}/emulator/samples/image.png`,
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
    },
    '/__console/tokens': { name: 'openapi test', expiresInDays: 1 },
    '/__console/reviews/{id}': { decision: 'approved', comment: 'Looks right' },
  };
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(bodies[path] ?? {}) };
}

describe('every path of the document', () => {
  it('is answered by the app, with a status the document lists for it', async () => {
    const doc = openApiDocument() as unknown as Document;
    // Real ids to fill the paths with: a created task (and its request) and a token.
    const created = await server.postJsonAs(
      'Ada',
      '/v1/image_generate',
      { prompt: 'A fox', generate_count: 1 },
      'admin',
    );
    const taskId = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    const task = (await (
      await server.requestAs('Ada', `/__console/tasks/${taskId}`, undefined, 'admin')
    ).json()) as {
      data: { task: { requestId: string } };
    };
    const ids = { task_id: taskId, id: taskId, file: 'result' };
    const answered: string[] = [];
    // Deletions last: a revoked token is still a listed path.
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    operations.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    for (const { path, method, operation } of operations) {
      let filled = fill(path, ids);
      if (path === '/__console/requests/{id}') filled = fill(path, { id: task.data.task.requestId });
      if (path === '/__console/tokens/{id}') {
        const made = await server.postJsonAs(
          'Ada',
          '/__console/tokens',
          { name: 'to revoke', expiresInDays: 1 },
          'admin',
        );
        filled = fill(path, { id: ((await made.json()) as { id: string }).id });
      }
      if (path === '/__console/reviews/{id}/comments/{comment}') {
        const made = await server.postJsonAs(
          'Ada',
          `/__console/reviews/${taskId}`,
          { comment: 'to delete' },
          'admin',
        );
        const { comments } = ((await made.json()) as { data: { comments: { id: string; body: string }[] } })
          .data;
        filled = fill(path, { id: taskId, comment: comments.find((each) => each.body === 'to delete')!.id });
      }
      const init: RequestInit = { method: method.toUpperCase(), ...(method === 'post' && bodyFor(path)) };
      if (path === '/__console/shares' && method === 'post')
        init.body = JSON.stringify({ request: task.data.task.requestId, expiresInDays: 1 });
      const res = await server.request(filled, init, asPerson('Ada', 'admin'));
      const text = await res.text();
      // Hono's own 404 is plain text: a route the app does not have.
      expect(text, `${method} ${path}`).not.toBe('404 Not Found');
      expect(
        Object.keys(operation.responses),
        `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`,
      ).toContain(String(res.status));
      answered.push(`${method} ${path} ${res.status}`);
    }
    // The main ones succeed, not only exist.
    expect(answered).toEqual(
      expect.arrayContaining([
        'post /v1/image_generate 200',
        'get /v1/image_generate/{task_id} 200',
        'get /__console/tasks 200',
        'get /__console/tasks/{id} 200',
        'get /__console/requests 200',
        'get /__console/requests/{id} 200',
        'post /__console/tokens 201',
        'delete /__console/tokens/{id} 200',
        'post /__console/shares 201',
        'get /__console/shares 200',
        'get /__console/reviews/{id} 200',
        'post /__console/reviews/{id} 200',
        'delete /__console/reviews/{id}/comments/{comment} 200',
      ]),
    );
  });
});

describe("the record's schemas", () => {
  it('name every field of the server\u2019s types, each with a type that holds it', () => {
    expectTypeOf<keyof TaskViewData>().toEqualTypeOf<keyof TaskView>();
    expectTypeOf<TaskView>().toExtend<TaskViewData>();
    expectTypeOf<keyof RequestWithTasksData>().toEqualTypeOf<keyof RequestWithTasks>();
    expectTypeOf<RequestWithTasks>().toExtend<RequestWithTasksData>();
  });

  it('parse what the app answers', async () => {
    await server.postJsonAs('Ana', '/v1/image_generate', { prompt: 'A fox', generate_count: 2 });
    const page = (await (await server.requestAs('Ana', '/__console/tasks?group=request')).json()) as {
      data: unknown;
    };
    const tasks = taskPageSchema.parse(page.data);
    expect(tasks.items).toHaveLength(2);
    expect(tasks.requests).toHaveLength(1);
    const one = (await (await server.requestAs('Ana', `/__console/tasks/${tasks.items[0]!.id}`)).json()) as {
      data: unknown;
    };
    expect(taskWithEventsSchema.parse(one.data).task.creator).toBe('Ana');
    const requests = (await (await server.requestAs('Ana', '/__console/requests')).json()) as {
      data: unknown;
    };
    const parsed = requestPageSchema.parse(requests.data);
    expect(parsed.items[0]!.tasks).toHaveLength(2);
    const request = (await (
      await server.requestAs('Ana', `/__console/requests/${parsed.items[0]!.id}`)
    ).json()) as {
      data: unknown;
    };
    expect(requestWithTasksSchema.parse(request.data).taskIds).toHaveLength(2);
  });
});

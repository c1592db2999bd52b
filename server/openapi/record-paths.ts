// The paths of the team's record in the OpenAPI description: tasks, their files, and requests.
import {
  requestPageSchema,
  requestWithTasksSchema,
  taskPageSchema,
  taskWithEventsSchema,
} from '../../src/api/record-schema';
import { envelope, GUARDED, ok, pathId, query, refusal } from './schema-parts';

/** The team's tasks (a page, one, a result file) and requests (a page, one). */
export function recordPaths() {
  return {
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
  };
}

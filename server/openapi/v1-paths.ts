// The paths of `/v1` in the OpenAPI description: the service's interface as the console serves it.
import { imageToVideoRequestSchema } from '../../src/api/image-to-video-request';
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
import { envelope, GUARDED, json, jsonSchema, ok, pathId, refusal, UNREACHABLE } from './schema-parts';

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

/** Creations, status queries, the target languages and uploads under `/v1`. */
export function v1Paths() {
  return {
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
  };
}

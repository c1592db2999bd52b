// Checks a pasted callback body with the same schema the inbox uses, and says what is wrong in
// words support staff can act on.
import { callbackBodySchema, TASK_TYPES, type CallbackBody } from '@/api/schemas';

export type ParsedCallback = { ok: true; body: CallbackBody } | { ok: false; error: string };

export function parseCallbackText(text: string): ParsedCallback {
  if (!text.trim()) return { ok: false, error: 'Paste a callback body (JSON) first.' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return {
      ok: false,
      error: 'A callback body is a JSON object: {"code": 0, "msg": "ok", "task_type": …, "data": {…}}.',
    };
  }
  const taskType = (json as { task_type?: unknown }).task_type;
  if (typeof taskType !== 'string' || !(TASK_TYPES as readonly string[]).includes(taskType)) {
    return { ok: false, error: `task_type must be one of ${TASK_TYPES.join(', ')}.` };
  }
  const parsed = callbackBodySchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    return { ok: false, error: `${issues.join('; ')}.` };
  }
  // The object as pasted (unknown fields included), as the inbox stores it.
  return { ok: true, body: json as CallbackBody };
}

/** Documented examples (api-spec section 6), to start from when pasting by hand. */
export const CALLBACK_EXAMPLES = {
  video_translate: {
    code: 0,
    msg: 'ok',
    task_type: 'video_translate',
    data: {
      task_id: 'vt-example-1',
      name: 'English-product-demo',
      language: 'English',
      status: 'SUCCEEDED',
      video_url: 'https://example.com/videos/English-product-demo.mp4',
      caption_url: 'https://example.com/videos/English-product-demo.ass',
      error_message: '',
    },
  },
  image_to_video: {
    code: 0,
    msg: 'ok',
    task_type: 'image_to_video',
    data: {
      task_id: 'i2v-example-1',
      status: 'SUCCEEDED',
      video_url: 'https://example.com/videos/i2v-example-1.mp4',
      thumbnail_url: 'https://example.com/videos/i2v-example-1.jpg',
      error_message: '',
    },
  },
  image_generate: {
    code: 0,
    msg: 'ok',
    task_type: 'image_generate',
    data: {
      task_id: 'i2is-example-1',
      status: 'SUCCEEDED',
      image_url: 'https://example.com/images/i2is-example-1.png',
      error_message: '',
    },
  },
} as const satisfies Record<string, CallbackBody>;

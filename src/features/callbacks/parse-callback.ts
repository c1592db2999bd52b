// Checks a pasted callback body with the same schema the inbox uses, and says what is wrong in
// words support staff can act on. Loaded (with zod) when the paste box is first used.
import { callbackBodySchema, TASK_TYPES, type CallbackBody } from '@/api/schemas';

export { CALLBACK_EXAMPLES } from './callback-examples';

type ParsedCallback = { ok: true; body: CallbackBody } | { ok: false; error: string };

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

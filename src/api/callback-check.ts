// A completion callback body checked by hand, exactly as strictly as `callbackBodySchema` (zod, in
// schemas.ts): the browser reads callbacks only from the console's own inbox, which stored each one
// after checking it with that schema, and the Callbacks screen and the live stream must not need
// zod (~9 KB gzip) to show them. `callback-check.test.ts` holds the two to the same verdicts on
// valid and malformed bodies; the inbox, the emulator and a pasted body still use the zod schema.
import type { CallbackBody } from './schemas';
import { TERMINAL_STATUSES } from './core/rules';
import { isRecord } from './core/is-record';

/** The optional text fields of each task type's `data`: absent, null or a string. */
const TEXT_FIELDS: Record<CallbackBody['task_type'], readonly string[]> = {
  video_translate: ['name', 'language', 'video_url', 'caption_url', 'error_message'],
  image_to_video: ['video_url', 'thumbnail_url', 'error_message'],
  image_generate: ['image_url', 'error_message'],
};

type Issue = { path: PropertyKey[]; message: string };
export type CheckResult<T> =
  | { success: true; data: T; error?: undefined }
  | { success: false; data?: undefined; error: { issues: Issue[] } };

export const refuse = (
  path: PropertyKey[],
  message: string,
): { success: false; error: { issues: Issue[] } } => ({
  success: false,
  error: { issues: [{ path, message }] },
});

export { isRecord };

/** Same shape as a zod schema's safeParse; unknown fields are kept, as `looseObject` keeps them. */
export const callbackBodyCheck = {
  safeParse(value: unknown): CheckResult<CallbackBody> {
    if (!isRecord(value)) return refuse([], 'expected an object');
    const { code, msg, task_type: type, data } = value;
    if (typeof type !== 'string' || !Object.hasOwn(TEXT_FIELDS, type))
      return refuse(['task_type'], 'unknown task_type');
    if (!Number.isSafeInteger(code)) return refuse(['code'], 'expected an integer');
    if (msg !== undefined && typeof msg !== 'string') return refuse(['msg'], 'expected a string');
    if (!isRecord(data)) return refuse(['data'], 'expected an object');
    if (typeof data.task_id !== 'string' || !data.task_id)
      return refuse(['data', 'task_id'], 'expected a non-empty string');
    if (!(TERMINAL_STATUSES as readonly unknown[]).includes(data.status))
      return refuse(['data', 'status'], `expected ${TERMINAL_STATUSES.join(' or ')}`);
    for (const field of TEXT_FIELDS[type as CallbackBody['task_type']]) {
      const text = data[field];
      if (text != null && typeof text !== 'string') return refuse(['data', field], 'expected a string');
    }
    return { success: true, data: value as CallbackBody };
  },
};

// The `{code, msg, data}` envelope every answer of the interface comes in, checked by hand: the
// client reads it on every request, and a language list or a created task must not need zod.

export interface Envelope {
  code: number;
  msg?: string;
  data?: unknown;
  [key: string]: unknown;
}

type Result =
  | { success: true; data: Envelope; error?: undefined }
  | { success: false; data?: undefined; error: { issues: { path: PropertyKey[]; message: string }[] } };

const refuse = (path: string, message: string): Result => ({
  success: false,
  error: { issues: [{ path: path ? [path] : [], message }] },
});

/** Same shape as a zod schema's safeParse, so the client treats it like any other response schema. */
export const envelopeSchema = {
  safeParse(value: unknown): Result {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return refuse('', 'expected an object');
    const { code, msg } = value as Record<string, unknown>;
    if (!Number.isInteger(code)) return refuse('code', 'expected an integer');
    if (msg !== undefined && typeof msg !== 'string') return refuse('msg', 'expected a string');
    return { success: true, data: value as Envelope };
  },
};

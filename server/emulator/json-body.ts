// JSON bodies only, as the interface says (section 4: content type application/json). The size
// limit itself is the body-limit middleware in app.ts; this reads what passed it and, for the
// creation routes, checks it against the request schema.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { isJsonMediaType } from '../http/media-type';
import { fail } from './envelope';
import { validationFailure, type SchemaIssue, type ValidationRules } from './validation';

type JsonBodyResult = { ok: true; body: unknown } | { ok: false; response: Response };
type RequestResult<T> = { ok: true; params: T } | { ok: false; response: Response };

/** A request schema, as far as readRequest uses it. */
interface RequestSchema<T> {
  safeParse(
    body: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** Parsed, as the proxy and the inbox marker judge it: `application/json, text/html` is not JSON. */
export function isJsonContentType(header: string | undefined): boolean {
  return isJsonMediaType(header);
}

export async function readJsonBody(c: Context): Promise<JsonBodyResult> {
  const contentType = c.req.header('content-type');
  if (!isJsonContentType(contentType)) {
    const current = contentType ? contentType : 'none';
    return {
      ok: false,
      response: fail(
        c,
        400,
        ERROR_CODES.validation,
        `body: Content-Type must be application/json, current: ${current}`,
      ),
    };
  }
  const text = await c.req.text();
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = text.trim() === '' ? 'the body is empty' : (error as Error).message;
    return {
      ok: false,
      response: fail(c, 400, ERROR_CODES.validation, `body: must be valid JSON: ${reason}`),
    };
  }
}

/** A JSON body checked against its request schema; a refusal is the HTTP 400 envelope of validation.ts. */
export async function readRequest<T>(
  c: Context,
  schema: RequestSchema<T>,
  rules: ValidationRules,
): Promise<RequestResult<T>> {
  const read = await readJsonBody(c);
  if (!read.ok) return read;
  const parsed = schema.safeParse(read.body);
  if (parsed.success) return { ok: true, params: parsed.data };
  const failure = validationFailure(read.body, parsed.error.issues, rules);
  return { ok: false, response: fail(c, 400, failure.code, failure.msg) };
}

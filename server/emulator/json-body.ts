// JSON bodies only, as the interface says (section 4: content type application/json). The size
// limit itself is the body-limit middleware in app.ts; this reads what passed it.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { fail } from './envelope';

export type JsonBodyResult = { ok: true; body: unknown } | { ok: false; response: Response };

export function isJsonContentType(header: string | undefined): boolean {
  const mediaType = header?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
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

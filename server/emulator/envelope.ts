// Every answer under /v1 is the envelope of section 2.1: `{code, msg, data?}`.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function ok(c: Context, data: unknown) {
  return c.json({ code: 0, msg: 'ok', data }, 200);
}

export function fail(c: Context, httpStatus: ContentfulStatusCode, code: number, msg: string) {
  return c.json({ code, msg }, httpStatus);
}

export const notFound = (c: Context) => fail(c, 404, 404, 'Not Found');

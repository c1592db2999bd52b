// A route's refusal as the console's own routes give it: the `{code, msg}` envelope with the HTTP
// status as its code, never stored by a cache.
import type { Context } from 'hono';
import { NO_STORE } from './no-store';

export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413;

/** `extra` adds fields beside `msg`, such as the form field the refusal is about. */
export const refusal = (c: Context, status: RefusalStatus, msg: string, extra: object = {}) =>
  c.json({ code: status, msg, ...extra }, status, NO_STORE);

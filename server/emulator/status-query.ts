// Shared behaviour of every status query: an endpoint switched off answers like an unknown path,
// planned failures (settings) answer 429/500/503 (with Retry-After when one was planned), and an unknown id (or an id of another kind) answers
// HTTP 404 with code 100003 and the id in msg.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import type { EmulatorEngine } from './engine';
import { fail, notFound, ok } from './envelope';
import type { DisableableEndpoint } from './options';
import { STATUS_QUERY_FAILURES } from './settings';

export function statusQuery(
  c: Context,
  engine: EmulatorEngine,
  endpoint: DisableableEndpoint | undefined,
  view: () => object | undefined,
): Response {
  if (endpoint && engine.settings.isDisabled(endpoint)) return notFound(c);
  const planned = engine.settings.takeStatusQueryFailure(c.req.param('id') ?? '');
  if (planned) {
    if (planned.retryAfter !== undefined) c.header('retry-after', planned.retryAfter);
    return fail(c, planned.status, planned.status, STATUS_QUERY_FAILURES[planned.status]);
  }
  const data = view();
  if (!data) return fail(c, 404, ERROR_CODES.taskNotFound, `task not found: ${c.req.param('id') ?? ''}`);
  // Status changes over time: never let a browser or proxy cache a status answer.
  c.header('cache-control', 'no-store');
  return ok(c, data);
}

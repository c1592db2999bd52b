// Runtime settings, changed without a restart by tests and demos (no auth, like the media):
//   GET  /emulator/settings  -> {timeScale, disabled, failNextStatusQueries?}
//   POST /emulator/settings  with any subset of those fields; `failNextStatusQueries: null` clears it.
// `failNextStatusQueries: {status: 429|500|503, count, retryAfter?}` makes the next `count` status
// queries fail, to show how the console handles rate limiting and server errors; `retryAfter` (the
// header's text, delay-seconds or an HTTP date) is sent as `Retry-After` with each of them. With
// `taskId`, only that task's status queries fail (and count): other tasks polled at the same time, by
// another tab or a parallel test, neither fail nor use the planned failures up.
import { Hono } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { z } from '../../src/api/zod';
import { fail } from './envelope';
import { readJsonBody } from './json-body';
import { DISABLEABLE_ENDPOINTS, type DisableableEndpoint } from './options';
import { validationFailure } from './validation';
import { NO_STORE } from '../http/no-store';

export interface StatusQueryFailure {
  status: 429 | 500 | 503;
  count: number;
  retryAfter?: string;
  taskId?: string;
}

export interface RuntimeSettings {
  timeScale: number;
  disabled: DisableableEndpoint[];
  failNextStatusQueries?: StatusQueryFailure;
}

export const settingsPatchSchema = z.object({
  timeScale: z.optional(z.number().check(z.minimum(0), z.maximum(1000))),
  disabled: z.optional(z.array(z.enum(DISABLEABLE_ENDPOINTS))),
  failNextStatusQueries: z.optional(
    z.nullable(
      z.object({
        status: z.union([z.literal(429), z.literal(500), z.literal(503)]),
        count: z.int().check(z.minimum(0), z.maximum(1000)),
        retryAfter: z.optional(z.string().check(z.maxLength(64), z.regex(/^[\x20-\x7e]*$/))),
        taskId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      }),
    ),
  ),
});

export const STATUS_QUERY_FAILURES = {
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;

export class SettingsState {
  private current: RuntimeSettings;

  constructor(initial: { timeScale: number; disabled: DisableableEndpoint[] }) {
    this.current = { timeScale: initial.timeScale, disabled: [...initial.disabled] };
  }

  get(): RuntimeSettings {
    return structuredClone(this.current);
  }

  get timeScale(): number {
    return this.current.timeScale;
  }

  isDisabled(endpoint: DisableableEndpoint): boolean {
    return this.current.disabled.includes(endpoint);
  }

  update(patch: z.output<typeof settingsPatchSchema>): RuntimeSettings {
    const next: RuntimeSettings = { ...this.current };
    if (patch.timeScale !== undefined) next.timeScale = patch.timeScale;
    if (patch.disabled)
      next.disabled = DISABLEABLE_ENDPOINTS.filter((name) => patch.disabled!.includes(name));
    if (patch.failNextStatusQueries === null || patch.failNextStatusQueries?.count === 0)
      delete next.failNextStatusQueries;
    else if (patch.failNextStatusQueries) next.failNextStatusQueries = { ...patch.failNextStatusQueries };
    this.current = next;
    return this.get();
  }

  /** Consumes one planned failure for this task, if any: how its status query must answer. */
  takeStatusQueryFailure(taskId: string): Omit<StatusQueryFailure, 'count' | 'taskId'> | undefined {
    const planned = this.current.failNextStatusQueries;
    if (!planned || (planned.taskId !== undefined && planned.taskId !== taskId)) return undefined;
    if (planned.count <= 1) delete this.current.failNextStatusQueries;
    else planned.count -= 1;
    return { status: planned.status, retryAfter: planned.retryAfter };
  }
}

export function createSettingsRoutes(settings: SettingsState): Hono {
  const app = new Hono();
  app.get('/emulator/settings', (c) => c.json(settings.get(), 200, NO_STORE));
  app.post('/emulator/settings', async (c) => {
    const read = await readJsonBody(c);
    if (!read.ok) return read.response;
    const parsed = settingsPatchSchema.safeParse(read.body);
    if (!parsed.success) {
      const failure = validationFailure(read.body, parsed.error.issues);
      return fail(c, 400, ERROR_CODES.validation, failure.msg);
    }
    return c.json(settings.update(parsed.data), 200, NO_STORE);
  });
  return app;
}

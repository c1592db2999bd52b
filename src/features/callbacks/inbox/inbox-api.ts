// The browser's side of the callback inbox (server/callbacks): its log, and posting a pasted
// callback to it. Same origin only, at CONSOLE_CALLBACKS_PATH: the inbox's secret never reaches a
// browser.
//
// Every answer here comes from the console's own server, which checked each callback with the
// shared zod schema before storing it; the answers are still checked field by field (by hand, as
// strictly as that schema: src/api/callback-check.ts), so this screen does not load zod at all.
import { infiniteQueryOptions } from '@tanstack/react-query';
import { callbackBodyCheck, isRecord, refuse, type CheckResult } from '@/api/callback-check';
import type { ApiErrorInit } from '@/api/errors';
import { envelopeSchema } from '@/api/envelope';
import type { CallbackBody } from '@/api/schemas';
import { useConsoleInfo, type ConsoleInfo } from '@/api/console-info';

/**
 * The error to throw, as an ApiError like every request's; its module (with the explanations)
 * loads with the first failure, not with the screen.
 */
async function apiError(init: ApiErrorInit) {
  try {
    const { ApiError } = await import('@/api/errors');
    return new ApiError(init);
  } catch {
    // The module could not load either (the console's server is unreachable, most likely): the
    // request's own error, with the fields an ApiError has, so the retry rule still reads it.
    const reason = init.msg || (init.kind === 'network' ? 'The console could not be reached' : init.kind);
    return Object.assign(new Error(reason, { cause: init.cause }), {
      name: 'ApiError',
      kind: init.kind,
      httpStatus: init.httpStatus ?? 0,
      code: init.code,
      msg: init.msg ?? '',
    });
  }
}

export interface StoredCallback {
  id: number;
  receivedAt: string;
  body: CallbackBody;
}

/** One log entry or stream event: `{id, receivedAt, body}`, the body as strict as callbackBodySchema. */
export const storedCallbackCheck = {
  safeParse(value: unknown): CheckResult<StoredCallback> {
    if (!isRecord(value)) return refuse([], 'expected an object');
    if (!Number.isSafeInteger(value.id)) return refuse(['id'], 'expected an integer');
    if (typeof value.receivedAt !== 'string') return refuse(['receivedAt'], 'expected a string');
    const body = callbackBodyCheck.safeParse(value.body);
    if (!body.success) return refuse(['body', ...body.error.issues[0]!.path], body.error.issues[0]!.message);
    return { success: true, data: { id: value.id as number, receivedAt: value.receivedAt, body: body.data } };
  },
};

export interface CallbackLogPage {
  total: number;
  lastId: number;
  items: StoredCallback[];
}

const LOG_PAGE_SIZE = 50;

/** The inbox fields are part of /__console/config. */
export type InboxInfo = ConsoleInfo;

export const useInboxInfo = useConsoleInfo;

export const callbackKeys = {
  all: ['callbacks'] as const,
  logs: (inboxPath: string) => ['callbacks', 'log', inboxPath] as const,
  /** `task` narrows the log to task ids containing it; '' is the whole log. */
  log: (inboxPath: string, task = '') => ['callbacks', 'log', inboxPath, task] as const,
};

async function readEnvelope(response: Response) {
  const json: unknown = await response.json().catch(() => undefined);
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw await apiError({
      kind: response.ok ? 'malformed' : 'server',
      httpStatus: response.status,
      msg: `${response.status} ${response.statusText}`.trim(),
    });
  }
  const { code, msg = '', data } = envelope.data;
  if (code !== 0 || !response.ok) {
    throw await apiError({
      kind: response.status === 413 ? 'too_large' : response.status === 400 ? 'validation' : 'business',
      httpStatus: response.status,
      code,
      msg,
    });
  }
  return data;
}

async function request(input: string, init?: RequestInit) {
  try {
    return await fetch(input, init);
  } catch (cause) {
    if (init?.signal?.aborted) throw cause;
    throw await apiError({ kind: 'network', msg: 'The console server could not be reached', cause });
  }
}

export async function fetchCallbackLog(
  inboxPath: string,
  options: { before?: number; task?: string; signal?: AbortSignal } = {},
): Promise<CallbackLogPage> {
  const { before, task, signal } = options;
  const query = new URLSearchParams({ limit: String(LOG_PAGE_SIZE) });
  if (before !== undefined) query.set('before', String(before));
  if (task) query.set('task', task);
  const data = await readEnvelope(
    await request(`${inboxPath}/log?${query}`, { signal, headers: { accept: 'application/json' } }),
  );
  if (
    !isRecord(data) ||
    !Number.isSafeInteger(data.total) ||
    !Number.isSafeInteger(data.lastId) ||
    !Array.isArray(data.items)
  )
    throw await apiError({ kind: 'malformed', msg: 'The callback log has an unexpected shape' });
  // Checked one by one, so one odd line cannot hide the rest of the log.
  const items = data.items.flatMap((item) => {
    const parsed = storedCallbackCheck.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
  return { total: data.total as number, lastId: data.lastId as number, items };
}

export const callbackLogQuery = (inboxPath: string, task = '') =>
  infiniteQueryOptions({
    queryKey: callbackKeys.log(inboxPath, task),
    queryFn: ({ pageParam, signal }) => fetchCallbackLog(inboxPath, { before: pageParam, task, signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.items.length === LOG_PAGE_SIZE ? last.items.at(-1)?.id : undefined),
    staleTime: Infinity,
  });

/**
 * What became of the callback's task (server/callbacks/hints.ts): not in the team record (the
 * callback stays in the log only), being checked with the service, already finished, or left to the
 * next status check.
 */
export type CallbackTaskOutcome = 'unknown' | 'checking' | 'settled' | 'busy';
const OUTCOMES = new Set<unknown>(['unknown', 'checking', 'settled', 'busy']);

/** Stores a callback in the inbox exactly as the service would send it. */
export async function postCallback(
  inboxPath: string,
  body: CallbackBody,
): Promise<{ id: number; duplicate: boolean; task?: CallbackTaskOutcome }> {
  const response = await request(inboxPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await readEnvelope(response);
  if (!isRecord(data) || !Number.isSafeInteger(data.id) || typeof data.duplicate !== 'boolean')
    throw await apiError({ kind: 'malformed', msg: 'The inbox answered with an unexpected shape' });
  return {
    id: data.id as number,
    duplicate: data.duplicate,
    ...(OUTCOMES.has(data.task) && { task: data.task as CallbackTaskOutcome }),
  };
}

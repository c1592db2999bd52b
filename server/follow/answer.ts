// What a status answer means for following the task: done, ask again on the schedule, back off,
// brake every instance (429, Retry-After), or stop asking (the service does not know the id, or
// this backend has no status query for the kind). The classification is the browser client's own
// (src/api/errors.ts), so the record and the screens name a failure alike.
import { parseRetryAfter, statusQueryKind, type ApiErrorKind } from '../../src/api/errors';
import { isTerminalStatus } from '../../src/api/status';
import type { FollowEnd } from '../db/schema';

export type FollowOutcome =
  | { type: 'final'; status: string }
  | { type: 'running'; status: string }
  /** The service asked everyone to wait (429, or 503 with Retry-After): `waitMs` undefined = its advice of 30 s. */
  | { type: 'brake'; waitMs: number | undefined; error: FollowError }
  | { type: 'failed'; kind: ApiErrorKind; error: FollowError }
  | { type: 'ended'; end: FollowEnd; error: FollowError };

export interface FollowError {
  kind: ApiErrorKind;
  httpStatus: number;
  code?: number;
  msg: string;
}

/** The most of a status answer read: status answers are a few KB (server/tasks/record-traffic.ts). */
const ANSWER_MAX_BYTES = 1024 * 1024;

async function readEnvelope(response: Response): Promise<{ code?: unknown; msg?: unknown; data?: unknown }> {
  try {
    if (Number(response.headers.get('content-length') ?? 0) > ANSWER_MAX_BYTES) {
      // Stryker disable next-line OptionalChaining: a body-less answer throws here and is caught as the empty envelope it is anyway
      await response.body?.cancel();
      return {};
    }
    const text = await response.text();
    // A number or a string where the envelope belongs has none of its fields: reading them gives
    // undefined, as from an empty envelope. Only JSON's null has to be replaced.
    const parsed = (text.length > ANSWER_MAX_BYTES ? {} : JSON.parse(text)) as { code?: unknown } | null;
    return parsed ?? {};
  } catch {
    return {};
  }
}

/** A status answer as the follower acts on it. `now` reads an HTTP-date Retry-After. */
export async function outcomeOf(response: Response, now = Date.now()): Promise<FollowOutcome> {
  const envelope = await readEnvelope(response);
  const code = typeof envelope.code === 'number' ? envelope.code : undefined;
  const status = (envelope.data as { status?: unknown } | null | undefined)?.status;
  if (response.status === 200 && code === 0 && typeof status === 'string' && status !== '')
    return isTerminalStatus(status) ? { type: 'final', status } : { type: 'running', status };
  // A success that is not the envelope (an HTML page, a cut-off body) says nothing about the task:
  // only a business code in a real envelope means the service could not read it.
  const kind =
    response.ok && (code === 0 || code === undefined) ? 'malformed' : statusQueryKind(response.status, code); // a code of 0 reads as none there
  const error: FollowError = {
    kind,
    httpStatus: response.status,
    ...(code !== undefined && { code }),
    msg:
      typeof envelope.msg === 'string' && envelope.msg
        ? envelope.msg.slice(0, 500)
        : kind === 'malformed'
          ? 'The status answer has no status'
          : `HTTP ${response.status}`,
  };
  const retryAfter =
    response.status === 429 || response.status === 503
      ? parseRetryAfter(response.headers.get('retry-after'), now)
      : undefined;
  if (kind === 'rate_limit' || retryAfter !== undefined) return { type: 'brake', waitMs: retryAfter, error };
  if (kind === 'not_found' || kind === 'unavailable') return { type: 'ended', end: kind, error };
  return { type: 'failed', kind, error };
}

/** No answer at all (the request threw). */
export const networkOutcome = (error: unknown): FollowOutcome => ({
  type: 'failed',
  kind: 'network',
  error: { kind: 'network', httpStatus: 0, msg: (error as Error)?.message ?? String(error) },
});

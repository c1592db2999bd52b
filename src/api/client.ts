// A thin fetch client: same-origin `/v1/...` only (the Node side adds the bearer token), JSON in
// and out, the envelope unwrapped, `data` validated. Every failure is thrown as an ApiError.
import { ApiError, kindFor, parseRetryAfter } from './errors';
import { envelopeSchema } from './envelope';
import { boardChoiceHeaders } from './board-choice';

/** What the client needs of a response schema: zod's safeParse, or a hand-written check. */
interface Parser<T> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: PropertyKey[]; message: string }[] } };
}

interface RequestOptions<T> {
  method?: 'GET' | 'POST';
  body?: unknown;
  schema: Parser<T>;
  signal?: AbortSignal;
  /** Headers for the console's own record, never forwarded to the service (src/api/boards.ts). */
  headers?: Record<string, string>;
}

export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  // The browser only talks to its own origin; the Node side adds the token. An absolute or
  // protocol-relative URL here would send requests (and cookies) elsewhere, so it is a bug.
  if (!path.startsWith('/v1/'))
    throw new TypeError(`apiRequest only calls same-origin /v1/ paths, got ${path}`);
  const { method = options.body === undefined ? 'GET' : 'POST', body, schema, signal } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        // A creation's board, chosen on its form (./board-choice.ts), and the caller's own.
        ...(method === 'POST' ? boardChoiceHeaders() : {}),
        ...options.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ kind: 'network', msg: 'The service could not be reached', cause });
  }

  // Only 429 and 503 mean "come back later"; elsewhere the header is not a promise.
  const retryAfterMs =
    response.status === 429 || response.status === 503
      ? parseRetryAfter(response.headers.get('retry-after'))
      : undefined;
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const envelope = envelopeSchema.safeParse(json);

  if (!envelope.success) {
    const kind = response.ok ? 'malformed' : kindFor(response.status, undefined);
    throw new ApiError({
      kind,
      httpStatus: response.status,
      retryAfterMs,
      msg:
        kind === 'malformed'
          ? 'The response is not a JSON envelope {code, msg, data}'
          : `${response.status} ${response.statusText}`.trim(),
    });
  }

  const { code, msg = '', data } = envelope.data;
  if (code !== 0 || !response.ok) {
    const kind = kindFor(response.status, code === 0 ? undefined : code);
    throw new ApiError({ kind, httpStatus: response.status, code, msg, retryAfterMs });
  }

  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `data.${issue.path.join('.')}` : 'data';
    throw new ApiError({
      kind: 'malformed',
      httpStatus: response.status,
      code,
      msg: `Unexpected response: ${where}: ${issue?.message ?? 'invalid'}`,
    });
  }
  return parsed.data;
}

// Forwards `/v1/*` to the real service and adds the bearer token on the Node side, so the token
// never reaches the browser. Only the documented endpoints (./proxy-routes.ts) and only the headers
// the service needs are passed either way.
import { Hono, type Context, type Handler, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { UPLOAD_PATH } from '../../src/api/upload';
import { formatMediaType, isJsonMediaType, parseMediaType } from '../http/media-type';
import { proxyRoute } from './proxy-routes';
import { creatorOf } from '../identity/creator';
import { UploadQuota, UploadRefused, type UploadRefusal } from '../http/upload-quota';
import { limitedUploadBody, sendUpload } from './upload-stream';
import { readAnswer, sendToService, upstreamOfResponse, type Upstream } from './upstream';
import { withAnswerBytes } from '../http/answer-bytes';

const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'accept-language'];
/** Content-Type is not among them: it is written again from its parsed form. */
const FORWARDED_RESPONSE_HEADERS = ['retry-after', 'cache-control'];
const TIMEOUT_MS = 60_000;
/** Far above any body of the interface (a 1000-character prompt and five URLs). */
export const MAX_PROXY_BODY_BYTES = 1024 * 1024;
/** `UPLOAD_MAX_MB` when the caller does not say (server/config/config.ts reads the variable). */
const DEFAULT_UPLOAD_MAX_BYTES = 500 * 1024 * 1024;

interface ProxyOptions {
  apiBaseUrl: string;
  apiToken: string | undefined;
  /** Largest multipart body POSTed to the upload path (`UPLOAD_MAX_MB`); JSON keeps 1 MB. */
  uploadMaxBytes?: number;
  /**
   * Sends every request (tests); by default undici's request() on one keep-alive agent
   * (upstream.ts), and for uploads the streaming sender of upload-stream.ts.
   */
  fetchImpl?: (url: string, init: RequestInit) => Promise<Response>;
  /** What one person may upload per day (`UPLOAD_QUOTA_MB_PER_DAY`); 2048 MB when unset. */
  uploadQuota?: UploadQuota;
}

/** The one path that takes a file: multipart, streamed, up to `UPLOAD_MAX_MB`. */
const isUpload = (c: Context) => c.req.method === 'POST' && c.req.path === UPLOAD_PATH;
const tooLarge = () => fail(413, 'The request body is too large');
/** An upload past its person's daily allowance: the form shows `msg` beside the field. */
const quotaFail = (refusal: UploadRefusal) => {
  const response = fail(refusal.status, refusal.message);
  if (refusal.retryAfterSeconds) response.headers.set('retry-after', String(refusal.retryAfterSeconds));
  return response;
};

/** The service's own envelope, for answers the console makes; Retry-After survives from upstream. */
const fail = (status: number, msg: string, upstreamHeader?: (name: string) => string | undefined) => {
  const headers = new Headers({ 'content-type': 'application/json' });
  const retryAfter = upstreamHeader?.('retry-after');
  if (retryAfter) headers.set('retry-after', retryAfter);
  return new Response(JSON.stringify({ code: status, msg }), { status, headers });
};

/** The service could not be asked, or stopped answering. */
const unreachable = (error: unknown) =>
  error instanceof Error && error.name === 'TimeoutError'
    ? fail(504, `The service did not answer within ${TIMEOUT_MS / 1000} seconds`)
    : fail(502, 'The console server could not reach the service');

/**
 * The proxy spends the token's credit for whoever can reach it, so a page on another site must not
 * be able to drive it through the user's browser (a cross-site form can POST a JSON-looking
 * text/plain body without any CORS preflight). Browsers say where a request comes from in
 * Sec-Fetch-Site; requests without it (curl, scripts, old browsers) are judged by the content type.
 */
function refusal(c: Context, hasBody: boolean, uploadMaxBytes: number): Response | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') {
    return fail(403, 'Requests to the service must come from this console itself');
  }
  // Stryker disable next-line StringLiteral: any text in its place is neither multipart nor JSON either
  const type = c.req.header('content-type') ?? '';
  const upload = isUpload(c);
  if (upload && parseMediaType(type)?.type !== 'multipart/form-data') {
    return fail(415, 'Uploads must be multipart/form-data with the file in the part "file"');
  }
  if (hasBody && !upload && !isJsonMediaType(type)) {
    return fail(415, 'Request bodies must be JSON (Content-Type: application/json)');
  }
  const length = Number(c.req.header('content-length') ?? 0);
  if (length > (upload ? uploadMaxBytes : MAX_PROXY_BODY_BYTES)) return tooLarge();
  return undefined;
}

/**
 * What `/v1/*` runs, in order: the body limit, then the handler that forwards. createProxyApp mounts
 * them; the Node side also runs them as they are for the status queries it answers in its caller's
 * context (server/app/node-app.ts, `statusQuery`).
 */
export function createProxyHandlers(options: ProxyOptions): [MiddlewareHandler, Handler] {
  // Content-Length can be absent (chunked) or wrong: bodyLimit counts the bytes as they stream and
  // stops reading the moment they pass the limit, so no body is ever held whole beyond it.
  // The upload path counts its own bytes while it streams (limitedUploadBody).
  const jsonLimit = bodyLimit({ maxSize: MAX_PROXY_BODY_BYTES, onError: tooLarge });
  const limit: MiddlewareHandler = (c, next) => {
    if (isUpload(c)) return next();
    // A GET has no body: asking Hono for one would build a whole WHATWG Request per status poll.
    // Stryker disable next-line all: bodyLimit passes a body-less request too; skipping it only saves that work
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return jsonLimit(c, next);
  };
  return [limit, createProxyHandler(options)];
}

/** `/v1/*` forwarded to the service: mount with `app.route('/', createProxyApp(…))`. */
export function createProxyApp(options: ProxyOptions, handlers = createProxyHandlers(options)): Hono {
  const app = new Hono();
  const [limit, forward] = handlers;
  app.use('/v1/*', limit);
  app.all('/v1/*', forward);
  return app;
}

function createProxyHandler({
  apiBaseUrl,
  apiToken,
  uploadMaxBytes = DEFAULT_UPLOAD_MAX_BYTES,
  fetchImpl,
  uploadQuota = new UploadQuota(),
}: ProxyOptions) {
  return async (c: Context): Promise<Response> => {
    const method = c.req.method;
    // The path as it arrived (still percent-encoded): `%2f` in a task id is a trick, not a slash.
    const incoming = new URL(c.req.url);
    const route = proxyRoute(method, incoming.pathname);
    if (!route.ok) {
      const refused = fail(route.status, route.status === 405 ? 'Method not allowed' : 'Not found');
      if (route.allow) refused.headers.set('allow', route.allow);
      return refused;
    }
    if (!apiToken) return fail(401, 'API_TOKEN is not set on the console server');
    // proxyRoute lets only GET (no body) and POST through.
    const hasBody = method !== 'GET';
    const refused = refusal(c, hasBody, uploadMaxBytes);
    if (refused) return refused;

    // No query string: none of the endpoints takes one, and nothing unchecked travels with the token.
    const target = `${apiBaseUrl}${route.path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${apiToken}` };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers[name] = value;
    }
    const upload = isUpload(c);
    // One provider document authenticates uploads with a `token:` header, the others with Bearer.
    if (upload) headers.token = apiToken;
    // The bytes count against the creator's day as they stream (server/http/upload-quota.ts); a declared
    // length that cannot fit is refused before anything is read (take() refuses it, charging nothing).
    const allowance = upload ? uploadQuota.open(creatorOf(c)?.id ?? null) : undefined;
    const declared = Number(c.req.header('content-length') ?? 0);
    const overQuota =
      allowance && declared > (await allowance.remaining()) ? await allowance.take(declared) : undefined;
    if (overQuota) return quotaFail(overQuota);
    const limited = upload ? await limitedUploadBody(c, uploadMaxBytes, allowance) : undefined;
    const body = limited ? undefined : hasBody ? new Uint8Array(await c.req.arrayBuffer()) : undefined;
    const send = fetchImpl ?? (limited ? sendUpload : undefined);

    let upstream: Upstream;
    try {
      // Never follow a redirect: the next hop would get the request (and its body) from us, and a
      // service answering 3xx to an API call is misconfigured, not something to chase.
      upstream = send
        ? upstreamOfResponse(
            await send(target, {
              method,
              headers,
              body: (limited ? limited.body : body) as BodyInit | undefined,
              redirect: 'manual',
              // A large file takes longer than an API call to send: an upload ends when the browser's does.
              signal: limited ? limited.signal : AbortSignal.timeout(TIMEOUT_MS),
              ...(limited && { duplex: 'half' }),
            } as RequestInit),
          )
        : await sendToService(target, { method, headers, body, timeoutMs: TIMEOUT_MS });
    } catch (error) {
      // Unpipes the socket, so the server drains or closes it instead of feeding a dead request.
      limited?.body.destroy();
      await allowance?.release();
      const stopped = limited?.exceeded();
      if (stopped instanceof UploadRefused) return quotaFail(stopped.refusal);
      if (stopped) return tooLarge();
      return unreachable(error);
    }
    // Below 200 is no final answer: undici and fetch never hand one over.
    const ok = upstream.status < 300;
    // Only an upload the service took keeps its bytes counted.
    await (ok ? allowance?.keep() : allowance?.release());
    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.discard();
      return fail(502, `The service answered with a redirect (HTTP ${upstream.status}); it was not followed`);
    }
    // The browser gets JSON from /v1, always: anything else (an HTML error page of a gateway, a
    // login page, a file, `application/json, text/html`) is replaced by the envelope, keeping the
    // HTTP status it came with. The media type is parsed, and must be exactly application/json.
    const type = parseMediaType(upstream.header('content-type'));
    if (type?.type !== 'application/json') {
      await upstream.discard();
      const status = ok ? 502 : upstream.status;
      return fail(status, `The service answered HTTP ${upstream.status} without JSON`, upstream.header);
    }
    const responseHeaders: Record<string, string> = { 'content-type': formatMediaType(type) };
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.header(name);
      if (value) responseHeaders[name] = value;
    }
    let answer: Awaited<ReturnType<typeof readAnswer>>;
    try {
      answer = await readAnswer(upstream);
    } catch (error) {
      return unreachable(error);
    }
    if ('stream' in answer)
      return new Response(answer.stream, { status: upstream.status, headers: responseHeaders });
    // These statuses carry no body, and Response refuses one for them (a 304 was answered as a 3xx above).
    const empty = upstream.status === 204 || upstream.status === 205;
    if (empty) return new Response(null, { status: upstream.status, headers: responseHeaders });
    responseHeaders['content-length'] = String(answer.bytes.byteLength);
    return withAnswerBytes(
      new Response(answer.bytes as Uint8Array<ArrayBuffer>, {
        status: upstream.status,
        headers: responseHeaders,
      }),
      answer.bytes,
    );
  };
}

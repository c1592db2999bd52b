// Forwards `/v1/*` to the real service and adds the bearer token on the Node side, so the token
// never reaches the browser. Only the headers the service needs are passed either way.
import type { Context } from 'hono';

const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'accept-language'];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'cache-control'];
const TIMEOUT_MS = 60_000;

export interface ProxyOptions {
  apiBaseUrl: string;
  apiToken: string | undefined;
  fetchImpl?: typeof fetch;
}

const envelope = (code: number, msg: string) => JSON.stringify({ code, msg });

export function createProxyHandler({ apiBaseUrl, apiToken, fetchImpl = fetch }: ProxyOptions) {
  return async (c: Context): Promise<Response> => {
    if (!apiToken) {
      return new Response(envelope(401, 'API_TOKEN is not set on the console server'), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    }
    const incoming = new URL(c.req.url);
    const target = `${apiBaseUrl}${incoming.pathname}${incoming.search}`;
    const headers = new Headers({ authorization: `Bearer ${apiToken}` });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    const method = c.req.method;
    const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.arrayBuffer();
    let upstream: Response;
    try {
      upstream = await fetchImpl(target, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      return new Response(envelope(502, 'The console server could not reach the service'), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    }
    const responseHeaders = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value) responseHeaders.set(name, value);
    }
    return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
  };
}

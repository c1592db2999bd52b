// The browser sends `callback_url: "console:inbox"` for "this console's inbox" (it never stores the
// address, which carries the inbox secret). Here, on the way to the service, the marker becomes the
// inbox's real address. Bodies are read only within the 1 MB every /v1 JSON body is held to.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CONSOLE_INBOX } from '../src/api/schemas';

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

const envelope = (c: Context, status: 400 | 413, code: number, msg: string) => c.json({ code, msg }, status);

export function consoleInboxMarker(inboxUrl: (c: Context) => string | null): MiddlewareHandler[] {
  const applies = (c: Context) =>
    c.req.method === 'POST' && /^application\/json\b/i.test(c.req.header('content-type') ?? '');
  return [
    async (c, next) => {
      if (!applies(c)) return next();
      return bodyLimit({
        maxSize: MAX_JSON_BODY_BYTES,
        onError: (ctx) => envelope(ctx, 413, 413, 'The request body is too large'),
      })(c, next);
    },
    async (c, next) => {
      if (!applies(c)) return next();
      // Read a copy: the original stream stays for whoever handles the request next.
      const text = await c.req.raw.clone().text();
      if (!text.includes(CONSOLE_INBOX)) return next();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return next(); // not JSON after all: the handler answers that in its own words
      }
      if (
        !body ||
        typeof body !== 'object' ||
        (body as { callback_url?: unknown }).callback_url !== CONSOLE_INBOX
      )
        return next();
      const url = inboxUrl(c);
      if (!url) {
        return envelope(
          c,
          400,
          100001,
          'callback_url: this console has no address the service can reach; set PUBLIC_BASE_URL or enter another callback URL',
        );
      }
      const rewritten = JSON.stringify({ ...body, callback_url: url });
      c.req.raw = new Request(c.req.raw, {
        body: rewritten,
        headers: c.req.raw.headers,
        duplex: 'half',
      } as RequestInit);
      c.req.raw.headers.delete('content-length');
      await next();
    },
  ];
}

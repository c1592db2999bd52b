// The browser sends `callback_url: "console:inbox"` for "this console's inbox" (it never learns the
// address, which carries the inbox secret). Here, on the way to the service, the marker becomes the
// inbox's real address. A callback_url that already names the inbox in any spelling (the secret
// percent-encoded, `/callbacks/%61…`, another case, a default port, a trailing slash, another host
// name for this console) is put back to the real address too: it would otherwise be stored as-is in
// the task's parameters, and the secret with it. Bodies are read only within the 1 MB every /v1
// JSON body is held to.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CONSOLE_INBOX } from '../../src/api/schemas';
import { jsonOfCopy } from '../http/json-copy';
import { isJsonMediaType } from '../http/media-type';

const MAX_JSON_BODY_BYTES = 1024 * 1024;

const envelope = (c: Context, status: 400 | 413, code: number, msg: string) => c.json({ code, msg }, status);

/** Percent-escapes of ASCII decoded, leniently (a malformed `%` stays), as often as they nest. */
function decodeAscii(text: string): string {
  for (let round = 0; round < 5; round++) {
    const next = text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    // Stryker disable next-line ConditionalExpression: stopping early only saves the rounds that would change nothing
    if (next === text) return text;
    text = next;
  }
  return text;
}

/**
 * Whether `url` names the inbox whose secret is `secret`, in any spelling: the secret is looked for
 * after percent-decoding (repeatedly) and without regard to case. The host does not matter: an
 * address carrying the secret must never be stored as it was typed, whoever it names.
 */
export function namesInbox(url: string, secret: string): boolean {
  return decodeAscii(url).toLowerCase().includes(secret.toLowerCase());
}

export function consoleInboxMarker(
  inboxUrl: (c: Context) => string | null,
  secret: string,
): MiddlewareHandler[] {
  const applies = (c: Context) => c.req.method === 'POST' && isJsonMediaType(c.req.header('content-type'));
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
      const body = await jsonOfCopy(c);
      // Not JSON after all (undefined): the handler answers that in its own words.
      // Only an object can carry a string callback_url (JSON gives an array or a primitive none).
      const given = (body as { callback_url?: unknown } | null | undefined)?.callback_url;
      if (typeof given !== 'string' || (given !== CONSOLE_INBOX && !namesInbox(given, secret))) return next();
      const url = inboxUrl(c);
      if (!url) {
        return envelope(
          c,
          400,
          100001,
          'callback_url: this console has no address the service can reach; set PUBLIC_BASE_URL or enter another callback URL',
        );
      }
      const rewritten = JSON.stringify({ ...(body as object), callback_url: url });
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

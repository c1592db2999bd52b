// Middleware that looks at a JSON body before the handler (the limits' cost, the console inbox's
// callback address) reads a copy: the original stream stays for whoever handles the request next.
// Not c.req.json(): Hono would cache the parsed body, and the handlers inside would read the cache
// instead of a body a later middleware rewrites (the console inbox marker puts the real callback
// address in). Callers put a body limit in front.
import type { Context } from 'hono';

/** The request's body parsed as JSON, or undefined when it is not JSON; the request is untouched. */
export async function jsonOfCopy(c: Context): Promise<unknown> {
  const text = await c.req.raw.clone().text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON.
  }
  return undefined;
}

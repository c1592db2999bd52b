// The origin a browser used to reach the console. Behind a reverse proxy on the same machine the
// server sees http://127.0.0.1:PORT; the proxy says what the browser used in X-Forwarded-Proto and
// X-Forwarded-Host. Those headers are believed only from a loopback peer: anyone else could forge them.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

// The patterns are written where they are used: one made at load could not be told wrong by a test.
const isLoopback = (address: string) => /^(?:127\.|::1$|::ffff:127\.)/.test(address);
const isHostAndPort = (host: string) => /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host);

/** The address of the TCP peer, when the request came over a socket. */
export function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not over a socket (no Node request under it).
  }
  return undefined;
}

function fromLoopbackPeer(c: Context): boolean {
  const peer = peerAddress(c);
  // Stryker disable next-line ConditionalExpression: the pattern reads undefined as "undefined", which is no loopback address
  return peer !== undefined && isLoopback(peer);
}

/** A proxy may append to these headers; the first entry is what the client sent it. */
// Stryker disable next-line OptionalChaining: split always gives a first entry
const first = (value: string | undefined) => value?.split(',')[0]?.trim().toLowerCase() || undefined;

export function requestOrigin(c: Context): string {
  const url = new URL(c.req.url);
  if (!fromLoopbackPeer(c)) return url.origin;
  const proto = first(c.req.header('x-forwarded-proto'));
  const protocol = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
  const forwardedHost = first(c.req.header('x-forwarded-host'));
  const host = forwardedHost && isHostAndPort(forwardedHost) ? forwardedHost : url.host;
  return new URL(`${protocol}://${host}`).origin;
}

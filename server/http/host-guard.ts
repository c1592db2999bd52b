// DNS rebinding: a page on evil.example can make its own name resolve to 127.0.0.1 and then talk
// to a console on this machine as "same origin". The Host header still says evil.example, so only
// the names this console is known by are served: loopback names, HOST, PUBLIC_BASE_URL's host and
// ALLOWED_HOSTS. An IP address as Host is allowed too: rebinding needs a name the attacker owns.
import type { MiddlewareHandler } from 'hono';
import { isIP } from 'node:net';

interface HostGuardOptions {
  /** The address the server binds (HOST); 0.0.0.0 and :: name no host. */
  bindHost: string;
  publicBaseUrl: string | undefined;
  /** ALLOWED_HOSTS: exact names, or `.example.com` for that domain and every subdomain. */
  allowedHosts: readonly string[];
}

/** The host name of a Host header value, lower case, without port or IPv6 brackets. */
export function hostNameOf(header: string): string | undefined {
  // The URL parser lower-cases the name, and refuses an empty one.
  try {
    // Stryker disable next-line Regex: a host name holds brackets only around an IPv6 address, so only at its ends
    return new URL(`http://${header.trim()}`).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    // Not a host name the URL parser takes.
  }
  return undefined;
}

export function isAllowedHost(header: string | undefined, options: HostGuardOptions): boolean {
  const name = header ? hostNameOf(header) : undefined;
  if (!name) return false;
  if (isIP(name) || name === 'localhost' || name.endsWith('.localhost')) return true;
  // Only names: an IPv6 address (the one host in brackets) is answered above.
  const known = [
    options.bindHost,
    // Stryker disable next-line ArrayDeclaration: a made-up entry for no URL is never a host name, which has no spaces
    ...(options.publicBaseUrl ? [new URL(options.publicBaseUrl).hostname] : []),
  ].map((host) => host.toLowerCase());
  if (known.includes(name)) return true;
  return options.allowedHosts.some((allowed) => {
    const entry = allowed.toLowerCase();
    return entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry;
  });
}

export function hostGuard(options: HostGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    // @hono/node-server builds the request URL from the Host header, so the URL's host is the Host.
    if (!isAllowedHost(c.req.header('host') ?? new URL(c.req.url).host, options)) {
      return c.text(
        'This console does not answer to that host name. Add it to ALLOWED_HOSTS if it is yours.',
        421,
      );
    }
    await next();
  };
}

// Security headers on every response of the production server. The app needs no inline script and
// no inline style (React sets `style` props through the CSSOM, which CSP does not govern; Vite emits
// stylesheets as files), and zod runs jitless, so the policy can stay strict.
import type { MiddlewareHandler } from 'hono';

interface SecurityHeaderOptions {
  /** Origins media may come from besides this server: the service's host and MEDIA_ORIGINS. */
  mediaOrigins?: string[];
  /** Only when the public address is https: the header would lock out a plain-http deployment. */
  hsts?: boolean;
}

export function contentSecurityPolicy({ mediaOrigins = [] }: SecurityHeaderOptions = {}): string {
  const media = ["'self'", 'blob:', ...new Set(mediaOrigins)].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // data: for small previews the browser builds itself; blob: for local files before upload.
    `img-src ${media} data:`,
    `media-src ${media}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(options: SecurityHeaderOptions = {}): MiddlewareHandler {
  const csp = contentSecurityPolicy(options);
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    // Responses passed through from elsewhere (the proxy) may be immutable; copy them once.
    try {
      // Stryker disable next-line StringLiteral: only a probe for immutable headers (an empty name throws too); the header is set below
      headers.set('x-content-type-options', 'nosniff');
    } catch {
      c.res = new Response(c.res.body, c.res);
    }
    const h = c.res.headers;
    // A response with a policy of its own (the emulator's uploads and generated SVG images, files
    // anyone could open as a document: `default-src 'none'; sandbox`) keeps it, and gets the app's
    // as a second policy. A browser enforces every policy it is sent, so neither can loosen the other.
    const own = h.get('content-security-policy');
    h.set('content-security-policy', own ? `${own}, ${csp}` : csp);
    h.set('x-content-type-options', 'nosniff');
    // A page whose address is its key (a share link) sends no referrer at all; the rest send their origin.
    if (h.get('referrer-policy') !== 'no-referrer')
      h.set('referrer-policy', 'strict-origin-when-cross-origin');
    h.set('x-frame-options', 'DENY');
    h.set('cross-origin-opener-policy', 'same-origin');
    h.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (options.hsts) h.set('strict-transport-security', 'max-age=15552000');
    h.delete('x-powered-by');
  };
}

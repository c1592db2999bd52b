// One table of how large a request body may be, per route, enforced in one place before any route
// reads a body. Hono's bodyLimit counts the bytes as they stream and stops reading the
// moment they pass the limit, so a body is never held beyond it: what a body can cost the server is
// its route's limit times the requests in flight. A route that reads its body from the socket itself
// (the callback inbox, uploads streamed to disk or to the service) is marked `countedByRoute`: it
// counts its own bytes against the same figure, and the table still names it, so one test
// (server/app/body-limits.test.ts) can walk every route that takes a body and send it one byte too many.
//
// An unsafe request (POST, PUT, PATCH, DELETE) to a path the table does not name gets the small
// `fallbackBytes`: a route added later without an entry is bounded anyway, and the walking test
// fails until it has one.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PatternRouter } from 'hono/router/pattern-router';
import { isJsonMediaType } from './media-type';

export type BodyMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
// Built per call, like the check below: a list fixed at load could not be told from a wrong one by a test.
const bodyMethods = (): BodyMethod[] => ['POST', 'PUT', 'PATCH', 'DELETE'];
export const BODY_METHODS: readonly BodyMethod[] = bodyMethods();

export interface BodyLimitRule {
  method: BodyMethod;
  /** A Hono route pattern (`/__console/people/:id`, `/v1/*`). */
  path: string;
  maxBytes: number;
  /**
   * The route counts its bytes itself while they stream (and answers 413 past `maxBytes`); the
   * middleware leaves the body untouched, so it can be read from the socket directly.
   */
  countedByRoute?: boolean;
  /** A body must be `application/json` (415 otherwise): no HTML form can send that cross-site. */
  json?: boolean;
}

export interface BodyLimitOptions {
  /** Unsafe requests to a path the table does not name: at most this many bytes. */
  fallbackBytes: number;
  /** The 413 (and 415) answer; `{code, msg}` JSON by default. */
  refuse?: (c: Context, status: 413 | 415, msg: string) => Response;
}

export interface BodyLimits {
  middleware: MiddlewareHandler;
  /** The rule for a request (the first that matches), or undefined when the fallback applies. */
  ruleFor(method: string, path: string): BodyLimitRule | undefined;
  /** The limit a request gets: its rule's, else the fallback. */
  limitFor(method: string, path: string): number;
}

const isBodyMethod = (method: string): method is BodyMethod => (bodyMethods() as string[]).includes(method);

/** `1 MB`, `16 KB`, `300 bytes`: for the 413's message. */
export function formatBytes(bytes: number): string {
  if (bytes > 0 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

const defaultRefuse = (c: Context, status: 413 | 415, msg: string) =>
  c.json({ code: status, msg }, status, {
    'cache-control': 'no-store',
    // The rest of a refused body is not worth reading: the connection closes instead of draining it.
    ...(status === 413 && { connection: 'close' }),
  });

export function createBodyLimits(rules: readonly BodyLimitRule[], options: BodyLimitOptions): BodyLimits {
  const router = new PatternRouter<BodyLimitRule>();
  for (const rule of rules) router.add(rule.method, rule.path, rule);
  const refuse = options.refuse ?? defaultRefuse;
  const ruleFor = (method: string, path: string) => router.match(method, path)[0][0]?.[0];
  const limitFor = (method: string, path: string) => ruleFor(method, path)?.maxBytes ?? options.fallbackBytes;

  // One bodyLimit per distinct size, made once.
  const limiters = new Map<number, MiddlewareHandler>();
  const limiterOf = (maxBytes: number) => {
    let limiter = limiters.get(maxBytes);
    // Stryker disable next-line ConditionalExpression: a new limiter each time limits the same; the map only saves making them
    if (!limiter) {
      const msg = `The request body is too large: at most ${formatBytes(maxBytes)} here`;
      limiter = bodyLimit({ maxSize: maxBytes, onError: (c) => refuse(c, 413, msg) });
      limiters.set(maxBytes, limiter);
    }
    return limiter;
  };

  const middleware: MiddlewareHandler = async (c, next) => {
    // Reads (status polls, most of the traffic) never touch the body.
    const method = c.req.method;
    // Stryker disable next-line ConditionalExpression: a read has no body, which bodyLimit lets through as well
    if (!isBodyMethod(method)) return next();
    const rule = ruleFor(method, c.req.path);
    const maxBytes = rule?.maxBytes ?? options.fallbackBytes;
    // The route counts (and refuses a declared length past its limit) itself: untouched here.
    if (rule?.countedByRoute) return next();
    if (rule?.json && hasBody(c) && !isJsonMediaType(c.req.header('content-type')))
      return refuse(c, 415, 'The request body must be JSON (Content-Type: application/json)');
    return limiterOf(maxBytes)(c, next);
  };

  return { middleware, ruleFor, limitFor };
}

/** A body is coming: a length above zero, or a body without a length (sent in chunks). */
function hasBody(c: Context): boolean {
  const length = c.req.header('content-length');
  if (length !== undefined) return Number(length) > 0;
  return c.req.raw.body !== null;
}

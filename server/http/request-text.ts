// User text on its way into SQL. PostgreSQL refuses a NUL character in text (`invalid byte
// sequence for encoding "UTF8": 0x00`, also in jsonb as \u0000), and half of a surrogate pair is
// not Unicode at all. Sent on, such text makes the database answer with an error: a 500, with
// Hono's default handler printing the error and its stack. One check in front of the routes that
// query with what they were sent, and one error handler behind them, so no route needs its own.
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why the database cannot store `text`, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (NUL.test(text)) return 'contains a NUL character (%00)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text';
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding stays as sent (a parsed URL's path is ASCII): storable text.
  }
  return segment;
}

/** The first query value or path segment the database could not store, named for the message. */
function firstUnstorable(c: Context): { name: string; why: string } | undefined {
  const url = new URL(c.req.url);
  for (const [name, value] of url.searchParams) {
    const why = unstorableText(name) ?? unstorableText(value);
    if (why) return { name, why };
  }
  for (const segment of url.pathname.split('/')) {
    const why = unstorableText(decodeSegment(segment));
    if (why) return { name: 'the address', why };
  }
  return undefined;
}

/**
 * Answers 400 (`{code: 400, msg}`) when a query value or a path segment (a task id) holds text the
 * database cannot store; mount it before every route that queries with what it was sent.
 */
export function refuseUnstorableText(): MiddlewareHandler {
  return async (c, next) => {
    const found = firstUnstorable(c);
    if (!found) return next();
    return c.json({ code: 400, msg: `${found.name} ${found.why}: the console cannot look that up` }, 400, {
      'cache-control': 'no-store',
    });
  };
}

/**
 * SQLSTATE class 22 is "data exception": the values sent were wrong (bad encoding, out of range,
 * invalid text representation), not the database. Both drivers (pg and PGlite) give the code.
 */
function databaseInputErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) ? code : undefined;
}

/**
 * The error handler of the sub-apps that query with what they were sent: a database error caused
 * by the input (one the check above did not foresee) is a 400 and one log line without a stack;
 * anything else is the 500 it was, logged as before.
 */
export function databaseInputErrors(area: string): ErrorHandler {
  return (error, c) => {
    const code = databaseInputErrorCode(error);
    if (code) {
      // The route's pattern, not the path: the path holds the text that was refused.
      console.warn(
        `[${area}] refused ${c.req.method} ${c.req.routePath}: the database cannot use the input (SQLSTATE ${code})`,
      );
      return c.json({ code: 400, msg: 'The request holds text the console cannot look up' }, 400, {
        'cache-control': 'no-store',
      });
    }
    // As Hono's own handler does.
    if (error instanceof HTTPException) return error.getResponse();
    console.error(error);
    return c.json({ code: 500, msg: 'Internal Server Error' }, 500);
  };
}

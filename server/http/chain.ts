// Middleware run in order in a context that already exists, as Hono's own dispatch runs a route's
// handlers (a handler's returned response becomes `c.res` unless one was already set; an error
// propagates to the caller's app). The Node side answers its GET /v1 queries this way inside the
// production app's context (server/app/node-app.ts): the same handlers, without a second app's
// routing, context and middleware chain per status poll.
import type { Context, MiddlewareHandler } from 'hono';

export interface Chain {
  (c: Context): Promise<Response>;
  /** The handlers, in the order they run. */
  readonly handlers: readonly MiddlewareHandler[];
}

export function chain(handlers: readonly MiddlewareHandler[]): Chain {
  const run = async (c: Context): Promise<Response> => {
    let index = -1;
    const step = async (i: number): Promise<void> => {
      if (i <= index) throw new Error('next() called multiple times');
      index = i;
      const handler = handlers[i];
      if (!handler) return;
      const res = await handler(c, () => step(i + 1));
      if (res && !c.finalized) c.res = res;
    };
    await step(0);
    return c.res;
  };
  return Object.assign(run, { handlers });
}

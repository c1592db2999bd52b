// Handlers run in order inside a context that already exists, as Hono's dispatch would run them.
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { chain } from './chain';

/** Runs `handlers` as a chain inside a request of a plain Hono app; what the app answered. */
async function run(handlers: MiddlewareHandler[]) {
  const app = new Hono();
  app.get('/', (c) => chain(handlers)(c));
  return app.request('/');
}

describe('chain', () => {
  it('runs the handlers in order, and the answer of the one that answers is the result', async () => {
    const ran: string[] = [];
    const handlers: MiddlewareHandler[] = [
      async (_c, next) => {
        ran.push('first');
        await next();
        ran.push('first again');
      },
      async (c) => {
        ran.push('second');
        return c.text('from the second', 201);
      },
      async () => void ran.push('never'),
    ];
    const answer = await run(handlers);
    expect(answer.status).toBe(201);
    expect(await answer.text()).toBe('from the second');
    expect(ran).toEqual(['first', 'second', 'first again']);
    expect(chain(handlers).handlers).toBe(handlers);
  });

  it('keeps an answer already set on the context over a returned one, and passes past the last handler', async () => {
    const kept = await run([
      async (c, next) => {
        await next();
        return c.text('returned later', 500);
      },
      async (c) => {
        c.res = c.text('set first', 202);
        return c.res;
      },
    ]);
    // Once an answer is set the context is finalized: a response returned after it is not used.
    expect(kept.status).toBe(202);
    expect(await kept.text()).toBe('set first');
    // Past the last handler there is nothing more to run: the context's empty answer stands.
    const passed = await run([async (_c, next) => next()]);
    expect([passed.status, await passed.text()]).toEqual([200, '']);
    // A handler that answers nothing leaves the answer open for the one before it.
    const outer = await run([
      async (c, next) => {
        await next();
        return c.text('from the first', 203);
      },
      async (_c, next) => void (await next()),
    ]);
    expect(outer.status).toBe(203);
  });

  it('refuses next() called twice', async () => {
    const app = new Hono();
    let error: unknown;
    app.get('/', async (c) => {
      try {
        return await chain([
          async (_c, next) => {
            await next();
            await next();
          },
          async (c2) => c2.text('once'),
        ])(c);
      } catch (caught) {
        error = caught;
        return c.text('refused', 500);
      }
    });
    await app.request('/');
    expect(error).toEqual(new Error('next() called multiple times'));
  });
});

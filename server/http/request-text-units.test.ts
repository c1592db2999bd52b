// The NUL check and the database error handler on a bare Hono app (no database, no Node side): the
// refusal's words and headers, which codes count as the input's fault, and what passes on as it was.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseInputErrors, refuseUnstorableText } from './request-text';

let logged: unknown[][];
beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => logged.push(args));
  vi.spyOn(console, 'warn').mockImplementation((...args) => logged.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the check in front of the routes, in-process', () => {
  const app = new Hono().use(refuseUnstorableText()).get('*', (c) => c.text('looked up'));

  // Half a surrogate pair cannot arrive through an address: the URL parser decodes its bytes as UTF-8.
  it('refuses a NUL in a query name, a value or a segment, never cached', async () => {
    const cases: [string, string][] = [
      ['/find?%00=1', '\u0000 contains a NUL character (%00)'],
      ['/find?q=a%00', 'q contains a NUL character (%00)'],
      ['/tasks/%00', 'the address contains a NUL character (%00)'],
    ];
    for (const [path, why] of cases) {
      const res = await app.request(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(await res.json(), path).toEqual({ code: 400, msg: `${why}: the console cannot look that up` });
    }
    expect(await (await app.request('/tasks/%E0%A4%A?q=ok')).text()).toBe('looked up');
  });
});

describe('databaseInputErrors, error by error', () => {
  /** A route that hands `error` straight to the handler (Hono passes only Errors to onError). */
  function answerTo(error: unknown) {
    const handle = databaseInputErrors('test');
    return new Hono().get('/lookup', (c) => handle(error as Error, c)).request('/lookup');
  }

  it("takes only a five-character code of class 22 as the input's fault, never cached", async () => {
    const refused = await answerTo({ code: '2200Z' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    for (const code of ['122021', '220210', '23505', 22021, undefined])
      expect((await answerTo({ code })).status, String(code)).toBe(500);
    const nothing = await answerTo(null);
    expect(nothing.status).toBe(500);
    expect(await nothing.json()).toEqual({ code: 500, msg: 'Internal Server Error' });
  });

  it('answers an HTTPException with its own response', async () => {
    const res = await answerTo(new HTTPException(418, { message: 'a teapot' }));
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('a teapot');
    expect(logged).toEqual([]);
  });
});

// Bodies checked by zod schemas through @hono/zod-validator: a bad one is answered 400
// with `{code: 400, msg}` like every console route, a body that is not JSON gets the schema's reason,
// and the body is read only after the body limit has bounded it.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/api/zod';
import { createBodyLimits } from './body-limits';
import { firstIssueAtPath, firstIssueMessage, validJson } from './valid-input';

const LIMIT = 32;
const note = z.object(
  { text: z.string('text is required').check(z.maxLength(5, 'text is at most 5 characters')) },
  'Send {"text"}',
);

function app() {
  const limits = createBodyLimits([{ method: 'POST', path: '/notes', maxBytes: LIMIT, json: true }], {
    fallbackBytes: 64,
  });
  return new Hono()
    .use(limits.middleware)
    .post('/notes', validJson(note, firstIssueMessage('unused')), (c) => c.json({ got: c.req.valid('json') }))
    .post('/strict', validJson(note, firstIssueAtPath), () => {
      throw new HTTPException(400, { message: 'thrown by the route' });
    });
}

const post = (path: string, body: string) =>
  app().request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('checked JSON bodies', () => {
  it('hands the route the checked body', async () => {
    const answer = await post('/notes', JSON.stringify({ text: 'hello', extra: 1 }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ got: { text: 'hello' } });
  });

  it('answers a broken rule 400 with the reason, never cached', async () => {
    const answer = await post('/notes', JSON.stringify({ text: 'hello!' }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ code: 400, msg: 'text is at most 5 characters' });
    expect(await (await post('/strict', '{}')).json()).toEqual({ code: 400, msg: 'text: text is required' });
  });

  it('judges a body that is not JSON as no body: the same 400 and the reason', async () => {
    for (const body of ['{not json', ''])
      expect(await (await post('/notes', body)).json(), body).toEqual({ code: 400, msg: 'Send {"text"}' });
  });

  it("leaves the route's own errors as they are", async () => {
    const answer = await post('/strict', JSON.stringify({ text: 'ok' }));
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe('thrown by the route');
  });

  it('reads the body only once the limit has passed it: at the limit checked, one byte past 413', async () => {
    const at = JSON.stringify({ text: 'x'.repeat(LIMIT - 11) });
    expect(at.length).toBe(LIMIT);
    expect((await post('/notes', at)).status).toBe(400);
    const past = JSON.stringify({ text: 'x'.repeat(LIMIT - 10) });
    const refused = await post('/notes', past);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { msg: string }).msg).toMatch(/too large/);
  });

  it('passes on any other error a check throws: a plain one as a 500, another status as it is', async () => {
    const touchy = z.object({ text: z.string() }).check(
      z.refine((body) => {
        if (body.text === 'crash') throw new Error('the check itself failed');
        if (body.text === 'forbidden') throw new HTTPException(403, { message: 'not yours' });
        return true;
      }),
    );
    const touchyApp = new Hono()
      .post('/touchy', validJson(touchy, firstIssueAtPath), (c) => c.text('ok'))
      .onError((error, c) =>
        error instanceof HTTPException ? error.getResponse() : c.text(error.message, 500),
      );
    const send = (text: string) =>
      touchyApp.request('/touchy', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    expect((await send('fine')).status).toBe(200);
    const crashed = await send('crash');
    expect(crashed.status).toBe(500);
    expect(await crashed.text()).toBe('the check itself failed');
    const forbidden = await send('forbidden');
    expect(forbidden.status).toBe(403);
    expect(await forbidden.text()).toBe('not yours');
  });
});

describe('the reasons drawn from the issues', () => {
  const issue = (path: PropertyKey[], message: string) =>
    ({ code: 'custom', input: 0, path, message }) as const;

  it("gives the first issue's message, or the fallback when there is none", () => {
    expect(firstIssueMessage('fallback')([issue([], 'first'), issue([], 'second')])).toBe('first');
    expect(firstIssueMessage('fallback')([])).toBe('fallback');
  });

  it('joins the path with dots, names the body when the path is empty, and says invalid with no issue', () => {
    expect(firstIssueAtPath([issue(['items', 2, 'name'], 'too long'), issue(['x'], 'later')])).toBe(
      'items.2.name: too long',
    );
    expect(firstIssueAtPath([issue([], 'expected an object')])).toBe('body: expected an object');
    expect(firstIssueAtPath([])).toBe('body: invalid');
  });
});

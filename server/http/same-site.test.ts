// The cross-site rule on its own: which requests from another site are refused, and which pass.
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { fromAnotherSite, isCallbackInbox, sameSiteOnly } from './same-site';

const app = new Hono();
app.use(sameSiteOnly({ exempt: isCallbackInbox, everyMethodUnder: '/v1/' }));
app.all('*', (c) => c.text('through'));
const plain = new Hono();
plain.use(sameSiteOnly());
plain.all('*', (c) => c.text('through'));

const ask = (target: Hono, method: string, path: string, site?: string) =>
  target.request(path, { method, headers: site ? { 'sec-fetch-site': site } : {} });

describe('sameSiteOnly', () => {
  it('refuses a change from another site or another origin of the same site, with a reason', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const refused = await ask(app, 'POST', '/api/boards', site);
      expect(refused.status, site).toBe(403);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(await refused.json()).toEqual({
        code: 403,
        msg: 'Changes, and any request to the service, can be made only from this console itself, not from another site',
      });
    }
    expect((await ask(plain, 'DELETE', '/api/boards/1', 'cross-site')).status).toBe(403);
  });

  it('lets through the same origin, a typed-in address, a request without the header, and a safe method', async () => {
    for (const site of ['same-origin', 'none', undefined])
      expect((await ask(app, 'POST', '/api/boards', site)).status, String(site)).toBe(200);
    for (const method of ['GET', 'OPTIONS'])
      expect((await ask(app, method, '/api/boards', 'cross-site')).status, method).toBe(200);
    // HEAD straight to the middleware: Hono answers a HEAD by wrapping the GET's Response, which
    // fails in a worker where @hono/node-server has replaced the global Response.
    const head = {
      req: { method: 'HEAD', path: '/api/boards', header: () => 'cross-site' },
    } as unknown as Context;
    let passed = false;
    await sameSiteOnly()(head, async () => void (passed = true));
    expect(passed).toBe(true);
    expect((await ask(plain, 'GET', '/v1/anything', 'cross-site')).status).toBe(200);
  });

  it('refuses every method under the service path, and exempts the callback inbox', async () => {
    expect((await ask(app, 'GET', '/v1/tasks/1', 'cross-site')).status).toBe(403);
    expect((await ask(app, 'GET', '/v1x', 'cross-site')).status).toBe(200);
    expect((await ask(app, 'POST', '/callbacks/secret', 'cross-site')).status).toBe(200);
    expect((await ask(app, 'POST', '/callbacks', 'cross-site')).status).toBe(403);
  });
});

describe('fromAnotherSite', () => {
  it('reads Sec-Fetch-Site', async () => {
    const seen = new Hono().get('/', (c) => c.json(fromAnotherSite(c)));
    const site = async (value?: string) =>
      (await seen.request('/', { headers: value === undefined ? {} : { 'sec-fetch-site': value } })).json();
    expect(await site('cross-site')).toBe(true);
    expect(await site('same-origin')).toBe(false);
    expect(await site('none')).toBe(false);
    expect(await site('')).toBe(false);
    expect(await site()).toBe(false);
  });
});

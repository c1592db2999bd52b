// A session ends 7 days after the sign-in: the server refuses its cookie from that moment on, even
// though the browser would still send it (a copied cookie, a clock-skewed browser).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createAuth } from './auth';
import { createIdentityStore } from '../identity/store';
import { testDatabase } from '../testing/database';

const PASSWORD = 'correct horse battery';
const WEEK_MS = 7 * 24 * 3600 * 1000;

function appAt(clock: { now: number }) {
  const auth = createAuth({
    store: createIdentityStore(testDatabase(), () => clock.now),
    password: PASSWORD,
    sessionSecret: 'expiry-test-secret-0123',
    now: () => clock.now,
  });
  const app = new Hono();
  app.route('/', auth.routes);
  app.use('*', auth.guard);
  app.get('/__console/private', (c) => c.text('inside'));
  return app;
}

async function signIn(app: Hono): Promise<string> {
  const res = await app.request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: PASSWORD, next: '/' }).toString(),
  });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

describe('session expiry', () => {
  it('lets a session in until its last millisecond and refuses it from its end on', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const app = appAt(clock);
    const cookie = await signIn(app);
    const ask = () => app.request('/__console/private', { headers: { cookie } });

    clock.now += WEEK_MS - 1;
    expect((await ask()).status).toBe(200);
    clock.now += 1;
    expect((await ask()).status).toBe(401);
    clock.now += WEEK_MS;
    expect((await ask()).status).toBe(401);
  });
});

// `q=%00`, `creator=%00` and `/__console/tasks/%00` answered 500 with the database's error
// and its stack in the log. Attacked through the whole Node side, as a signed-in browser reaches it.
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseInputErrors, unstorableText } from './request-text';
import { useTestNodeApp } from '../testing/test-node-app';

const server = useTestNodeApp('request-text');
const SECRET = server.secret;
let logged: string[];

beforeEach(() => {
  logged = [];
  const keep = (...args: unknown[]) => {
    logged.push(
      args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '),
    );
  };
  vi.spyOn(console, 'error').mockImplementation(keep);
  vi.spyOn(console, 'warn').mockImplementation(keep);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const get = (path: string) => server.request(path);

/** No log line holds a stack ("    at …") or the database's own words. */
function expectNoStackLogged() {
  for (const line of logged) {
    expect(line).not.toMatch(/\n\s+at /);
    expect(line).not.toMatch(/invalid byte sequence|0x00/);
  }
}

describe('NUL in what the Tasks screen and the callback log look up', () => {
  it.each([
    ['/__console/tasks?q=%00', 'q'],
    ['/__console/tasks?q=lighthouse%00', 'q'],
    ['/__console/tasks?creator=%00', 'creator'],
    ['/__console/tasks?tab=failed&creator=Ana%00', 'creator'],
    ['/__console/tasks?cursor=1767225600000.%00', 'cursor'],
    ['/__console/tasks/%00', 'the address'],
    ['/__console/tasks/task%00id', 'the address'],
    [`/callbacks/${SECRET}/log?task=%00`, 'task'],
  ])('%s answers 400 naming %s, and logs no stack', async (path, name) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).toBe(400);
    expect(body.msg).toBe(`${name} contains a NUL character (%00): the console cannot look that up`);
    expectNoStackLogged();
  });

  it('takes the character one past NUL (U+0001) and other unusual text as a plain search', async () => {
    for (const path of [
      '/__console/tasks?q=%01',
      '/__console/tasks?creator=%01',
      '/__console/tasks?q=%25%5C_%27',
      `/callbacks/${SECRET}/log?task=%01`,
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
    expect((await get('/__console/tasks/%01')).status).toBe(404);
    expect((await get('/__console/tasks/%E0%A4%A')).status).toBe(404); // malformed %-encoding: no such task
    expectNoStackLogged();
  });
});

describe('a database error caused by the input', () => {
  it('is a 400 with one log line and no stack; any other error stays a 500', async () => {
    // What PostgreSQL and PGlite say of a NUL (SQLSTATE 22021), as a route that forgot the check
    // in front would meet it.
    const refusal = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    const app = new Hono();
    app.onError(databaseInputErrors('test'));
    app.get('/lookup', () => {
      throw refusal;
    });
    app.get('/broken', () => {
      throw Object.assign(new Error('connection terminated'), { code: '57P01' });
    });
    const res = await app.request('/lookup');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, msg: 'The request holds text the console cannot look up' });
    expect(logged).toEqual([
      '[test] refused GET /lookup: the database cannot use the input (SQLSTATE 22021)',
    ]);
    expectNoStackLogged();
    // Not the input's fault: the 500 it was, logged in full.
    expect((await app.request('/broken')).status).toBe(500);
    expect(logged[1]).toMatch(/connection terminated\n.*\n\s+at /);
  });
});

describe('unstorableText', () => {
  it('refuses NUL and half a surrogate pair, nothing else', () => {
    expect(unstorableText('a\u0000')).toMatch(/NUL/);
    expect(unstorableText('\ud800')).toMatch(/Unicode/);
    expect(unstorableText('x\udc00')).toMatch(/Unicode/);
    for (const fine of ['', '\u0001', '\u007f', 'Zoë 東京', '👩‍💻', '%00'])
      expect(unstorableText(fine), JSON.stringify(fine)).toBeUndefined();
  });
});

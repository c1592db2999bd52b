import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isJsonContentType, readJsonBody } from './json-body';

describe('isJsonContentType', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'])(
    'accepts %s',
    (type) => {
      expect(isJsonContentType(type)).toBe(true);
    },
  );
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/jsonp',
    '',
    undefined,
  ])('refuses %s', (type) => {
    expect(isJsonContentType(type)).toBe(false);
  });
});

describe('readJsonBody', () => {
  const app = new Hono().post('/', async (c) => {
    const read = await readJsonBody(c);
    return read.ok ? c.json({ parsed: read.body }) : read.response;
  });
  const post = (body: string, type = 'application/json') =>
    app.request('/', { method: 'POST', headers: { 'content-type': type }, body });

  it('parses any JSON value', async () => {
    expect(await (await post('{"a":[1,2]}')).json()).toEqual({ parsed: { a: [1, 2] } });
    expect(await (await post('null')).json()).toEqual({ parsed: null });
  });

  it('answers 400/100001 for a form body and for broken JSON', async () => {
    const form = await post('a=1', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({
      code: 100001,
      msg: 'body: Content-Type must be application/json, current: application/x-www-form-urlencoded',
    });
    const broken = await post('{"a":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { msg: string }).msg).toMatch(/^body: must be valid JSON: /);
  });
});

// Content-Type read by parsing, and a JSON body looked at through a copy.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answerBytes, withAnswerBytes } from './answer-bytes';
import { jsonOfCopy } from './json-copy';
import { formatMediaType, isJsonMediaType, parseMediaType } from './media-type';

describe('media types', () => {
  it('parses exactly one media type, lower-cased, and nothing else', () => {
    expect(parseMediaType('Application/JSON; charset=utf-8')).toEqual({
      type: 'application/json',
      parameters: { charset: 'utf-8' },
    });
    for (const header of [undefined, null, '', 'application/json, text/html', 'json'])
      expect(parseMediaType(header), String(header)).toBeUndefined();
    expect(isJsonMediaType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('application/json, text/html')).toBe(false);
    expect(isJsonMediaType('text/plain')).toBe(false);
    expect(isJsonMediaType(undefined)).toBe(false);
    expect(formatMediaType({ type: 'multipart/form-data', parameters: { boundary: 'x y' } })).toBe(
      'multipart/form-data; boundary="x y"',
    );
  });
});

describe('jsonOfCopy', () => {
  it('reads the body as JSON from a copy, leaving the request to read again; undefined when not JSON', async () => {
    const app = new Hono();
    app.post('/', async (c) =>
      c.json({ copy: (await jsonOfCopy(c)) ?? 'none', original: await c.req.text() }),
    );
    const send = async (body: string) => (await app.request('/', { method: 'POST', body })).json();
    expect(await send('{"a":1}')).toEqual({ copy: { a: 1 }, original: '{"a":1}' });
    expect(await send('{not json')).toEqual({ copy: 'none', original: '{not json' });
  });
});

describe('answer bytes', () => {
  it('remembers the bytes of a response made from them, and only of that one', () => {
    const bytes = new TextEncoder().encode('{"code":0}');
    const response = withAnswerBytes(new Response(bytes), bytes);
    expect(answerBytes(response)).toBe(bytes);
    expect(answerBytes(new Response(bytes))).toBeUndefined();
  });
});

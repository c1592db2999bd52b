// A request's fields as the record keeps them (./request-fields.ts): every credential-like key left
// out at any depth, the title chosen from prompt, name and file, a task's title from its row. Pure.
import { describe, expect, it } from 'vitest';
import { publicParams, requestIdOf, requestTitle, taskTitle } from './request-fields';

describe("a request's public params", () => {
  it.each([
    'token',
    'refresh_token',
    'client_secret',
    'password',
    'db_passwd',
    'apikey',
    'api_key',
    'API_KEY',
    'x-auth',
    'Authorization',
    'credentials',
    'webhook_signature',
  ])('leave out %s', (key) => {
    expect(publicParams({ prompt: 'p', [key]: 'v' })).toEqual({ prompt: 'p' });
  });

  it('keep keys that only come near a credential word, and keep every value that is not an object', () => {
    const kept = {
      api: 'a',
      key: 'k',
      api__key: 'two underscores',
      pass: 'p',
      callback: 'c',
      callback_urls: ['c'],
      count: 0,
      off: false,
      none: null,
      text: '',
    };
    expect(publicParams(kept)).toEqual(kept);
  });

  it('leave out callback_url and credentials inside objects and arrays, and keep arrays of values', () => {
    expect(
      publicParams({
        callback_url: 'https://x/cb',
        files: [{ name: 'a.mp4', token: 't' }, 'plain', 3],
        nested: { deeper: { callback_url: 'u', secret: 's', keep: [1, 2] } },
      }),
    ).toEqual({
      files: [{ name: 'a.mp4' }, 'plain', 3],
      nested: { deeper: { keep: [1, 2] } },
    });
  });
});

describe("a request's title", () => {
  it('is the prompt, else the name, else the first file name; text of only spaces counts as none', () => {
    const file = (name: string) => ({ field: 'video_url', url: 'u', name });
    expect(requestTitle({ prompt: 'a fox', name: 'n', files: [file('f.mp4')] })).toBe('a fox');
    expect(requestTitle({ prompt: ' \t', name: 'n' })).toBe('n');
    expect(requestTitle({ prompt: 42, name: ' ', files: [file('f.mp4'), file('g.mp4')] })).toBe('f.mp4');
    expect(requestTitle({ files: [file('  ')] })).toBeNull();
    expect(requestTitle({ files: [] })).toBeNull();
    expect(requestTitle({ files: null })).toBeNull();
    // Kept as typed: only a title of nothing but spaces is left out, not spaces around one.
    expect(requestTitle({ prompt: ' a fox ' })).toBe(' a fox ');
  });

  it("of a task is its request's name from the params before the name its answer gave", () => {
    const row = { prompt: null, name: 'Japanese-All-hands recap', files: null };
    expect(taskTitle({ ...row, params: { name: 'All-hands recap' } })).toBe('All-hands recap');
    expect(taskTitle({ ...row, params: { name: '  ' } })).toBe('Japanese-All-hands recap');
    expect(taskTitle({ ...row, params: null })).toBe('Japanese-All-hands recap');
    expect(taskTitle({ ...row, prompt: 'a fox', params: { name: 'All-hands recap' } })).toBe('a fox');
  });

  it("is named by the first task's id", () => {
    expect(requestIdOf('t-1')).toBe('req-t-1');
  });
});

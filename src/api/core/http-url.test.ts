import { describe, expect, it } from 'vitest';
import { isHttpUrl } from './http-url';
import { httpUrl } from '@/api/schemas';

const ACCEPTED = [
  'http://a.test/cb',
  'https://a.test/cb',
  'HTTPS://A.TEST/x?y=1#z',
  'http://127.0.0.1:8080/p',
];
const REFUSED = [
  'ftp://a.test/cb',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'file:///etc/passwd',
  'http:a.test',
  'https://',
  '//a.test/x',
  'not a url',
  ' http://a.test',
  '',
];

describe('the one http(s) URL check', () => {
  it('accepts absolute http and https URLs', () => {
    for (const url of ACCEPTED) expect(isHttpUrl(url), url).toBe(true);
  });

  it('refuses every other scheme, relative and malformed text, and non-strings', () => {
    for (const url of REFUSED) expect(isHttpUrl(url), url).toBe(false);
    for (const value of [undefined, null, 42, {}]) expect(isHttpUrl(value)).toBe(false);
  });

  it('is the rule the request schemas apply', () => {
    for (const url of ACCEPTED) {
      expect(httpUrl().safeParse(url).success, url).toBe(true);
    }
    for (const url of REFUSED.filter((text) => text.trim() === text)) {
      expect(httpUrl().safeParse(url).success, url).toBe(false);
    }
  });
});

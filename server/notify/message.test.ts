// A webhook's message word for word (kind, title and its 200-character cut, creator, the outcome, the
// first error and its 300-character cut, the link) and the signature check at its edges: exactly
// the tolerance old and one second past it, a timestamp that is not a whole number, a header of
// another length.
import { describe, expect, it } from 'vitest';
import { messageBody, sign, verify, type EndedRequest } from './message';

const request = (overrides: Partial<EndedRequest> = {}): EndedRequest => ({
  id: 'req-1',
  kind: 'image_generate',
  title: 'Fox',
  creator: 'Ana',
  tasks: [{ id: 't1', status: 'SUCCEEDED' }],
  ...overrides,
});

describe('messageBody', () => {
  it('a finished request of one task, with its link', () => {
    expect(messageBody('finished', request(), 'https://c.example/requests/req-1')).toEqual({
      text: '✅ Images “Fox” by Ana finished: done · https://c.example/requests/req-1',
      event: 'request.finished',
      request: { ...request(), url: 'https://c.example/requests/req-1' },
    });
  });

  it('names each kind, and an unknown kind by itself; no title: its id; no creator: no "by"', () => {
    const two = [
      { id: 't1', status: 'SUCCEEDED' },
      { id: 't2', status: 'SUCCEEDED' },
    ];
    expect(messageBody('finished', request({ kind: 'video_translate', tasks: two }), undefined).text).toBe(
      '✅ Translation “Fox” by Ana finished: all 2 done',
    );
    expect(messageBody('finished', request({ kind: 'image_to_video', creator: null }), undefined).text).toBe(
      '✅ Video “Fox” finished: done',
    );
    expect(messageBody('finished', request({ kind: 'text_to_song', title: null }), undefined).text).toBe(
      '✅ text_to_song “req-1” by Ana finished: done',
    );
  });

  it('keeps a title of 200 characters whole and cuts one of 201', () => {
    const text = (title: string) => messageBody('finished', request({ title }), undefined).text as string;
    expect(text('t'.repeat(200))).toContain(`“${'t'.repeat(200)}”`);
    expect(text('t'.repeat(201))).toContain(`“${'t'.repeat(200)}”`);
  });

  it('a failed request: how many succeeded, and the first failure in words, cut at 300 characters', () => {
    const tasks = [
      { id: 't1', status: 'SUCCEEDED' },
      { id: 't2', status: 'FAILED', error_message: 'e'.repeat(301) },
      { id: 't3', status: 'FAILED', error_message: 'second' },
    ];
    const body = messageBody('failed', request({ tasks }), undefined);
    expect(body.text).toBe(`❌ Images “Fox” by Ana failed: 1 of 3 succeeded (${'e'.repeat(300)})`);
    expect(body.event).toBe('request.failed');
    expect(messageBody('failed', request({ tasks: [{ id: 't1', status: 'FAILED' }] }), undefined).text).toBe(
      '❌ Images “Fox” by Ana failed: 0 of 1 succeeded',
    );
  });
});

describe('verify', () => {
  const body = '{"event":"request.finished"}';
  const at = 1_700_000_000;
  const signature = sign('whsec_x', at, body);

  it('signs "<timestamp>.<body>" with HMAC-SHA256, as v1=<hex>', () => {
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(sign('whsec_x', at, body)).toBe(signature);
    expect(sign('whsec_y', at, body)).not.toBe(signature);
    expect(sign('whsec_x', at + 1, body)).not.toBe(signature);
  });

  it('takes a message exactly 300 s old or ahead, and refuses one second more either way', () => {
    const check = (nowS: number) => verify('whsec_x', signature, String(at), body, nowS * 1000);
    expect(check(at)).toBe(true);
    expect(check(at + 300)).toBe(true);
    expect(check(at - 300)).toBe(true);
    expect(check(at + 301)).toBe(false);
    expect(check(at - 301)).toBe(false);
    expect(verify('whsec_x', signature, String(at), body, (at + 10) * 1000, 9)).toBe(false);
  });

  it('refuses no header, a timestamp that is not a whole number, another secret and a header of another length', () => {
    const now = at * 1000;
    expect(verify('whsec_x', null, String(at), body, now)).toBe(false);
    expect(verify('whsec_x', signature, null, body, now)).toBe(false);
    expect(verify('whsec_x', signature, `${at}.5`, body, now)).toBe(false);
    expect(verify('whsec_y', signature, String(at), body, now)).toBe(false);
    expect(verify('whsec_x', `${signature}0`, String(at), body, now)).toBe(false);
    expect(verify('whsec_x', signature.slice(0, -1), String(at), body, now)).toBe(false);
  });
});

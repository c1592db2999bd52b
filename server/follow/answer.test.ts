// What the follower makes of each status answer, as the browser's client once classified them: any
// business code on a status query means the task could not be read (the provider's documents
// disagree on the code), a 404 without one means no status query here, and the rest is transient.
import { describe, expect, it } from 'vitest';
import { kindFor, statusQueryKind } from '../../src/api/errors';
import { networkOutcome, outcomeOf } from './answer';

const answer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('statusQueryKind', () => {
  it.each([
    ['100001 (the documented example)', 100001, 400],
    ['100003 with HTTP 404 (emulator)', 100003, 404],
    ['110002 (provider)', 110002, 200],
    ['any other code', 424242, 200],
  ])('a non-zero code %s means the task could not be read', (_label, code, status) => {
    expect(statusQueryKind(status, code)).toBe('not_found');
  });

  it('keeps the transport kinds, and a creation keeps its own', () => {
    expect(statusQueryKind(401, undefined)).toBe('auth');
    expect(statusQueryKind(404, undefined)).toBe('unavailable');
    expect(statusQueryKind(429, 429)).toBe('rate_limit');
    expect(statusQueryKind(503, undefined)).toBe('server');
    expect(kindFor(400, 100001)).toBe('validation');
  });
});

describe('outcomeOf', () => {
  it('a status is final only when exactly SUCCEEDED or FAILED; any other is running, verbatim', async () => {
    expect(await outcomeOf(answer({ code: 0, data: { status: 'SUCCEEDED' } }))).toEqual({
      type: 'final',
      status: 'SUCCEEDED',
    });
    expect(await outcomeOf(answer({ code: 0, data: { status: 'FAILED' } }))).toEqual({
      type: 'final',
      status: 'FAILED',
    });
    expect(await outcomeOf(answer({ code: 0, data: { status: 'succeeded' } }))).toEqual({
      type: 'running',
      status: 'succeeded',
    });
    expect(await outcomeOf(answer({ code: 0, data: { status: 'QUEUED_FOR_GPU' } }))).toEqual({
      type: 'running',
      status: 'QUEUED_FOR_GPU',
    });
  });

  it('an answer without a status, or not JSON, is malformed: retried, never the end', async () => {
    expect(await outcomeOf(answer({ code: 0, data: {} }))).toMatchObject({
      type: 'failed',
      kind: 'malformed',
    });
    expect(await outcomeOf(answer('<html>oops</html>', 200))).toMatchObject({
      type: 'failed',
      kind: 'malformed',
    });
  });

  it('ends at an id the service does not know and at a missing status query, with the words it gave', async () => {
    expect(await outcomeOf(answer({ code: 100003, msg: 'task not found' }, 404))).toEqual({
      type: 'ended',
      end: 'not_found',
      error: { kind: 'not_found', httpStatus: 404, code: 100003, msg: 'task not found' },
    });
    expect(await outcomeOf(answer('Not Found', 404))).toMatchObject({ type: 'ended', end: 'unavailable' });
  });

  it("brakes on a 429 (the provider's 30 s without Retry-After) and on a 503 with Retry-After, in seconds or as a date", async () => {
    expect(await outcomeOf(answer({ code: 429, msg: 'slow down' }, 429))).toMatchObject({
      type: 'brake',
      waitMs: undefined,
    });
    expect(await outcomeOf(answer({ code: 429 }, 429, { 'retry-after': '3' }))).toMatchObject({
      type: 'brake',
      waitMs: 3000,
    });
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(
      await outcomeOf(answer({}, 503, { 'retry-after': 'Sat, 28 Nov 2026 12:00:10 GMT' }), now),
    ).toMatchObject({ type: 'brake', waitMs: 10_000 });
    // Kept between 1 s and 5 min.
    expect(await outcomeOf(answer({}, 429, { 'retry-after': '0' }))).toMatchObject({ waitMs: 1000 });
    expect(await outcomeOf(answer({}, 429, { 'retry-after': '301' }))).toMatchObject({ waitMs: 300_000 });
    // A 503 without it is a 5xx like any other.
    expect(await outcomeOf(answer({}, 503))).toMatchObject({ type: 'failed', kind: 'server' });
  });

  it('reads no more than 1 MB of an answer, and no answer at all is a network failure', async () => {
    const huge = answer('x'.repeat(10), 200, { 'content-length': String(1024 * 1024 + 1) });
    expect(await outcomeOf(huge)).toMatchObject({ type: 'failed', kind: 'malformed' });
    expect(networkOutcome(new Error('ECONNRESET'))).toEqual({
      type: 'failed',
      kind: 'network',
      error: { kind: 'network', httpStatus: 0, msg: 'ECONNRESET' },
    });
  });
});

describe('outcomeOf at its edges', () => {
  const MB = 1024 * 1024;
  /** A running status answer padded to exactly `length` characters. */
  const paddedTo = (length: number) => {
    const bare = JSON.stringify({ code: 0, data: { status: 'PROCESSING' }, pad: '' });
    return JSON.stringify({ code: 0, data: { status: 'PROCESSING' }, pad: 'x'.repeat(length - bare.length) });
  };

  it('reads an answer of exactly 1 MB, by its length header or its text, and not one byte more', async () => {
    expect(paddedTo(MB)).toHaveLength(MB);
    expect(await outcomeOf(answer(paddedTo(MB)))).toEqual({ type: 'running', status: 'PROCESSING' });
    expect(await outcomeOf(answer(paddedTo(MB + 1)))).toMatchObject({ type: 'failed', kind: 'malformed' });
    const small = answer({ code: 0, data: { status: 'PROCESSING' } }, 200, { 'content-length': String(MB) });
    expect(await outcomeOf(small)).toEqual({ type: 'running', status: 'PROCESSING' });
    const announced = answer({ code: 0, data: { status: 'PROCESSING' } }, 200, {
      'content-length': String(MB + 1),
    });
    expect(await outcomeOf(announced)).toMatchObject({ type: 'failed', kind: 'malformed' });
  });

  it('a status counts only in a 200 with code 0, as a non-empty string', async () => {
    const body = { code: 0, data: { status: 'SUCCEEDED' } };
    expect(await outcomeOf(answer(body, 202))).toMatchObject({ type: 'failed', kind: 'malformed' });
    expect(await outcomeOf(answer({ ...body, code: 100003 }))).toMatchObject({
      type: 'ended',
      end: 'not_found',
    });
    expect(await outcomeOf(answer({ code: 0, data: { status: 7 } }))).toMatchObject({ kind: 'malformed' });
    expect(await outcomeOf(answer({ code: 0, data: { status: '' } }))).toMatchObject({ kind: 'malformed' });
    // A code that is not a number is no code at all.
    expect(await outcomeOf(answer({ code: '0', data: { status: 'SUCCEEDED' } }))).toStrictEqual({
      type: 'failed',
      kind: 'malformed',
      error: { kind: 'malformed', httpStatus: 200, msg: 'The status answer has no status' },
    });
  });

  it('JSON null, a number or a string where the envelope belongs is malformed', async () => {
    for (const text of ['null', '5', '"SUCCEEDED"'])
      expect(await outcomeOf(answer(text)), text).toMatchObject({ type: 'failed', kind: 'malformed' });
  });

  it('names a failure by the HTTP status when the service gave no words, and keeps at most 500 characters of them', async () => {
    expect(await outcomeOf(answer({ code: 0 }, 500))).toStrictEqual({
      type: 'failed',
      kind: 'server',
      error: { kind: 'server', httpStatus: 500, code: 0, msg: 'HTTP 500' },
    });
    expect(await outcomeOf(answer({ msg: 42 }, 502))).toStrictEqual({
      type: 'failed',
      kind: 'server',
      error: { kind: 'server', httpStatus: 502, msg: 'HTTP 502' },
    });
    const long = 'y'.repeat(501);
    const cut = await outcomeOf(answer({ code: 500, msg: long }, 500));
    expect(cut).toMatchObject({ error: { msg: long.slice(0, 500) } });
  });

  it('takes Retry-After only from a 429 or a 503', async () => {
    expect(await outcomeOf(answer({}, 500, { 'retry-after': '3' }))).toMatchObject({
      type: 'failed',
      kind: 'server',
    });
  });

  it('a request that threw without an Error still names what it threw', () => {
    expect(networkOutcome(undefined)).toMatchObject({ error: { msg: 'undefined' } });
    expect(networkOutcome('socket hang up')).toMatchObject({ error: { msg: 'socket hang up' } });
  });
});

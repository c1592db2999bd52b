// What a failed copy attempt means for its row: retried after the backoff, given up at a final error
// or at the last attempt, or (the console closing) given back as it was.
import { describe, expect, it } from 'vitest';
import { CopyError } from './copy-fetch';
import { attemptFailure } from './copy-job';

const job = { closing: false, maxAttempts: 3, backoffMs: (attempts: number) => attempts * 1000 };
const retry = new CopyError('the service answered HTTP 503', false);

describe('attemptFailure', () => {
  it('queues the row again after the backoff before its last attempt, and gives up at it', () => {
    expect(attemptFailure({ attempts: 2 }, retry, undefined, job)).toEqual({
      message: 'the service answered HTTP 503',
      final: false,
      nextInMs: 2000,
      givenBack: false,
    });
    expect(attemptFailure({ attempts: 3 }, retry, undefined, job)).toMatchObject({
      final: true,
      nextInMs: 3000,
    });
  });

  it('gives up at once on a final error', () => {
    const refused = new CopyError('the service answered HTTP 404', true);
    expect(attemptFailure({ attempts: 1 }, refused, undefined, job)).toMatchObject({ final: true });
  });

  it("says why the abort happened rather than the stream's own error, and names any other failure", () => {
    const stalled = new CopyError('the transfer stalled', false);
    expect(attemptFailure({ attempts: 1 }, new Error('aborted'), stalled, job).message).toBe(
      'the transfer stalled',
    );
    expect(attemptFailure({ attempts: 1 }, new Error('socket hang up'), undefined, job).message).toBe(
      'socket hang up',
    );
    expect(attemptFailure({ attempts: 1 }, new Error(''), undefined, job).message).toBe('the copy failed');
  });

  it('gives the row back uncounted when the console is closing, unless the error is final', () => {
    const closing = { ...job, closing: true };
    expect(attemptFailure({ attempts: 3 }, retry, undefined, closing)).toMatchObject({
      givenBack: true,
      nextInMs: 0,
    });
    const refused = new CopyError('refused by the outbound guard: not a public address', true);
    expect(attemptFailure({ attempts: 1 }, refused, undefined, closing)).toMatchObject({
      givenBack: false,
      final: true,
      nextInMs: 1000,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { EMULATED_FAILURE_MESSAGE, outcomeFor, wantsReject } from './magic-words';

describe('magic words', () => {
  it('emulator:reject in any of the texts asks for a 530003', () => {
    expect(wantsReject('a emulator:reject b')).toBe(true);
    expect(wantsReject(undefined, 'https://v.test/emulator:reject.mp4')).toBe(true);
    expect(wantsReject('emulator:rejec', undefined)).toBe(false);
  });

  it('emulator:fail makes the task fail with a clear error message', () => {
    expect(outcomeFor('x emulator:fail')).toEqual({ type: 'fail', errorMessage: EMULATED_FAILURE_MESSAGE });
    expect(outcomeFor(undefined, 'https://v.test/emulator:fail')).toMatchObject({ type: 'fail' });
  });

  it('emulator:status=WORD makes the task stay in WORD', () => {
    expect(outcomeFor('emulator:status=QUEUED')).toEqual({ type: 'stuck', status: 'QUEUED' });
    expect(outcomeFor('see emulator:status=waiting_for_gpu now')).toEqual({
      type: 'stuck',
      status: 'waiting_for_gpu',
    });
  });

  it('ignores terminal statuses after emulator:status= and an empty word', () => {
    expect(outcomeFor('emulator:status=SUCCEEDED')).toEqual({ type: 'succeed' });
    expect(outcomeFor('emulator:status=FAILED')).toEqual({ type: 'succeed' });
    expect(outcomeFor('emulator:status=')).toEqual({ type: 'succeed' });
  });

  it('emulator:fail wins over emulator:status=', () => {
    expect(outcomeFor('emulator:status=QUEUED emulator:fail').type).toBe('fail');
  });

  it('anything else succeeds', () => {
    expect(outcomeFor('A lighthouse', undefined)).toEqual({ type: 'succeed' });
  });
});

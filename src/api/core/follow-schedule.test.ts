import { describe, expect, it } from 'vitest';
import { baseInterval, isFinalPollError, minimumPolls, nextPollDelay, POLL } from './follow-schedule';

describe('poll schedule', () => {
  it('starts at a few seconds and grows with the age of the task to tens of seconds', () => {
    expect(nextPollDelay({ ageMs: 0 })).toBe(2_000);
    expect(nextPollDelay({ ageMs: 15_000 })).toBe(2_000);
    expect(nextPollDelay({ ageMs: 60_000 })).toBe(6_000);
    expect(nextPollDelay({ ageMs: 150_000 })).toBe(15_000);
    expect(nextPollDelay({ ageMs: 10 * 60_000 })).toBe(30_000);
    expect(nextPollDelay({ ageMs: 2 * 3600_000 })).toBe(POLL.maxMs);
  });

  it('never goes backwards as a task ages', () => {
    let previous = 0;
    for (let age = 0; age < 3600_000; age += 997) {
      const delay = baseInterval(age);
      expect(delay).toBeGreaterThanOrEqual(previous);
      previous = delay;
    }
  });

  it('waits the provider’s 30 s after a 429 without Retry-After, every time', () => {
    expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: 'rate_limit' })).toBe(30_000);
    expect(nextPollDelay({ ageMs: 0, errorStreak: 2, errorKind: 'rate_limit' })).toBe(30_000);
    expect(nextPollDelay({ ageMs: 0, errorStreak: 9, errorKind: 'rate_limit' })).toBe(30_000);
  });

  it('comes back exactly when Retry-After says, on 429 and on 503', () => {
    for (const streak of [1, 2, 5]) {
      expect(
        nextPollDelay({ ageMs: 0, errorStreak: streak, errorKind: 'rate_limit', retryAfterMs: 3_000 }),
      ).toBe(3_000);
      expect(
        nextPollDelay({ ageMs: 0, errorStreak: streak, errorKind: 'server', retryAfterMs: 120_000 }),
      ).toBe(120_000);
    }
    // Only "come back later" answers carry the promise; a final error still stops.
    expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: 'network', retryAfterMs: 3_000 })).toBe(
      4_000,
    );
    expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: 'not_found', retryAfterMs: 3_000 })).toBe(
      false,
    );
  });

  it('backs off from 10 s on server errors', () => {
    expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: 'server' })).toBe(10_000);
    expect(nextPollDelay({ ageMs: 0, errorStreak: 3, errorKind: 'server' })).toBe(40_000);
  });

  it('doubles the normal interval on network errors', () => {
    expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: 'network' })).toBe(4_000);
    expect(nextPollDelay({ ageMs: 0, errorStreak: 2, errorKind: 'network' })).toBe(8_000);
    expect(nextPollDelay({ ageMs: 600_000, errorStreak: 5, errorKind: 'network' })).toBe(POLL.errorCapMs);
  });

  it('stops for answers that would not change by asking again', () => {
    for (const kind of ['not_found', 'unavailable', 'auth', 'malformed']) {
      expect(isFinalPollError(kind)).toBe(true);
      expect(nextPollDelay({ ageMs: 0, errorStreak: 1, errorKind: kind })).toBe(false);
    }
    expect(isFinalPollError('network')).toBe(false);
  });

  it('counts the minimum requests for a duration', () => {
    expect(minimumPolls(0)).toBe(1);
    expect(minimumPolls(1_000)).toBe(2);
    expect(minimumPolls(10_000)).toBe(6); // 0, 2, 4, 6, 8, 10
    expect(minimumPolls(23_000)).toBe(13); // 0, 2, …, 22 (11 s at 2 s), then 24.2
  });
});

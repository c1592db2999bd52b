// The inbox's per-sender brake: a token bucket per sender, and a memory bound that holds under a
// flood from many senders (each drained, then gone) instead of scanning the map on every callback.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CALLBACK_RATE } from './inbox';
import { createSenderLimit, MAX_TRACKED_SENDERS } from './sender-limit';

describe('createSenderLimit', () => {
  it('by default never brakes the service itself at the ingest target (2,000/s, one sender)', () => {
    let t = 0;
    const limit = createSenderLimit({
      perSecond: DEFAULT_CALLBACK_RATE,
      burst: DEFAULT_CALLBACK_RATE * 10,
      now: () => t,
    });
    // A minute at 2,000/s from one address, after a burst of 20,000 results at once.
    let braked = 0;
    for (let i = 0; i < 20_000; i++) braked += limit.take('service') > 0 ? 1 : 0;
    for (let ms = 0; ms < 60_000; ms++) {
      t = ms;
      braked += limit.take('service') > 0 ? 1 : 0;
      braked += limit.take('service') > 0 ? 1 : 0;
    }
    expect(braked).toBe(0);
  });

  it('lets a burst through, then asks the sender to wait, then refills', () => {
    let t = 0;
    const limit = createSenderLimit({ perSecond: 2, burst: 3, now: () => t });
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 0]);
    expect(limit.take('a')).toBe(1);
    expect(limit.take('b')).toBe(0);
    t += 500;
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(1);
  });

  it('is off at 0 per second', () => {
    const limit = createSenderLimit({ perSecond: 0, burst: 0 });
    for (let i = 0; i < 100; i++) expect(limit.take('a')).toBe(0);
  });

  it('forgets senders that went quiet, even those that left with an empty bucket', () => {
    let t = 0;
    const limit = createSenderLimit({ perSecond: 1, burst: 2, now: () => t });
    for (let i = 0; i < MAX_TRACKED_SENDERS; i++) {
      limit.take(`s${i}`);
      limit.take(`s${i}`);
    }
    expect(limit.size).toBe(MAX_TRACKED_SENDERS);
    t += 60_000; // every bucket is full again: they carry no information any more
    limit.take('newcomer');
    expect(limit.size).toBeLessThan(10);
  });

  it('stays bounded while more senders than it tracks are all busy', () => {
    let t = 0;
    const limit = createSenderLimit({ perSecond: 1, burst: 2, now: () => t });
    for (let i = 0; i < MAX_TRACKED_SENDERS * 3; i++) {
      limit.take(`s${i}`);
      limit.take(`s${i}`);
      t += 0.001;
    }
    expect(limit.size).toBeLessThanOrEqual(MAX_TRACKED_SENDERS);
    // The newest flooder is still braked.
    expect(limit.take(`s${MAX_TRACKED_SENDERS * 3 - 1}`)).toBeGreaterThan(0);
  });
});

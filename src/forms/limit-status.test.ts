import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors';
import { remainingText, type LimitStatus } from '@/api/limits';
import { isLimitRefusal } from './limit-status';

const status = (over: Partial<LimitStatus>): LimitStatus => ({
  scope: 'person',
  measure: 'images',
  period: 'day',
  max: 50,
  used: 38,
  remaining: 12,
  resetsAt: '2026-01-02T00:00:00.000Z',
  ...over,
});

describe('spending limits in the forms', () => {
  it('says what is left, in the unit and period of the limit', () => {
    expect(remainingText(status({}))).toBe('12 of 50 images left today');
    expect(remainingText(status({ max: 1, used: 0, remaining: 1 }))).toBe('1 of 1 image left today');
    expect(
      remainingText(
        status({ scope: 'team', measure: 'video_minutes', period: 'month', max: 10, remaining: 2.5 }),
      ),
    ).toBe('2.5 of 10 team video minutes left this month');
  });

  it("tells the console's own limit refusal from the service's 429", () => {
    expect(
      isLimitRefusal(
        new ApiError({ kind: 'rate_limit', httpStatus: 429, code: 429_100, msg: 'You have used' }),
      ),
    ).toBe(true);
    expect(
      isLimitRefusal(new ApiError({ kind: 'rate_limit', httpStatus: 429, code: 429, msg: 'slow down' })),
    ).toBe(false);
    expect(isLimitRefusal(undefined)).toBe(false);
  });
});

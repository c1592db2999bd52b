// The share dialog's lifetime field says what the server would, exactly at the bounds and one past,
// and a link's openings read as people say them.
import { describe, expect, it } from 'vitest';
import { SHARE_DAYS_MAX, SHARE_DAYS_MIN } from '@/api/shares';
import { daysProblem } from './share-dialog';
import { openingsOf } from './shares-api';

describe('the lifetime of a new link', () => {
  it('takes whole days from the least to the most, and says why not otherwise', () => {
    expect(daysProblem(String(SHARE_DAYS_MIN))).toBeUndefined();
    expect(daysProblem(String(SHARE_DAYS_MAX))).toBeUndefined();
    expect(daysProblem(String(SHARE_DAYS_MIN - 1))).toMatch(/from 1 to at most 90 days/);
    expect(daysProblem(String(SHARE_DAYS_MAX + 1))).toMatch(/at most 90 days/);
    expect(daysProblem('2.5')).toBe('Enter a whole number of days');
    expect(daysProblem(' ')).toBe('Enter a whole number of days');
  });
});

describe('openings', () => {
  const link = {
    id: 'sh-1',
    board: 'b-1',
    request: null,
    title: 'Picks',
    createdBy: 'Ana',
    createdById: 'u-ana',
    createdAt: 0,
    expiresAt: 0,
    openedCount: 0,
    lastOpenedAt: null,
  };
  it('says none, once, or how many times', () => {
    expect(openingsOf(link)).toBe('Not opened yet');
    expect(openingsOf({ ...link, openedCount: 1, lastOpenedAt: Date.UTC(2026, 10, 28) })).toMatch(
      /^Opened once, last /,
    );
    expect(openingsOf({ ...link, openedCount: 3 })).toBe('Opened 3 times');
  });
});

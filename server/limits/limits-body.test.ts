// The body of PUT /__console/limits: each rule's own reason, at each bound exactly and one past. The
// route answers these reasons with 400 (limits.test.ts sends a few through it).
import { describe, expect, it } from 'vitest';
import { LIMIT_MAX } from '../../src/api/limits';
import { limitsBody } from './routes';

const row = (over: object = {}) => ({ measure: 'images', period: 'day', max: 5, ...over });
const reason = (body: unknown) => {
  const parsed = limitsBody.safeParse(body);
  return parsed.success ? 'ok' : parsed.error.issues[0]?.message;
};
const team = (...limits: unknown[]) => ({ scope: 'team', limits });

describe('the body of a change of limits', () => {
  it('names the scope and, for a person, who', () => {
    for (const body of [undefined, 'x', {}, { scope: 'everyone', limits: [] }])
      expect(reason(body)).toBe('scope must be team or person');
    expect(reason({ scope: 'person', limits: [] })).toBe('userId names the person the limits are for');
    expect(reason({ scope: 'person', userId: '', limits: [] })).toBe(
      'userId names the person the limits are for',
    );
    expect(reason({ scope: 'person', userId: 'u'.repeat(200), limits: [] })).toBe('ok');
    expect(reason({ scope: 'person', userId: 'u'.repeat(201), limits: [] })).toBe(
      'userId names the person the limits are for',
    );
    expect(reason(team())).toBe('ok');
  });

  it('takes a list of measures and periods it knows', () => {
    expect(reason({ scope: 'team', limits: 'all' })).toBe('limits must be a list of {measure, period, max}');
    expect(reason(team(null))).toBe('limits must be a list of {measure, period, max}');
    expect(reason(team(row({ measure: 'gold' })))).toBe('measure must be tasks, images or video_minutes');
    expect(reason(team(row({ period: 'week' })))).toBe('period must be day or month');
    expect(reason(team(row({ measure: 'video_minutes', period: 'month' })))).toBe('ok');
  });

  it('takes a whole max from 0 to LIMIT_MAX, or null for none', () => {
    const rule = `max must be a whole number from 0 to ${LIMIT_MAX}, or null for no limit`;
    for (const max of [0, LIMIT_MAX, null]) expect(reason(team(row({ max })))).toBe('ok');
    for (const max of [-1, LIMIT_MAX + 1, 1.5, '5', undefined]) expect(reason(team(row({ max })))).toBe(rule);
  });

  it('refuses a measure and period given twice, naming them', () => {
    expect(reason(team(row(), row({ period: 'month' })))).toBe('ok');
    expect(reason(team(row(), row({ period: 'month' }), row({ max: 9 })))).toBe('images:day is given twice');
  });
});

import { describe, expect, it } from 'vitest';
import {
  apiQuery,
  customPeriodProblem,
  DEFAULT_VIEW,
  failedTasksHref,
  parseView,
  serializeView,
} from './insights-url';

describe('the Insights screen URL', () => {
  it('reads and writes every choice, defaults left out', () => {
    const view = parseView(
      '?period=custom&from=2026-03-01&to=2026-03-10&kind=image_generate&person=Chen%20Wei',
    );
    expect(view).toEqual({
      period: 'custom',
      from: '2026-03-01',
      to: '2026-03-10',
      kind: 'image_generate',
      person: 'Chen Wei',
    });
    expect(serializeView(view)).toBe(
      '?period=custom&from=2026-03-01&to=2026-03-10&kind=image_generate&person=Chen+Wei',
    );
    expect(serializeView(DEFAULT_VIEW)).toBe('');
  });

  it('falls back to the defaults for anything invalid', () => {
    expect(parseView('?period=1y&kind=sculpture&from=yesterday&to=2026-02-31x')).toEqual(DEFAULT_VIEW);
  });

  it('asks the server for the period before now, or whole UTC days for a custom one', () => {
    const now = Date.UTC(2026, 2, 10, 12);
    expect(apiQuery({ ...DEFAULT_VIEW, period: '24h', person: 'Ana' }, now)).toBe(
      'from=2026-03-09T12%3A00%3A00.000Z&to=2026-03-10T12%3A00%3A00.000Z&creator=Ana',
    );
    expect(apiQuery({ ...DEFAULT_VIEW, period: 'custom', from: '2026-03-01', to: '2026-03-01' }, now)).toBe(
      'from=2026-03-01T00%3A00%3A00Z&to=2026-03-02T00%3A00%3A00.000Z',
    );
  });

  it('says what is wrong with a custom period', () => {
    const custom = { ...DEFAULT_VIEW, period: 'custom' as const };
    expect(customPeriodProblem(custom)).toMatch(/Choose the first and the last day/);
    expect(customPeriodProblem({ ...custom, from: '2026-03-02', to: '2026-03-01' })).toMatch(
      /must not be after/,
    );
    expect(customPeriodProblem({ ...custom, from: '2024-01-01', to: '2026-03-01' })).toMatch(/at most 366/);
    expect(customPeriodProblem({ ...custom, from: '2026-03-01', to: '2026-03-01' })).toBeUndefined();
  });

  it('links a failure to the Tasks screen filtered the way Tasks reads its URL', () => {
    expect(failedTasksHref('image_to_video', '')).toBe('/tasks?tab=failed&kind=image_to_video');
    expect(failedTasksHref('image_generate', 'Ana')).toBe('/tasks?tab=failed&kind=image_generate&q=Ana');
  });
});

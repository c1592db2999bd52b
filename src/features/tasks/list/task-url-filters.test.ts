import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, isFiltered, parseFilters, periodOf, serializeFilters } from './task-url-filters';
import { PERIOD_PRESETS, presetPeriod } from './period-presets';

describe('Tasks screen filters in the URL', () => {
  it('reads every filter from the query string', () => {
    expect(parseFilters('?tab=failed&kind=image_generate&q=cat&mine=1')).toEqual({
      tab: 'failed',
      kind: 'image_generate',
      search: 'cat',
      mine: true,
    });
  });

  it('falls back to the default for anything it does not know, never throws', () => {
    expect(parseFilters('')).toEqual(DEFAULT_FILTERS);
    expect(parseFilters('?tab=everything&kind=sculpture&mine=yes&q=')).toEqual(DEFAULT_FILTERS);
    // A broken escape is read leniently (the replacement character), not thrown.
    expect(parseFilters('?q=%E0%A4%A').search).toContain('%A');
    expect(parseFilters(`?q=${'x'.repeat(500)}`).search).toHaveLength(200);
  });

  it('writes only what differs from the default, so the plain screen is /tasks', () => {
    expect(serializeFilters(DEFAULT_FILTERS)).toBe('');
    expect(serializeFilters({ ...DEFAULT_FILTERS, search: '   ' })).toBe('');
    expect(serializeFilters({ tab: 'running', kind: 'video_translate', search: ' a&b ', mine: true })).toBe(
      '?tab=running&kind=video_translate&q=a%26b&mine=1',
    );
  });

  it('keeps the Starred view (starred=only) and the starred-first order, and nothing else for them', () => {
    const starred = parseFilters('?starred=only&sort=starred');
    expect(starred).toMatchObject({ starred: 'only', sort: 'starred' });
    expect(serializeFilters(starred)).toBe('?sort=starred&starred=only');
    expect(parseFilters('?starred=1').starred).toBeUndefined();
    expect(isFiltered(parseFilters('?starred=only'))).toBe(true);
    expect(isFiltered(parseFilters('?sort=starred'))).toBe(false);
  });

  it('keeps the "changes requested" view (review=changes_requested), and nothing else for it', () => {
    const changes = parseFilters('?review=changes_requested');
    expect(changes.review).toBe('changes_requested');
    expect(serializeFilters(changes)).toBe('?review=changes_requested');
    expect(parseFilters('?review=approved').review).toBeUndefined();
    expect(isFiltered(changes)).toBe(true);
  });

  it('round-trips: a support link opens the same view', () => {
    const filters = { tab: 'succeeded', kind: 'image_to_video', search: 'Grace & co', mine: false } as const;
    expect(parseFilters(serializeFilters(filters))).toEqual(filters);
  });

  it('knows when anything narrows the list', () => {
    expect(isFiltered(DEFAULT_FILTERS)).toBe(false);
    expect(isFiltered({ ...DEFAULT_FILTERS, mine: true })).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, search: 'x' })).toBe(true);
  });
});

describe('the period, creator, failure, order and layout in the URL', () => {
  const full = {
    tab: 'failed',
    kind: 'image_generate',
    search: 'fox',
    mine: false,
    by: 'task',
    from: '2026-03-01',
    to: '2026-03-07',
    creator: 'Ana Lima',
    code: '530003',
    reason: 'Content refused: a & b',
    sort: 'longest',
    view: 'table',
    hidden: 'show',
  } as const;

  it('round-trips every filter: a support link opens the same view', () => {
    const query = serializeFilters(full);
    expect(query).toContain('from=2026-03-01');
    expect(query).toContain('reason=Content+refused%3A+a+%26+b');
    expect(parseFilters(query)).toEqual(full);
  });

  it('drops what is not a day, an order or a layout', () => {
    expect(parseFilters('?from=yesterday&to=2026-13-45&sort=random&view=grid')).toEqual(DEFAULT_FILTERS);
    expect(parseFilters('?sort=newest')).toEqual(DEFAULT_FILTERS);
    expect(serializeFilters({ ...DEFAULT_FILTERS, view: 'table' })).toBe('?view=table');
    expect(parseFilters('?hidden=1')).toEqual(DEFAULT_FILTERS);
    expect(serializeFilters({ ...DEFAULT_FILTERS, hidden: 'show' })).toBe('?hidden=show');
  });

  it('counts a period, a creator or a failure as narrowing, not the order or the layout', () => {
    expect(isFiltered({ ...DEFAULT_FILTERS, from: '2026-03-01' })).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, creator: 'Ana' })).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, reason: 'Timed out' })).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, sort: 'failed', view: 'table', hidden: 'show' })).toBe(false);
  });

  it('turns days into the server period: from the first day start to the last day end, local time', () => {
    const { from, to } = periodOf({ from: '2026-03-01', to: '2026-03-07' });
    expect(new Date(from!).getHours()).toBe(0);
    expect(new Date(from!).getDate()).toBe(1);
    expect(new Date(to!).getDate()).toBe(8);
    expect(periodOf({})).toEqual({});
  });

  const justBefore = (at: Date) => new Date(at.getTime() - 1);
  const preset = (label: string) => PERIOD_PRESETS.find((one) => one.label === label)!;
  /** Whether a moment is inside a preset's period as the server filters it (from <= at < to). */
  const inside = (label: string, now: Date, at: Date) => {
    const { from, to } = periodOf(presetPeriod(preset(label), now));
    return at.getTime() >= from! && at.getTime() < to!;
  };

  it('Yesterday is yesterday 00:00 up to today 00:00 in local time, at both ends of today', () => {
    for (const now of [new Date(2026, 2, 10, 0, 0, 0, 0), new Date(2026, 2, 10, 23, 59, 59, 999)]) {
      expect(presetPeriod(preset('Yesterday'), now)).toEqual({ from: '2026-03-09', to: '2026-03-09' });
      expect(periodOf(presetPeriod(preset('Yesterday'), now))).toEqual({
        from: new Date(2026, 2, 9).getTime(),
        to: new Date(2026, 2, 10).getTime(),
      });
      expect(inside('Yesterday', now, new Date(2026, 2, 9, 0, 0, 0, 0))).toBe(true);
      expect(inside('Yesterday', now, justBefore(new Date(2026, 2, 10)))).toBe(true);
      expect(inside('Yesterday', now, new Date(2026, 2, 10, 0, 0, 0, 0))).toBe(false);
      expect(inside('Yesterday', now, justBefore(new Date(2026, 2, 9)))).toBe(false);
    }
    // Across a month's and a year's first day.
    expect(presetPeriod(preset('Yesterday'), new Date(2026, 0, 1, 8))).toEqual({
      from: '2025-12-31',
      to: '2025-12-31',
    });
  });

  it('Last 7 days is six days ago 00:00 up to tomorrow 00:00: today and the six days before', () => {
    const now = new Date(2026, 2, 10, 15);
    expect(presetPeriod(preset('Last 7 days'), now)).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(inside('Last 7 days', now, new Date(2026, 2, 4, 0, 0, 0, 0))).toBe(true);
    expect(inside('Last 7 days', now, justBefore(new Date(2026, 2, 4)))).toBe(false);
    expect(inside('Last 7 days', now, justBefore(new Date(2026, 2, 11)))).toBe(true);
    expect(inside('Last 7 days', now, new Date(2026, 2, 11, 0, 0, 0, 0))).toBe(false);
    expect(presetPeriod(preset('Today'), now)).toEqual({ from: '2026-03-10', to: '2026-03-10' });
    expect(presetPeriod(preset('Last 30 days'), now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, isFiltered, parseFilters, serializeFilters } from './task-url-filters';

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

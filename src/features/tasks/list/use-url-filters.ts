// The Tasks screen's filters, read from and written to the URL. Tabs, kind and "Mine" are history
// entries (back goes to the previous view); the search box writes after a pause in typing and
// replaces the entry, so a word typed is one step back, not one per letter.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { parseFilters, serializeFilters, type UrlFilters } from './task-url-filters';

const SEARCH_DEBOUNCE_MS = 300;

export function useUrlFilters() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => parseFilters(search), [search]);
  const [draft, setDraft] = useState(filters.search);
  const [seen, setSeen] = useState(filters.search);
  // Back/forward or a link changed the URL: the box follows it (state adjusted while rendering).
  if (seen !== filters.search) {
    setSeen(filters.search);
    setDraft(filters.search);
  }

  const setFilters = useCallback(
    (next: Partial<UrlFilters>, options: { replace?: boolean } = {}) => {
      navigate(`/tasks${serializeFilters({ ...filters, ...next })}`, options);
    },
    [navigate, filters],
  );

  useEffect(() => {
    if (draft.trim() === filters.search.trim()) return;
    const timer = setTimeout(() => setFilters({ search: draft }, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, filters.search, setFilters]);

  return { filters, draft, setDraft, setFilters };
}

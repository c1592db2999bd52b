// Drafts per form in localStorage, so a reload or a visit to another screen loses nothing typed.
import { useEffect } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

const PREFIX = 'media-console:draft:';
const DRAFT_SAVE_DELAY_MS = 400;

function sameShape(value: unknown, fallback: unknown): boolean {
  if (Array.isArray(fallback)) return Array.isArray(value);
  if (typeof fallback === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === typeof fallback && value !== null;
}

/**
 * The stored draft merged over `defaults`, key by key: a draft written by an older version of the
 * form (a missing key, a changed type, NaN saved as null) falls back to the default for that key
 * instead of breaking the form.
 */
export function loadDraft<T extends FieldValues>(key: string, defaults: T): T {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null');
  } catch {
    return defaults;
  }
  if (!raw || typeof raw !== 'object') return defaults;
  const draft = raw as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...defaults };
  for (const name of Object.keys(defaults)) {
    if (sameShape(draft[name], defaults[name])) merged[name] = draft[name];
  }
  return merged as T;
}

export function saveDraft(key: string, values: unknown) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(values));
  } catch {
    // Storage full or disabled (private mode): drafts are a convenience, the form still works.
  }
}

export function clearDraft(key: string) {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // see saveDraft
  }
}

/** Saves the form's values `DRAFT_SAVE_DELAY_MS` after the last change. */
export function useDraftAutosave<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  key: string,
) {
  const { subscribe } = form;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let latest: unknown;
    const flush = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      saveDraft(key, latest);
    };
    const unsubscribe = subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        latest = values;
        clearTimeout(timer);
        timer = setTimeout(flush, DRAFT_SAVE_DELAY_MS);
      },
    });
    // Leaving the screen or closing the tab must not drop the last keystrokes.
    window.addEventListener('pagehide', flush);
    return () => {
      flush();
      unsubscribe();
      window.removeEventListener('pagehide', flush);
    };
  }, [subscribe, key]);
}

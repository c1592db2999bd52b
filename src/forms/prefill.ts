// "Edit and re-run" and "Use this prompt" from a task's or a request's page: the form of the task's
// kind opens filled with what the task sent. The parameters travel in the browser history's state
// (wouter's navigate(…, { state })), not in the address: a prompt and its image links may be long,
// and the address would keep them in the browser's history list. The form takes them once, at
// mount, then keeps them as its draft like anything typed.
import { useEffect } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { TaskType } from '@/api/core/rules';
import { loadDraft, saveDraft } from './form-draft';

/** Where each kind's form lives (src/app/routes.tsx). */
export const FORM_PATHS: Record<TaskType, string> = {
  image_generate: '/',
  video_translate: '/translate',
  image_to_video: '/image-to-video',
};

interface PrefillState {
  prefill: { kind: TaskType; params: Record<string, unknown> };
}

/** The history state that opens `kind`'s form filled with `params`. */
export function prefillState(kind: TaskType, params: Record<string, unknown>): PrefillState {
  return { prefill: { kind, params } };
}

/** The parameters the form of `kind` was opened with, if it was ("Edit and re-run"). */
export function readPrefill(kind: TaskType): Record<string, unknown> | undefined {
  const state: unknown = typeof history === 'undefined' ? undefined : history.state;
  if (!state || typeof state !== 'object' || !('prefill' in state)) return undefined;
  const prefill = (state as Partial<PrefillState>).prefill;
  if (!prefill || prefill.kind !== kind) return undefined;
  const params = prefill.params as unknown;
  return params && typeof params === 'object' && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/** Taken: a reload then shows the draft (which now holds them, and whatever was changed since). */
export function forgetPrefill(): void {
  const state: unknown = history.state;
  if (!state || typeof state !== 'object' || !('prefill' in state)) return;
  const { prefill: _taken, ...rest } = state as PrefillState & Record<string, unknown>;
  history.replaceState(rest, '');
}

/**
 * The values a form takes from a request's parameters: only the fields the form has, and only
 * values of the type the form holds there (a request from an older console, or one made by hand,
 * may carry anything). A list of URLs becomes the form's rows of {url}, except in the lists named
 * in `plainLists` (a translation's languages), which the form holds as they are.
 */
export function valuesFromParams<T extends object>(
  defaults: T,
  params: Record<string, unknown>,
  plainLists: readonly string[] = [],
): Partial<T> {
  const values: Record<string, unknown> = {};
  for (const [key, initial] of Object.entries(defaults)) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    const same =
      typeof value === typeof initial &&
      (typeof value !== 'object' || Array.isArray(value) === Array.isArray(initial));
    if (!same || (typeof value === 'object' && !Array.isArray(value))) continue;
    const strings = Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : undefined;
    values[key] = !strings ? value : plainLists.includes(key) ? strings : strings.map((url) => ({ url }));
  }
  return values as Partial<T>;
}

/**
 * A form's first values: the parameters it was opened with (`toValues` makes the form's values of
 * them), else its draft.
 */
export function initialFormValues<T extends FieldValues>(
  kind: TaskType,
  draftKey: string,
  defaults: T,
  toValues: (params: Record<string, unknown>) => T,
): T {
  const params = readPrefill(kind);
  return params ? toValues(params) : loadDraft(draftKey, defaults);
}

/** Once the form has its values from a prefill, they become its draft and the history forgets them. */
export function useTakePrefill(kind: TaskType, draftKey: string, values: () => unknown): void {
  useEffect(() => {
    if (!readPrefill(kind)) return;
    saveDraft(draftKey, values());
    forgetPrefill();
    // Once, at mount: the values are the form's from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

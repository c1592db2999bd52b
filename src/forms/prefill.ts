// "Edit and re-run" and a request's "Use this prompt": the form of a task's kind opens filled with
// what the task sent. The values become the form's draft (./form-draft.ts), which the form reads as
// it opens, as after a reload: the forms carry no code for this (their first load is as it was),
// the address carries no prompt, and what the form opens with replaces what it held, as Use this
// prompt does on the form. Loaded by the pages that open a form so, on the press.
import type { TaskType } from '@/api/core/rules';

/** Where each kind's form lives (src/app/routes.tsx). */
export const FORM_PATHS: Record<TaskType, string> = {
  image_generate: '/',
  video_translate: '/translate',
  image_to_video: '/image-to-video',
};

/** Each form's draft key (IMAGE_DRAFT_KEY, VIDEO_DRAFT_KEY, I2V_DRAFT_KEY; ./prefill.test.ts holds them equal). */
export const FORM_DRAFT_KEYS: Record<TaskType, string> = {
  image_generate: 'image-generate',
  video_translate: 'video-translate',
  image_to_video: 'image-to-video',
};

/** A list of URLs as the forms hold it: rows of {url}. */
const rows = (value: unknown) =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string').map((url) => ({ url }))
    : value;

/**
 * The form's values for a request's parameters. The form keeps of them only its own fields, of the
 * types it holds (as of any draft), so only what it holds differently is changed here: URL lists
 * become rows; Image to video's duration is a radio's text, and its mode is read from the model and
 * the images (model KL is multi-reference; model V with reference images and no start frame is
 * reference images), which the form then makes consistent as it does a draft.
 */
export function formValuesOf(kind: TaskType, params: Record<string, unknown>): Record<string, unknown> {
  if (kind === 'video_translate') return { ...params };
  const values: Record<string, unknown> = { ...params, reference_images: rows(params.reference_images) };
  if (kind === 'image_generate') return values;
  const references = Array.isArray(params.reference_images) && params.reference_images.length > 0;
  const start = typeof params.image_url === 'string' && params.image_url.trim() !== '';
  return {
    ...values,
    ...(typeof params.duration === 'number' && { duration: String(params.duration) }),
    mode: params.model === 'KL' ? 'multi_reference' : references && !start ? 'reference' : 'start_frame',
  };
}

/** Fills the form of `kind` with `params` (as its draft); the form's address, to open it. */
export function fillForm(kind: TaskType, params: Record<string, unknown>): string {
  // form-draft.ts's saveDraft, written out: importing it would split it from the forms' own code
  // into a file of its own that every form then fetches (./prefill.test.ts reads it back with loadDraft).
  try {
    localStorage.setItem(
      `media-console:draft:${FORM_DRAFT_KEYS[kind]}`,
      JSON.stringify(formValuesOf(kind, params)),
    );
  } catch {
    // Storage full or disabled: the form opens with what it had.
  }
  return FORM_PATHS[kind];
}

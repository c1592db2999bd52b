// The Image to video form's values and what the form does with them, as plain code: the form
// renders, switches rows and builds its request from this module at mount. The zod schema
// (video-form-schema.ts) loads on the form's first focus or press, as in the other two forms.
import {
  IMAGE_TO_VIDEO_DEFAULTS,
  IMAGE_TO_VIDEO_MODE_RULES,
  IMAGE_TO_VIDEO_MODES,
  VIDEO_ASPECT_RATIOS,
  VIDEO_RESOLUTIONS,
  listInWords,
  type ImageToVideoMode,
  type ImageToVideoModel,
  type VideoAspectRatio,
  type VideoResolution,
} from '@/api/image-to-video/image-to-video-rules';
import type { ImageToVideoRequest } from '@/api/image-to-video-request';
import { IMAGE_TO_VIDEO_FIELDS } from '@/api/request-fields';

export interface VideoFormValues {
  model: ImageToVideoModel;
  mode: ImageToVideoMode;
  prompt: string;
  image_url: string;
  end_image_url: string;
  reference_images: { url: string }[];
  aspect_ratio: VideoAspectRatio;
  aspect_resolution: VideoResolution;
  /** seconds, as the radio's value */
  duration: string;
  generate_audio: boolean;
  generate_count: number;
  /** Animate: the image task the start frame came from, and that frame's URL. */
  source_task: string;
  source_url: string;
}

export const VIDEO_FORM_DEFAULTS: VideoFormValues = {
  model: IMAGE_TO_VIDEO_DEFAULTS.model,
  mode: 'start_frame',
  prompt: '',
  image_url: '',
  end_image_url: '',
  reference_images: [],
  aspect_ratio: IMAGE_TO_VIDEO_DEFAULTS.aspect_ratio,
  aspect_resolution: IMAGE_TO_VIDEO_DEFAULTS.aspect_resolution,
  duration: String(IMAGE_TO_VIDEO_MODE_RULES.start_frame.defaultDuration),
  generate_audio: IMAGE_TO_VIDEO_DEFAULTS.generate_audio,
  generate_count: IMAGE_TO_VIDEO_DEFAULTS.generate_count,
  source_task: '',
  source_url: '',
};

type VideoFormField = Exclude<(typeof IMAGE_TO_VIDEO_FIELDS)[number], 'callback_url'>;

/** Request fields the form shows, for placing the service's errors on them. */
export const VIDEO_FORM_FIELDS: readonly VideoFormField[] = IMAGE_TO_VIDEO_FIELDS.filter(
  (field): field is VideoFormField => field !== 'callback_url',
);

/** The body sent to POST /v1/image_to_video: only the fields the chosen row takes, blank rows dropped. */
export function toVideoRequest(values: VideoFormValues): ImageToVideoRequest {
  const rules = IMAGE_TO_VIDEO_MODE_RULES[values.mode];
  const start = values.image_url.trim();
  const end = values.end_image_url.trim();
  return {
    model: rules.model,
    prompt: values.prompt,
    ...(rules.startFrame
      ? { ...(start && { image_url: start }), ...(end && { end_image_url: end }) }
      : { reference_images: values.reference_images.map((row) => row.url.trim()).filter(Boolean) }),
    aspect_ratio: values.aspect_ratio,
    aspect_resolution: values.aspect_resolution,
    duration: Number(values.duration),
    ...(rules.audio && { generate_audio: values.generate_audio }),
    generate_count: values.generate_count,
  };
}

/**
 * A stored draft made safe to use: a mode, ratio or resolution it no longer knows (an older version,
 * a hand-edited storage) falls back to the default, and the row's rules then fix the rest.
 */
export function usableDraft(draft: VideoFormValues): VideoFormValues {
  const known = <T extends string>(value: string, list: readonly T[], fallback: T): T =>
    (list as readonly string[]).includes(value) ? (value as T) : fallback;
  const mode = known(draft.mode, IMAGE_TO_VIDEO_MODES, VIDEO_FORM_DEFAULTS.mode);
  const safe: VideoFormValues = {
    ...draft,
    mode,
    model: IMAGE_TO_VIDEO_MODE_RULES[mode].model,
    aspect_ratio: known(draft.aspect_ratio, VIDEO_ASPECT_RATIOS, VIDEO_FORM_DEFAULTS.aspect_ratio),
    aspect_resolution: known(
      draft.aspect_resolution,
      VIDEO_RESOLUTIONS,
      VIDEO_FORM_DEFAULTS.aspect_resolution,
    ),
    reference_images: draft.reference_images.filter(
      (row): row is { url: string } => typeof row?.url === 'string',
    ),
  };
  return switchVideoForm(safe, { mode }).values;
}

/** Ties go to the longer clip. */
function closest(value: number, allowed: readonly number[]): number {
  return allowed.reduce((best, option) =>
    Math.abs(option - value) < Math.abs(best - value) ||
    (Math.abs(option - value) === Math.abs(best - value) && option > best)
      ? option
      : best,
  );
}

const MODE_NAMES: Record<ImageToVideoMode, string> = {
  start_frame: 'start frame',
  reference: 'reference images',
  multi_reference: 'multi-reference',
};

/**
 * What choosing a model or a mode does to the other values: everything still valid is kept, the
 * rest moves to the nearest valid value, and `change` says what moved in one line (empty when
 * nothing did). The model always follows the mode and the mode the model, so an impossible pair
 * cannot be chosen.
 */
export function switchVideoForm(
  values: VideoFormValues,
  choice: { model: ImageToVideoModel } | { mode: ImageToVideoMode },
): { values: VideoFormValues; change: string } {
  const notes: string[] = [];
  let { mode } = values;
  if ('mode' in choice) {
    mode = choice.mode;
    const model = IMAGE_TO_VIDEO_MODE_RULES[mode].model;
    if (model !== values.model) notes.push(`${MODE_NAMES[mode]} uses model ${model}: model set to ${model}`);
  } else if (IMAGE_TO_VIDEO_MODE_RULES[mode].model !== choice.model) {
    const refsOnly = !values.image_url.trim() && values.reference_images.some((row) => row.url.trim());
    mode = choice.model === 'KL' ? 'multi_reference' : refsOnly ? 'reference' : 'start_frame';
    notes.push(`mode set to ${MODE_NAMES[mode]}`);
  }
  const rules = IMAGE_TO_VIDEO_MODE_RULES[mode];
  const next: VideoFormValues = { ...values, mode, model: rules.model };

  if (!rules.resolutions.includes(next.aspect_resolution)) {
    const fallback = rules.resolutions.at(-1)!;
    notes.push(`${next.aspect_resolution} is not available with ${rules.model}: set to ${fallback}`);
    next.aspect_resolution = fallback;
  }
  const duration = Number(next.duration);
  if (!rules.durations.includes(duration)) {
    const fallback = Number.isFinite(duration) ? closest(duration, rules.durations) : rules.defaultDuration;
    notes.push(
      `${Number.isFinite(duration) ? `${duration} s` : 'that duration'} is not available with ${rules.label}: set to ${listInWords([fallback])} s`,
    );
    next.duration = String(fallback);
  }
  if (next.generate_audio && !rules.audio) {
    notes.push(`audio is not available with ${rules.model}: turned off`);
    next.generate_audio = false;
  }
  const filledRefs = next.reference_images.filter((row) => row.url.trim());
  if (rules.references && filledRefs.length === 0 && next.image_url.trim()) {
    // The frames the user already gave are the obvious references.
    next.reference_images = [next.image_url, next.end_image_url]
      .map((url) => url.trim())
      .filter(Boolean)
      .slice(0, rules.references.max)
      .map((url) => ({ url }));
    notes.push('the start frame is now reference image 1');
  } else if (rules.startFrame && !next.image_url.trim() && filledRefs.length > 0) {
    next.image_url = filledRefs[0]!.url.trim();
    notes.push('reference image 1 is now the start frame');
  }
  if (rules.references && filledRefs.length > rules.references.max) {
    notes.push(
      `${rules.label} takes at most ${rules.references.max} reference images: remove ${filledRefs.length - rules.references.max}`,
    );
  }
  const change = notes.join('; ');
  return { values: next, change: change && `${change.charAt(0).toUpperCase()}${change.slice(1)}.` };
}

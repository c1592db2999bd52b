// Image to video's rules as plain values (no zod): the table of (model, mode) rows, the enums and
// the defaults. The form renders from these at mount; the request schema (image-to-video-request.ts)
// is built from them and loads only when a body is checked.

// The rules differ per model and, for
// model V, per mode (a start frame, or reference images); the mode is not a field of the body but
// follows from which images it carries. One table holds the rules of each (model, mode); the
// schema checks a body against the row its model and images select, and the form reads the same
// row to offer only what that row allows.

import { VIDEO_ASPECT_RATIO_DEFAULT } from '../core/rules';

export const IMAGE_TO_VIDEO_MODELS = ['V', 'KL'] as const;
export type ImageToVideoModel = (typeof IMAGE_TO_VIDEO_MODELS)[number];
export const IMAGE_TO_VIDEO_MODES = ['start_frame', 'reference', 'multi_reference'] as const;
export type ImageToVideoMode = (typeof IMAGE_TO_VIDEO_MODES)[number];
// The aspect ratios live with the interface's other plain values (rules.ts), which every screen
// loads: a task's page sizes a video's frame from them without loading the rest of these rules.
export { VIDEO_ASPECT_RATIOS, type VideoAspectRatio } from '../core/rules';
export const VIDEO_RESOLUTIONS = ['720p', '1080p', '4k'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

interface ImageToVideoModeRules {
  model: ImageToVideoModel;
  /** How messages name the row: `duration: must be 4, 6 or 8 for model V with a start frame`. */
  label: string;
  startFrame: boolean;
  /** Allowed count of reference_images; undefined = the field is not taken. */
  references?: { min: number; max: number };
  resolutions: readonly VideoResolution[];
  /** seconds; the first is the default */
  durations: readonly number[];
  defaultDuration: number;
  audio: boolean;
}

export const IMAGE_TO_VIDEO_MODE_RULES: Record<ImageToVideoMode, ImageToVideoModeRules> = {
  start_frame: {
    model: 'V',
    label: 'model V with a start frame',
    startFrame: true,
    resolutions: VIDEO_RESOLUTIONS,
    durations: [4, 6, 8],
    defaultDuration: 8,
    audio: true,
  },
  reference: {
    model: 'V',
    label: 'model V with reference images',
    startFrame: false,
    references: { min: 1, max: 3 },
    resolutions: VIDEO_RESOLUTIONS,
    durations: [8],
    defaultDuration: 8,
    audio: true,
  },
  multi_reference: {
    model: 'KL',
    label: 'model KL',
    startFrame: false,
    references: { min: 1, max: 7 },
    resolutions: ['720p', '1080p'],
    durations: [5, 10],
    defaultDuration: 5,
    audio: false,
  },
};

export const IMAGE_TO_VIDEO_DEFAULTS = {
  model: 'V',
  aspect_ratio: VIDEO_ASPECT_RATIO_DEFAULT,
  aspect_resolution: '720p',
  generate_audio: false,
  generate_count: 1,
} as const;

/** "4, 6 or 8", "720p or 1080p" */
export function listInWords(values: readonly (string | number)[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

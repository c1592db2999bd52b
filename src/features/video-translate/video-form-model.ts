// The Translate video form's values without zod: defaults, the fields it shows and the request it
// sends. The screen renders from this module; the schema (video-form-schema.ts) loads on the
// first interaction.
import { VIDEO_TRANSLATE_DEFAULTS } from '@/api/core/rules';
import type { VideoTranslateRequest } from '@/api/schemas';
import { VIDEO_TRANSLATE_FIELDS } from '@/api/request-fields';
import type { VideoFormOutput } from './schema/video-form-schema';

export type { VideoFormInput, VideoFormOutput } from './schema/video-form-schema';

export interface VideoFormValues {
  target_languages: string[];
  video_url: string;
  speaker_num: number;
  translate_audio_only: boolean;
  enable_dynamic_duration: boolean;
  enable_caption: boolean;
  name: string;
  callback_url: string;
}

export const VIDEO_FORM_DEFAULTS: VideoFormValues = {
  target_languages: [],
  video_url: '',
  ...VIDEO_TRANSLATE_DEFAULTS,
  name: '',
  callback_url: '',
};

/** The form shows every request field, for placing the service's 100001/100002 errors. */
export const VIDEO_FORM_FIELDS = VIDEO_TRANSLATE_FIELDS;

/** The body sent to POST /v1/video_translate; empty optional text fields are not sent. */
export function toVideoRequest(values: VideoFormOutput): VideoTranslateRequest {
  return {
    target_languages: values.target_languages,
    video_url: values.video_url,
    ...(values.speaker_num !== undefined && { speaker_num: values.speaker_num }),
    translate_audio_only: values.translate_audio_only,
    enable_dynamic_duration: values.enable_dynamic_duration,
    enable_caption: values.enable_caption,
    ...(values.name && { name: values.name }),
    ...(values.callback_url && { callback_url: values.callback_url }),
  };
}

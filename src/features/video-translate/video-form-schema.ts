// The Translate video form's rules, built from the request schema's own field schemas
// (src/api/schemas.ts). Form-only: blank optional text fields are allowed and left out of the body.
import { z } from '@/api/zod';
import {
  CONSOLE_INBOX,
  VIDEO_TRANSLATE_DEFAULTS,
  videoNameSchema,
  videoTranslateRequestSchema,
  type VideoTranslateRequest,
} from '@/api/schemas';
import { VIDEO_TRANSLATE_FIELDS } from '@/api/request-fields';

const shape = videoTranslateRequestSchema.shape;

export const videoFormSchema = z.object({
  target_languages: shape.target_languages,
  video_url: shape.video_url,
  speaker_num: shape.speaker_num,
  translate_audio_only: z.boolean(),
  enable_dynamic_duration: z.boolean(),
  enable_caption: z.boolean(),
  name: videoNameSchema,
  callback_url: z.union([z.literal(''), z.literal(CONSOLE_INBOX), shape.callback_url]),
});

export type VideoFormInput = z.input<typeof videoFormSchema>;
export type VideoFormOutput = z.output<typeof videoFormSchema>;

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

/** Common languages offered when the backend has no GET /v1/video_translate/target_languages. */
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

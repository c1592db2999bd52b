// The Translate video form's rules, built from the request schema's own field schemas
// (src/api/schemas.ts). Form-only: blank optional text fields are allowed and left out of the body.
import { z } from '@/api/zod';
import { CONSOLE_INBOX, videoNameSchema, videoTranslateRequestSchema } from '@/api/schemas';

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

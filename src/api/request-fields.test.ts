// The written-out field lists must match the request schemas, order included: the emulator reports
// the first field of a body first by this order.
import { describe, expect, it } from 'vitest';
import { IMAGE_GENERATE_FIELDS, IMAGE_TO_VIDEO_FIELDS, VIDEO_TRANSLATE_FIELDS } from './request-fields';
import { imageGenerateRequestSchema, videoTranslateRequestSchema } from './schemas';
import { imageToVideoRequestSchema } from './image-to-video-request';

describe('request field lists', () => {
  it.each([
    ['image_generate', IMAGE_GENERATE_FIELDS, imageGenerateRequestSchema.shape],
    ['video_translate', VIDEO_TRANSLATE_FIELDS, videoTranslateRequestSchema.shape],
    ['image_to_video', IMAGE_TO_VIDEO_FIELDS, imageToVideoRequestSchema.shape],
  ])('%s lists its schema fields in order', (_name, fields, shape) => {
    expect([...fields]).toEqual(Object.keys(shape));
  });
});

// Examples of each callback, to insert in the paste box: plain data, shown before zod is loaded.
import type { CallbackBody } from '@/api/schemas';

/** Documented examples (api-spec section 6), to start from when pasting by hand. */
export const CALLBACK_EXAMPLES = {
  video_translate: {
    code: 0,
    msg: 'ok',
    task_type: 'video_translate',
    data: {
      task_id: 'vt-example-1',
      name: 'English-product-demo',
      language: 'English',
      status: 'SUCCEEDED',
      video_url: 'https://example.com/videos/English-product-demo.mp4',
      caption_url: 'https://example.com/videos/English-product-demo.ass',
      error_message: '',
    },
  },
  image_to_video: {
    code: 0,
    msg: 'ok',
    task_type: 'image_to_video',
    data: {
      task_id: 'i2v-example-1',
      status: 'SUCCEEDED',
      video_url: 'https://example.com/videos/i2v-example-1.mp4',
      thumbnail_url: 'https://example.com/videos/i2v-example-1.jpg',
      error_message: '',
    },
  },
  image_generate: {
    code: 0,
    msg: 'ok',
    task_type: 'image_generate',
    data: {
      task_id: 'i2is-example-1',
      status: 'SUCCEEDED',
      image_url: 'https://example.com/images/i2is-example-1.png',
      error_message: '',
    },
  },
} as const satisfies Record<string, CallbackBody>;

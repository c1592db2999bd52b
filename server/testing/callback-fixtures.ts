// The documented callback forms (api-spec section 6), shared by the inbox tests.
export const videoTranslateCallback = {
  code: 0,
  msg: 'ok',
  task_type: 'video_translate',
  data: {
    task_id: 'vt-1001',
    name: 'English-demo',
    language: 'English',
    status: 'SUCCEEDED',
    video_url: 'https://cdn.example.com/vt-1001.mp4',
    caption_url: 'https://cdn.example.com/vt-1001.ass',
    error_message: '',
  },
};

export const imageToVideoCallback = {
  code: 0,
  msg: 'ok',
  task_type: 'image_to_video',
  data: {
    task_id: 'i2v-2002',
    status: 'SUCCEEDED',
    video_url: 'https://cdn.example.com/i2v-2002.mp4',
    thumbnail_url: 'https://cdn.example.com/i2v-2002.jpg',
    error_message: '',
  },
};

export const imageGenerateCallback = {
  code: 0,
  msg: 'ok',
  task_type: 'image_generate',
  data: { task_id: 'i2is-3003', status: 'FAILED', image_url: '', error_message: 'Content policy' },
};

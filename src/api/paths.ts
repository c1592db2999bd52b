// The interface's paths, in one place for the client, the cURL text and the tests.
export const API_PATHS = {
  imageGenerate: '/v1/image_generate',
  videoTranslate: '/v1/video_translate',
  imageToVideo: '/v1/image_to_video',
  targetLanguages: '/v1/video_translate/target_languages',
  imageGenerateTask: (id: string) => `/v1/image_generate/${encodeURIComponent(id)}`,
  videoTranslateTask: (id: string) => `/v1/video_translate/${encodeURIComponent(id)}`,
  imageToVideoTask: (id: string) => `/v1/image_to_video/${encodeURIComponent(id)}`,
} as const;

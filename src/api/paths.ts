// The interface's paths, in one place for the client, the cURL text and the tests; and the cURL text
// itself, so a screen can show it without loading the endpoint functions.
export const API_PATHS = {
  imageGenerate: '/v1/image_generate',
  videoTranslate: '/v1/video_translate',
  imageToVideo: '/v1/image_to_video',
  targetLanguages: '/v1/video_translate/target_languages',
  imageGenerateTask: (id: string) => `/v1/image_generate/${encodeURIComponent(id)}`,
  videoTranslateTask: (id: string) => `/v1/video_translate/${encodeURIComponent(id)}`,
  imageToVideoTask: (id: string) => `/v1/image_to_video/${encodeURIComponent(id)}`,
} as const;

/** The exact request as a shell command; the token stays a variable so it is never displayed. */
export function toCurl(method: 'GET' | 'POST', path: string, body?: unknown): string {
  const lines = [`curl -X ${method} "$API_BASE_URL${path}"`, `  -H "Authorization: Bearer $API_TOKEN"`];
  if (body !== undefined) {
    const json = JSON.stringify(body).replace(/'/g, `'\\''`);
    lines.push(`  -H "Content-Type: application/json"`, `  -d '${json}'`);
  }
  return lines.join(' \\\n');
}

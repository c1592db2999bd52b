// GET /v1/video_translate/target_languages, a provider extra, checked by hand so the Translate video
// screen can ask for it as it opens without loading zod (its schema is one line).
import { apiRequest, type Parser } from './client';
import { API_PATHS } from './paths';

const languageList: Parser<string[]> = {
  safeParse: (value) =>
    Array.isArray(value) && value.every((item) => typeof item === 'string')
      ? { success: true, data: value as string[] }
      : { success: false, error: { issues: [{ path: [], message: 'expected a list of language names' }] } },
};

export const getTargetLanguages = (signal?: AbortSignal) =>
  apiRequest(API_PATHS.targetLanguages, { schema: languageList, signal });

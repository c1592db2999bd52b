// GET /v1/video_translate/target_languages, a provider extra the Translate video screen asks for as
// it opens. Any failure there means "use the built-in list", so it is read with a bare fetch and
// checked by hand: the client, the envelope check and the error explanations load with the first
// request whose failure the screen has to explain (a submit).
import { API_PATHS } from './paths';

export async function getTargetLanguages(signal?: AbortSignal): Promise<string[]> {
  const response = await fetch(API_PATHS.targetLanguages, {
    signal,
    headers: { accept: 'application/json' },
  });
  const body: unknown = await response.json().catch(() => undefined);
  const { code, data } = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (!response.ok || code !== 0 || !Array.isArray(data) || !data.every((item) => typeof item === 'string'))
    throw new Error(`The language list could not be read (HTTP ${response.status})`);
  return data as string[];
}

import { createContext, useContext, useEffect, useState } from 'react';
import type { VideoTranslateRequest } from '@/api/schemas';
import { recordCreatedTasksSafely } from '@/forms/record-created';

interface CreatedTranslations {
  body: VideoTranslateRequest;
  tasks: { task_id: string; language: string }[];
  curl: string;
  historyNote?: string;
}

/** POST /v1/video_translate (one task per language), then the new tasks into the history. */
export async function createTranslations(
  body: VideoTranslateRequest,
  /** The names of files uploaded into the request's fields, for the history. */
  fileNames?: (url: string) => string | undefined,
): Promise<CreatedTranslations> {
  const { API_PATHS, createVideoTranslation, toCurl } = await import('@/api/endpoints');
  const data = await createVideoTranslation(body);
  const tasks = data.map(({ task_id, language }) => ({ task_id, language }));
  return {
    body,
    tasks,
    curl: toCurl('POST', API_PATHS.videoTranslate, body),
    historyNote: await recordCreatedTasksSafely('video_translate', body, tasks, { fileNames }),
  };
}

/**
 * Asks the backend's language list once; not part of the interface, so any failure means "use the
 * built-in list" (undefined).
 */
export function targetLanguagesOnce(): () => Promise<string[] | undefined> {
  let languages: Promise<string[] | undefined> | undefined;
  return () =>
    (languages ??= import('@/api/languages')
      .then(({ getTargetLanguages }) => getTargetLanguages())
      .catch(() => undefined));
}

/** Where the form gets the list: asked once per page unless a provider gives another source. */
export const TargetLanguagesContext = createContext(targetLanguagesOnce());

export function useTargetLanguages(): { data?: string[]; isPending: boolean } {
  const load = useContext(TargetLanguagesContext);
  const [data, setData] = useState<string[] | undefined>();
  const [isPending, setPending] = useState(true);
  useEffect(() => {
    let current = true;
    void load().then((list) => {
      if (!current) return;
      setData(list);
      setPending(false);
    });
    return () => {
      current = false;
    };
  }, [load]);
  return { data, isPending };
}

// What a re-run of a task sends: the request it was made by, except that a translation task covers
// one language, so its re-run (and its "Edit and re-run") asks for that language only. Plain code,
// loaded with the re-run's confirmation and with the re-run itself.
import type { TaskRecord } from '@/features/tasks/history/task-record';

export function rerunParams(
  record: Pick<TaskRecord, 'kind' | 'params' | 'language'>,
): Record<string, unknown> {
  const params =
    record.params && typeof record.params === 'object' && !Array.isArray(record.params)
      ? (record.params as Record<string, unknown>)
      : {};
  if (record.kind === 'video_translate' && record.language)
    return { ...params, target_languages: [record.language] };
  return params;
}

/** "Try again" on one failed tile of a request: the same parameters, for one task. */
export function retryParams(
  record: Pick<TaskRecord, 'kind' | 'params' | 'language'>,
): Record<string, unknown> {
  const params = rerunParams(record);
  return record.kind === 'video_translate' ? params : { ...params, generate_count: 1 };
}

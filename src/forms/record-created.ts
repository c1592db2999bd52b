import type { TaskType } from '@/api/schemas';

/**
 * Puts newly created tasks into this browser's history. The tasks exist on the service either way,
 * so a failure here must not hide them: it comes back as a note for the created-tasks panel.
 */
export async function recordCreatedTasksSafely(
  kind: TaskType,
  body: unknown,
  tasks: { task_id: string; language?: string }[],
  options: { animatedFrom?: string; fileNames?: (url: string) => string | undefined } = {},
): Promise<string | undefined> {
  try {
    // Loaded on first use: the history store (IndexedDB) is not needed to show a form.
    const [{ recordCreatedTasks }, { filesOfRequest }] = await Promise.all([
      import('@/features/tasks/history/history'),
      import('@/api/task-detail/request-files'),
    ]);
    // Which request fields hold uploaded files, by name: kept beside the request, never sent.
    const files = options.fileNames ? filesOfRequest(body, options.fileNames) : [];
    await recordCreatedTasks(kind, body, tasks, { animatedFrom: options.animatedFrom, files });
    try {
      localStorage.setItem('media-console:sent-requests', '1'); // forms/creation-form-layout.tsx SENT_KEY
    } catch {
      // without storage the form shows no recent requests; nothing else depends on it
    }
    return undefined;
  } catch {
    return 'These tasks could not be saved in this browser’s task history; keep the ids.';
  }
}

// A callback lands in the task history through the same door as a poll answer, so the rules
// (unknown task added, terminal status never undone, polling stops) live in one place.
import type { CallbackBody } from '@/api/schemas';
import type { TaskRecord } from '@/features/tasks/history';

/**
 * The history store (IndexedDB) loads with the first callback to apply, not with the stream or the
 * Callbacks screen; on the Tasks screen it is loaded already, so nothing waits for it there.
 */
export async function applyCallback(body: CallbackBody): Promise<TaskRecord> {
  const { applyTaskUpdate } = await import('@/features/tasks/history');
  return applyTaskUpdate(body.data.task_id, body.task_type, body.data, 'callback');
}

/** Applies callbacks one after another, in log order, however fast they arrive. */
export function createApplyQueue(onError: (error: unknown) => void = console.error) {
  let tail: Promise<unknown> = Promise.resolve();
  return (body: CallbackBody, after?: () => void): Promise<void> => {
    const next = tail.then(() => applyCallback(body)).then(after, onError);
    tail = next;
    return next;
  };
}

// A callback lands in the task history through the same door as a poll answer, so the rules
// (unknown task added, terminal status never undone, polling stops) live in one place.
import type { CallbackBody } from '@/api/schemas';
import { applyTaskUpdate, type TaskRecord } from '@/features/tasks/history';

export function applyCallback(body: CallbackBody): Promise<TaskRecord> {
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

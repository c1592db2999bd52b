// A callback is a hint, never the result: anyone who has the inbox address can send one, and the
// service's status answer is the truth. The console's server asks the service as soon as a callback
// arrives and records the answer (server/callbacks/hints.ts). Here a callback only makes this
// browser check a task it follows at once (its poller's status query) rather than at the next poll:
// nothing in the callback reaches the history, and a task the history does not hold is not added.
import type { CallbackBody } from '@/api/schemas';

/**
 * The history store, the query client and the status keys load with the first callback to handle,
 * not with the stream or the Callbacks screen. Resolves to whether a status check was asked for.
 */
export async function applyCallback(body: CallbackBody): Promise<boolean> {
  const [{ loadHistory, peekTask }, { isTerminalStatus }, { queryClient }, { taskKeys }] = await Promise.all([
    import('@/features/tasks/history/history'),
    import('@/api/status'),
    import('@/api/query/query-client'),
    import('@/api/endpoints'),
  ]);
  await loadHistory();
  const record = peekTask(body.data.task_id);
  if (!record || isTerminalStatus(record.status)) return false;
  await queryClient.invalidateQueries({ queryKey: taskKeys.task(record.kind, record.id) });
  return true;
}

/** Handles callbacks one after another, in log order, however fast they arrive. */
export function createApplyQueue(onError: (error: unknown) => void = console.error) {
  let tail: Promise<unknown> = Promise.resolve();
  return (body: CallbackBody, after?: () => void): Promise<void> => {
    const next = tail.then(() => applyCallback(body)).then(() => after?.(), onError);
    tail = next;
    return next;
  };
}

// What follows when the recorder writes a task: new tasks are followed, put on the board their form
// chose and matched with a callback that beat their creation answer; a task that ends wakes the
// copy job (its files are kept) and the webhook sender (its request may have ended).
import { isTerminalStatus } from '../../src/api/status';
import type { CallbackHints } from '../callbacks/hints';
import type { Follower } from '../follow/follower';
import type { WebhookSender } from '../notify/sender';
import type { CopyJob } from '../results/copy-job';
import type { TaskRecorder } from '../tasks/recorder';
import type { BoardRoutes } from '../boards/routes';

export interface RecorderHooks {
  follower: Follower;
  hints: CallbackHints;
  results: CopyJob;
  webhooks: WebhookSender;
  /** "Save to board" on a creation form: the board routes, made after the recorder. */
  boards: () => BoardRoutes;
  ownOrigin: string;
}

export function hookRecorder(recorder: TaskRecorder, hooks: RecorderHooks): void {
  const recordCreated = recorder.created;
  recorder.created = async (...args) => {
    await recordCreated(...args);
    hooks.follower.wake();
    const ids = args[2].map((task) => task.id);
    const boardId = args[5]?.boardId;
    if (boardId) await hooks.boards().addCreated(boardId, ids, args[3]);
    await hooks.hints.created(ids, hooks.ownOrigin);
  };
  const recordStatus = recorder.status;
  recorder.status = async (...args) => {
    const written = await recordStatus(...args);
    if (written && args[2].status === 'SUCCEEDED') hooks.results.wake();
    if (written && isTerminalStatus(String(args[2].status))) hooks.webhooks.wake();
    return written;
  };
}

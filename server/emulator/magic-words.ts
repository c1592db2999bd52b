// Words in a prompt, a video name or a video URL that steer the emulator, so demos and tests can
// show every outcome on purpose:
//   emulator:reject          creation answers HTTP 200 {code: 530003, msg: "create task failed: ..."}
//   emulator:fail            the task runs, then ends FAILED with an error_message
//   emulator:status=WORD     the task moves to the non-terminal status WORD and stays there
import type { Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { TERMINAL_STATUSES } from '../../src/api/schemas';
import { fail } from './envelope';

export type TaskOutcome =
  { type: 'succeed' } | { type: 'fail'; errorMessage: string } | { type: 'stuck'; status: string };

export const EMULATED_FAILURE_MESSAGE =
  'Emulated failure: the model could not process this request (emulator:fail)';

export function wantsReject(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => text?.includes('emulator:reject'));
}

/** The creation answer to `emulator:reject`, the same for every kind of task. */
export function rejectedOnPurpose(c: Context): Response {
  return fail(
    c,
    200,
    ERROR_CODES.taskCreation,
    'create task failed: the request was rejected on purpose (emulator:reject)',
  );
}

export function outcomeFor(...texts: (string | undefined)[]): TaskOutcome {
  for (const text of texts) {
    if (text?.includes('emulator:fail')) return { type: 'fail', errorMessage: EMULATED_FAILURE_MESSAGE };
  }
  for (const text of texts) {
    const status = text && /emulator:status=([A-Za-z][\w-]{0,39})/.exec(text)?.[1];
    if (status && !(TERMINAL_STATUSES as readonly string[]).includes(status))
      return { type: 'stuck', status };
  }
  return { type: 'succeed' };
}

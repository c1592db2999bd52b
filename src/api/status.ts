import { TERMINAL_STATUSES } from './core/rules';

type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** `SUCCEEDED` and `FAILED` end a task; any other string means it is still running. */
export function isTerminalStatus(status: string | undefined | null): status is TerminalStatus {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

type StatusTone = 'succeeded' | 'failed' | 'running';

export function statusTone(status: string): StatusTone {
  if (status === 'SUCCEEDED') return 'succeeded';
  if (status === 'FAILED') return 'failed';
  return 'running';
}

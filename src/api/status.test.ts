import { describe, expect, it } from 'vitest';
import { TERMINAL_STATUSES } from './schemas';
import { isTerminalStatus, statusTone } from './status';

describe('task status', () => {
  it('SUCCEEDED and FAILED are terminal', () => {
    expect(TERMINAL_STATUSES).toEqual(['SUCCEEDED', 'FAILED']);
    expect(isTerminalStatus('SUCCEEDED')).toBe(true);
    expect(isTerminalStatus('FAILED')).toBe(true);
    expect(statusTone('SUCCEEDED')).toBe('succeeded');
    expect(statusTone('FAILED')).toBe('failed');
  });

  it.each(['GENERATING', 'PENDING', 'PROCESSING', 'weird', '', 'succeeded', 'Failed', ' SUCCEEDED'])(
    '%j is still in progress',
    (status) => {
      expect(isTerminalStatus(status)).toBe(false);
      expect(statusTone(status)).toBe('running');
    },
  );

  it('a missing status is not terminal', () => {
    expect(isTerminalStatus(undefined)).toBe(false);
    expect(isTerminalStatus(null)).toBe(false);
  });
});

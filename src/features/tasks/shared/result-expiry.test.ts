import { describe, expect, it } from 'vitest';
import { isResultExpired, RESULT_LIFETIME_MS } from './result-expiry';

const finishedAt = Date.UTC(2026, 0, 10, 12);
const createdAt = finishedAt - 60_000;

describe('result links expire after about 7 days', () => {
  it('counts from the finish: valid up to the last millisecond, expired from 7 days on', () => {
    const task = { status: 'SUCCEEDED', createdAt, finishedAt };
    expect(RESULT_LIFETIME_MS).toBe(7 * 24 * 3600 * 1000);
    expect(isResultExpired(task, finishedAt + RESULT_LIFETIME_MS - 1)).toBe(false);
    expect(isResultExpired(task, finishedAt + RESULT_LIFETIME_MS)).toBe(true);
    expect(isResultExpired(task, finishedAt + RESULT_LIFETIME_MS + 1)).toBe(true);
  });

  it('counts from the creation when the finish time is unknown', () => {
    const task = { status: 'SUCCEEDED', createdAt };
    expect(isResultExpired(task, createdAt + RESULT_LIFETIME_MS - 1)).toBe(false);
    expect(isResultExpired(task, createdAt + RESULT_LIFETIME_MS)).toBe(true);
  });

  it('only a succeeded task has a result to expire', () => {
    const late = createdAt + 30 * RESULT_LIFETIME_MS;
    expect(isResultExpired({ status: 'FAILED', createdAt, finishedAt }, late)).toBe(false);
    expect(isResultExpired({ status: 'PROCESSING', createdAt }, late)).toBe(false);
  });
});

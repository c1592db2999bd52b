// @vitest-environment jsdom
// An admin sees how the server follows unfinished tasks: how many, the oldest's age, a pause the
// service asked for, and the last error with the task it was about (GET /__console/follow).
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { FollowingSection } from './following-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOW = Date.parse('2026-11-28T12:00:00Z');

function answer(data: unknown, status = 200) {
  const fetchMock = vi.fn(async () =>
    Response.json(
      status === 200
        ? { code: 0, data }
        : { code: status, msg: 'Only admins can see how tasks are followed' },
      { status },
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('Following tasks', () => {
  it('shows the count, the oldest, the pause and the last error with its task', async () => {
    const fetchMock = answer({
      following: 1234,
      ended: 2,
      oldestCreatedAt: new Date(NOW - 3 * 60_000).toISOString(),
      brakedUntil: new Date(NOW + 30_000).toISOString(),
      lastError: {
        kind: 'rate_limit',
        httpStatus: 429,
        msg: 'Rate limit exceeded',
        taskId: 'i2v-late',
        at: new Date(NOW - 5_000).toISOString(),
      },
    });
    render(
      <Router>
        <FollowingSection now={() => NOW} />
      </Router>,
    );
    const section = await screen.findByRole('region', { name: 'Following tasks' });
    expect(await within(section).findByText(/1,234 tasks/)).toBeVisible();
    expect(section).toHaveTextContent('the oldest has run for 3m 00s');
    expect(section).toHaveTextContent('2 tasks no longer asked about');
    expect(section).toHaveTextContent('The service asked for a pause');
    expect(section).toHaveTextContent('HTTP 429 Rate limit exceeded for task i2v-late');
    expect(within(section).getByRole('link', { name: 'i2v-late' })).toHaveAttribute(
      'href',
      '/tasks/i2v-late',
    );
    expect(fetchMock).toHaveBeenCalledWith('/__console/follow', expect.anything());
  });

  it('says so when nothing went wrong, and why when the server refuses', async () => {
    answer({ following: 1, ended: 0, oldestCreatedAt: null, brakedUntil: null, lastError: null });
    render(<FollowingSection now={() => NOW} />);
    const section = await screen.findByRole('region', { name: 'Following tasks' });
    expect(await within(section).findByText('No error from the service so far.')).toBeVisible();
    expect(section).toHaveTextContent('1 task.');
    expect(section).not.toHaveTextContent('pause');
    cleanup();
    answer(undefined, 403);
    render(<FollowingSection now={() => NOW} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only admins can see how tasks are followed');
  });
});

// @vitest-environment jsdom
// A request's own actions (./request-actions.tsx) by role: a viewer downloads, and is shown Re-run
// off with the reason; a creator's Re-run… asks first, naming whose request it is.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import type { TeamRequest } from '@/features/tasks/team/team-tasks';
import { RequestActions } from './request-actions';

afterEach(cleanup);

const PARAMS = { prompt: 'A paper boat', generate_count: 2 };
const request = {
  id: 'req-t1',
  kind: 'image_generate',
  creator: 'Ada',
  createdAt: 0,
  tasks: [{ id: 't1', status: 'SUCCEEDED', creatorId: 'user-ada' }],
} as unknown as TeamRequest;

function renderAs(role: 'viewer' | 'creator', name: string, id: string) {
  const info = testConsoleInfo({ user: { id, name, role, source: 'proxy' } });
  render(
    withConsoleInfo(
      info,
      <QueryClientProvider client={new QueryClient()}>
        <Router hook={memoryLocation({ path: '/requests/req-t1' }).hook}>
          <RequestActions request={request} params={PARAMS} />
        </Router>
      </QueryClientProvider>,
    ),
  );
}

describe('a request’s actions', () => {
  it('lets a viewer download all, and shows Re-run off with the reason and no Use this prompt', () => {
    renderAs('viewer', 'Vera', 'user-vera');
    expect(screen.getByRole('link', { name: 'Download all' })).toHaveAttribute(
      'href',
      '/__console/requests/req-t1/zip',
    );
    const rerun = screen.getByRole('button', { name: 'Re-run…' });
    expect(rerun).toBeDisabled();
    expect(rerun).toHaveAccessibleDescription(/Only creators and admins can re-run requests/);
    expect(screen.queryByRole('button', { name: 'Use this prompt' })).toBeNull();
  });

  it('asks a creator first, with the cost and whose request it is', async () => {
    const user = userEvent.setup();
    renderAs('creator', 'Grace', 'user-grace');
    await user.click(screen.getByRole('button', { name: 'Re-run…' }));
    const question = await screen.findByRole('group', { name: 'Re-run this request' });
    expect(question).toHaveTextContent(
      'Re-run sends the same request again and spends 2 tasks and 2 images as a new request in your name (this is Ada’s request).',
    );
    expect(within(question).getByRole('button', { name: 'Re-run as mine' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Re-run this request' })).toBeNull();
  });
});

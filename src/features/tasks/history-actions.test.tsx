// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setConsoleInfoForTests } from '@/api/console-info';
import { testConsoleInfo } from '@/testing/console-info';
import { HistoryActions } from './history-actions';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('Settings → who you are', () => {
  it('shows the signed-in person and offers no name to edit (the server records who signed in)', async () => {
    setConsoleInfoForTests(
      testConsoleInfo({ auth: true, user: { id: 'u1', name: 'Ada', role: 'creator', source: 'oidc' } }),
    );
    render(<HistoryActions />);
    await userEvent.click(screen.getByText('Settings'));
    expect(await screen.findByText('Ada')).toBeVisible();
    expect(screen.getByText('Recorded as the creator of the tasks you make.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).toBeNull();
  });
});

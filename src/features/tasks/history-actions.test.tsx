// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setConsoleInfoForTests } from '@/api/console-info';
import { readDisplayName } from '@/api/display-name';
import { testConsoleInfo } from '@/testing/console-info';
import { HistoryActions } from './history-actions';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('Settings → Your name', () => {
  it('without a sign-in, edits this browser’s display name', async () => {
    setConsoleInfoForTests(testConsoleInfo());
    render(<HistoryActions />);
    await userEvent.click(screen.getByText('Settings'));
    // The menu's code loads when it is first pointed at or opened.
    await userEvent.type(await screen.findByRole('textbox', { name: 'Your name' }), 'Grace');
    expect(readDisplayName()).toBe('Grace');
  });

  it('with a sign-in, shows the session’s name and offers nothing to edit (the server ignores it)', async () => {
    setConsoleInfoForTests(testConsoleInfo({ auth: true, user: 'Ada' }));
    render(<HistoryActions />);
    await userEvent.click(screen.getByText('Settings'));
    expect(await screen.findByText('Ada')).toBeVisible();
    expect(screen.getByText('From the sign-in page.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).toBeNull();
  });
});

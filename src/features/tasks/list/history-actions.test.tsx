// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { HistoryActions } from './history-actions';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('Settings → who you are', () => {
  it('shows the signed-in person and offers no name to edit (the server records who signed in)', async () => {
    const info = testConsoleInfo({
      auth: true,
      user: { id: 'u1', name: 'Ada', role: 'creator', source: 'oidc' },
    });
    render(withConsoleInfo(info, <HistoryActions />));
    await userEvent.click(screen.getByRole('button', { name: 'More' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Settings…' }));
    expect(await screen.findByText('Ada')).toBeVisible();
    expect(screen.getByText('Recorded as the creator of the tasks you make.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).toBeNull();
  });
});

describe('the More menu', () => {
  it('is a menu button: arrows move between the items, Escape closes it and focus goes back', async () => {
    render(withConsoleInfo(testConsoleInfo(), <HistoryActions />));
    const button = screen.getByRole('button', { name: 'More' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Export history', 'Import history…', 'Settings…']);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Export history' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Import history…' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Settings…' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });
});

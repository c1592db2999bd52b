// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setConsoleInfoForTests } from '@/api/console-info';
import { readDisplayName, saveDisplayName } from '@/api/display-name';
import { testConsoleInfo } from '@/testing/console-info';
import { NamePrompt } from './name-prompt';

beforeEach(() => {
  localStorage.clear();
  setConsoleInfoForTests(testConsoleInfo());
});
afterEach(cleanup);

const prompt = () => screen.queryByRole('region', { name: 'Name for your tasks' });

describe('first-visit name prompt', () => {
  it('asks a browser without a name, saves what is typed, and does not ask again', async () => {
    const { unmount } = render(<NamePrompt />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Name for your tasks' }), '  Ada Lovelace ');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(readDisplayName()).toBe('Ada Lovelace');
    expect(prompt()).toBeNull();
    unmount();
    saveDisplayName(''); // cleared later in Settings: still not asked twice
    render(<NamePrompt />);
    expect(prompt()).toBeNull();
  });

  it('an empty name saves nothing and keeps asking', async () => {
    render(<NamePrompt />);
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(readDisplayName()).toBe('');
    expect(prompt()).toBeInTheDocument();
  });

  it('"Not now" dismisses it for good', async () => {
    const { unmount } = render(<NamePrompt />);
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(prompt()).toBeNull();
    unmount();
    render(<NamePrompt />);
    expect(prompt()).toBeNull();
  });

  it('is not shown when the browser already has a name, or when a sign-in names the user', () => {
    saveDisplayName('Grace');
    const { unmount } = render(<NamePrompt />);
    expect(prompt()).toBeNull();
    unmount();
    localStorage.clear();
    setConsoleInfoForTests(testConsoleInfo({ auth: true, user: 'Grace' }));
    render(<NamePrompt />);
    expect(prompt()).toBeNull();
  });

  it('is laid out in the first render, before /__console/config answers (nothing moves when it does)', () => {
    setConsoleInfoForTests(undefined);
    render(<NamePrompt />);
    expect(prompt()).toBeInTheDocument();
  });

  it('is not shown on a page the server marks as signed in, even before the config answers', () => {
    setConsoleInfoForTests(undefined);
    const meta = document.createElement('meta');
    meta.name = 'console-sign-in';
    meta.content = 'required';
    document.head.append(meta);
    try {
      render(<NamePrompt />);
      expect(prompt()).toBeNull();
    } finally {
      meta.remove();
    }
  });
});

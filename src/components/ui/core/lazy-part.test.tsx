// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyPart, PartFailed } from './lazy-part';

afterEach(cleanup);

describe('a part whose code loads later', () => {
  it('shows its own failure when the code cannot load, and the screen around it stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(
      <main>
        <h1>Tasks</h1>
        <LazyPart loading={<p>Loading…</p>} failed={<PartFailed what="Settings" />}>
          <Broken />
        </LazyPart>
      </main>,
    );
    expect(screen.getByText('Loading…')).toBeVisible();
    expect(await screen.findByRole('alert')).toHaveTextContent('Settings could not load. Reload the page');
    expect(screen.getByRole('heading', { name: 'Tasks' })).toBeVisible();
  });

  it('shows the part once its code is there', async () => {
    const Fine = lazy(async () => ({ default: () => <p>Settings menu</p> }));
    render(
      <LazyPart failed={<PartFailed what="Settings" />}>
        <Fine />
      </LazyPart>,
    );
    expect(await screen.findByText('Settings menu')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

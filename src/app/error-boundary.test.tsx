// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

/** A screen that crashes while `state.crash` is true, like a render error on bad data. */
const state = { crash: true };
function Screen({ name = 'Tasks' }: { name?: string }) {
  if (state.crash) throw new Error(`${name} exploded`);
  return <h1>{name} screen</h1>;
}

beforeEach(() => {
  state.crash = true;
  // React and the boundary report the caught error on the console; keep the test output clean.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ErrorBoundary', () => {
  it('shows the problem in an alert instead of the crashed screen', () => {
    render(
      <ErrorBoundary resetKey="/tasks">
        <Screen />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This screen ran into a problem');
    expect(alert).toHaveTextContent('Tasks exploded');
    expect(screen.getByRole('heading', { name: 'This screen ran into a problem' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Tasks screen' })).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Screen crashed', expect.any(Error), expect.anything());
  });

  it('"Try again" renders the screen again once it no longer throws', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary resetKey="/tasks">
        <Screen />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    state.crash = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tasks screen' })).toBeInTheDocument();
  });

  it('"Try again" on a screen that still throws shows the alert again', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary resetKey="/tasks">
        <Screen />
      </ErrorBoundary>,
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This screen ran into a problem');
  });

  it('clears the error when resetKey changes (another route)', () => {
    const view = render(
      <ErrorBoundary resetKey="/tasks">
        <Screen />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    state.crash = false;
    // The same key keeps the alert: only a new key (a new route) clears it.
    view.rerender(
      <ErrorBoundary resetKey="/tasks">
        <Screen name="Callbacks" />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    view.rerender(
      <ErrorBoundary resetKey="/callbacks">
        <Screen name="Callbacks" />
      </ErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Callbacks screen' })).toBeInTheDocument();
  });
});

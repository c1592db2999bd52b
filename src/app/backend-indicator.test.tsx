// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendIndicator, MissingTokenBanner } from './backend-indicator';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { ConsoleInfoContext, createConsoleInfoStore, type ConsoleInfo } from '@/api/console-info';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders with the console-info query already answered, so nothing is fetched. */
function renderWith(backend: Pick<ConsoleInfo, 'backend' | 'apiHost' | 'tokenConfigured'>) {
  const info = testConsoleInfo(backend);
  const fetchSpy = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchSpy);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    withConsoleInfo(
      info,
      <QueryClientProvider client={client}>
        <BackendIndicator />
        <MissingTokenBanner />
      </QueryClientProvider>,
    ),
  );
  return { fetchSpy };
}

describe('MissingTokenBanner', () => {
  it('explains the missing token when a remote backend has no API_TOKEN', () => {
    const { fetchSpy } = renderWith({ backend: 'remote', apiHost: 'api.keevx.com', tokenConfigured: false });
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('API_TOKEN is not set.');
    expect(banner).toHaveTextContent('api.keevx.com');
    expect(banner).toHaveTextContent(/restart/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('is absent when the remote backend has a token', () => {
    renderWith({ backend: 'remote', apiHost: 'api.keevx.com', tokenConfigured: true });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is absent on the built-in emulator', () => {
    renderWith({ backend: 'emulator', apiHost: null, tokenConfigured: true });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is absent on the emulator even if the flag were false', () => {
    renderWith({ backend: 'emulator', apiHost: null, tokenConfigured: false });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is absent while the console info is loading', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>(() => {})),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <ConsoleInfoContext value={createConsoleInfoStore()}>
        <QueryClientProvider client={client}>
          <MissingTokenBanner />
        </QueryClientProvider>
      </ConsoleInfoContext>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('BackendIndicator', () => {
  it('names the built-in emulator', () => {
    renderWith({ backend: 'emulator', apiHost: null, tokenConfigured: true });
    expect(screen.getByText('Built-in emulator')).toBeInTheDocument();
  });

  it('names the API host of a remote backend', () => {
    renderWith({ backend: 'remote', apiHost: '127.0.0.1:8798', tokenConfigured: true });
    expect(screen.getByText('127.0.0.1:8798')).toBeInTheDocument();
  });
});

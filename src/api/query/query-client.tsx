// The one TanStack Query client of the page. It is not mounted by the shell: the screens and the
// poller that use queries wrap themselves in <QueryProvider>, so TanStack Query loads with them and
// not with the first screen. Every provider shares this client, so the cache is one.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiError } from '../errors';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

/**
 * An ApiError worth retrying. Read by its name rather than `instanceof`, so the error module (and
 * its explanations) loads with the code that throws one, not with every screen that queries.
 */
function isTransientApiError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ApiError' && (error as ApiError).isTransient;
}

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Transient failures are retried by the polling schedule itself; others are final.
        retry: (failureCount, error) => isTransientApiError(error) && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

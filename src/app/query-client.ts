import { QueryClient } from '@tanstack/react-query';
import type { ApiError } from '@/api/errors';
import { isApiError } from '@/api/errors';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Transient failures are retried by the polling schedule itself; others are final.
        retry: (failureCount, error) => isApiError(error) && error.isTransient && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}

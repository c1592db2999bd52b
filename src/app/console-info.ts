import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '@/api/errors';

/** What the Node side says about its backend (`/__console/config`); never includes the token. */
export interface ConsoleInfo {
  backend: 'emulator' | 'remote';
  apiHost: string | null;
  tokenConfigured: boolean;
  /** The address the service should POST callbacks to, once the callback inbox exists. */
  callbackUrl?: string | null;
  callbackUrlReachable?: boolean;
}

async function fetchConsoleInfo(): Promise<ConsoleInfo> {
  const response = await fetch('/__console/config', { headers: { accept: 'application/json' } }).catch((cause) => {
    throw new ApiError({ kind: 'network', cause });
  });
  if (!response.ok) throw new ApiError({ kind: 'server', httpStatus: response.status });
  return (await response.json()) as ConsoleInfo;
}

export const consoleInfoQuery = queryOptions({
  queryKey: ['console-info'],
  queryFn: fetchConsoleInfo,
  staleTime: Infinity,
});

export function useConsoleInfo() {
  return useQuery(consoleInfoQuery);
}

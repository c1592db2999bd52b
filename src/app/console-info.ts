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
  /** Same-origin path of the callback inbox (`/callbacks/<secret>`). */
  callbackInboxPath?: string;
}

async function fetchConsoleInfo(): Promise<ConsoleInfo> {
  const response = await fetch('/__console/config', { headers: { accept: 'application/json' } }).catch(
    (cause) => {
      throw new ApiError({ kind: 'network', cause });
    },
  );
  if (!response.ok) throw new ApiError({ kind: 'server', httpStatus: response.status });
  // Static hosting without the Node side answers HTML here: say so instead of throwing a SyntaxError.
  const info = (await response.json().catch(() => null)) as ConsoleInfo | null;
  if (!info || typeof info !== 'object') {
    throw new ApiError({
      kind: 'malformed',
      httpStatus: response.status,
      msg: '/__console/config is not JSON',
    });
  }
  return info;
}

export const consoleInfoQuery = queryOptions({
  queryKey: ['console-info'],
  queryFn: fetchConsoleInfo,
  staleTime: Infinity,
});

export function useConsoleInfo() {
  return useQuery(consoleInfoQuery);
}

import type { ReactNode } from 'react';
import { ConsoleInfoContext, createConsoleInfoStore, type ConsoleInfo } from '@/api/console-info';

/** A complete `/__console/config` answer for component tests: the emulator, no inbox address known. */
export function testConsoleInfo(overrides: Partial<ConsoleInfo> = {}): ConsoleInfo {
  return {
    backend: 'emulator',
    apiHost: null,
    tokenConfigured: true,
    callbackAddress: null,
    callbackUrlReachable: false,
    ...overrides,
  };
}

/** `ui` reading `info` as if the server had answered it (nothing is fetched). */
export function withConsoleInfo(info: ConsoleInfo, ui: ReactNode) {
  const store = createConsoleInfoStore({ data: info, isPending: false, isError: false });
  return <ConsoleInfoContext value={store}>{ui}</ConsoleInfoContext>;
}

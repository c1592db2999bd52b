import type { ConsoleInfo } from '@/api/console-info';

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

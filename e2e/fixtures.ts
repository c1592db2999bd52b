// Every spec imports `test` and `expect` from here. Each Playwright worker gets an app of its own
// (the production server on a build of this tree, with its built-in emulator and a DATA_DIR of its
// own), so nothing one worker does (emulator settings, tasks, callbacks) is seen by the other.
// Within a worker, tests run one after another; `emulator` puts the emulator's runtime settings
// back to their defaults after every test that changed them, so nothing leaks between tests or files.
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { startProdServer, type ProdServer } from './prod-server';

export { expect };

/** The emulator's speed in every worker's app: a task of ~9 s takes ~0.5 s. */
const E2E_TIME_SCALE = 0.05;

/** What a test may change for the emulator of its worker (see server/emulator/settings.ts). */
export interface EmulatorSettings {
  timeScale?: number;
  disabled?: string[];
  failNextStatusQueries?: {
    status: 429 | 500 | 503;
    count: number;
    retryAfter?: string;
    taskId?: string;
  } | null;
}

export interface Emulator {
  /** Changes this worker's emulator until the end of the test. */
  set(settings: EmulatorSettings): Promise<void>;
}

export const EMULATOR_DEFAULTS: Required<EmulatorSettings> = {
  timeScale: E2E_TIME_SCALE,
  disabled: [],
  failNextStatusQueries: null,
};

/**
 * Changes the emulator of the app at `baseURL`. Specs that start an app of their own (team.spec) use
 * this on it, and put `EMULATOR_DEFAULTS` back themselves; the `emulator` fixture is the worker's app.
 */
export async function postSettings(request: APIRequestContext, baseURL: string, settings: EmulatorSettings) {
  const response = await request.post(`${baseURL}/emulator/settings`, { data: settings });
  expect(response.ok(), await response.text()).toBe(true);
}

export const test = base.extend<{ emulator: Emulator }, { workerApp: ProdServer }>({
  workerApp: [
    // Playwright needs the object pattern to know a fixture's dependencies: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      // 4190-4199: one port per parallel worker (a restarted worker reuses its predecessor's).
      const server = await startProdServer(4190 + workerInfo.parallelIndex, {
        EMULATOR_TIME_SCALE: String(E2E_TIME_SCALE),
        // Every test's browser is 127.0.0.1 without a sign-in: one allowance of event streams for all.
        STREAMS_PER_SESSION: '64',
        // Videos the forms preview from "the service's CDN" (served by page.route in the specs).
        MEDIA_ORIGINS: 'https://media.example.com',
      });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ workerApp }, use) => use(workerApp.url),
  emulator: async ({ playwright, workerApp }, use) => {
    const request = await playwright.request.newContext();
    let changed = false;
    await use({
      async set(settings) {
        changed = true;
        await postSettings(request, workerApp.url, settings);
      },
    });
    if (changed) await postSettings(request, workerApp.url, EMULATOR_DEFAULTS);
    await request.dispose();
  },
});

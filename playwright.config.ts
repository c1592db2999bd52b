import { defineConfig, devices } from '@playwright/test';
import { chromiumPath } from './scripts/chromium-path';

/** Shifts every port the tests use, so several checkouts can run their tests side by side. */
export const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
/** Servers started by the specs that need them (e2e/standalone-servers.ts), not by every run. */
export const E2E_PORTS = {
  /** `vite` dev, proxying to a standalone emulator: the token path, and the dev server itself (proxy.spec). */
  proxiedApp: Number(process.env.E2E_PROXIED_PORT ?? 5181 + E2E_PORT_OFFSET),
  /** The standalone emulator behind it, demanding the token (proxy.spec). */
  standaloneEmulator: Number(process.env.E2E_EMULATOR_PORT ?? 8797 + E2E_PORT_OFFSET),
  /** The standalone emulator behind the two production instances (two-instances.spec). */
  twoInstancesEmulator: 8798 + E2E_PORT_OFFSET,
  /** The standalone emulator behind the two instances of boards.spec. */
  boardsEmulator: 8799 + E2E_PORT_OFFSET,
};
export const E2E_TOKEN = 'e2e-secret-token-5f2c9a';

const quietNetwork = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: chromiumPath(), args: quietNetwork },
};
const LONGEST_SPECS = ['**/two-instances.spec.ts', '**/boards.spec.ts', '**/prod.spec.ts'];

export default defineConfig({
  testDir: './e2e',
  // Playwright empties its output folder as it starts; Vitest, which runs beside it in `npm test`,
  // writes its own reports to test-results/ meanwhile.
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  // Tests, not files, are shared out: one long file no longer holds a worker while the other idles.
  // Specs that start servers on fixed ports keep their tests in one worker (mode: 'default').
  fullyParallel: true,
  // Each worker has an app of its own (e2e/fixtures.ts): two workers are as safe as one.
  workers: 2,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  // baseURL is each worker's own app (e2e/fixtures.ts).
  use: {
    trace: 'off',
    screenshot: 'only-on-failure',
    // The running tasks' pulsing dots and the skeletons rest under reduced motion (as a person who asks
    // for it sees them): an endless animation kept a page drawing frames, ~8 % of a core per page.
    reducedMotion: 'reduce',
  },
  // The specs whose groups hold a worker longest (two instances killed and restarted, boards across
  // instances, the production and demo servers) go first: last, one of them kept a single worker busy
  // while the other had nothing left to do. Projects are dealt out in this order.
  projects: [
    { name: 'chromium, longest first', testMatch: LONGEST_SPECS, use: chromium },
    { name: 'chromium', testIgnore: LONGEST_SPECS, use: chromium },
  ],
});

// Vitest's global set-up: the run's PGlite template and PostgreSQL cluster (./test-run.ts), and the
// template as a tarball, which the workers' shared databases are loaded from into memory.
import { makeTemplateDump } from './pglite-template';
import { setUpTestRun } from './test-run';

export default async function setup(): Promise<() => void> {
  const teardown = await setUpTestRun();
  await makeTemplateDump();
  return teardown;
}

// Vitest's global set-up: the run's PGlite template and PostgreSQL cluster (./test-run.ts).
import { setUpTestRun } from './test-run';

export default function setup(): Promise<() => void> {
  return setUpTestRun();
}

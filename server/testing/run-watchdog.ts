// Starts ./run-watchdog-process.mjs for a test run: what the run made is cleaned up even when its runner is
// killed before its teardown.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface RunLeftovers {
  /** Folders removed whole. */
  folders: string[];
  /** Folders whose PostgreSQL clusters (`console-pg-*`) are stopped before they are removed. */
  clusterParents: string[];
}

const WATCHDOG = fileURLToPath(new URL('./run-watchdog-process.mjs', import.meta.url));

/**
 * The watchdog runs outside this process's tree and group: a shell in a session of its own starts it
 * in the background and leaves at once, so neither a kill of the whole tree (as a mutation run does)
 * nor a Ctrl-C to the terminal's group takes it along with the runner.
 */
export function startRunWatchdog(leftovers: RunLeftovers): void {
  if (!leftovers.folders.length && !leftovers.clusterParents.length) return;
  const shell = spawn(
    'sh',
    [
      '-c',
      '"$0" "$1" "$2" </dev/null >/dev/null 2>&1 &',
      process.execPath,
      WATCHDOG,
      JSON.stringify({ runner: process.pid, ...leftovers }),
    ],
    { stdio: 'ignore', detached: true },
  );
  shell.unref();
}

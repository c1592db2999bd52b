// What a killed test runner made is cleaned up anyway: its clusters stopped, its folders removed
// (./run-watchdog.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it, onTestFinished } from 'vitest';

/** Running: a zombie (ended, where nothing reaps orphans) counts as gone. */
const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
};

/** The pids of the processes whose command line holds `text`. */
const processesNaming = (text: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A stand-in for a test runner: it starts the watchdog, says so and waits to be killed. */
const RUNNER = `
import('./server/testing/run-watchdog.ts').then(({ startRunWatchdog }) => {
  startRunWatchdog(JSON.parse(process.argv[1]));
  console.log('started');
  setInterval(() => {}, 1000);
});
`;

it("stops a killed runner's cluster and removes its folders, though the kill took the runner's whole group", async () => {
  const root = mkdtempSync(join(tmpdir(), 'run-watchdog-test-'));
  onTestFinished(() => void spawn('rm', ['-rf', root]));
  const runFolder = join(root, 'media-console-test-run');
  mkdirSync(join(runFolder, 'data-a', 'pglite'), { recursive: true });
  const clusters = join(root, 'console-pg-run');
  // A stand-in for a postmaster: PostgreSQL's immediate shutdown is its SIGQUIT.
  const postmaster = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  onTestFinished(() => void postmaster.kill('SIGKILL'));
  mkdirSync(join(clusters, 'console-pg-x', 'data'), { recursive: true });
  writeFileSync(join(clusters, 'console-pg-x', 'data', 'postmaster.pid'), `${postmaster.pid}\n/data\n`);

  const runner = spawn(
    process.execPath,
    ['--import', 'tsx', '-e', RUNNER, JSON.stringify({ folders: [runFolder], clusterParents: [clusters] })],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  await new Promise((resolve) => createInterface({ input: runner.stdout! }).once('line', resolve));
  await until(() => processesNaming(runFolder).length > 0, 'the watchdog to start');
  // While the runner lives, all it made is there.
  expect([existsSync(runFolder), existsSync(clusters), alive(postmaster.pid!)]).toEqual([true, true, true]);

  process.kill(-runner.pid!, 'SIGKILL');
  await until(() => !existsSync(clusters) && !existsSync(runFolder), 'the folders to go');
  expect(alive(postmaster.pid!)).toBe(false);
  await until(() => processesNaming(runFolder).length === 0, 'the watchdog to end');
});

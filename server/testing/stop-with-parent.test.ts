// A server a test starts stops when the test's process dies, however it dies (./stop-with-parent-preload.mjs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { STOP_WITH_PARENT } from './stop-with-parent';

/** Running: a zombie (ended, where nothing reaps orphans) counts as gone. */
const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
};

/**
 * A stand-in for a test process: it starts two "servers" (a process that only waits), one with the
 * preload and one without, prints their pids, and waits to be killed.
 */
const PARENT = `
const { spawn } = require('node:child_process');
const preload = JSON.parse(process.argv[1]);
const server = (args) => {
  const child = spawn(process.execPath, [...args, '-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.unref();
  return child.pid;
};
console.log(JSON.stringify({ stops: server(preload), stays: server([]) }));
setInterval(() => {}, 1000);
`;

describe('STOP_WITH_PARENT', () => {
  it('ends a server when the process that started it is killed with SIGKILL; one without it stays', async () => {
    const parent = spawn(process.execPath, ['-e', PARENT, JSON.stringify(STOP_WITH_PARENT)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pids = await new Promise<{ stops: number; stays: number }>((resolve) =>
      createInterface({ input: parent.stdout! }).once('line', (text) => resolve(JSON.parse(text))),
    );
    try {
      expect(alive(pids.stops) && alive(pids.stays)).toBe(true);
      parent.kill('SIGKILL');
      await expect.poll(() => alive(pids.stops), { timeout: 10_000 }).toBe(false);
      // The control: without the preload, the orphan lives on (what the preload is for).
      expect(alive(pids.stays)).toBe(true);
    } finally {
      for (const pid of [pids.stops, pids.stays]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      parent.kill('SIGKILL');
    }
  });
});

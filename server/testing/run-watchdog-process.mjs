// The last word of a test run (./run-watchdog.ts starts it from a runner's global set-up): once the
// runner is gone, it stops the PostgreSQL clusters and removes the folders the run made. The runner's
// teardown does the same, but a runner that is killed never runs it (a mutation run kills its test
// runner's whole process tree on a timeout and at its end; kill -9; a closed terminal), and a cluster,
// which pg_ctl starts outside the runner's process tree, then ran on for good.
// It looks every half second whether the runner still lives: the same pid, started at the same time
// (a pid is reused once its process is gone).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const { runner, folders = [], clusterParents = [] } = JSON.parse(process.argv[2] ?? '{}');

/** PostgreSQL's immediate shutdown for every running cluster in `parent`; the postmasters' pids. */
function stopClustersIn(parent) {
  if (!existsSync(parent)) return [];
  const stopped = [];
  for (const entry of readdirSync(parent).filter((name) => name.startsWith('console-pg-'))) {
    try {
      const pid = Number(readFileSync(join(parent, entry, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) {
        process.kill(pid, 'SIGQUIT');
        stopped.push(pid);
      }
    } catch {
      // Not running (never started, or already stopped): its folder is removed below.
    }
  }
  return stopped;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function cleanUp() {
  const postmasters = clusterParents.flatMap(stopClustersIn);
  // A folder goes once its server is gone: one still writing as it goes can make a removal fail.
  for (const end = Date.now() + 10_000; postmasters.some(isAlive) && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  for (const folder of [...folders, ...clusterParents])
    rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/** When the process started (clock ticks since boot), the 22nd field of its stat; '' if it is gone. */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

const runnerStarted = startTime(runner);
const watching = setInterval(() => {
  if (startTime(runner) === runnerStarted && runnerStarted !== '') return;
  clearInterval(watching);
  void cleanUp();
}, 500);

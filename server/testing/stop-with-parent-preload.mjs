// Preloaded (`node --import`) into the servers the tests start (e2e/prod-server.ts,
// e2e/standalone-servers.ts): such a server stops when the process that started it is gone, however
// it went (a crash, SIGKILL, a Playwright worker killed at its timeout). Its standard input is a pipe
// from that process, which reaches its end only then; SIGTERM runs the server's own shutdown. Before,
// a test process that died left its server running, holding its port for the next run.
import { isMainThread } from 'node:worker_threads';

// Only in the process's main thread: a worker's stdin ends at once, and the signal is the process's.
if (isMainThread) {
  const stop = () => process.kill(process.pid, 'SIGTERM');
  process.stdin.once('end', stop);
  process.stdin.once('error', stop);
  process.stdin.resume();
  // Reading stdin must not be what keeps the server alive once it has shut itself down.
  process.stdin.unref?.();
}

// How a test starts a server that stops with it (./stop-with-parent-preload.mjs): spawn it with
// STOP_WITH_PARENT before its own arguments and a piped standard input, then holdStdin(child).
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Node's arguments that preload the stop. */
export const STOP_WITH_PARENT = [
  '--import',
  fileURLToPath(new URL('./stop-with-parent-preload.mjs', import.meta.url)),
];

/** This end of the child's standard input stays open while this process lives, without keeping it alive. */
export function holdStdin(child: ChildProcess): void {
  (child.stdin as Socket | null)?.unref();
}

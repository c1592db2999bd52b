// A counting semaphore: at most `limit` status requests in flight across every task, so 1,000
// pending tasks never flood the service. The limit can change at run time (a user setting).

export interface Semaphore {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  setLimit(limit: number): void;
  readonly active: number;
  readonly waiting: number;
  readonly limit: number;
}

export function createSemaphore(initialLimit: number): Semaphore {
  let limit = Math.max(1, Math.floor(initialLimit));
  let active = 0;
  const queue: (() => void)[] = [];

  const pump = () => {
    while (active < limit && queue.length) queue.shift()!();
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    get limit() {
      return limit;
    },
    setLimit(next) {
      limit = Math.max(1, Math.floor(next));
      pump();
    },
    run(task, signal) {
      return new Promise((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', onAbort);
          active++;
          task()
            .then(resolve, reject)
            .finally(() => {
              active--;
              pump();
            });
        };
        const onAbort = () => {
          const index = queue.indexOf(start);
          if (index >= 0) queue.splice(index, 1);
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(start);
        pump();
      });
    },
  };
}

// A virtual clock for the polling benchmark: TanStack Query's timers (through its timeoutManager),
// Date.now and simulated network latency all run on it, so hours of polling take seconds and the
// request counts are exact. Real macrotasks (IndexedDB stand-in, Hono) are flushed between ticks.
import type { TimeoutProvider } from '@tanstack/react-query';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
  every?: number;
}

// setImmediate, not setTimeout(0): Node clamps the latter to 1 ms, which made a run take minutes.
// TanStack Query updates its timers synchronously when a query changes, so this is enough.
const flush = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
};

export class VirtualClock {
  now: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start: number) {
    this.now = start;
  }

  private add(callback: () => void, delay: number, every?: number): number {
    const id = this.nextId++;
    this.timers.push({ id, at: this.now + Math.max(0, delay), callback, every });
    return id;
  }

  private remove(id: unknown) {
    this.timers = this.timers.filter((timer) => timer.id !== Number(id));
  }

  readonly provider: TimeoutProvider<number> = {
    setTimeout: (callback, delay) => this.add(callback, delay),
    clearTimeout: (id) => this.remove(id),
    setInterval: (callback, delay) => this.add(callback, delay, Math.max(1, delay)),
    clearInterval: (id) => this.remove(id),
  };

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.add(resolve, ms));
  }

  /** Runs timers in time order until `done()` holds or `untilMs` of virtual time has passed. */
  async run(untilMs: number, done: () => boolean = () => false): Promise<void> {
    const end = this.now + untilMs;
    await flush();
    while (!done()) {
      let next: Timer | undefined;
      for (const timer of this.timers)
        if (!next || timer.at < next.at || (timer.at === next.at && timer.id < next.id)) next = timer;
      if (!next || next.at > end) break;
      this.now = next.at;
      if (next.every) next.at += next.every;
      else this.remove(next.id);
      next.callback();
      await flush(6);
    }
    if (!done()) this.now = Math.max(this.now, end);
    await flush();
  }
}

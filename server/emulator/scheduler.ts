// Every timer of the emulator goes through here: unref'd so a dev server or a test run can exit
// while callbacks are pending, and cleared all at once by close().
export class Scheduler {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly controllers = new Set<AbortController>();
  private closed = false;

  after(ms: number, run: () => void | Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void run();
      },
      Math.max(0, ms),
    );
    timer.unref?.();
    this.timers.add(timer);
  }

  /** An abort signal that close() also fires, for work in flight (downloads, callback POSTs). */
  controller(): AbortController {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    else this.controllers.add(controller);
    return controller;
  }

  release(controller: AbortController): void {
    this.controllers.delete(controller);
  }

  get pending(): number {
    return this.timers.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }
}

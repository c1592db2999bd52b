import { describe, expect, it, vi } from 'vitest';
import { Scheduler } from './scheduler';

describe('Scheduler', () => {
  it('runs a task after its delay and forgets it', async () => {
    const scheduler = new Scheduler();
    const run = vi.fn();
    scheduler.after(5, run);
    expect(scheduler.pending).toBe(1);
    await vi.waitFor(() => expect(run).toHaveBeenCalledOnce(), { timeout: 10_000 });
    expect(scheduler.pending).toBe(0);
  });

  it('close() clears pending timers, aborts controllers and refuses new work', async () => {
    const scheduler = new Scheduler();
    const run = vi.fn();
    scheduler.after(10, run);
    const controller = scheduler.controller();
    scheduler.close();
    expect(scheduler.pending).toBe(0);
    expect(controller.signal.aborted).toBe(true);
    scheduler.after(0, run);
    expect(scheduler.controller().signal.aborted).toBe(true);
    expect(scheduler.pending).toBe(0);
    // Control: an open scheduler's timer, set now, runs; by then the closed one's would have too.
    const open = new Scheduler();
    const control = vi.fn();
    open.after(0, control);
    await vi.waitFor(() => expect(control).toHaveBeenCalledOnce(), { timeout: 10_000 });
    expect(run).not.toHaveBeenCalled();
    open.close();
  });

  it("does not keep the process alive (timers are unref'd)", () => {
    const unref = vi.spyOn(globalThis, 'setTimeout');
    const scheduler = new Scheduler();
    scheduler.after(1_000, () => undefined);
    const timer = unref.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    scheduler.close();
    unref.mockRestore();
  });
});

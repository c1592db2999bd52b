import { describe, expect, it, vi } from 'vitest';
import { createSemaphore } from './semaphore';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('semaphore', () => {
  it('never runs more than the limit at once and runs everything eventually', async () => {
    const semaphore = createSemaphore(4);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const jobs = Array.from({ length: 50 }, (_, i) =>
      semaphore.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      }),
    );
    while (releases.length || semaphore.waiting || semaphore.active) {
      await tick();
      releases.shift()?.();
    }
    expect(await Promise.all(jobs)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(peak).toBe(4);
  });

  it('applies a new limit at once', async () => {
    const semaphore = createSemaphore(1);
    const gates: (() => void)[] = [];
    const jobs = [1, 2, 3].map(() =>
      semaphore.run(() => new Promise<void>((resolve) => gates.push(resolve))),
    );
    await vi.waitFor(() => expect(semaphore.active).toBe(1));
    expect(semaphore.waiting).toBe(2);
    semaphore.setLimit(3);
    await vi.waitFor(() => expect(semaphore.active).toBe(3));
    expect(semaphore.waiting).toBe(0);
    gates.forEach((open) => open());
    await Promise.all(jobs);
  });

  it('drops a queued job whose signal aborts, without running it', async () => {
    const semaphore = createSemaphore(1);
    let release!: () => void;
    const first = semaphore.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const second = semaphore.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await expect(second).rejects.toBeDefined();
    release();
    await first;
    expect(ran).toBe(false);
    expect(semaphore.waiting).toBe(0);
  });
});

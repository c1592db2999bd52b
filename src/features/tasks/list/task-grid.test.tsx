// @vitest-environment jsdom
// The plain grid's hand-over to the virtual one when the next page arrives before the virtual
// grid's code: the plain grid keeps to one page meanwhile, so the DOM never holds two pages. And
// its end-of-list observer, which asks for the next page through the latest `onEndReached`.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { PAGE_SIZE } from '@/features/tasks/team/team-tasks';

let releaseVirtualGrid!: () => void;
const virtualGridHeld = new Promise<void>((resolve) => (releaseVirtualGrid = resolve));

vi.mock('./gallery-card', () => ({
  GalleryCard: ({ entry }: { entry: GalleryEntry }) => <article>{entry.key}</article>,
}));
vi.mock('./virtual-task-grid', async () => {
  await virtualGridHeld;
  return {
    VirtualTaskGrid: ({ entries }: { entries: readonly GalleryEntry[] }) => (
      <div role="list" aria-label="virtual">
        {entries.slice(0, 3).map((entry) => (
          <div key={entry.key} role="listitem">
            {entry.key}
          </div>
        ))}
      </div>
    ),
  };
});

const { TaskGrid } = await import('./task-grid');

const tasks = (count: number): GalleryEntry[] =>
  Array.from({ length: count }, (_, i) => {
    const task = { id: `i2is-${i}`, kind: 'image_generate', status: 'SUCCEEDED' } as unknown as TeamTask;
    return { key: task.id, task };
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** jsdom has no IntersectionObserver: one that records each instance, to be fired by hand. */
function stubIntersectionObserver() {
  const observers: { fire: (isIntersecting: boolean) => void; disconnected: boolean }[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      private readonly record;
      constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
        this.record = {
          fire: (isIntersecting: boolean) => callback([{ isIntersecting }]),
          disconnected: false,
        };
        observers.push(this.record);
      }
      observe() {}
      disconnect() {
        this.record.disconnected = true;
      }
    },
  );
  return observers;
}

describe('task grid: from one plain page to the virtual list', () => {
  it('shows one page until the virtual grid has loaded, then hands over', async () => {
    render(<TaskGrid entries={tasks(PAGE_SIZE * 2)} total={PAGE_SIZE * 3} onEndReached={() => {}} />);
    const plain = screen.getByRole('list');
    expect(within(plain).getAllByRole('listitem')).toHaveLength(PAGE_SIZE);
    releaseVirtualGrid();
    await waitFor(() => expect(screen.getByRole('list', { name: 'virtual' })).toBeInTheDocument());
  });

  it('asks the latest onEndReached for the next page without setting up its observer again', () => {
    const observers = stubIntersectionObserver();
    const first = vi.fn();
    const latest = vi.fn();
    const { rerender } = render(<TaskGrid entries={tasks(3)} total={10} onEndReached={first} />);
    rerender(<TaskGrid entries={tasks(3)} total={10} onEndReached={latest} />);
    expect(observers).toHaveLength(1);
    observers[0]?.fire(false);
    expect(latest).not.toHaveBeenCalled();
    observers[0]?.fire(true);
    expect(latest).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
  });

  it('stops watching the end once there is nothing more to load', () => {
    const observers = stubIntersectionObserver();
    const { rerender } = render(<TaskGrid entries={tasks(3)} total={3} onEndReached={vi.fn()} />);
    rerender(<TaskGrid entries={tasks(3)} total={3} onEndReached={undefined} />);
    expect(observers).toHaveLength(1);
    expect(observers[0]?.disconnected).toBe(true);
  });
});

// @vitest-environment jsdom
// The plain grid's hand-over to the virtual one when the next page arrives before the virtual
// grid's code: the plain grid keeps to one page meanwhile, so the DOM never holds two pages.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamTask } from './team-tasks';
import { PAGE_SIZE } from './team-tasks';

let releaseVirtualGrid!: () => void;
const virtualGridHeld = new Promise<void>((resolve) => (releaseVirtualGrid = resolve));

vi.mock('./task-card', () => ({
  TaskCard: ({ record }: { record: TeamTask }) => <article>{record.id}</article>,
}));
vi.mock('./virtual-task-grid', async () => {
  await virtualGridHeld;
  return {
    VirtualTaskGrid: ({ tasks }: { tasks: readonly TeamTask[] }) => (
      <div role="list" aria-label="virtual">
        {tasks.slice(0, 3).map((task) => (
          <div key={task.id} role="listitem">
            {task.id}
          </div>
        ))}
      </div>
    ),
  };
});

const { TaskGrid } = await import('./task-grid');

const tasks = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => ({ id: `i2is-${i}`, kind: 'image_generate', status: 'SUCCEEDED' }) as unknown as TeamTask,
  );

afterEach(cleanup);

describe('task grid: from one plain page to the virtual list', () => {
  it('shows one page until the virtual grid has loaded, then hands over', async () => {
    render(<TaskGrid tasks={tasks(PAGE_SIZE * 2)} total={PAGE_SIZE * 3} onEndReached={() => {}} />);
    const plain = screen.getByRole('list');
    expect(within(plain).getAllByRole('listitem')).toHaveLength(PAGE_SIZE);
    releaseVirtualGrid();
    await waitFor(() => expect(screen.getByRole('list', { name: 'virtual' })).toBeInTheDocument());
  });
});

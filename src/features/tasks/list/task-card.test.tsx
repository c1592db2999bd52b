// @vitest-environment jsdom
// What a card says about time: how long a task created here took, how long a running one has run,
// and the length of a result video in seconds.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { TaskCard } from './task-card';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function record(partial: Partial<TaskRecord> & Pick<TaskRecord, 'id' | 'kind' | 'status'>): TaskRecord {
  return {
    source: 'created',
    createdAt: NOW - 60_000,
    updatedAt: NOW,
    result: { task_id: partial.id, status: partial.status },
    ...partial,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('TaskCard timing', () => {
  it('says how long a task created here took', () => {
    render(
      <TaskCard
        record={record({
          id: 'i2is-took',
          kind: 'image_generate',
          status: 'SUCCEEDED',
          createdAt: NOW - 60_000,
          finishedAt: NOW - 56_000,
        })}
      />,
    );
    expect(screen.getByText('Took 4s')).toBeInTheDocument();
  });

  it('uses minutes for a longer task', () => {
    render(
      <TaskCard
        record={record({
          id: 'vt-took',
          kind: 'video_translate',
          status: 'SUCCEEDED',
          createdAt: NOW - 600_000,
          finishedAt: NOW - 600_000 + 125_000,
        })}
      />,
    );
    expect(screen.getByText('Took 2m 05s')).toBeInTheDocument();
  });

  it('counts up while a task runs', () => {
    render(
      <TaskCard
        record={record({
          id: 'i2v-running',
          kind: 'image_to_video',
          status: 'PROCESSING',
          createdAt: NOW - 7_000,
        })}
      />,
    );
    expect(screen.getByText('Running 7s')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.getByText('Running 10s')).toBeInTheDocument();
  });

  it('does not claim a duration for a task it only looked up', () => {
    render(
      <TaskCard
        record={record({
          id: 'i2v-lookup',
          kind: 'image_to_video',
          status: 'SUCCEEDED',
          source: 'lookup',
          createdAt: NOW - 60_000,
          finishedAt: NOW - 56_000,
        })}
      />,
    );
    expect(screen.queryByText(/^Took/)).toBeNull();
    expect(screen.getByText(/^Added /)).toBeInTheDocument();
  });
});

describe('TaskCard video duration', () => {
  it('shows the duration of a result video in seconds', () => {
    render(
      <TaskCard
        record={record({
          id: 'i2v-done',
          kind: 'image_to_video',
          status: 'SUCCEEDED',
          createdAt: NOW - 60_000,
          finishedAt: NOW - 42_000,
          result: {
            task_id: 'i2v-done',
            status: 'SUCCEEDED',
            video_url: 'https://cdn.test/v.mp4',
            thumbnail_url: 'https://cdn.test/t.jpg',
            duration: 8,
          },
        })}
      />,
    );
    expect(screen.getByText('8 s video')).toBeInTheDocument();
    expect(screen.getByText('Took 18s')).toBeInTheDocument();
  });

  it('shows no duration when the service sent none', () => {
    const { container } = render(
      <TaskCard
        record={record({
          id: 'i2is-image',
          kind: 'image_generate',
          status: 'SUCCEEDED',
          finishedAt: NOW - 50_000,
          result: { task_id: 'i2is-image', status: 'SUCCEEDED', image_url: 'https://cdn.test/a.png' },
        })}
      />,
    );
    expect(container.textContent).not.toMatch(/s video/);
  });
});

// @vitest-environment jsdom
// "Animate" on a succeeded image task, card and detail page; and, on an image-to-video task made that
// way, the start frame and the link back to the image task.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { TaskCard } from '@/features/tasks/list/task-card';
import { TaskActions } from '@/features/tasks/detail/task-detail-actions';
import { TaskFields } from '@/features/tasks/detail/task-fields';
import { describeTask } from './task-view';

const IMAGE = 'https://cdn.example.com/out/lighthouse.png';

function image(status: string, ratio: string, image_url: unknown = IMAGE): TaskRecord {
  return {
    id: `i2is-${status}-${ratio}`,
    kind: 'image_generate',
    source: 'created',
    params: { prompt: 'A lighthouse', image_ratio: ratio },
    createdAt: Date.now(), // a fresh result: past 7 days it expires
    updatedAt: 1,
    status,
    result: { task_id: 'x', status, image_url },
  };
}

const withClient = (ui: ReactNode) =>
  render(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

afterEach(cleanup);

describe('Animate', () => {
  it.each([
    ['9:16', '9:16'],
    ['4:3', '16:9'],
    ['1:1', '9:16'],
    ['21:9', '16:9'],
  ])('on the card of a succeeded %s image opens Image to video at %s, with its prompt', (ratio, video) => {
    const task = image('SUCCEEDED', ratio);
    render(<TaskCard record={task} />);
    const href = screen.getByRole('link', { name: 'Animate' }).getAttribute('href')!;
    const [path, query] = href.split('?');
    expect(path).toBe('/image-to-video');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      from: task.id,
      start: IMAGE,
      ratio: video,
      prompt: 'A lighthouse',
    });
  });

  it('is on the detail page too', () => {
    const task = image('SUCCEEDED', '3:4');
    withClient(<TaskActions record={task} view={describeTask(task)} />);
    expect(screen.getByRole('link', { name: 'Animate' })).toHaveAttribute(
      'href',
      expect.stringContaining('ratio=9%3A16'),
    );
  });

  it.each([
    ['running', image('GENERATING', '1:1')],
    ['failed', image('FAILED', '1:1')],
    ['with an unsafe image link', image('SUCCEEDED', '1:1', 'javascript:alert(1)')],
    ['of another kind', { ...image('SUCCEEDED', '1:1'), kind: 'image_to_video' as const, id: 'i2v-1' }],
  ])('is not offered on a task %s', (_case, task) => {
    render(<TaskCard record={task} />);
    expect(screen.queryByRole('link', { name: 'Animate' })).not.toBeInTheDocument();
  });
});

describe('an image-to-video task made by Animate', () => {
  it('shows its start frame and links to the image task it came from', () => {
    const task: TaskRecord = {
      id: 'i2v-made',
      kind: 'image_to_video',
      source: 'created',
      params: { model: 'V', prompt: 'Push in', image_url: IMAGE },
      animatedFrom: 'i2is-source',
      createdAt: Date.now(), // a fresh result: past 7 days it expires
      updatedAt: 1,
      status: 'PROCESSING',
    };
    render(<TaskFields record={task} view={describeTask(task)} reruns={[]} />);
    const frame = screen.getByRole('img', { name: 'Start frame' });
    expect(frame).toHaveAttribute('src', IMAGE);
    expect(screen.getByRole('link', { name: 'i2is-source' })).toHaveAttribute('href', '/tasks/i2is-source');
    expect(within(frame.parentElement!).getByRole('link', { name: IMAGE })).toBeInTheDocument();
  });

  it('never puts an unsafe start frame into an image', () => {
    const task: TaskRecord = {
      id: 'i2v-x',
      kind: 'image_to_video',
      source: 'created',
      params: { image_url: 'javascript:alert(1)' },
      createdAt: Date.now(), // a fresh result: past 7 days it expires
      updatedAt: 1,
      status: '',
    };
    render(<TaskFields record={task} view={describeTask(task)} reruns={[]} />);
    expect(screen.queryByRole('img', { name: 'Start frame' })).not.toBeInTheDocument();
    expect(screen.getByText('javascript:alert(1)')).toBeInTheDocument();
  });
});

// @vitest-environment jsdom
// A task page shows what the task was made from as media, not only as JSON.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { RequestInputs } from './request-inputs';

const task = (kind: TaskRecord['kind'], params: unknown) =>
  ({ id: 't1', kind, createdAt: 0, source: 'created', params }) as unknown as TaskRecord;

afterEach(cleanup);

describe('RequestInputs', () => {
  it('a translation: its source video as a player', () => {
    render(
      <RequestInputs record={task('video_translate', { video_url: 'https://cdn.example.com/talk.mp4' })} />,
    );
    const region = screen.getByRole('region', { name: 'Inputs' });
    expect(within(region).getByLabelText('Source video')).toHaveAttribute(
      'src',
      'https://cdn.example.com/talk.mp4',
    );
  });

  it('an image: the prompt as text and the reference images as pictures, another host through the preview', () => {
    render(
      <RequestInputs
        record={task('image_generate', {
          prompt: 'A lighthouse',
          reference_images: [`${window.location.origin}/emulator/uploads/a.png`, 'https://example.com/b.png'],
        })}
      />,
    );
    const region = screen.getByRole('region', { name: 'Inputs' });
    expect(region).toHaveTextContent('A lighthouse');
    expect(within(region).getByRole('img', { name: 'Reference image 1 of 2' })).toHaveAttribute(
      'src',
      `${window.location.origin}/emulator/uploads/a.png`,
    );
    expect(within(region).getByRole('img', { name: 'Reference image 2 of 2' })).toHaveAttribute(
      'src',
      `/__console/preview?url=${encodeURIComponent('https://example.com/b.png')}`,
    );
  });

  it('image to video: the start frame; a javascript: link is never shown', () => {
    render(
      <RequestInputs
        record={task('image_to_video', {
          image_url: 'https://example.com/start.png',
          end_image_url: 'javascript:alert(1)',
        })}
      />,
    );
    expect(screen.getByRole('img', { name: 'Start frame' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'End frame' })).toBeNull();
  });

  it('shows nothing for a task without known inputs', () => {
    const { container } = render(<RequestInputs record={task('video_translate', undefined)} />);
    expect(container).toBeEmptyDOMElement();
  });
});

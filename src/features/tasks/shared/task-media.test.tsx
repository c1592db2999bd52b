// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { TaskCard } from '@/features/tasks/list/task-card';
import { TaskFields } from '@/features/tasks/detail/task-fields';
import { DetailMedia } from '@/features/tasks/detail/detail-media';
import { describeTask } from './task-view';

const EVIL = [
  'javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'JAVASCRIPT:alert(2)',
];

function record(kind: TaskRecord['kind'], result: Record<string, unknown>, status = 'SUCCEEDED'): TaskRecord {
  return {
    id: `${kind}-1`,
    kind,
    source: 'lookup',
    createdAt: Date.now(), // a fresh result: past 7 days it expires
    updatedAt: 1,
    status,
    result: { task_id: `${kind}-1`, status, ...result },
  };
}

function urlAttributes(container: HTMLElement) {
  return [...container.querySelectorAll('[href],[src],[poster],[srcset]')].flatMap((el) =>
    ['href', 'src', 'poster', 'srcset']
      .map((name) => el.getAttribute(name))
      .filter((v): v is string => v !== null),
  );
}

describe('media URL safety in the DOM', () => {
  it.each(EVIL)('never puts %s into href, src or poster, and shows it as text', (evil) => {
    const video = record('image_to_video', { video_url: evil, thumbnail_url: evil });
    const image = record('image_generate', { image_url: evil, thumbnail_url: evil });
    const translation = record('video_translate', { video_url: evil, caption_url: evil });
    for (const task of [video, image, translation]) {
      const { container, unmount } = render(
        <>
          <TaskCard record={task} />
          <DetailMedia record={task} view={describeTask(task)} />
          <TaskFields record={task} view={describeTask(task)} reruns={[]} />
        </>,
      );
      for (const value of urlAttributes(container)) {
        expect(value.toLowerCase()).not.toMatch(/^\s*(javascript|data):/);
      }
      expect(container.textContent).toContain(evil);
      unmount();
    }
  });

  it('uses http(s) links for the poster and the player only after play is pressed', () => {
    const task = record('image_to_video', {
      video_url: 'https://cdn.test/v.mp4',
      thumbnail_url: 'https://cdn.test/t.jpg',
      duration: 8,
    });
    const { container } = render(<TaskCard record={task} />);
    expect(container.querySelector('video')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Play video of task/ }));
    const video = container.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('https://cdn.test/v.mp4');
    expect(video.getAttribute('poster')).toBe('https://cdn.test/t.jpg');
    expect(video.getAttribute('preload')).toBe('none');
  });

  it('says "link expired or unavailable" when a result link no longer loads', () => {
    const task = record('image_generate', { image_url: 'https://cdn.test/gone.png' });
    const { container } = render(<DetailMedia record={task} view={describeTask(task)} />);
    fireEvent.error(container.querySelector('img')!);
    expect(screen.getByText('Link expired or unavailable')).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
  });

  it('shows a FAILED task’s error_message in full on its card', () => {
    const message = 'Content moderation rejected the input image: reason code 42. '.repeat(4).trim();
    render(<TaskCard record={record('image_to_video', { error_message: message }, 'FAILED')} />);
    expect(screen.getByText(message)).toBeInTheDocument();
  });
});

describe("a task page's media keeps the result's shape from the first paint", () => {
  afterEach(cleanup);
  const asked = (status: string, result: Record<string, unknown>): TaskRecord => ({
    ...record('image_generate', result, status),
    params: { prompt: 'A lighthouse', image_ratio: '3:4' },
  });

  it('gives the image the ratio asked for before it has loaded, and fetches it at once', () => {
    const task = asked('SUCCEEDED', { image_url: 'https://cdn.test/a.png' });
    render(<DetailMedia record={task} view={describeTask(task)} />);
    const image = screen.getByRole('img', { name: 'Generated image: A lighthouse' });
    expect(image.style.aspectRatio).toBe('3 / 4');
    expect(image.getAttribute('loading')).toBe('eager');
  });

  it('keeps the same box while the task runs, so its result lands without moving the page', () => {
    const task = asked('GENERATING', {});
    render(<DetailMedia record={task} view={describeTask(task)} />);
    const waiting = screen.getByText('The result appears here when the task finishes');
    expect(waiting.closest<HTMLElement>('[style]')?.style.aspectRatio).toBe('3 / 4');
  });

  it('guesses no shape for a task looked up by id, whose request is unknown', () => {
    const task = { ...asked('GENERATING', {}), params: undefined };
    const { container } = render(<DetailMedia record={task} view={describeTask(task)} />);
    expect(container.querySelector('[style]')).toBeNull();
  });

  it("gives an image-to-video task's player the full width at the ratio asked for", () => {
    const task: TaskRecord = {
      ...record('image_to_video', {
        video_url: 'https://cdn.test/v.mp4',
        thumbnail_url: 'https://cdn.test/t.jpg',
      }),
      params: { aspect_ratio: '9:16' },
    };
    const { container } = render(<DetailMedia record={task} view={describeTask(task)} />);
    const video = container.querySelector('video')!;
    expect(video.style.aspectRatio).toBe('9 / 16');
    // Sized by the frame, not by the poster that arrives later.
    expect(video.className).toContain('w-full');
  });

  it('lazy-loads the images of the gallery cards, which may be far down the page', () => {
    const task = asked('SUCCEEDED', { image_url: 'https://cdn.test/a.png' });
    render(<TaskCard record={task} />);
    expect(screen.getByRole('img', { name: 'Generated image: A lighthouse' }).getAttribute('loading')).toBe(
      'lazy',
    );
  });
});

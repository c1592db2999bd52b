// @vitest-environment jsdom
// The presentation view: one result at a time, the arrow keys move and stop at either end, a video
// slide plays with its controls, Escape leaves; a request's slides are its finished, still-shown results.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { Presentation, type Slide } from './presentation';
import { slidesOf } from './request-present-screen';

afterEach(cleanup);

const SLIDES: Slide[] = [
  { id: 'a', title: 'Calm ocean at sunset', image: 'https://cdn.test/a.png' },
  { id: 'b', title: 'Northern lights', image: 'https://cdn.test/b.png' },
  { id: 'c', title: 'Japanese - Product tour', detail: 'Japanese', video: 'https://cdn.test/c.mp4' },
];

describe('Presentation', () => {
  it('shows one slide at a time; the arrow keys move and stop at the first and the last', async () => {
    const user = userEvent.setup();
    render(<Presentation name="Ocean" slides={SLIDES} onExit={() => undefined} />);
    expect(screen.getByRole('region', { name: 'Presentation: Ocean' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Calm ocean at sunset' })).toBeTruthy();
    expect(screen.getByText('1 / 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('1 / 3')).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('img', { name: 'Northern lights' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Calm ocean at sunset' })).toBeNull();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByText('3 / 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Home}');
    expect(screen.getByText('1 / 3')).toBeTruthy();
    await user.keyboard('{End}');
    expect(screen.getByText('3 / 3')).toBeTruthy();
  });

  it('plays a video slide with its controls', async () => {
    const user = userEvent.setup();
    render(<Presentation name="Tour" slides={SLIDES} onExit={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const video = screen.getByLabelText('Video: Japanese - Product tour') as HTMLVideoElement;
    expect(video.tagName).toBe('VIDEO');
    expect(video.autoplay && video.controls).toBe(true);
    expect(screen.getByText('Japanese')).toBeTruthy();
  });

  it('leaves on Escape and on Close', async () => {
    const user = userEvent.setup();
    const onExit = vi.fn();
    render(<Presentation name="Tour" slides={SLIDES} onExit={onExit} />);
    await user.keyboard('{Escape}');
    expect(onExit).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onExit).toHaveBeenCalledTimes(2);
  });

  it('says so when there is nothing to show', () => {
    render(<Presentation name="Empty" slides={[]} onExit={() => undefined} />);
    expect(screen.getByText('No finished results to present yet.')).toBeTruthy();
    expect(screen.getByText('Nothing to show')).toBeTruthy();
  });
});

describe('slidesOf', () => {
  const NOW = Date.UTC(2026, 10, 28);
  const task = (n: number, status: string, ageDays: number, result: Record<string, unknown>): TeamTask => ({
    id: `i2is-${n}`,
    kind: 'image_generate',
    source: 'created',
    status,
    params: { prompt: `Prompt ${n}` },
    prompt: `Prompt ${n}`,
    creator: 'Maya Okafor',
    requestId: 'req-1',
    createdAt: NOW - ageDays * 86_400_000,
    finishedAt: NOW - ageDays * 86_400_000,
    updatedAt: NOW,
    result: { task_id: `i2is-${n}`, status, ...result },
  });

  it('keeps the finished results that can still be shown, in order', () => {
    const slides = slidesOf(
      [
        task(1, 'SUCCEEDED', 1, { image_url: 'https://cdn.test/1.png' }),
        task(2, 'FAILED', 1, { error_message: 'no' }),
        task(3, 'SUCCEEDED', 8, { image_url: 'https://cdn.test/3.png' }),
        task(4, 'SUCCEEDED', 2, { image_url: 'https://cdn.test/4.png' }),
      ],
      NOW,
    );
    expect(slides.map((slide) => slide.id)).toEqual(['i2is-1', 'i2is-4']);
    expect(slides[0]).toMatchObject({
      title: 'Prompt 1',
      detail: 'by Maya Okafor',
      image: 'https://cdn.test/1.png',
    });
  });
});

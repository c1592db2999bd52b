// @vitest-environment jsdom
// A request's card (By request): a finished image or video opens the results lightbox, not the task
// page; a video plays there with its controls and cover, and ← / → still go between the results; a
// task not finished, and "+N", link to the task's page.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TaskType } from '@/api/schemas';
import type { TeamRequest, TeamTask } from '@/features/tasks/team/team-tasks';
import { emulateModalDialogs } from '@/testing/modal-dialog';
import { RequestCard } from './request-card';

beforeAll(() => emulateModalDialogs({ escapeCloses: true }));

afterEach(async () => {
  document.querySelector<HTMLDialogElement>('dialog[open]')?.close();
  await waitFor(() => expect(document.querySelector('dialog')).toBeNull());
  cleanup();
});

const NOW = Date.now();

function task(kind: TaskType, n: number, status: string, result: Record<string, unknown> = {}): TeamTask {
  const id = `${kind === 'image_generate' ? 'i2is' : 'i2v'}-${n}`;
  return {
    id,
    kind,
    source: 'created',
    status,
    params: { prompt: 'Harbour at dawn' },
    prompt: 'Harbour at dawn',
    requestId: 'req-1',
    createdAt: NOW - 60_000,
    updatedAt: NOW,
    result: { task_id: id, status, ...result },
  };
}

const image = (n: number, status = 'SUCCEEDED') =>
  task('image_generate', n, status, status === 'SUCCEEDED' ? { image_url: `https://cdn.test/${n}.png` } : {});
const video = (n: number) =>
  task('image_to_video', n, 'SUCCEEDED', {
    video_url: `https://cdn.test/${n}.mp4`,
    thumbnail_url: `https://cdn.test/${n}-cover.jpg`,
  });

function renderCard(kind: TaskType, tasks: TeamTask[]) {
  const request: TeamRequest = {
    id: 'req-1',
    kind,
    creator: 'Ada',
    createdAt: NOW - 60_000,
    title: 'Harbour at dawn',
    tasks,
  };
  render(<RequestCard request={request} />);
  return userEvent.setup();
}

describe('a request card’s results', () => {
  it('a finished image opens the lightbox among the card’s images; one not finished links to its task', async () => {
    const user = renderCard('image_generate', [image(1), image(2), image(3, 'FAILED')]);
    const zooms = screen.getAllByRole('button', { name: /^View larger: Image \d: Harbour at dawn$/ });
    expect(zooms.map((zoom) => zoom.getAttribute('aria-label'))).toEqual([
      'View larger: Image 1: Harbour at dawn',
      'View larger: Image 2: Harbour at dawn',
    ]);
    expect(screen.getByRole('link', { name: 'Image 3: FAILED' })).toHaveAttribute('href', '/tasks/i2is-3');
    await user.click(zooms[1]!);
    const dialog = await screen.findByRole('dialog', { name: 'Image 2 of 2' });
    expect(within(dialog).getByRole('img', { name: 'Image 2: Harbour at dawn' })).toHaveAttribute(
      'src',
      'https://cdn.test/2.png',
    );
    expect(within(dialog).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/__console/tasks/i2is-2/download/result',
    );
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 1 of 2');
  });

  it('past four, the last thumbnail counts the rest and links to its task', () => {
    renderCard(
      'image_generate',
      [1, 2, 3, 4, 5, 6].map((n) => image(n)),
    );
    expect(screen.getAllByRole('button', { name: /^View larger/ })).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Image 4: SUCCEEDED, and 2 more' })).toHaveAttribute(
      'href',
      '/tasks/i2is-4',
    );
  });

  it('a video plays in the lightbox with its controls and cover; ← and → go between the videos', async () => {
    const user = renderCard('image_to_video', [video(1), video(2)]);
    await user.click(screen.getByRole('button', { name: 'View larger: Video 1: Harbour at dawn' }));
    const dialog = await screen.findByRole('dialog', { name: 'Video 1 of 2' });
    const player = () => dialog.querySelector('video')!;
    expect(player()).toHaveAttribute('src', 'https://cdn.test/1.mp4');
    expect(player()).toHaveAttribute('controls');
    expect(player()).toHaveAttribute('poster', 'https://cdn.test/1-cover.jpg');
    expect(player()).toHaveAccessibleName('Video 1: Harbour at dawn');
    expect(within(dialog).getByRole('button', { name: 'Next result' })).toBeVisible();
    // (From the player itself, where they would seek, the arrows move too: e2e/keys.spec.ts, as
    // jsdom does not focus a video.)
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Video 2 of 2');
    expect(player()).toHaveAttribute('src', 'https://cdn.test/2.mp4');
    await user.keyboard('{ArrowLeft}');
    expect(dialog).toHaveAccessibleName('Video 1 of 2');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'View larger: Video 1: Harbour at dawn' })).toHaveFocus();
  });
});

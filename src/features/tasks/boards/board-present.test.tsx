// @vitest-environment jsdom
// A board's presentation (`?present`): its finished results in the board's order, one at a time,
// the arrow keys moving, a video playing; the page without `?present` is the board's grid.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BoardScreen } from './board-screen';

const fetchMock = vi.fn<typeof fetch>();
const now = Date.now();

function task(id: string, video: boolean, status = 'SUCCEEDED') {
  return {
    id,
    kind: video ? 'image_to_video' : 'image_generate',
    source: 'created',
    status,
    createdAt: now,
    updatedAt: now,
    prompt: `Prompt of ${id}`,
    creator: 'Ana',
    result: video
      ? { video_url: `https://cdn.example/${id}.mp4`, thumbnail_url: `https://cdn.example/${id}.jpg` }
      : { image_url: `https://cdn.example/${id}.png` },
  };
}

const BOARD = {
  id: 'b-1',
  name: 'Picks',
  description: null,
  coverTaskId: null,
  itemCount: 3,
  createdBy: 'Ana',
  createdById: 'u-ana',
  createdAt: 1,
  updatedAt: 2,
};

function show(search: string) {
  fetchMock.mockImplementation(async (url) => {
    const body = String(url).startsWith('/__console/boards/b-1')
      ? {
          code: 0,
          msg: 'ok',
          data: { board: BOARD, items: [task('t1', false), task('t2', true), task('t3', false, 'FAILED')] },
        }
      : { code: 0, msg: 'ok', data: {} };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  return render(
    <Router hook={memoryLocation({ path: `/boards/b-1${search}` }).hook} searchHook={() => search.slice(1)}>
      <BoardScreen boardId="b-1" />
    </Router>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal(
    'EventSource',
    class {
      close() {}
      addEventListener() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a board presented', () => {
  it('shows its finished results one at a time, the arrows moving, the video playing', async () => {
    show('?present');
    const slide = await screen.findByRole('group', { name: '1 of 2: Prompt of t1' });
    expect(slide.querySelector('img')).toHaveAttribute('src', 'https://cdn.example/t1.png');
    await userEvent.keyboard('{ArrowRight}');
    const video = await screen.findByLabelText('Video: Prompt of t2');
    expect(video).toHaveAttribute('src', 'https://cdn.example/t2.mp4');
    expect(screen.getByRole('region', { name: 'Presentation: Picks' })).toBeInTheDocument();
  });

  it('is the grid without ?present, with Present to open it', async () => {
    show('');
    expect(await screen.findByRole('link', { name: 'Present' })).toHaveAttribute(
      'href',
      '/boards/b-1?present',
    );
    expect(screen.queryByRole('region', { name: 'Presentation: Picks' })).toBeNull();
  });
});

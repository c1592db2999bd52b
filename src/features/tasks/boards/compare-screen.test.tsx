// @vitest-environment jsdom
// Compare: the results side by side, images at one zoom, videos started together from 0 s; a link
// with one id (or five) says what to do instead.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CompareScreen } from './compare-screen';

const fetchMock = vi.fn<typeof fetch>();

function task(id: string, video: boolean) {
  return {
    id,
    kind: video ? 'image_to_video' : 'image_generate',
    source: 'created',
    status: 'SUCCEEDED',
    createdAt: 1,
    updatedAt: 2,
    prompt: `Prompt of ${id}`,
    result: video
      ? { video_url: `https://cdn.example/${id}.mp4`, thumbnail_url: `https://cdn.example/${id}.jpg` }
      : { image_url: `https://cdn.example/${id}.png` },
  };
}

function show(search: string, videos = false) {
  fetchMock.mockImplementation(async (url) => {
    const id = decodeURIComponent(String(url).split('/').pop()!);
    return new Response(
      JSON.stringify({ code: 0, msg: 'ok', data: { task: task(id, videos), events: [] } }),
      {
        headers: { 'content-type': 'application/json' },
      },
    );
  });
  return render(
    <Router hook={memoryLocation({ path: `/compare${search}` }).hook} searchHook={() => search.slice(1)}>
      <CompareScreen />
    </Router>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CompareScreen', () => {
  it('shows the images side by side at one zoom', async () => {
    show('?ids=a,b');
    const figures = await screen.findAllByRole('figure');
    expect(figures).toHaveLength(2);
    const images = await Promise.all(figures.map((figure) => within(figure).findByRole('img')));
    fireEvent.change(screen.getByRole('slider', { name: 'Zoom' }), { target: { value: '250' } });
    for (const image of images) expect(image.style.width).toBe('250%');
    expect(screen.getByText('250%')).toBeTruthy();
  });

  it('starts the videos together, each from 0 s', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    show('?ids=v1,v2,v3', true);
    const videos = await screen.findAllByLabelText(/^Video: /);
    expect(videos).toHaveLength(3);
    for (const video of videos) (video as HTMLVideoElement).currentTime = 4;
    await userEvent.click(screen.getByRole('button', { name: 'Play together' }));
    expect(play).toHaveBeenCalledTimes(3);
    for (const video of videos) expect((video as HTMLVideoElement).currentTime).toBe(0);
  });

  it.each(['?ids=a', '?ids=a,b,c,d,e', ''])('with %j asks for two to four results', (search) => {
    show(search);
    expect(screen.getByRole('alert')).toHaveTextContent('Choose 2 to 4 results to compare');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAfterFirstPaint } from './use-after-first-paint';

function Probe({ already }: { already?: boolean }) {
  return <p>{useAfterFirstPaint(already) ? 'after paint' : 'first paint'}</p>;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useAfterFirstPaint', () => {
  it('is false on the first render, and true only after the frame that paints it', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    render(<Probe />);
    // Effects have run, but no frame: a task alone must not flip it before the paint.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByText('first paint')).toBeInTheDocument();
    expect(frames).toHaveLength(1);
    await act(async () => {
      frames[0]!(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByText('after paint')).toBeInTheDocument();
  });

  it('does not wait for a frame in a hidden tab, which runs none', async () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const frame = vi.spyOn(window, 'requestAnimationFrame');
    render(<Probe />);
    expect(await screen.findByText('after paint')).toBeInTheDocument();
    expect(frame).not.toHaveBeenCalled();
  });

  it('is true from the first render when there is nothing left to wait for (a later visit)', () => {
    const frame = vi.spyOn(window, 'requestAnimationFrame');
    render(<Probe already />);
    expect(screen.getByText('after paint')).toBeInTheDocument();
    expect(frame).not.toHaveBeenCalled();
  });

  it('leaves nothing scheduled when the screen goes before its first frame', async () => {
    const cancel = vi.spyOn(window, 'cancelAnimationFrame');
    vi.spyOn(window, 'requestAnimationFrame').mockReturnValue(42);
    const { unmount } = render(<Probe />);
    unmount();
    expect(cancel).toHaveBeenCalledWith(42);
  });
});

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
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const frames: FrameRequestCallback[] = [];
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
      render(<Probe />);
      // Effects have run and every timer queued so far has fired, but no frame: a task alone must
      // not flip it before the paint.
      act(() => vi.runAllTimers());
      expect(screen.getByText('first paint')).toBeInTheDocument();
      expect(frames).toHaveLength(1);
      // The same timers, once the frame has run, do flip it.
      act(() => {
        frames[0]!(performance.now());
        vi.runAllTimers();
      });
      expect(screen.getByText('after paint')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
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

import { useEffect, useState } from 'react';

/**
 * False on a component's first render, true once the browser has painted it.
 *
 * For code the first paint need not wait for: a chunk requested while the first screen renders is
 * downloading when the page first paints, and Lighthouse's simulated phone counts it as a cost of
 * that paint (on `/` it put the largest paint ~0.4 s later). Requested one frame later, it costs
 * that frame and nothing else. A tab opened in the background paints nothing and runs no animation
 * frames, so there it does not wait.
 */
export function useAfterFirstPaint(
  /** Nothing left to wait for (the code was asked for on an earlier visit): true from the start. */
  already = false,
): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (already) return;
    const done = () => setPainted(true);
    if (document.visibilityState === 'hidden') {
      const timeout = setTimeout(done);
      return () => clearTimeout(timeout);
    }
    // An animation frame runs just before the next paint; a task queued from it runs after.
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timeout = setTimeout(done);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timeout);
    };
  }, [already]);
  return painted || already;
}

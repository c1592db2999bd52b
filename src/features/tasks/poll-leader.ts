// One tab per browser polls. A Web Lock elects it (as for the callback stream); the others get every
// answer through the history store, which tells other tabs about each record it changes. When the
// polling tab closes, its lock is released and the next tab waiting for it takes over at once.
import { useEffect, useState } from 'react';

export const POLL_LOCK = 'media-console:poller';

const locksAvailable = () => typeof navigator !== 'undefined' && Boolean(navigator.locks);

/** Whether this tab is the one that polls; true at once where Web Locks are missing (one tab's worth of polling). */
export function usePollLeadership(): boolean {
  const [leading, setLeading] = useState(() => !locksAvailable());
  useEffect(() => {
    if (!locksAvailable()) return;
    const abort = new AbortController();
    let release: (() => void) | undefined;
    navigator.locks
      .request(
        POLL_LOCK,
        { signal: abort.signal },
        () =>
          new Promise<void>((resolve) => {
            release = resolve;
            setLeading(true);
          }),
      )
      .catch(() => undefined); // aborted while waiting: this tab went away before it had to poll
    return () => {
      abort.abort();
      release?.();
      setLeading(false);
    };
  }, []);
  return leading;
}

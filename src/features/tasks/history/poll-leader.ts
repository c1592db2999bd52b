// One tab per browser polls. A Web Lock elects it (as for the callback stream); the others get every
// answer through the history store, which tells other tabs about each record it changes. When the
// polling tab closes, its lock is released and the next tab waiting for it takes over at once.
//
// The leader must be a tab someone looks at: a hidden tab pauses its polling (unless the user asked
// to be notified), so a hidden leader would leave every visible tab showing stale states. Hence a
// hidden tab steps back (releases or stops waiting) unless it polls in the background for
// notifications, and a tab that comes to the front takes the lock over (`steal`) from such a tab;
// the tab it was taken from waits in line again. A newly opened tab only waits in line.
//
// One election per tab, shared by every polling host mounted in it (the shell's and the detail
// screen's), so two hosts of one tab never compete with each other.
import { useSyncExternalStore } from 'react';
import { notificationsWanted } from '@/features/tasks/polling/poll-settings';

const POLL_LOCK = 'media-console:poller';

const locksAvailable = () => typeof navigator !== 'undefined' && Boolean(navigator.locks);

let leading = !locksAvailable(); // without Web Locks every tab polls (one tab's worth each)
const listeners = new Set<() => void>();
let stopElection: (() => void) | undefined;

function setLeading(next: boolean) {
  if (next === leading) return;
  leading = next;
  listeners.forEach((listener) => listener());
}

interface Claim {
  abort: AbortController;
  release?: () => void;
}

function startElection(): () => void {
  let claim: Claim | undefined;
  const visible = () => document.visibilityState !== 'hidden';
  const takesPart = () => visible() || notificationsWanted();

  const drop = () => {
    claim?.abort.abort();
    claim?.release?.();
    claim = undefined;
    setLeading(false);
  };

  const join = (steal: boolean) => {
    drop();
    const mine: Claim = { abort: new AbortController() };
    claim = mine;
    // `steal` cannot wait and takes no signal: it is granted at once.
    const options: LockOptions = steal ? { steal: true } : { signal: mine.abort.signal };
    navigator.locks
      .request(
        POLL_LOCK,
        options,
        () =>
          new Promise<void>((resolve) => {
            mine.release = resolve;
            if (claim === mine) setLeading(true);
            else resolve();
          }),
      )
      .catch(() => {
        // Aborted (this tab stepped back) or stolen (another tab came to the front).
        if (claim !== mine) return;
        claim = undefined;
        setLeading(false);
        if (takesPart()) join(false); // wait in line again, for when that tab goes
      });
  };

  const onVisibility = () => {
    if (visible()) {
      if (!leading) join(true);
    } else if (!takesPart()) drop();
  };
  const onSettings = () => {
    if (!takesPart()) drop();
    else if (!claim) join(false);
  };

  if (takesPart()) join(false);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('media-console:settings', onSettings);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('media-console:settings', onSettings);
    drop();
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1 && locksAvailable()) stopElection = startElection();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    stopElection?.();
    stopElection = undefined;
  };
}

/** Whether this tab is the one that polls. */
export function usePollLeadership(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => leading,
    () => false,
  );
}

// Mounted once at app level: every callback the inbox stores reaches the task history (and the
// Callbacks screen's list) within a moment, whichever screen is open.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useConsoleInfo } from '@/api/console-info';

export function CallbackSubscriber() {
  const { data } = useConsoleInfo();
  const queryClient = useQueryClient();
  const inboxPath = data?.callbackInboxPath;

  useEffect(() => {
    if (!inboxPath || typeof EventSource === 'undefined') return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('./inbox-live').then(({ startInboxLive }) => {
      if (!cancelled) stop = startInboxLive(inboxPath, queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [inboxPath, queryClient]);

  return null;
}

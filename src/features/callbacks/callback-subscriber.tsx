// Mounted at app level on the Callbacks screen: every callback the inbox stores reaches its list
// within a moment (the tasks they name change through the team's record, like any change).
import { useEffect } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import { CONSOLE_CALLBACKS_PATH } from '@/api/core/rules';

export function CallbackSubscriber() {
  const { data } = useConsoleInfo();
  // Once the console's server has answered (static hosting without it has no inbox).
  const inboxPath = data ? CONSOLE_CALLBACKS_PATH : undefined;

  useEffect(() => {
    if (!inboxPath || typeof EventSource === 'undefined') return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void Promise.all([import('./inbox/inbox-live'), import('@/api/query/query-client')]).then(
      ([{ startInboxLive }, { queryClient }]) => {
        if (!cancelled) stop = startInboxLive(inboxPath, queryClient);
      },
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [inboxPath]);

  return null;
}

// In the shell on every screen: starts the request notifier (./request-finish-notifier.ts, loaded
// only then) while the person is signed in and has asked for notifications (the Tasks screen's
// settings) and the browser allows them. Renders nothing.
import { useEffect, useState } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import { notificationsWanted } from '@/features/tasks/polling/poll-settings';

/** Sent on `window` when the notification setting changes in this tab (other tabs hear `storage`). */
export const NOTIFY_SETTING_EVENT = 'media-console:notify-setting';

function wanted(): boolean {
  return (
    notificationsWanted() &&
    typeof Notification !== 'undefined' &&
    Notification.permission === 'granted' &&
    typeof EventSource !== 'undefined'
  );
}

export function RequestNotifierGate() {
  const me = useConsoleInfo().data?.user?.id;
  const [on, setOn] = useState(wanted);
  useEffect(() => {
    const check = () => setOn(wanted());
    window.addEventListener(NOTIFY_SETTING_EVENT, check);
    window.addEventListener('storage', check);
    window.addEventListener('focus', check);
    return () => {
      window.removeEventListener(NOTIFY_SETTING_EVENT, check);
      window.removeEventListener('storage', check);
      window.removeEventListener('focus', check);
    };
  }, []);
  useEffect(() => {
    if (!on || !me) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('./request-finish-notifier').then(({ startRequestFinishNotifier }) => {
      if (!cancelled) stop = startRequestFinishNotifier(me);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [on, me]);
  return null;
}

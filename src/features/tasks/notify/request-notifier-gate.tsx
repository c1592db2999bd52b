// Loaded by the shell once notifications are wanted (./notify-wanted.ts): runs the request notifier
// (./request-finish-notifier.ts) while the person is signed in and the browser allows notifications
// and has event streams. Renders nothing.
import { useEffect } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import { startRequestFinishNotifier } from './request-finish-notifier';

const allowed = () =>
  typeof Notification !== 'undefined' &&
  Notification.permission === 'granted' &&
  typeof EventSource !== 'undefined';

export function RequestNotifierGate() {
  const me = useConsoleInfo().data?.user?.id;
  useEffect(() => (me && allowed() ? startRequestFinishNotifier(me) : undefined), [me]);
  return null;
}

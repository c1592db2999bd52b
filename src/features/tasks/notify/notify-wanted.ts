// Whether the person asked for notifications, read without loading the history's code: the setting
// lives with it (src/features/tasks/history/notify-settings.ts, saved by the Tasks screen's
// settings), which the shell must not pull in on the first screen. The key is the same one (notify-wanted.test.ts checks the two agree). In every
// route's JS, so kept to the least: whether the browser allows notifications is the notifier's
// question (./request-notifier-gate.tsx), once loaded.
import { useEffect, useState } from 'react';

export const requestNotificationsWanted = () => localStorage.getItem('media-console:notify-finished') === '1';

/**
 * The above, read again when the setting changes in another tab (`storage`), or in this one: the
 * Tasks screen's settings send a `storage` event on `window` too.
 */
export function useRequestNotificationsWanted(): boolean {
  const [wanted, setWanted] = useState(requestNotificationsWanted);
  useEffect(() => {
    const check = () => setWanted(requestNotificationsWanted());
    addEventListener('storage', check);
    return () => removeEventListener('storage', check);
  }, []);
  return wanted;
}

// Whether this browser tells its person when a task finishes, kept in localStorage (per browser).
const NOTIFY_KEY = 'media-console:notify-finished';

const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function notificationsWanted(): boolean {
  return storage()?.getItem(NOTIFY_KEY) === '1';
}

export function saveNotificationsWanted(on: boolean) {
  if (on) storage()?.setItem(NOTIFY_KEY, '1');
  else storage()?.removeItem(NOTIFY_KEY);
}

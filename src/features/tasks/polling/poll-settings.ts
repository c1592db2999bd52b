// User settings of the poller, kept in localStorage (they are per browser, not per task).
const CONCURRENCY_KEY = 'media-console:poll-concurrency';
const NOTIFY_KEY = 'media-console:notify-finished';

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;

const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function storedConcurrency(): number {
  const value = Number(storage()?.getItem(CONCURRENCY_KEY));
  return Number.isInteger(value) && value >= 1 && value <= MAX_CONCURRENCY ? value : DEFAULT_CONCURRENCY;
}

export function saveConcurrency(value: number) {
  storage()?.setItem(CONCURRENCY_KEY, String(value));
}

export function notificationsWanted(): boolean {
  return storage()?.getItem(NOTIFY_KEY) === '1';
}

export function saveNotificationsWanted(on: boolean) {
  if (on) storage()?.setItem(NOTIFY_KEY, '1');
  else storage()?.removeItem(NOTIFY_KEY);
}
